# Tabletop games bot: slim Python, non-root, database on a volume.
# The tag is pinned to the exact Python the project is tested with (add an @sha256 digest for byte-for-byte builds).
FROM python:3.11.7-slim-bookworm AS base

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1


# Stage 1: the project as a wheel. Only this stage sees the source tree.
FROM base AS wheel
WORKDIR /src
COPY pyproject.toml README.md ./
COPY bot ./bot
COPY cogs ./cogs
COPY rules ./rules
COPY data ./data
RUN pip wheel --no-deps --wheel-dir /wheels .


# Stage 2: what runs.
FROM base

# Pillow's wheel brings HarfBuzz and Raqm for text layout but loads FriBiDi from the system: without it the
# scoresheet picture can't join Arabic letters nor order right-to-left names. The fonts ship in the package.
RUN apt-get update \
    && apt-get install -y --no-install-recommends libfribidi0 \
    && rm -rf /var/lib/apt/lists/*

# Dependencies in their own layer, read from pyproject.toml alone: a code change doesn't reinstall them.
COPY pyproject.toml /tmp/pyproject.toml
RUN python -c "import tomllib; print('\n'.join(tomllib.load(open('/tmp/pyproject.toml', 'rb'))['project']['dependencies']))" \
        > /tmp/requirements.txt \
    && pip install -r /tmp/requirements.txt \
    && rm /tmp/pyproject.toml /tmp/requirements.txt

# The code, installed once into site-packages. No source tree is left in the working folder, so
# `python -m bot` can only run the installed package (it puts the working folder on sys.path).
COPY --from=wheel /wheels /tmp/wheels
RUN pip install --no-deps /tmp/wheels/*.whl \
    && rm -rf /tmp/wheels \
    && useradd --create-home --uid 10001 botuser \
    && mkdir -p /data \
    && chown botuser:botuser /data

ENV DATABASE_PATH=/data/bot.sqlite3 \
    METRICS_PORT=8080
WORKDIR /home/botuser
USER botuser
VOLUME ["/data"]
# The bot connects out to Discord; the one port it listens on serves /metrics (Prometheus) and /healthz.
EXPOSE 8080
# Asks the running bot's /healthz, which its own event loop answers: unhealthy when the loop is stuck (no answer
# within the probe's 8 s), lags, has lost the Gateway for over a minute, or its database doesn't answer. The first
# start may take a while (migrations, connecting).
HEALTHCHECK --interval=30s --timeout=10s --start-period=60s --retries=3 CMD ["python", "-m", "bot.healthz"]
CMD ["python", "-m", "bot"]
