"""Settings from the environment or a ``.env`` file."""

from __future__ import annotations

from pathlib import Path

from pydantic import Field, SecretStr
from pydantic_settings import BaseSettings, SettingsConfigDict


class Settings(BaseSettings):
    """Everything the bot reads from its environment. Only ``DISCORD_TOKEN`` is required."""

    model_config = SettingsConfigDict(env_file=".env", env_file_encoding="utf-8", extra="ignore")

    discord_token: SecretStr = Field(description="Bot token from the Discord developer portal.")
    database_path: Path = Field(Path("var/bot.sqlite3"), description="SQLite file; created if missing.")
    dev_guild_id: int | None = Field(None, description="Sync commands to this guild only (instant).")
    skip_sync: bool = Field(False, description="Do not sync the command tree at startup.")
    log_level: str = Field("INFO", description="Python logging level.")
    computer_delay: float = Field(1.5, description="Seconds a computer player waits before moving.")
    extensions: str | None = Field(
        None, description="Comma-separated extension modules to load instead of the default cogs."
    )
    discord_api_base: str | None = Field(
        None, description="Testing only: base URL of a local fake Discord (HTTP API and Gateway)."
    )
