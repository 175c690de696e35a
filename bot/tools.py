"""What the command-line tools around the bot's database share (``python -m bot.backup``, ``bot.restore``): the
settings read as the bot reads them, one line on success or on failure, a traceback only at ``LOG_LEVEL=DEBUG``."""

from __future__ import annotations

import logging
import sys
import traceback
from collections.abc import Callable

from pydantic import ValidationError

from bot.__main__ import EXIT_SETUP, EXIT_UNEXPECTED
from bot.settings import Settings, config_problem, env_file_problem


class ToolFailed(Exception):
    """The tool can't do what was asked: ``line`` says why and what to do."""

    def __init__(self, line: str, status: int = EXIT_SETUP) -> None:
        super().__init__(line)
        self.line = line
        self.status = status


def read_settings() -> Settings:
    """The bot's settings (environment and ``.env``), but for the token, which a tool doesn't need."""
    try:
        return Settings(discord_token="unused")
    except ValidationError as exc:
        raise ToolFailed(config_problem(exc)) from None
    except UnicodeDecodeError as exc:
        raise ToolFailed(env_file_problem(exc)) from None


def run(body: Callable[[], str], failing: str) -> int:
    """Run ``body`` and print the line it returns: 0. A ToolFailed prints its own line on stderr and returns its
    status; anything else is ``failing`` with the error's name (and the traceback at ``LOG_LEVEL=DEBUG``): 1."""
    debug = _debug()
    # Quiet below errors: the tools load the games' extensions, and discord.py warns of voice support then.
    logging.basicConfig(level=logging.DEBUG if debug else logging.ERROR, format="%(levelname)s %(name)s: %(message)s")
    try:
        print(body())
    except ToolFailed as exc:
        return _fail(exc.line, exc.status)
    except Exception as exc:
        if debug:
            traceback.print_exc()
        return _fail(f"{failing} unexpectedly: {type(exc).__name__}: {exc} (LOG_LEVEL=DEBUG shows where).")
    return 0


def _debug() -> bool:
    try:
        return read_settings().log_level == "DEBUG"
    except ToolFailed:
        return False


def _fail(line: str, status: int = EXIT_UNEXPECTED) -> int:
    print(" ".join(line.split()), file=sys.stderr)  # one line, even when it quotes a multi-line error
    return status
