"""``/settings``: a server's defaults, each declared once — its option, what it means, where it is stored and how it
reads — and the command built from the declarations once every game has added its own (Red's ``register_guild``
is the model).

The core declares its settings in ``CORE``; a game's cog adds a ``ServerSetting`` of its own with
``TabletopBot.add_setting`` when it loads, stored under its name in ``GuildSettings.games`` and read back with
``GuildSettings.game``. The command takes every setting as an optional typed option (Discord checks ranges and
choices; the bot checks them again, ``bot.command_input``), saves the ones given, and shows them all.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import discord
from discord import app_commands

from bot.errors import NotPermitted
from bot.i18n import LANGUAGES, _, _n, localize
from bot.lobby import actor_of
from bot.models import GuildSettings
from bot.permissions import END_RULES
from bot.replies import Reply
from bot.storage import Store

MAX_OPTIONS = 25
"""A command's options, at most (Discord)."""


@dataclass(frozen=True)
class ServerSetting:
    """One ``/settings`` option, declared once."""

    name: str
    """The option's name (lowercase, ``_`` between words)."""
    description: str
    """What it means, in Discord's 100 characters."""
    annotation: Any
    """The option's type as discord.py reads it: ``bool``, ``app_commands.Range[int, 1, 60]``, ``str`` (choices)."""
    read: Callable[[GuildSettings], Any]
    """The current value, in the option's units."""
    write: Callable[[GuildSettings, Any], GuildSettings]
    """The settings with the value given."""
    line: Callable[[GuildSettings], str]
    """One line saying the current value."""
    choices: tuple[tuple[str, Any], ...] = ()
    """(label, value) pairs, for a setting with a fixed set of values."""


def game_setting(
    name: str,
    description: str,
    annotation: Any,
    default: Any,
    line: Callable[[Any], str],
    choices: tuple[tuple[str, Any], ...] = (),
) -> ServerSetting:
    """A game's own setting, stored under ``name`` in ``GuildSettings.games`` (``default`` until set)."""
    return ServerSetting(
        name,
        description,
        annotation,
        read=lambda s: s.game(name, default),
        write=lambda s, value: s.model_copy(update={"games": {**s.games, name: value}}),
        line=lambda s: line(s.game(name, default)),
        choices=choices,
    )


def _minutes(s: GuildSettings) -> str:
    return _("Lobbies close after **{minutes} min**.", minutes=s.lobby_timeout_s // 60)


def _turn(s: GuildSettings) -> str:
    if s.turn_timeout_s:
        return _("Decision timer: **{seconds} s**.", seconds=s.turn_timeout_s)
    return _("Decision timer: **each game’s default**.")


def _lobbies(s: GuildSettings) -> str:
    return _n(
        "Each member may host **{n}** open lobby at once.",
        "Each member may host **{n}** open lobbies at once.",
        s.lobbies_per_member,
    )


SERVER_LANGUAGE = "server"
"""``/settings language``: the server's own Discord language (the default)."""


def _language(s: GuildSettings) -> str:
    if s.language is None:
        return _("Boards and game news are in **the server's own Discord language**.")
    # A language is named in itself (``Deutsch``), whatever the language spoken.
    return _("Boards and game news are in **{language}**.", language=LANGUAGES.get(s.language, s.language))


def _logs(s: GuildSettings) -> str:
    days = s.keep_logs_days
    if days is None:
        return _("Ended games keep their move-by-move log **forever** (their results stay in `/game history`).")
    return _n(
        "Ended games keep their move-by-move log **for {n} day** (their results stay in `/game history`).",
        "Ended games keep their move-by-move log **for {n} days** (their results stay in `/game history`).",
        days,
    )


def _taken_over(s: GuildSettings) -> str:
    # The English says "decisions" for one too (as it always has); a language with its own forms has them.
    return _n(
        "A seat is taken over after **{n}** missed decisions.",
        "A seat is taken over after **{n}** missed decisions.",
        s.max_timeouts,
    )


def _threads(s: GuildSettings) -> str:
    if s.threads:
        return _("New games start **in their own thread**.")
    return _("New games start **in the channel**.")


CORE: tuple[ServerSetting, ...] = (
    ServerSetting(
        "lobby_minutes",
        "How long an unstarted lobby stays open.",
        app_commands.Range[int, 1, 1440],
        read=lambda s: s.lobby_timeout_s // 60,
        write=lambda s, v: s.model_copy(update={"lobby_timeout_s": v * 60}),
        line=_minutes,
    ),
    ServerSetting(
        "turn_seconds",
        "Default time for each decision in new games (a game's own option wins).",
        app_commands.Range[int, 30, 86400],
        read=lambda s: s.turn_timeout_s,
        write=lambda s, v: s.model_copy(update={"turn_timeout_s": v}),
        line=_turn,
    ),
    ServerSetting(
        "max_timeouts",
        "Missed decisions in a row before a computer (or nobody) takes the seat.",
        app_commands.Range[int, 1, 20],
        read=lambda s: s.max_timeouts,
        write=lambda s, v: s.model_copy(update={"max_timeouts": v}),
        line=_taken_over,
    ),
    ServerSetting(
        "threads",
        "Start each new game in its own thread.",
        bool,
        read=lambda s: s.threads,
        write=lambda s, v: s.model_copy(update={"threads": v}),
        line=_threads,
    ),
    ServerSetting(
        "language",
        "The language of boards and game news in this server's channels.",
        str,
        read=lambda s: s.language or SERVER_LANGUAGE,
        write=lambda s, v: s.model_copy(update={"language": None if v == SERVER_LANGUAGE else v}),
        line=_language,
        choices=(("The server's own Discord language", SERVER_LANGUAGE), *((n, c) for c, n in LANGUAGES.items())),
    ),
    ServerSetting(
        "end_by",
        "Who may end a game early.",
        str,
        read=lambda s: s.end_by,
        write=lambda s, v: s.model_copy(update={"end_by": v}),
        line=lambda s: _("Games can be ended by **{who}**.", who=_(END_RULES[s.end_by])),
        choices=tuple((text, rule) for rule, text in END_RULES.items()),
    ),
    ServerSetting(
        "lobbies_per_member",
        "Open lobbies one member may host at once.",
        app_commands.Range[int, 1, 10],
        read=lambda s: s.lobbies_per_member,
        write=lambda s, v: s.model_copy(update={"lobbies_per_member": v}),
        line=_lobbies,
    ),
    ServerSetting(
        "keep_logs_days",
        "Days an ended game keeps its move-by-move log (0: forever); /game history keeps results.",
        app_commands.Range[int, 0, 3650],
        read=lambda s: s.keep_logs_days or 0,
        write=lambda s, v: s.model_copy(update={"keep_logs_days": v or None}),  # 0: forever
        line=_logs,
    ),
)


def settings_command(
    settings: Sequence[ServerSetting], store: Store, saved: Callable[[int, GuildSettings], None] = lambda g, s: None
) -> app_commands.Command[Any, ..., None]:
    """``/settings``: every setting an optional option; the ones given are saved (and told to ``saved``); all are
    shown."""
    if len(settings) > MAX_OPTIONS:
        raise ValueError(f"/settings takes at most {MAX_OPTIONS} settings; {len(settings)} are declared")
    by_name = {s.name: s for s in settings}
    if len(by_name) != len(settings):
        raise ValueError("two settings share a name")

    async def settings_callback(interaction: discord.Interaction, **given: Any) -> None:
        reply = Reply.of(interaction)
        if not actor_of(interaction).manager:
            raise NotPermitted(_("Only members with Manage Server can change these settings."))
        assert interaction.guild_id is not None
        current = await store.guild_settings(interaction.guild_id)
        changed = {name: value for name, value in given.items() if value is not None}
        for name, value in changed.items():
            current = by_name[name].write(current, value)
        if changed:
            await store.set_guild_settings(interaction.guild_id, current)
            saved(interaction.guild_id, current)
        lines = [localize(s.line(current)) for s in settings]
        await reply.send((_("Saved. ") if changed else "") + "\n".join(lines), ephemeral=True)

    # discord.py reads a command's options from its callback's signature: one keyword-only parameter per setting.
    parameters = [
        inspect.Parameter("interaction", inspect.Parameter.POSITIONAL_OR_KEYWORD, annotation=discord.Interaction)
    ]
    parameters += [
        inspect.Parameter(s.name, inspect.Parameter.KEYWORD_ONLY, default=None, annotation=s.annotation | None)
        for s in settings
    ]
    settings_callback.__signature__ = inspect.Signature(parameters)  # type: ignore[attr-defined]
    settings_callback.__annotations__ = {p.name: p.annotation for p in parameters}
    described = app_commands.describe(**{s.name: s.description for s in settings})(settings_callback)
    chosen = app_commands.choices(
        **{
            s.name: [app_commands.Choice(name=label, value=value) for label, value in s.choices]
            for s in settings
            if s.choices
        }
    )(described)
    command: app_commands.Command[Any, ..., None] = app_commands.Command(
        name="settings", description="Server defaults for games (Manage Server only).", callback=chosen
    )
    return app_commands.guild_only(app_commands.default_permissions(manage_guild=True)(command))
