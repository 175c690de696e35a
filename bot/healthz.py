"""``python -m bot.healthz``: the container's health check. Does the running bot answer ``/healthz``, healthy?

It asks the bot's own HTTP server (``METRICS_PORT`` on this machine) and waits at most ``TIMEOUT_S``. The bot
answers on its event loop, so a frozen bot doesn't answer at all and fails here, as does one whose loop lags,
whose Gateway has been down too long or whose database doesn't answer (``bot.status``). Exit 0 and silent
when healthy; otherwise 1 and one line saying why, which ``docker inspect`` shows.

Run every 30 s beside the bot, so it imports nothing but the standard library (the bot's settings would cost a
second of CPU each time): ``METRICS_PORT`` is read from the environment, as the container sets it.
``python -m bot.health`` is the other check: the database file itself, with the bot stopped or running.
"""

from __future__ import annotations

import http.client
import json
import os
import sys
import urllib.error
import urllib.request

TIMEOUT_S = 8.0
"""Longer than any one check may take (``bot.status.CHECK_TIMEOUT_S``), shorter than Docker's timeout."""


def probe(port: int, host: str = "127.0.0.1", timeout: float = TIMEOUT_S) -> str | None:
    """None if the bot at ``host``:``port`` answers ``/healthz`` healthy within ``timeout``; otherwise why not."""
    url = f"http://{host}:{port}/healthz"
    late = f"{url} did not answer within {timeout:g} s (is the bot's event loop stuck?)"
    try:
        with urllib.request.urlopen(url, timeout=timeout) as answer:
            answer.read()
            return None
    except urllib.error.HTTPError as exc:
        return _failed_checks(exc.read())
    except TimeoutError:
        return late
    except urllib.error.URLError as exc:
        if isinstance(exc.reason, TimeoutError):
            return late
        return f"nothing answers at {url} ({exc.reason}); is the bot running with METRICS_PORT={port}?"
    except (OSError, http.client.HTTPException) as exc:
        return f"{url} answered wrongly ({type(exc).__name__}: {exc})"


def _failed_checks(body: bytes) -> str:
    """The checks that failed, with their figures, on one line."""
    try:
        checks = json.loads(body)["checks"]
    except (ValueError, KeyError, TypeError):
        return "the bot says it is unhealthy"
    failed = []
    for name, check in checks.items():
        if not check.get("ok"):
            figures = ", ".join(f"{key} {value}" for key, value in check.items() if key != "ok")
            failed.append(f"{name} ({figures})" if figures else name)
    return "failing: " + "; ".join(failed)


def main() -> int:
    """Print nothing and return 0 when healthy; print one line and return 1 when not."""
    port = os.environ.get("METRICS_PORT", "").strip()
    if not port.isdigit() or int(port) == 0:
        problem: str | None = "METRICS_PORT is not set to a port: the bot serves /healthz there"
    else:
        problem = probe(int(port))
    if problem is None:
        return 0
    print(f"Unhealthy: {problem}", file=sys.stderr)
    return 1


if __name__ == "__main__":
    sys.exit(main())
