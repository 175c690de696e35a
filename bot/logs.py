"""Logging set-up that never prints a token or a secret, at any level.

An interaction token lets anyone answer, edit or delete the bot's replies for 15 minutes, and
discord.py's debug lines carry them: in webhook URLs (``/interactions/<id>/<token>/callback``,
``/webhooks/<app_id>/<token>/…``) and in the Gateway payloads it dumps (``'token': '…'``).

Secrets are in payloads: what a member typed (a GM's rival, a secret roll's label) arrives in a Gateway event, what
the bot tells one member alone (a secret roll's result) leaves in a request's body, and a secret roll's salt and
result are parameters of the statement that stores them. So no line shows a payload: the database driver's
statements are not logged (aiosqlite logs each with its parameters at DEBUG; asyncpg logs none), and discord.py's
debug lines keep the method, route, status and event name but say only how long a body was.
"""

from __future__ import annotations

import logging
import re
from typing import Any

REDACTED = "[redacted]"
# The id stays visible (it helps to follow one interaction through the log); the token after it goes.
_TOKEN_IN_URL = re.compile(r"(/(?:interactions|webhooks)/\d+/)[^/?#\s'\"]+")
# A dict repr or JSON field named like a token: 'token': '…', "access_token":"…".
_TOKEN_FIELD = re.compile(r"""(['"]\w*token['"]\s*:\s*['"])[^'"]+""", re.IGNORECASE)


def redact(text: str, secrets: tuple[str, ...] = ()) -> str:
    """``text`` with every secret, token-bearing URL segment and token field replaced by ``[redacted]``."""
    for secret in secrets:
        text = text.replace(secret, REDACTED)
    text = _TOKEN_IN_URL.sub(rf"\1{REDACTED}", text)
    return _TOKEN_FIELD.sub(rf"\1{REDACTED}", text)


class RedactingFormatter(logging.Formatter):
    """A formatter that redacts the whole formatted record, traceback included, not just the message."""

    def __init__(self, fmt: str, *secrets: str) -> None:
        super().__init__(fmt)
        self.secrets = tuple(s for s in secrets if s)

    def format(self, record: logging.LogRecord) -> str:
        """Format as usual, then redact."""
        return redact(super().format(record), self.secrets)


STATEMENT_LOGGERS = ("aiosqlite",)
"""Database drivers that log statements with their parameters (at DEBUG): kept at INFO and above."""
PAYLOAD_LOGGERS = ("discord.http", "discord.gateway", "discord.webhook")
"""discord.py's loggers whose debug lines dump the bodies of requests, answers and Gateway events."""


def _summary(value: Any) -> Any:
    """A payload in a log line: a Gateway event by its opcode, name and sequence; anything else by its size."""
    if isinstance(value, dict) and "op" in value:
        return {key: value[key] for key in ("op", "t", "s") if key in value}
    if isinstance(value, dict | list | bytes):
        return f"<{type(value).__name__} of {len(value)}>"
    if isinstance(value, str) and value[:1] in ("{", "["):
        return f"<{len(value)} characters>"
    if value is None or isinstance(value, str | int | float):
        return value
    return f"<{type(value).__name__}>"  # a multipart form, or anything else that may hold a message


class WithoutPayloads(logging.Filter):
    """Replaces the payloads in discord.py's debug lines by their size (``PAYLOAD_LOGGERS``)."""

    def filter(self, record: logging.LogRecord) -> bool:
        """Keep the record, its payload arguments summarised."""
        if record.name.startswith(PAYLOAD_LOGGERS) and isinstance(record.args, tuple):
            record.args = tuple(_summary(arg) for arg in record.args)
        return True


def setup_logging(level: str, *secrets: str) -> None:
    """Log to stderr at ``level``; every line, ours and discord.py's, has secrets and interaction tokens redacted,
    and none shows a payload (a secret may be in one)."""
    handler = logging.StreamHandler()
    handler.setFormatter(RedactingFormatter("%(asctime)s %(levelname)-7s %(name)s: %(message)s", *secrets))
    handler.addFilter(WithoutPayloads())
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(level.upper())
    for name in STATEMENT_LOGGERS:
        logging.getLogger(name).setLevel(max(logging.INFO, root.level))
