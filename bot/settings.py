"""Settings from the environment or a ``.env`` file, and the one-line explanation when they are wrong."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Annotated

from pydantic import Field, SecretStr, ValidationError, field_validator, model_validator
from pydantic_settings import BaseSettings, NoDecode, SettingsConfigDict

from bot.shards import ALL, Shards
from bot.storage import is_postgres_url

ENV_FILE = ".env"
LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR")
# A value is echoed back so the user sees what was read; a pasted paragraph need not be echoed whole.
_SHOWN_CHARS = 40


class Settings(BaseSettings):
    """Everything the bot reads from its environment. Only ``DISCORD_TOKEN`` is required."""

    model_config = SettingsConfigDict(env_file=ENV_FILE, env_file_encoding="utf-8", extra="ignore")

    discord_token: SecretStr = Field(description="Bot token from the Discord developer portal.")
    database_path: Path = Field(Path("var/bot.sqlite3"), description="SQLite file; created if missing.")
    database_url: str | None = Field(
        None, description="postgresql://user:password@host:5432/name: use PostgreSQL instead of the SQLite file."
    )
    database_pool_size: int = Field(10, ge=1, le=1000, description="PostgreSQL connections per process.")
    database_synchronous_commit: bool = Field(
        False, description="PostgreSQL: wait for each commit to reach the disk (safer against server crashes, slower)."
    )
    shard_count: int | None = Field(
        None, ge=1, description="Shards of the whole bot (several processes); unset: one process, one shard."
    )
    shard_ids: Annotated[tuple[int, ...] | None, NoDecode] = Field(
        None,
        description="Comma-separated shards this process runs. Unset: all of SHARD_COUNT, or on PostgreSQL "
        "the processes share them through leases.",
    )
    shard_lease_seconds: float = Field(
        10.0,
        ge=1.0,
        le=300.0,
        description="Shards shared through leases: how long a process's shards stay its without a heartbeat (a "
        "killed process's are taken over after about this).",
    )
    metrics_port: int | None = Field(
        None,
        ge=0,
        le=65535,
        description="Serve Prometheus metrics (/metrics) and the health check (/healthz) on this port (0: any free).",
    )
    dev_guild_id: int | None = Field(None, description="Sync commands to this guild only (instant).")
    skip_sync: bool = Field(False, description="Do not sync the command tree at startup.")
    force_language: str | None = Field(
        None, description="Speak this language (en, es, pt_BR, de, or pseudo for tests) to everyone and everywhere."
    )
    log_level: str = Field("INFO", description="DEBUG, INFO, WARNING or ERROR.")
    computer_delay: float = Field(1.5, description="Seconds a computer player pauses before each of its turns.")
    extensions: str | None = Field(
        None, description="Comma-separated extension modules to load instead of the default cogs."
    )
    discord_api_base: str | None = Field(
        None, description="Testing only: base URL of a local fake Discord (HTTP API and Gateway)."
    )

    @field_validator("database_url")
    @classmethod
    def _postgres_url(cls, value: str | None) -> str | None:
        if value is None or not value.strip():
            return None
        if not is_postgres_url(value.strip()):
            raise ValueError("use postgresql://user:password@host:5432/database, or leave it unset for SQLite")
        return value.strip()

    @field_validator("metrics_port", mode="before")
    @classmethod
    def _unset_when_empty(cls, value: object) -> object:
        # METRICS_PORT= (empty, as a compose file or .env may leave it) means off, as if it were not there.
        return None if isinstance(value, str) and not value.strip() else value

    @field_validator("shard_ids", mode="before")
    @classmethod
    def _comma_separated(cls, value: object) -> object:
        if isinstance(value, str):
            parts = [p.strip() for p in value.split(",") if p.strip()]
            if not all(p.isdigit() for p in parts):
                raise ValueError("use shard numbers separated by commas, e.g. 0,1")
            return tuple(int(p) for p in parts) or None
        return value

    @model_validator(mode="after")
    def _shards_fit(self) -> Settings:
        if self.shard_ids is not None and self.shard_count is None:
            raise ValueError("SHARD_IDS needs SHARD_COUNT")
        if (
            self.shard_ids is not None
            and self.shard_count is not None
            and not set(self.shard_ids) <= set(range(self.shard_count))
        ):
            raise ValueError(f"SHARD_IDS must be between 0 and {self.shard_count - 1} (SHARD_COUNT {self.shard_count})")
        return self

    @property
    def leased_shards(self) -> bool:
        """Several processes share the shards through leases in the database: ``SHARD_COUNT`` without ``SHARD_IDS``,
        on PostgreSQL (one SQLite file is one process's: it runs every shard)."""
        return self.shard_count is not None and self.shard_ids is None and self.database_url is not None

    @property
    def shards(self) -> Shards:
        """The shards this process runs (all of them, for leased shards: see ``leased_shards``)."""
        if self.shard_count is None:
            return ALL
        return Shards(self.shard_count, self.shard_ids or tuple(range(self.shard_count)))

    @field_validator("log_level")
    @classmethod
    def _known_level(cls, value: str) -> str:
        level = value.strip().upper()
        if level not in LOG_LEVELS:
            raise ValueError(f"use {', '.join(LOG_LEVELS[:-1])} or {LOG_LEVELS[-1]}")
        return level


QUOTES = "\"'“”‘’"
TOKEN_PREFIX = "bot "


def token_problem(token: str) -> str | None:
    """A hint for a token pasted with something around it (``Bot xyz…``, quotes, a space), else None.

    A Discord token is one word of letters, digits, ``.``, ``-`` and ``_``; what is checked here never is, so
    the hint is given before Discord is asked (which would only say the token is wrong)."""
    token = token.strip()
    wrapped: list[str] = []
    if token[:1] in QUOTES or token[-1:] in QUOTES:
        wrapped.append("quotes")
        token = token.strip(QUOTES).strip()
    if token.lower().startswith(TOKEN_PREFIX):
        wrapped.append('"Bot " in front')
        token = token[len(TOKEN_PREFIX) :].strip()
    if wrapped:
        what = " and ".join(wrapped)
        return f"Configuration error: DISCORD_TOKEN has {what}; set the token alone (Discord's own prefix is added)."
    if not token:
        return "Configuration error: DISCORD_TOKEN is empty."
    if any(c.isspace() for c in token):
        return "Configuration error: DISCORD_TOKEN has a space in it; copy the token again, as one word."
    return None


def config_problem(exc: ValidationError) -> str:
    """One line for everything wrong in the settings: what to set, and which values are invalid and why."""
    missing: list[str] = []
    invalid: list[str] = []
    for error in exc.errors():
        if not error["loc"]:  # a check of several settings together: its message names them
            invalid.append(str(error["ctx"]["error"]))
            continue
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
