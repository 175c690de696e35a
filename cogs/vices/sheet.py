"""``/vv sheet``: the Vices & Vengeance scoresheet in Discord, for a table rolling physical dice (RULES.md 1.6).

The engine (``rules/vices/sheet.py``) keeps the sheet and decides who may write what; this module
turns clicks, forms and commands into its actions. Everything goes through the core's service, so
each entry is logged (undo and redo rebuild from the log) and the sheet's message is redrawn with
its picture after every change.

- Start: ``/vv sheet players: Jordan: Wrath, Taylor: Sloth, …`` (seat order, each with their original
  Sin) and up to six members, each linked to the player carrying their name; without ``players`` a
  form opens, filled in with the members picked.
- On the sheet: the score button for whoever is up (a form), the Sins menu, corrections and names,
  the seat order until the first score, undo and redo, the tie-break's pairs, a new game.
- Commands for the same (``/vv score`` with the players offered as you type, ``/vv correct``,
  ``/vv rename``, ``/vv sin``, ``/vv sloth``, ``/vv keeper``, ``/vv tiebreak``, ``/vv show``), and
  ``/vv calc``, ``/vv sins``, ``/vv help``.

``SheetCommands`` is a mixin: the ``/vv`` group cog (``cogs/vices/__init__.py``) inherits it
beside the table game's commands.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, cast

import discord
from discord import app_commands
from discord.ext import commands
from pydantic import BaseModel, ValidationError

from bot.board import jump_url, static_view
from bot.controls import ui_id
from bot.errors import ChannelBusy, IllegalMove, InvalidInput, NoSession, NotPermitted, UserError
from bot.forms import FORM, Input, action_modal, read_action
from bot.i18n import _, _p, localize
from bot.lobby import actor_of, missing_permissions
from bot.models import MAIN_VIEW, Actor, Applied, Session, Status, roles_of, viewer_of
from bot.names import clip, escape_name
from bot.registry import GameKind
from bot.replies import PUBLIC_ANSWER, Reply, report_error
from bot.spec import GameSpec, View, ViewContext
from cogs.vices.picture import end_rule
from cogs.vices.sheet_view import (
    SLOTH_DIE,
    destinations,
    narrate,
    pair_dice,
    place,
    player,
    render_sheet,
)
from rules import engine as contract
from rules.text import echo
from rules.vices.calc import CALC_HELP, CalcError, calculate
from rules.vices.sheet import SHEET_ENGINE
from rules.vices.sheet_actions import Correct, EnterScore, MoveSin, Rename, SetSloth, SheetAction, TieBreak
from rules.vices.sheet_data import PAIR_TITLES, SIN_NAMES, SINS, SinName
from rules.vices.sheet_state import (
    NAME_MAX,
    OUT_OF_PLAY,
    RESERVES,
    RULE_ERROR,
    SheetOptions,
    SheetSettings,
    SheetState,
    progress,
    row_of,
)

if TYPE_CHECKING:
    from bot.app import TabletopBot

KIND = SHEET_ENGINE.kind
TABLE_KIND = "vices"
"""The V&V table game (the bot rolls): ``/vv help`` lists it when it is loaded."""
PLAYERS_MAX_LENGTH = 600
ENTRY_ECHO = 40
"""How much of a player's entry or name a refusal repeats."""
"""Seven 32-character names with their Sins and separators fit easily."""
FORM_TIMEOUT_S = 900.0
EXAMPLE = "Jordan: Wrath, Taylor: Sloth, Casey: Greed, Avery: Pride"
_ENTRY = re.compile(r"^(?P<name>.*?)[\s:=(\-–—]+(?P<sin>[^\s:=(\-–—)]+)\)?$")
_SEPARATORS = re.compile(r"[,;]")


# -- reading what people type ----------------------------------------------------------------------------------


def _short(text: str) -> str:
    """A player's entry or name as a refusal repeats it: in a code span, 40 characters at most."""
    return echo(text, ENTRY_ECHO, code=True)


def sin_called(word: str) -> SinName:
    """The Sin ``word`` names: its name or the start of it, any case (``w``, ``glut``); InvalidInput if none or two."""
    key = word.strip().casefold()
    exact = [s for s in SIN_NAMES if s.casefold() == key]
    found = exact or [s for s in SIN_NAMES if key and s.casefold().startswith(key)]
    if len(found) == 1:
        return found[0]
    if found:
        sins = _("{first} or {last}", first=", ".join(found[:-1]), last=found[-1])
        raise InvalidInput(_("{word} could be {sins}: write more of it.", word=_short(word), sins=sins))
    raise InvalidInput(_("{word} is not a Sin: the Sins are {sins}.", word=_short(word), sins=", ".join(SIN_NAMES)))


def parse_players(text: str) -> list[tuple[str, SinName]]:
    """``Jordan: Wrath, Taylor: Sloth`` (or one player a line; ``Jordan Wrath`` and ``Jordan (Wrath)`` too)
    → the players in seat order, each with their original Sin."""
    raw = text.split("\n") if "\n" in text.strip() else _SEPARATORS.split(text)
    entries = [e.strip() for e in raw if e.strip()]
    if not entries:
        raise InvalidInput(_("Write the players in seat order, each with their Sin: `{example}`.", example=EXAMPLE))
    players = []
    for entry in entries:
        match = _ENTRY.match(entry)
        name = " ".join(match["name"].split()).lstrip("@").strip() if match else ""
        if match is None or not name:
            raise InvalidInput(_("{entry}: give a name and their Sin, e.g. `Jordan: Wrath`.", entry=_short(entry)))
        try:
            players.append((name, sin_called(match["sin"])))
        except InvalidInput as exc:
            raise InvalidInput(f"{_short(entry)}: {exc.text}") from None
    return players


def seat_rows(players: Sequence[tuple[str, SinName]], members: Sequence[discord.abc.User]) -> list[dict[str, Any]]:
    """The sheet's rows: each member picked is linked to the player who carries their name."""
    unique = list({m.id: m for m in members}.values())
    if any(m.bot for m in unique):
        raise InvalidInput(_("Pick the people at the table, not bots."))
    rows: list[dict[str, Any]] = []
    linked: set[int] = set()
    for name, sin in players:
        key = name.casefold()
        member = next((m for m in unique if m.id not in linked and key in _names_of(m)), None)
        if member is not None:
            linked.add(member.id)
        rows.append({"sin": sin, "name": name, "member": str(member.id) if member is not None else None})
    lost = [m for m in unique if m.id not in linked]
    if lost:
        who = ", ".join(escape_name(m.display_name) for m in lost)
        raise InvalidInput(
            _(
                "{who}: picked as a member but no player carries that name. Write their name as Discord shows it "
                "({example}), or leave them out.",
                who=who,
                example=_short(f"{lost[0].display_name}: Wrath"),
            )
        )
    return rows


def _names_of(member: discord.abc.User) -> set[str]:
    names = {member.display_name, member.name, getattr(member, "global_name", None) or member.name}
    return {n.casefold() for n in names}


def _rule_problem(exc: ValidationError) -> str:
    """What a player should fix, from the sheet's own validation ("Player 3: Names are at most 32 characters.")."""
    for error in exc.errors():
        if error["type"] == RULE_ERROR:
            loc = error["loc"]
            problem = localize(error.get("ctx", {}).get("rule", error["msg"]))
            if len(loc) > 1 and loc[0] == "rows":
                return _("Player {n}: {problem}", n=int(loc[1]) + 1, problem=problem)
            return problem
    return _("That sheet can't be set up; check the players and their Sins.")


def sheet_options(actor: Actor, rows: list[dict[str, Any]], settings: SheetSettings) -> SheetOptions:
    """The sheet's options, with its creator as the keeper; InvalidInput naming what to fix."""
    data = {"keeper": str(actor.user_id), "keeper_name": actor.name[:NAME_MAX], "rows": rows, "settings": settings}
    try:
        return SheetOptions.model_validate(data)
    except ValidationError as exc:
        raise InvalidInput(_rule_problem(exc)) from None


def parse(data: Mapping[str, Any]) -> SheetAction:
    """An action from a form or a command; InvalidInput with the sheet's rule ("Scores are whole numbers…")."""
    try:
        return SHEET_ENGINE.parse_action(data)
    except contract.IllegalAction as exc:
        raise InvalidInput(exc.reason) from None
    except ValidationError as exc:
        raise InvalidInput.naming(exc) from None


def resolve_row(state: SheetState, text: str) -> SinName:
    """The row a command names: by its Sin (what the autocomplete sends) or by the player's name."""
    wanted = text.strip()
    for row in state.rows:
        if wanted == row.sin or wanted.casefold() == row.name.casefold():
            return row.sin
    try:
        sin = sin_called(wanted)
    except InvalidInput:
        sin = None
    if sin is not None and any(r.sin == sin for r in state.rows):
        return sin
    raise InvalidInput(_("Nobody on this sheet is called {name}: pick a player from the list.", name=_short(wanted)))


def resolve_place(state: SheetState, text: str) -> str:
    """Where a command says a Sin went: a player, the reserves, out of play."""
    key = text.strip().casefold()
    if key in (RESERVES, "reserve", "in the reserves"):
        return RESERVES
    if key in (OUT_OF_PLAY, "out of play", "destroyed"):
        return OUT_OF_PLAY
    return resolve_row(state, text)


# -- the sheet in a channel, and writing on it -----------------------------------------------------------------


async def live_sheet(bot: TabletopBot, channel_id: int | None) -> tuple[Session, SheetState]:
    """The scoresheet of this channel and its state, or NoSession."""
    session = await bot.service.live_table(channel_id) if channel_id is not None else None
    if session is None or session.kind != KIND or session.status is not Status.ACTIVE:
        raise NoSession(_("There is no scoresheet in this channel: start one with `/vv sheet`."))
    return session, cast(SheetState, bot.service.state_of(session))


def check_may(session: Session, state: SheetState, actor: Actor, action: SheetAction) -> None:
    """NotPermitted (said privately) unless ``actor`` may write ``action``: asked before a form opens."""
    try:
        SHEET_ENGINE.authorize(state, str(actor.user_id), roles_of(session, actor), action)
    except contract.IllegalAction as exc:
        raise NotPermitted(exc.reason) from None


def on_sheet(state: SheetState, actor: Actor) -> bool:
    """The keeper, or a member listed on the sheet."""
    return str(actor.user_id) == state.keeper or any(r.member == str(actor.user_id) for r in state.rows)


async def write(bot: TabletopBot, session: Session, actor: Actor, action: SheetAction, origin: Any = None) -> Applied:
    """Write ``action`` on the sheet through the service (checked, applied, logged, redrawn)."""
    return await bot.service.act(session.id, actor, action, origin=origin)


def done_text(applied: Applied) -> str:
    """What a command wrote, as the sheet tells it, with a link to the sheet."""
    state = cast(SheetState, applied.state)
    lines = narrate(state, applied.events) or [_("Done.")]
    url = jump_url(applied.session)
    if url:
        lines.append(_("[To the sheet]({url})", url=url))
    return clip("\n".join(lines))


def up_row(state: SheetState) -> SinName:
    """Whose turn it is; IllegalMove once no turns are left."""
    p = progress(state)
    if p.up is None:
        raise IllegalMove(_("No turns are left in this game: see the sheet for the tie-break or the winner."))
    return p.up


# -- the spec: what the core draws and routes ---------------------------------------------------------------------


class SheetSpec(GameSpec[SheetState]):
    """The scoresheet as the core sees it: its message, its sentences, and its own controls (``on_ui``)."""

    kind = GameKind(SHEET_ENGINE)
    command = "vv sheet"

    def __init__(self, bot: TabletopBot) -> None:
        self.bot = bot

    def render(self, ctx: ViewContext[SheetState]) -> View:
        """The sheet's message (``cogs/vices/sheet_view.py``)."""
        return render_sheet(ctx)

    def narrate(self, session: Session, events: list[dict[str, Any]]) -> list[str]:
        """Sentences for ``/game log`` and the sheet, with the names the sheet has now."""
        if session.state_json is None:
            return []
        return narrate(cast(SheetState, self.bot.service.state_of(session)), events)

    def describe_options(self, options: BaseModel) -> str:
        """Players, who writes, and the house rules of this sheet."""
        assert isinstance(options, SheetOptions)
        settings = options.settings
        players = ", ".join(f"{escape_name(r.name)} ({r.sin})" for r in options.rows)
        end = end_rule(settings.end_mode)
        wild = settings.silver_bullet_wild_face
        keeper = escape_name(options.keeper_name)
        return "\n".join(
            [
                _("Players at the start: {players}", players=players),
                _("Keeper: {keeper} · everyone listed scores their own turn", keeper=keeper)
                if settings.self_scoring
                else _("Keeper: {keeper} (writes every score)", keeper=keeper),
                _("After 70: {end}", end=end),
                _("Players allowed: {low}–{high}", low=settings.min_players, high=settings.max_players),
                _("Silver Bullet wild face: {face}", face=wild if wild is not None else _p("wild face", "none")),
            ]
        )

    def rules_summary(self) -> str:
        """How the sheet works, in a few lines."""
        return _(
            "A scoresheet for a table rolling physical dice. Each player's column is headed by their original Sin "
            "and keeps their turn scores whatever happens to the Sins. Lowest total wins; exactly 70 steals the "
            "victory. When someone reaches 70 or more, the round is finished, then the winner is found; a tie is "
            "broken by each contender rolling a Mythical pair (the bot rolls, or you enter your dice), repeated "
            "until one is left. A new game keeps the players and seats the winner last.\n"
            "The keeper (who started the sheet) writes; with 'everyone scores their own turn', listed members "
            "write their own scores too. `/vv help` lists the commands."
        )

    # -- the sheet's own controls ------------------------------------------------------------------------------

    async def on_ui(self, reply: Reply, session: Session, key: str, arg: str, values: list[str]) -> None:
        """Forms (open on a click, write on submit) and the Sins menu."""
        state = cast(SheetState, self.bot.service.state_of(session))
        actor = actor_of(reply.interaction)
        picked = values[0] if values else ""
        if key == FORM:
            await write(self.bot, session, actor, read_action(reply.interaction, arg, parse))
            # The form closes as soon as the entry is committed; the sheet's message is redrawn (its picture in a
            # thread) after that, so a busy moment for pictures never makes a form wait.
            await reply.ack()
        elif key == "score":
            await self._open_score(reply, session, state, actor, arg)
        elif key == "edit":
            what, _colon, sin = picked.partition(":")
            await self._open_edit(reply, session, state, actor, what, sin)
        elif key == "sin":
            await self._sins_menu(reply, session, state, actor, picked)
        elif key == "to":
            applied = await write(self.bot, session, actor, parse({"type": "sin", "sin": arg, "to": picked}))
            await reply.update(content=done_text(applied), view=None, ephemeral=True)
        elif key == "dice":
            await self._open_dice(reply, session, state, actor, picked)
        else:
            raise UserError(_("That control is no longer in use."))

    async def _open_score(self, reply: Reply, session: Session, state: SheetState, actor: Actor, sin: str) -> None:
        action = parse({"type": "score", "row": sin, "value": 0})
        check_may(session, state, actor, action)
        up = up_row(state)
        if up != sin:
            raise IllegalMove(_("The sheet has moved on: it's {player}'s turn now.", player=player(state, up)))
        row = row_of(state, up)
        title = _("{name} · round {round}", name=row.name, round=progress(state).round)
        points = Input("value", label=_("Points this turn"), placeholder=_("A whole number, 0 or more (e.g. 14)"))
        await reply.modal(action_modal(session, EnterScore, [points], title=title, fixed={"row": up}, game=True))

    async def _open_edit(
        self, reply: Reply, session: Session, state: SheetState, actor: Actor, what: str, sin: str
    ) -> None:
        if what == "fix":
            action = parse({"type": "correct", "row": sin, "round": 1, "value": 0})
            check_may(session, state, actor, action)
            row = row_of(state, cast(Correct, action).row)
            if not row.scores:
                raise IllegalMove(_("{player} has no score to correct yet.", player=player(state, row.sin)))
            last = len(row.scores)
            inputs = [
                Input("round", label=_("Round (1 to {last})", last=last), default=str(last), max_length=3),
                Input("value", label=_("Score for that round"), default=str(row.scores[-1])),
            ]
            title = _("Correct {name}'s score", name=row.name)
            await reply.modal(action_modal(session, Correct, inputs, title=title, fixed={"row": row.sin}, game=True))
        elif what == "name":
            action = parse({"type": "rename", "row": sin, "name": "x"})
            check_may(session, state, actor, action)
            row = row_of(state, cast(Rename, action).row)
            name = Input("name", label=_("Name"), default=row.name)
            title = _("Rename {name}", name=row.name)
            await reply.modal(action_modal(session, Rename, [name], title=title, fixed={"row": row.sin}, game=True))
        else:
            raise UserError(_("That choice is no longer in use."))

    async def _sins_menu(self, reply: Reply, session: Session, state: SheetState, actor: Actor, picked: str) -> None:
        what, _colon, way = picked.partition(":")
        if what == SLOTH_DIE:
            # A menu drawn before options said which way (a bare "sloth") turns the die from where it is now.
            removed = way == "out" if way else not state.sloth_removed
            await write(self.bot, session, actor, SetSloth(removed=removed), origin=reply)
            return
        sin = sin_called(picked)
        check_may(session, state, actor, MoveSin(sin=sin, to=RESERVES))
        menu: discord.ui.Select[Any] = discord.ui.Select(
            custom_id=ui_id(session.kind, session.id, "to", sin),
            options=destinations(state, sin),
            placeholder=_("Where is {sin} now?", sin=sin)[:150],
        )
        text = _("Where is **{sin}** now? It is {place} on the sheet.", sin=sin, place=place(state, state.sins[sin]))
        await reply.send(text, ephemeral=True, view=static_view([[menu]]))

    async def _open_dice(self, reply: Reply, session: Session, state: SheetState, actor: Actor, pair: str) -> None:
        roller = progress(state).roller
        if roller is None:
            raise IllegalMove(_("There is no tie-break roll to enter now."))
        action = parse({"type": "tiebreak", "row": roller, "pair": pair, "dice": [1, 1]})
        check_may(session, state, actor, action)
        assert isinstance(action, TieBreak)
        first, second = pair_dice(action.pair)
        inputs = [Input(f"dice.{i}", label=die, placeholder=_("1 to 6")) for i, die in enumerate((first, second))]
        title = f"{row_of(state, roller).name}: {PAIR_TITLES[action.pair]}"
        fixed = {"row": roller, "pair": action.pair}
        await reply.modal(action_modal(session, TieBreak, inputs, title=title, fixed=fixed, game=True))


# -- creating a sheet ---------------------------------------------------------------------------------------------


async def start_sheet(
    bot: TabletopBot,
    interaction: discord.Interaction,
    reply: Reply,
    players: str,
    members: Sequence[discord.abc.User],
    settings: SheetSettings,
) -> None:
    """Start the sheet these players make, kept by whoever asked; the sheet is posted as the answer."""
    rows = seat_rows(parse_players(players), members)
    actor = actor_of(interaction)
    options = sheet_options(actor, rows, settings)
    assert interaction.channel_id is not None
    guild, channel = interaction.guild_id, interaction.channel_id
    await bot.service.create(KIND, guild_id=guild, channel_id=channel, host=actor, options=options, origin=reply)


def check_channel(interaction: discord.Interaction) -> None:
    """The bot can post the sheet here: it needs to attach its picture, too."""
    missing = missing_permissions(interaction)
    if not interaction.app_permissions.attach_files:
        missing.append("Attach Files")
    if missing:
        raise UserError(
            _("I need these permissions in this channel to keep a sheet: {missing}.", missing=", ".join(missing))
        )


class NewSheetForm(discord.ui.Modal):
    """The players of a new sheet, typed in a form (one a line, each with their Sin), prefilled with the members
    picked. Kept in memory while it is open, as a form only lives while someone types into it."""

    def __init__(self, bot: TabletopBot, members: Sequence[discord.abc.User], settings: SheetSettings) -> None:
        super().__init__(title=_("New Vices & Vengeance scoresheet")[:45], timeout=FORM_TIMEOUT_S)
        self.bot = bot
        self.members = members
        self.settings = settings
        self.players: discord.ui.TextInput[NewSheetForm] = discord.ui.TextInput(
            label=_("Players in seat order, each with their Sin")[:45],
            custom_id="players",
            style=discord.TextStyle.paragraph,
            placeholder=EXAMPLE.replace(", ", "\n"),
            default="\n".join(f"{m.display_name}: " for m in members) or None,
            max_length=PLAYERS_MAX_LENGTH,
        )
        self.add_item(self.players)

    async def on_submit(self, interaction: discord.Interaction) -> None:
        reply = Reply.of(interaction, private=False)
        await start_sheet(self.bot, interaction, reply, self.players.value, self.members, self.settings)

    async def on_error(self, interaction: discord.Interaction, error: Exception, /) -> None:  # type: ignore[override]
        if not isinstance(error, UserError):
            await report_error(interaction, error)
            return
        # A form can't be opened again from its own answer: give back what was typed, to paste into a new one.
        typed = self.players.value.replace("`", "'")
        await Reply.of(interaction).refuse(clip(f"{error.text}\n{_('What you typed:')}\n```\n{typed}\n```"))


# -- the commands ---------------------------------------------------------------------------------------------------

END_CHOICES = [
    app_commands.Choice(name="finish the round (default)", value="finish_round"),
    app_commands.Choice(name="everyone else plays once more", value="one_more_each"),
]
SIN_CHOICES = [app_commands.Choice(name=s.name, value=s.name) for s in SINS]
PAIR_CHOICES = [app_commands.Choice(name=title, value=key) for key, title in PAIR_TITLES.items()]
MEMBER_HELP = "A member playing (linked to the player with their name)"


if TYPE_CHECKING:
    CommandMixin = commands.Cog  # app_commands types a command's ``self`` as a cog
else:
    CommandMixin = object


class SheetCommands(CommandMixin):
    """The scoresheet's ``/vv`` subcommands, mixed into the ``/vv`` group cog (a plain class at run time)."""

    bot: TabletopBot

    @app_commands.command(
        name="sheet", description="A scoresheet for a table rolling physical dice.", extras=PUBLIC_ANSWER
    )
    @app_commands.describe(
        players="Seat order with Sins: Jordan: Wrath, Taylor: Sloth, … (or leave out for a form)",
        member1=MEMBER_HELP,
        member2=MEMBER_HELP,
        member3=MEMBER_HELP,
        member4=MEMBER_HELP,
        member5=MEMBER_HELP,
        member6=MEMBER_HELP,
        self_scoring="Members listed score their own turns (default: only you, the keeper)",
        end="After someone reaches 70",
        house="Allow 2 to 7 players (house rule)",
    )
    @app_commands.choices(end=END_CHOICES)
    async def sheet(
        self,
        interaction: discord.Interaction,
        players: app_commands.Range[str, 1, PLAYERS_MAX_LENGTH] | None = None,
        member1: discord.Member | None = None,
        member2: discord.Member | None = None,
        member3: discord.Member | None = None,
        member4: discord.Member | None = None,
        member5: discord.Member | None = None,
        member6: discord.Member | None = None,
        self_scoring: bool = False,
        end: str = "finish_round",
        house: bool = False,
    ) -> None:
        """Start a sheet in this channel, kept by you: at once with ``players``, else through a form."""
        reply = Reply.of(interaction)
        if interaction.guild_id is None:
            raise UserError(_("A scoresheet lives in a server channel: use `/vv sheet` there."))
        check_channel(interaction)
        if await self.bot.service.live_table(interaction.channel_id or 0) is not None:
            raise ChannelBusy(_("This channel already has a game or a sheet: `/game status` shows it."))
        members = [m for m in (member1, member2, member3, member4, member5, member6) if m is not None]
        settings = SheetSettings(
            self_scoring=self_scoring,
            end_mode="one_more_each" if end == "one_more_each" else "finish_round",
            min_players=2 if house else 3,
            max_players=7 if house else 6,
        )
        if players is None:
            await reply.modal(NewSheetForm(self.bot, members, settings))
            return
        await start_sheet(self.bot, interaction, reply, players, members, settings)

    @app_commands.command(name="score", description="Write the turn score of whoever is up.")
    @app_commands.describe(points="Points this turn", player="Whose turn (default: whoever is up)")
    async def score(
        self, interaction: discord.Interaction, points: app_commands.Range[int, 0, 300], player: str | None = None
    ) -> None:
        """A turn score; the sheet moves to the next player."""
        session, state = await live_sheet(self.bot, interaction.channel_id)
        row = resolve_row(state, player) if player else up_row(state)
        await self._write(interaction, session, EnterScore(row=row, value=points))

    @app_commands.command(name="correct", description="Correct a past turn score.")
    @app_commands.describe(player="Whose score", round="Which round", points="The right score")
    async def correct(
        self,
        interaction: discord.Interaction,
        player: str,
        round: app_commands.Range[int, 1, 500],
        points: app_commands.Range[int, 0, 300],
    ) -> None:
        """Replace one turn score."""
        session, state = await live_sheet(self.bot, interaction.channel_id)
        await self._write(interaction, session, Correct(row=resolve_row(state, player), round=round, value=points))

    @app_commands.command(name="rename", description="Correct a player's name.")
    @app_commands.describe(player="Who", name="Their name")
    async def rename(
        self, interaction: discord.Interaction, player: str, name: app_commands.Range[str, 1, NAME_MAX]
    ) -> None:
        """A new name; the column keeps its Sin and scores."""
        session, state = await live_sheet(self.bot, interaction.channel_id)
        action = parse({"type": "rename", "row": resolve_row(state, player), "name": name})
        await self._write(interaction, session, action)

    @app_commands.command(name="sin", description="Record where a Sin is now.")
    @app_commands.describe(sin="Which Sin", to="Where it is now")
    @app_commands.choices(sin=SIN_CHOICES)
    async def sin(self, interaction: discord.Interaction, sin: str, to: str) -> None:
        """A Sin moved (Greed, Lust, Envy, Gluttony) or was destroyed (Wrath)."""
        session, state = await live_sheet(self.bot, interaction.channel_id)
        await self._write(interaction, session, parse({"type": "sin", "sin": sin, "to": resolve_place(state, to)}))

    @app_commands.command(name="sloth", description="Record whether the Sloth Nemesis die is out of play.")
    @app_commands.describe(removed="Removed from play (or back in play)")
    async def sloth(self, interaction: discord.Interaction, removed: bool) -> None:
        """Sloth's effect removes its Nemesis die for the rest of the game."""
        session = (await live_sheet(self.bot, interaction.channel_id))[0]
        await self._write(interaction, session, SetSloth(removed=removed))

    @app_commands.command(name="keeper", description="Hand the sheet over to another keeper.")
    @app_commands.describe(member="The new keeper")
    async def keeper(self, interaction: discord.Interaction, member: discord.Member) -> None:
        """The keeper (or someone with Manage Server) hands the sheet over."""
        if member.bot:
            raise InvalidInput(_("A bot can't keep the sheet."))
        session = (await live_sheet(self.bot, interaction.channel_id))[0]
        name = member.display_name[:NAME_MAX]
        await self._write(interaction, session, parse({"type": "keeper", "to": str(member.id), "name": name}))

    @app_commands.command(name="tiebreak", description="The next tie-break roll: the bot rolls, or give your dice.")
    @app_commands.describe(pair="The Mythical pair", dice="Your dice, e.g. 3,5 (leave out: the bot rolls)")
    @app_commands.choices(pair=PAIR_CHOICES)
    async def tiebreak(self, interaction: discord.Interaction, pair: str, dice: str | None = None) -> None:
        """One contender's roll of a Mythical pair (seat order)."""
        session, state = await live_sheet(self.bot, interaction.channel_id)
        roller = progress(state).roller
        if roller is None:
            raise IllegalMove(_("There is no tie-break now."))
        data: dict[str, Any] = {"type": "tiebreak", "row": roller, "pair": pair}
        if dice is not None:
            values = [v for v in re.split(r"[\s,;/-]+", dice.strip()) if v]
            if len(values) != 2:
                first, second = pair_dice(cast(Any, pair))
                raise InvalidInput(_("Give both dice, {first} then {second}: `3,5`.", first=first, second=second))
            data["dice"] = values
        await self._write(interaction, session, parse(data))

    @app_commands.command(name="show", description="Post the sheet again, below.", extras=PUBLIC_ANSWER)
    async def show(self, interaction: discord.Interaction) -> None:
        """People on the sheet get it posted again (the old message points here); anyone else a private copy."""
        reply = Reply.of(interaction)
        session, state = await live_sheet(self.bot, interaction.channel_id)
        actor = actor_of(interaction)
        if on_sheet(state, actor):
            await self.bot.publisher.post_view(session, MAIN_VIEW, reply)
        else:
            viewer = viewer_of(session, actor)
            await self.bot.publisher.send_private(reply, session, viewer)

    @app_commands.command(name="calc", description="Add up dice the V&V way.")
    @app_commands.describe(dice="e.g. d12:8 d8:3 pair:3,5 penalty:2,2,5 d20:17 (see /vv help)")
    async def calc(self, interaction: discord.Interaction, dice: app_commands.Range[str, 1, 300]) -> None:
        """Each part's points and the total, privately."""
        reply = Reply.of(interaction)
        wild: int | None = 1
        session = await self.bot.service.live_table(interaction.channel_id) if interaction.channel_id else None
        if session is not None and session.kind == KIND and session.state_json is not None:
            wild = cast(SheetState, self.bot.service.state_of(session)).settings.silver_bullet_wild_face
        try:
            result = calculate(dice, wild_face=wild)
        except CalcError as exc:
            raise InvalidInput(exc.args[0]) from None  # the Said: the refusal says it in the member's language
        await reply.send(clip(f"🧮 **{result.total}**\n{result.render(localize)}"), ephemeral=True)

    @app_commands.command(name="sins", description="What each Sin does, in precedence order.")
    async def sins(self, interaction: discord.Interaction) -> None:
        """The Sin reference card, privately."""
        await Reply.of(interaction).send(embed=sins_embed(), ephemeral=True)

    @app_commands.command(name="help", description="Every /vv command, and the calculator.")
    async def help(self, interaction: discord.Interaction) -> None:
        """Both ways to play and every command, privately."""
        table = any(kind == TABLE_KIND or spec.command == "vv" for kind, spec in self.bot.specs.items())
        await Reply.of(interaction).send(embed=help_embed(table_game=table), ephemeral=True)

    # -- autocomplete ---------------------------------------------------------------------------------------------

    @score.autocomplete("player")
    @correct.autocomplete("player")
    @rename.autocomplete("player")
    async def _players(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        return await self._choices(interaction, current, places=False)

    @sin.autocomplete("to")
    async def _places(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        return await self._choices(interaction, current, places=True)

    async def _choices(
        self, interaction: discord.Interaction, current: str, *, places: bool
    ) -> list[app_commands.Choice[str]]:
        try:
            state = (await live_sheet(self.bot, interaction.channel_id))[1]
        except UserError:
            return []
        up = progress(state).up
        choices = [
            app_commands.Choice(
                name=_("{name} ({sin}) · up now", name=r.name, sin=r.sin) if r.sin == up else f"{r.name} ({r.sin})",
                value=r.sin,
            )
            for r in state.rows
        ]
        if places:
            choices = [app_commands.Choice(name=_("With {name}", name=c.name)[:100], value=c.value) for c in choices]
            choices += [
                app_commands.Choice(name=_("In the reserves"), value=RESERVES),
                app_commands.Choice(name=_("Out of play"), value=OUT_OF_PLAY),
            ]
        key = current.strip().casefold()
        return [c for c in choices if key in c.name.casefold()][:25]

    async def _write(self, interaction: discord.Interaction, session: Session, action: SheetAction) -> None:
        reply = Reply.of(interaction)
        applied = await write(self.bot, session, actor_of(interaction), action)
        await reply.send(done_text(applied), ephemeral=True)


# -- reference cards ----------------------------------------------------------------------------------------------


def sins_embed() -> discord.Embed:
    """The seven Sins in precedence order, each with its effect."""
    order = " → ".join(s.name for s in SINS)
    embed = discord.Embed(
        title=_("The Sins, in precedence order"),
        description=_(
            "Effects resolve in this order: **{order}**. The effects speak to the attacker whose Sin matched; "
            "an effect that is impossible does nothing.",
            order=order,
        ),
        colour=discord.Colour.dark_red(),
    )
    for sin in SINS:
        name = f"{sin.precedence}. {sin.name} ({localize(sin.colour)})"
        embed.add_field(name=name, value=localize(sin.effect)[:1024], inline=False)
    embed.set_footer(text=_("On a sheet, record where the Sins went with the Sins menu or /vv sin."))
    return embed


def add_long_field(embed: discord.Embed, name: str, text: str, limit: int = 1024) -> None:
    """``text`` in a field named ``name``, or in several (split between lines) when a language makes it longer
    than a field holds."""
    chunks = [""]
    for line in text.split("\n"):
        joined = f"{chunks[-1]}\n{line}" if chunks[-1] else line
        if len(joined) > limit and chunks[-1]:
            chunks.append(line)
        else:
            chunks[-1] = joined
    for number, chunk in enumerate(chunks, start=1):
        embed.add_field(name=name if number == 1 else f"{name} ({number})", value=clip(chunk, limit), inline=False)


def help_embed(*, table_game: bool) -> discord.Embed:
    """Every ``/vv`` command: both ways to play, the sheet's commands, the calculator."""
    ways = []
    if table_game:
        ways.append(_("• `/vv new` — play with the bot's dice: a table game with buttons."))
    ways.append(
        _(
            "• `/vv sheet` — you roll physical dice, the bot keeps the scoresheet: "
            "`/vv sheet players: {example}` (add `member1`… to link members; leave `players` out for a form).",
            example=EXAMPLE,
        )
    )
    sheet = _(
        "On the sheet: **Score for …** (a form), the **Sins** menu, **Correct a score or a name**, the seat order "
        "until the first score, **Undo**/**Redo**, the tie-break's pairs, **New game** (the winner sits last).\n"
        "• `/vv score points [player]` — the turn score of whoever is up\n"
        "• `/vv correct player round points` · `/vv rename player name`\n"
        "• `/vv sin sin to` — a Sin moved or was destroyed · `/vv sloth removed` — the Sloth Nemesis die\n"
        "• `/vv tiebreak pair [dice]` — the bot rolls, or give your dice · `/vv keeper member` — hand the sheet over\n"
        "• `/vv show` — post the sheet again · `/game end` — end it"
    )
    embed = discord.Embed(title="Vices & Vengeance", description="\n".join(ways), colour=discord.Colour.dark_red())
    add_long_field(embed, _("The scoresheet"), sheet)
    add_long_field(embed, _("The calculator"), localize(CALC_HELP))
    embed.add_field(name=_("The Sins"), value=_("`/vv sins` — each Sin's effect, in precedence order."), inline=False)
    return embed
