"""Settings from the environment or a ``.env`` file, and the one-line explanation when they are wrong."""

from __future__ import annotations

import re
from pathlib import Path

from pydantic import Field, SecretStr, ValidationError, field_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

ENV_FILE = ".env"
LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR")
# A value is echoed back so the user sees what was read; a pasted paragraph need not be echoed whole.
_SHOWN_CHARS = 40


class Settings(BaseSettings):
    """Everything the bot reads from its environment. Only ``DISCORD_TOKEN`` is required."""

    model_config = SettingsConfigDict(env_file=ENV_FILE, env_file_encoding="utf-8", extra="ignore")

    discord_token: SecretStr = Field(description="Bot token from the Discord developer portal.")
    database_path: Path = Field(Path("var/bot.sqlite3"), description="SQLite file; created if missing.")
    dev_guild_id: int | None = Field(None, description="Sync commands to this guild only (instant).")
    skip_sync: bool = Field(False, description="Do not sync the command tree at startup.")
    log_level: str = Field("INFO", description="DEBUG, INFO, WARNING or ERROR.")
    computer_delay: float = Field(1.5, description="Seconds a computer player waits before moving.")
    extensions: str | None = Field(
        None, description="Comma-separated extension modules to load instead of the default cogs."
    )
    discord_api_base: str | None = Field(
        None, description="Testing only: base URL of a local fake Discord (HTTP API and Gateway)."
    )

    @field_validator("log_level")
    @classmethod
    def _known_level(cls, value: str) -> str:
        level = value.strip().upper()
        if level not in LOG_LEVELS:
            raise ValueError(f"use {', '.join(LOG_LEVELS[:-1])} or {LOG_LEVELS[-1]}")
        return level


def config_problem(exc: ValidationError) -> str:
    """One line for everything wrong in the settings: what to set, and which values are invalid and why."""
    missing: list[str] = []
    invalid: list[str] = []
    for error in exc.errors():
        name = str(error["loc"][0]).upper()
        if error["type"] == "missing":
            missing.append(name)
            continue
        if error["type"] == "value_error":
            reason = str(error["ctx"]["error"])  # our own validator's words
        else:
            # pydantic's "Input should be a valid number, unable to parse string as a number": the first half says it.
            reason = re.sub(r", unable to .*", "", error["msg"])
            reason = reason[:1].lower() + reason[1:]
        invalid.append(f"{name}: invalid value {_shown(error['input'])} ({reason})")
    parts = ([f"set {', '.join(missing)} (environment or {ENV_FILE})"] if missing else []) + invalid
    return f"Configuration error: {'; '.join(parts)}."


def env_file_problem(exc: UnicodeDecodeError) -> str:
    """One line for a ``.env`` file that is not UTF-8 text: where it is and which line to fix."""
    line = exc.object[: exc.start].count(b"\n") + 1
    return f"Configuration error: {Path(ENV_FILE).resolve()} is not UTF-8 text (line {line}); save it as UTF-8."


def _shown(value: object) -> str:
    text = repr(value)
    return text if len(text) <= _SHOWN_CHARS else text[: _SHOWN_CHARS - 1] + "…"
