"""Logging set-up that never prints the bot token or an interaction's token.

An interaction token lets anyone answer, edit or delete the bot's replies for 15 minutes, and
discord.py's debug lines carry them: in webhook URLs (``/interactions/<id>/<token>/callback``,
``/webhooks/<app_id>/<token>/…``) and in the Gateway payloads it dumps (``'token': '…'``).
"""

from __future__ import annotations

import logging
import re

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


def setup_logging(level: str, *secrets: str) -> None:
    """Log to stderr at ``level``; every line, ours and discord.py's, has secrets and interaction tokens redacted."""
    handler = logging.StreamHandler()
    handler.setFormatter(RedactingFormatter("%(asctime)s %(levelname)-7s %(name)s: %(message)s", *secrets))
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(level.upper())
