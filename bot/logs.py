"""Logging set-up that can never print the bot token."""

from __future__ import annotations

import logging


class RedactFilter(logging.Filter):
    """Replaces every occurrence of the given secrets in a log record with ``[redacted]``."""

    def __init__(self, *secrets: str) -> None:
        super().__init__()
        self.secrets = [s for s in secrets if s]

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        if any(s in message for s in self.secrets):
            for s in self.secrets:
                message = message.replace(s, "[redacted]")
            record.msg, record.args = message, None
        return True


def setup_logging(level: str, *secrets: str) -> None:
    """Log to stderr at ``level``; redact ``secrets`` from every record, ours and discord.py's."""
    handler = logging.StreamHandler()
    handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)-7s %(name)s: %(message)s"))
    handler.addFilter(RedactFilter(*secrets))
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(level.upper())
