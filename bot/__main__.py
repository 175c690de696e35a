"""``python -m bot``: read settings, set up logging, run until stopped."""

from __future__ import annotations

import asyncio
import logging
import signal
import sys

import discord
from pydantic import ValidationError

from bot.app import EXTENSIONS, TabletopBot
from bot.endpoint import use_api_base
from bot.logs import setup_logging
from bot.settings import Settings

log = logging.getLogger("bot")


async def run(settings: Settings) -> int:
    """Run the bot until SIGTERM/SIGINT or a fatal login error; return the exit status."""
    extensions = tuple(e.strip() for e in settings.extensions.split(",") if e.strip()) if settings.extensions else None
    bot = TabletopBot(settings, extensions=extensions or EXTENSIONS)
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, lambda: asyncio.ensure_future(bot.close()))
    try:
        async with bot:
            await bot.start(settings.discord_token.get_secret_value())
    except discord.LoginFailure:
        log.error("Discord rejected the token: check DISCORD_TOKEN.")
        return 2
    except discord.PrivilegedIntentsRequired:
        log.error("Discord refused the connection for disallowed intents (4014); this bot needs none.")
        return 2
    log.info("Stopped cleanly.")
    return 0


def main() -> int:
    """Entry point: exit with one clear line on a configuration problem, never a traceback."""
    try:
        settings = Settings()  # filled from the environment
    except ValidationError as exc:
        missing = ", ".join(str(e["loc"][0]).upper() for e in exc.errors())
        print(f"Configuration error: set {missing} (environment or .env).", file=sys.stderr)
        return 2
    token = settings.discord_token.get_secret_value()
    if not token.strip():
        print("Configuration error: DISCORD_TOKEN is empty.", file=sys.stderr)
        return 2
    setup_logging(settings.log_level, token)
    use_api_base(settings.discord_api_base)
    return asyncio.run(run(settings))


if __name__ == "__main__":
    sys.exit(main())
