# Tabletop games bot: slim Python, non-root, database on a volume.
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    DATABASE_PATH=/data/bot.sqlite3 \
    PYTHONPATH=/app

WORKDIR /app
COPY pyproject.toml README.md ./
COPY bot ./bot
COPY cogs ./cogs
COPY rules ./rules
COPY data ./data
# Installs the dependencies (and a copy of the code; /app on PYTHONPATH wins, with data/ beside it).
RUN pip install . \
    && useradd --create-home --uid 10001 botuser \
    && mkdir -p /data \
    && chown botuser:botuser /data

USER botuser
VOLUME ["/data"]
# The bot needs no inbound port: it connects out to Discord's Gateway.
CMD ["python", "-m", "bot"]
