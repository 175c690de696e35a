"""Opt-in redirection of discord.py to a local fake Discord, for tests and benchmarks."""

from __future__ import annotations

import discord.gateway
import discord.http
import yarl


def use_api_base(base: str | None) -> None:
    """Point discord.py's HTTP routes and Gateway at ``base`` (``http://127.0.0.1:PORT``).

    Does nothing when ``base`` is empty, so production always talks to discord.com.
    """
    if not base:
        return
    base = base.rstrip("/")
    discord.http.Route.BASE = f"{base}/api/v10"
    ws = base.replace("http://", "ws://", 1).replace("https://", "wss://", 1)
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(f"{ws}/gateway")
