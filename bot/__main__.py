"""``python -m bot``: read settings, set up logging, open the database, run until stopped.

Every way startup can fail ends with one line saying what is wrong and what to do, and a non-zero exit;
the traceback is only shown with ``LOG_LEVEL=DEBUG``.
"""

from __future__ import annotations

import asyncio
import logging
import signal
import sys

import aiohttp
import discord
from pydantic import ValidationError

from bot.app import extensions_of
from bot.endpoint import use_api_base
from bot.logs import setup_logging
from bot.settings import Settings, config_problem, env_file_problem, token_problem
from bot.sharding import build_bot
from bot.status import PortUnavailable
from bot.storage.base import StorageError

log = logging.getLogger("bot")

# 2: the set-up needs fixing (settings, token, database, network); 1: anything we did not foresee.
EXIT_SETUP = 2
EXIT_UNEXPECTED = 1
DISCORD_HOME = "https://discord.com"
SHARDING_CLOSES = {
    4010: "invalid shard (4010); SHARD_COUNT must be the number Discord asks for (a multiple of it, for a large bot)",
    4011: "sharding required (4011), the bot is in too many servers for one shard; set SHARD_COUNT (docs/scaling.md)",
}
"""Gateway close codes that say the sharding settings are wrong, and what to do about them."""


async def run(settings: Settings) -> int:
    """Open the database, then run the bot until SIGTERM/SIGINT or a fatal error; return the exit status."""
    bot = build_bot(settings, extensions=extensions_of(settings))
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, lambda: asyncio.ensure_future(bot.close()))
    try:
        async with bot:
            # Before logging in: a database the bot can't use should stop it before it shows up online.
            await bot.open_storage()
            await bot.start(settings.discord_token.get_secret_value())
    except (StorageError, PortUnavailable) as exc:
        return _fatal(str(exc), exc)
    except discord.LoginFailure as exc:
        advice = "copy it again from the developer portal (Bot → Reset Token) into DISCORD_TOKEN"
        return _fatal(f"Discord rejected the token: {advice}.", exc)
    except discord.PrivilegedIntentsRequired as exc:
        return _fatal("Discord refused the connection for disallowed intents (4014); this bot needs none.", exc)
    except discord.ConnectionClosed as exc:
        if exc.code in SHARDING_CLOSES:
            return _fatal(f"Discord closed the connection: {SHARDING_CLOSES[exc.code]}.", exc)
        return _unexpected(exc)
    except aiohttp.ClientConnectorError as exc:
        # discord.py retries a dropped Gateway forever, but the first login is a plain request: it fails once.
        where = settings.discord_api_base or DISCORD_HOME
        return _fatal(f"Can't reach Discord at {where}: check the network.", exc)
    except Exception as exc:
        return _unexpected(exc)
    log.info("Stopped cleanly.")
    return 0


def _unexpected(exc: Exception) -> int:
    message = f"Stopped by an unexpected error: {type(exc).__name__}: {exc} (LOG_LEVEL=DEBUG shows where)."
    return _fatal(message, exc, status=EXIT_UNEXPECTED)


def _fatal(message: str, exc: BaseException, *, status: int = EXIT_SETUP) -> int:
    """Log the traceback at DEBUG and then ``message`` as the one last ERROR line; return ``status``."""
    log.debug("What went wrong, in detail:", exc_info=exc)
    log.error(" ".join(message.split()))  # one line, even when it quotes a multi-line error
    return status


def main() -> int:
    """Entry point: a configuration problem ends with one line on stderr, before anything else starts."""
    try:
        settings = Settings()  # filled from the environment
    except ValidationError as exc:
        return _config_error(config_problem(exc))
    except UnicodeDecodeError as exc:
        return _config_error(env_file_problem(exc))
    token = settings.discord_token.get_secret_value()
    problem = token_problem(token)
    if problem is not None:
        return _config_error(problem)
    setup_logging(settings.log_level, token)
    use_api_base(settings.discord_api_base)
    return asyncio.run(run(settings))


def _config_error(line: str) -> int:
    # Logging is not set up yet (its level is one of the settings), so this goes straight to stderr.
    print(line, file=sys.stderr)
    return EXIT_SETUP


if __name__ == "__main__":
    sys.exit(main())
