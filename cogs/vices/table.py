"""``/vv new``: the Vices & Vengeance table game, the bot rolling every die, played by clicks.

The engine (``rules/vices``) decides what is legal; this module draws the board (``table_view.py``), offers
exactly the legal choices of whoever must act, and turns clicks into engine actions through the core:

- the defender removes dice with a multi-select (pairs, and equal d20s worth 0 together, as single options)
  whose pick opens a private preview of the points with a Confirm button, or with one-click shortcuts:
  "Remove the lowest" (also the timeout default) and "Remove all zeros";
- an attacker whose Sin matched is asked (and pinged by the core) for their effect's choice, with exactly
  the legal options; the tie-break asks each contender for a Mythical pair; a claim at setup likewise.

``TableCommands`` is a mixin for the ``/vv`` group cog (``cogs/vices/__init__.py``).
"""

from __future__ import annotations

import contextlib
from typing import TYPE_CHECKING, Any, cast

import discord
from discord import app_commands
from pydantic import BaseModel

from bot.board import static_view
from bot.controls import ControlTooLong, form_id, ui_id
from bot.errors import IllegalMove, NotYourTurn, StaleBoard, UserError
from bot.i18n import N_, _, _n, _p, localize
from bot.lobby import actor_of
from bot.models import Session
from bot.names import escape_name
from bot.registry import GameKind
from bot.replies import PUBLIC_ANSWER, Reply
from bot.service import SENT_ALREADY, Expect
from bot.spec import Choice, GameSpec, LobbyOption, View, ViewContext
from cogs.vices import table_view as tv
from cogs.vices.sheet import CommandMixin
from cogs.vices.sheet_view import SIN_EMOJI
from rules.engine import IllegalAction
from rules.vices.actions import ClaimSin, Envy, PickPair, Remove, RemoveZeros, VicesAction
from rules.vices.engine import ENGINE
from rules.vices.legality import decision
from rules.vices.options import VicesOptions
from rules.vices.pool import Unit, lowest_unit, zero_units
from rules.vices.sheet_data import PAIR_TITLES
from rules.vices.state import RESERVES, VicesState
from rules.vices.strategy import choose_removal

if TYPE_CHECKING:
    from bot.app import TabletopBot

MAX_NEWS_LINES = 8
"""What just happened, on a board without dice (setup, tie-break, the end); the channel's one-line history
and ``/game log`` have the rest."""
NEWS_WITH_DICE = 3
"""What just happened, under the dice a defender decides on: the last few lines, so 6 players' boards read on
a phone in two screens."""
DESCRIPTION_MAX = 4000
MAX_OPTIONS = 25
BUTTONS_PER_ROW = 5
MAX_BUTTON_ROWS = 2
"""More choices than fit in two rows of buttons go in a select menu."""
FIELD_MAX = 1024
Ctx = ViewContext[VicesState]
Row = list[discord.ui.Item[Any]]


def chunks(items: list[Any], size: int = BUTTONS_PER_ROW) -> list[list[Any]]:
    """Split ``items`` into rows of at most ``size``."""
    return [items[i : i + size] for i in range(0, len(items), size)]


def clip_lines(lines: list[str], limit: int = FIELD_MAX) -> str:
    """Lines joined, the oldest dropped first until they fit an embed field."""
    while lines and len("\n".join(lines)) > limit:
        lines = lines[1:]
    return "\n".join(lines) or "—"


def encode_mask(indices: list[int]) -> str:
    """Unit positions as a base-36 bit mask (short enough for a custom id whatever the pick)."""
    return _base36(sum(1 << i for i in indices))


def decode_mask(text: str) -> list[int]:
    """The positions of :func:`encode_mask`."""
    mask = int(text, 36)
    return [i for i in range(mask.bit_length()) if mask >> i & 1]


def _base36(number: int) -> str:
    digits = "0123456789abcdefghijklmnopqrstuvwxyz"
    out = ""
    while True:
        number, rest = divmod(number, 36)
        out = digits[rest] + out
        if number == 0:
            return out


def preview_text(session: Session, state: VicesState, units: list[Unit], picked: list[str], points: int) -> str:
    """The removal's private preview: the dice picked, their points, the turn score after, what happens next."""
    turn = state.turn
    assert turn is not None
    chosen = [u for u in units if u.id in picked]
    values = {d.id: d.value for d in turn.pool}
    labels = [tv.unit_label(state, u, values, lambda p: escape_name(tv.plain(p, session))) for u in chosen]
    left = len(turn.pool) - sum(len(u.dice) for u in chosen)
    # English says "dice" for one die too (as it always has); other languages have their own forms.
    after = _n("{n} dice roll again.", "{n} dice roll again.", left) if left else _("That ends your turn.")
    text = _n(
        "Remove {dice}\n= **{n} point** (turn {before} → {after_score}). {after}",
        "Remove {dice}\n= **{n} points** (turn {before} → {after_score}). {after}",
        points,
        dice=", ".join(labels),
        before=turn.score,
        after_score=turn.score + points,
        after=after,
    )
    return text[:2000]


class TableSpec(GameSpec[VicesState]):
    """The Vices & Vengeance table game as the core sees it."""

    kind = GameKind(ENGINE)
    command = "vv"
    legend = tv.LEGEND  # a said: the core says it in the reader's language
    seats_players = True  # the "Seat order" option: by d20 or join order
    # Labels only marked: the lobby says them (``_``) in the language of whoever opens the Options menu.
    lobby_options = (
        LobbyOption(
            "seat_order", N_("Seat order"), ((N_("Highest d20 goes first"), "d20"), (N_("Join order"), "join_order"))
        ),
        LobbyOption(
            "sin_assignment",
            N_("How Sins are dealt"),
            ((N_("Mirror roll"), "mirror_roll"), (N_("Each player chooses"), "choose"), (N_("At random"), "random")),
        ),
        LobbyOption(
            "nemesis_zero_rule",
            N_("Nemesis d20s that score 0"),
            (
                (N_("The defender's equal d20s, together"), "defender_pairs"),
                (N_("A d20 an attacker matched"), "matched_die"),
                (N_("Both"), "both"),
            ),
        ),
        LobbyOption(
            "silver_bullet_wild_face",
            N_("Silver Bullet's wild face"),
            (
                (N_("Face 1"), 1),
                (N_("Face 2"), 2),
                (N_("Face 3"), 3),
                (N_("Face 4"), 4),
                (N_("Face 5"), 5),
                (N_("Face 6"), 6),
                (N_("No wild face"), None),
            ),
        ),
        LobbyOption(
            "gluttony_added_die",
            N_("Gluttony's added penalty die"),
            ((N_("The taken Sin's large die"), "taken_large"), (N_("The taken Sin's small die"), "taken_small")),
        ),
        LobbyOption("envy_optional", N_("Envy's exchange"), ((N_("Required"), False), (N_("Optional"), True))),
        LobbyOption(
            "sloth_removes",
            N_("Sloth removes from play"),
            ((N_("The Sloth Nemesis d20"), "sloth_die"), (N_("The matcher's own Nemesis d20"), "matcher_own_die")),
        ),
        LobbyOption(
            "end_mode",
            N_("Once someone reaches 70"),
            ((N_("Finish the round"), "finish_round"), (N_("Everyone else plays once more"), "one_more_each")),
        ),
        LobbyOption("min_players", N_("Fewest players"), ((N_("3 players"), 3), (N_("2 players"), 2))),
        LobbyOption("max_players", N_("Most players"), ((N_("6 players"), 6), (N_("7 players"), 7))),
    )

    def __init__(self, bot: TabletopBot) -> None:
        self.bot = bot

    # -- the board ---------------------------------------------------------------------------------------

    def render(self, ctx: Ctx) -> View:
        """News, the defender's dice and the attackers' last roll, the scoreboard, and the controls."""
        s = ctx.state
        names = {p.id: f"**{ctx.name(p.id)}**" for p in s.players}  # escaped once per drawing

        def name(player: str | None) -> str:
            return names[player] if player else _("nobody")

        embed = discord.Embed(title=self._title(ctx, s), colour=discord.Colour.dark_red())
        news = self.narrate(ctx.session, ctx.events)
        turn = s.turn
        if turn is not None and not ctx.over:
            # The decision first: the defender's dice and what each scores, then the roll that made them.
            head = _(
                "**{name}'s dice** · roll {roll} · turn score {score}",
                name=ctx.name(turn.defender),
                roll=turn.roll,
                score=turn.score,
            )
            embed.description = clip_lines([head, *tv.dice_lines(s, name)], DESCRIPTION_MAX)
            last_roll = next((e for e in reversed(ctx.events) if e["type"] == "rolled"), None)
            attackers = tv.attackers_lines(s, last_roll, name)
            if attackers:
                embed.add_field(name=_("Last roll"), value=clip_lines(attackers), inline=False)
            if news:
                embed.add_field(name=_("Just now"), value=clip_lines(news[-NEWS_WITH_DICE:]), inline=False)
        elif news:
            embed.description = "\n".join(news[-MAX_NEWS_LINES:])[:DESCRIPTION_MAX]
        if s.tiebreak is not None:
            picked = {p.player for p in s.tiebreak.picks}
            who = ", ".join(
                _("{name} ✅ picked", name=name(p)) if p in picked else _("{name} choosing", name=name(p))
                for p in s.tiebreak.contenders
            )
            value = f"{who}\n{tv.tiebreak_hint(s.options.silver_bullet_wild_face)}"
            title = _("Tie-break · round {round}", round=s.tiebreak.round)
            embed.add_field(name=title, value=value[:FIELD_MAX], inline=False)
        embed.add_field(name=_("Scores (lowest wins)"), value=clip_lines(tv.score_lines(s, name)), inline=False)
        if ctx.first:  # the house rules and the key, once: the points on the board already count them
            embed.set_footer(text=f"{self.short_options(s.options)}\n{localize(tv.LEGEND)}")
        rematch = ctx.core_button(_("Rematch"), "rematch", emoji="🔁")
        rows: list[Row] = [[rematch]] if ctx.over else self._controls(ctx, s)
        return View(embeds=[embed], rows=rows)

    @staticmethod
    def _title(ctx: Ctx, s: VicesState) -> str:
        if ctx.over or s.phase == "over":
            return _("Vices & Vengeance · final standings")
        if s.phase == "setup":
            return _("Vices & Vengeance · setup")
        if s.phase == "tiebreak":
            return _("Vices & Vengeance · tie-break")
        defender = ctx.name(s.turn.defender) if s.turn else ""
        # The line above it names the game.
        return _("Round {round} · {defender} defends", round=s.round_no, defender=defender)[:256]

    def _controls(self, ctx: Ctx, s: VicesState) -> list[Row]:
        """Controls for exactly the legal choices of whoever must decide now."""
        waiting = decision(s)
        if waiting is None:
            return []
        if waiting.name == "remove":
            return self._removal(ctx, s)
        legal: list[VicesAction] = []
        for player in waiting.players:
            legal += [a for a in ENGINE.legal_actions(s, player) if a not in legal]
        choices = [self._choice(ctx, s, a) for a in legal]
        if not choices:
            return []
        if len(choices) > BUTTONS_PER_ROW * MAX_BUTTON_ROWS:
            who = ctx.session.name_of(waiting.players[0])
            placeholder = f"{who}: {_(ENGINE.prompts(s)[0].label)}"  # Prompt keeps the English (pydantic)
            return [[ctx.select(choices[:MAX_OPTIONS], placeholder=placeholder)]]
        buttons = [ctx.button(c.label, c.action, emoji=c.emoji, style=discord.ButtonStyle.primary) for c in choices]
        return chunks(buttons)

    @staticmethod
    def _choice(ctx: Ctx, s: VicesState, action: VicesAction) -> Choice:
        """A legal non-removal action as a labelled choice."""

        def holder(sin: str) -> str:
            at = s.sins[sin]
            return _("reserves") if at == RESERVES else tv.plain(at, ctx.session)

        if isinstance(action, ClaimSin):
            return Choice(_("Claim {sin}", sin=action.sin), action, emoji=SIN_EMOJI[action.sin])
        if isinstance(action, PickPair):
            return Choice(PAIR_TITLES[action.pair], action, emoji="🎲")  # type: ignore[index]
        if isinstance(action, Envy):
            if action.give is None or action.take is None:
                return Choice(_("Keep my Sins"), action, emoji="✋")
            label = _(
                "Give {give}, take {take} ({holder})", give=action.give, take=action.take, holder=holder(action.take)
            )
            return Choice(label, action, emoji=SIN_EMOJI[action.take])
        sin = action.sin  # type: ignore[union-attr]
        label = _(tv.EFFECT_CHOICES[action.type], sin=sin, holder=holder(sin))
        return Choice(label, action, emoji=SIN_EMOJI[sin])

    def _removal(self, ctx: Ctx, s: VicesState) -> list[Row]:
        """The defender's multi-select (a private preview, then Confirm) and the one-click shortcuts."""
        units = ENGINE.removable_units(s)
        turn = s.turn
        assert turn is not None
        if not units:
            return []
        values = {d.id: d.value for d in turn.pool}

        def name(player: str | None) -> str:
            return tv.plain(player, ctx.session)

        rows: list[Row] = []
        options = [
            discord.SelectOption(
                label=tv.unit_label(s, u, values, name)[:100],
                value=u.id,
                description=_("removed together for 0") if len(u.dice) > 1 and u.id not in PAIR_TITLES else None,
            )
            for u in units[:MAX_OPTIONS]
        ]
        picker: discord.ui.Select[Any] = discord.ui.Select(
            custom_id=ui_id(ENGINE.kind, ctx.session.id, "pick", ctx.session.version),
            options=options,
            placeholder=_("Pick dice to remove (you'll see the points first)")[:150],
            min_values=1,
            max_values=len(options),
        )
        rows.append([picker])
        shortcuts: Row = []
        lowest = lowest_unit(units)
        label = _("Remove the lowest: {unit}", unit=tv.unit_label(s, lowest, values, name))
        shortcuts.append(ctx.button(label, Remove(units=(lowest.id,)), style=discord.ButtonStyle.primary))
        zeros = zero_units(units)
        if len(zeros) > 1:
            count = sum(len(u.dice) for u in zeros)
            zeros_label = _n("Remove all zeros ({n} dice)", "Remove all zeros ({n} dice)", count)
            shortcuts.append(ctx.button(zeros_label, RemoveZeros(), style=_GREEN))
        suggested = choose_removal(s)
        if suggested.units and set(suggested.units) not in ({lowest.id}, {u.id for u in zeros}):
            shortcuts.append(_suggested_button(ctx, s, suggested, units, name))
        if turn.penalty_met:
            shortcuts.append(ctx.button(_("Keep the rest (the penalty counted)"), Remove(units=())))
        rows.append(shortcuts)
        return rows

    # -- the game's own controls: the removal's preview and Confirm ------------------------------------

    async def on_ui(self, reply: Reply, session: Session, key: str, arg: str, values: list[str]) -> None:
        """``pick``: a private preview of the dice picked; ``hint``: of the suggested dice; ``ok``: its Confirm."""
        state = cast(VicesState, self.bot.service.state_of(session))
        if key == "pick":
            await self._preview(reply, session, state, arg, values)
        elif key == "hint":
            version, _dot, mask = arg.partition(".")
            units = self._defender_units(reply, session, state)
            if version != str(session.version):
                raise StaleBoard(_(MOVED_ON))
            await self._preview(reply, session, state, version, [units[i].id for i in decode_mask(mask)])
        elif key == "ok":
            await self._confirm(reply, session, state, arg)
        else:
            raise UserError(_("That control is no longer in use."))

    def _defender_units(self, reply: Reply, session: Session, state: VicesState) -> list[Unit]:
        """What the clicker may remove now; refuses anyone but the defender at their removal."""
        seat = session.seat_of_user(reply.interaction.user.id)
        turn = state.turn
        waiting = decision(state)
        if turn is None or waiting is None or waiting.name != "remove":
            raise StaleBoard(_(MOVED_ON))
        if seat is None or seat.player != turn.defender:
            raise NotYourTurn(_("Only {name} removes dice now.", name=session.name_of(turn.defender)))
        return ENGINE.removable_units(state)

    async def _preview(
        self, reply: Reply, session: Session, state: VicesState, version: str, picked: list[str]
    ) -> None:
        units = self._defender_units(reply, session, state)
        ids = [u.id for u in units]
        if str(session.version) != version and not set(picked) <= set(ids):
            raise StaleBoard(_(MOVED_ON))
        try:
            points = ENGINE.removal_points(state, picked)
        except IllegalAction as exc:
            raise IllegalMove(exc.reason) from None
        text = preview_text(session, state, units, picked, points)
        mask = encode_mask([i for i, u in enumerate(ids) if u in picked])
        confirm: discord.ui.Button[Any] = discord.ui.Button(
            label=_n("Confirm: {n} point", "Confirm: {n} points", points)[:80],
            style=_GREEN,
            emoji="✅",
            # Made on this version: the Confirm applies once however often it is clicked (``Service.once``).
            custom_id=form_id(ENGINE.kind, session.id, session.version, "ok", f"{session.version}.{mask}"),
        )
        await reply.send(text, view=static_view([[confirm]]), ephemeral=True)

    async def _confirm(self, reply: Reply, session: Session, state: VicesState, arg: str) -> None:
        version, _dot, mask = arg.partition(".")
        if version != str(session.version):
            if self.bot.service.sent_already(session.id):
                # A repeat of the Confirm that was applied: refused on its own, never over the preview's "✅ Removed".
                raise StaleBoard(_(SENT_ALREADY))
            # The dice have been rolled again since: this preview's pick means nothing now, so it goes.
            await reply.update(content=_("This preview is out of date: pick again on the latest board."), view=None)
            return
        units = self._defender_units(reply, session, state)
        try:
            picked = [units[i].id for i in decode_mask(mask)]
        except (IndexError, ValueError):
            raise StaleBoard(_(MOVED_ON)) from None
        action = Remove(units=tuple(picked))
        points = sum(u.points for u in units if u.id in picked)
        await self.bot.service.act(session.id, actor_of(reply.interaction), action, expect=Expect(session.version))
        # Committed: the publisher redraws the board; the preview only says it is done.
        await reply.update(
            content=_n("✅ Removed: {n} point.", "✅ Removed: {n} points.", points), view=None, ephemeral=True
        )

    # -- words -------------------------------------------------------------------------------------------

    def retired(self, ctx: Ctx) -> str:
        """One line for a board being replaced."""
        return tv.retired_line(ctx.session, ctx.events)

    def narrate(self, session: Session, events: list[dict[str, Any]]) -> list[str]:
        """Plain sentences, for boards and ``/game log``."""
        return tv.narrate(session, events)

    def describe_options(self, options: BaseModel) -> str:
        """The options in force: players, timer, and every house rule."""
        assert isinstance(options, VicesOptions)
        lines = [
            _("Players: {low}–{high}", low=options.min_players, high=options.max_players),
            _("Decision timer: {seconds} s", seconds=options.timeouts["turn"]),
        ]
        current = options.model_dump(mode="json")
        for option in self.lobby_options:
            if option.key in ("min_players", "max_players"):
                continue
            value = current[option.key]
            chosen = next((_(label) for label, v in option.choices if v == value), str(value))
            lines.append(f"{_(option.label)}: {chosen}")
        return "\n".join(lines)

    @staticmethod
    def short_options(options: VicesOptions) -> str:
        """One footer line: what differs most between tables."""
        wild = options.silver_bullet_wild_face
        zero = {
            "defender_pairs": N_("equal d20s"),
            "matched_die": N_("matched d20"),
            "both": N_("equal or matched d20s"),
        }
        return _(
            "Exactly 70 wins · Silver Bullet wild: {wild} · d20s score 0: {zero}",
            wild=wild if wild else _p("wild face", "none"),
            zero=_(zero[options.nemesis_zero_rule]),
        )

    def rules_summary(self) -> str:
        """How a turn goes, then the Sin table in precedence order."""
        how = _(
            "On your turn you defend: the bot rolls your 17 dice (7 small Sin dice, d12, d10, d8, three Mythical "
            "pairs, your Nemesis d20). Attackers roll the large die of each Sin they hold and their d20: a large die "
            "equal to its small Sin die is a **match** — a penalty roll scores against you at once and the Sin's "
            "effect happens, in precedence order; a d20 equal to one of yours joins your pool.\n"
            "After each roll remove at least one die (none needed after a penalty): a die scores its maximum minus "
            "what it shows, a pair scores whole (0 if the two match), equal d20s can go together for 0. The rest "
            "roll again until none are left.\n"
            "Once someone reaches 70 the round finishes: exactly 70 wins, else the lowest total; ties roll a "
            "Mythical pair each."
        )
        return f"{how}\n\n**{_('The Sins, in precedence order')}**\n{tv.sin_table()}"


_GREEN = discord.ButtonStyle.success
MOVED_ON = N_("The game has moved on: look at the latest board.")


class TableCommands(CommandMixin):
    """``/vv new``: a Vices & Vengeance lobby in this channel. A mixin of the ``/vv`` group cog."""

    bot: TabletopBot

    @app_commands.command(name="new", description="Play V&V with the bot's dice (3–6 players).", extras=PUBLIC_ANSWER)
    @app_commands.describe(
        bots="Computer players to seat now.",
        sins="How Sins are dealt.",
        order="Seat order.",
        timeout="Seconds per decision before its default is taken.",
        thread="Play in a new thread.",
    )
    @app_commands.choices(
        sins=[
            app_commands.Choice(name="Mirror roll", value="mirror_roll"),
            app_commands.Choice(name="each chooses", value="choose"),
            app_commands.Choice(name="random", value="random"),
        ],
        order=[
            app_commands.Choice(name="highest d20 first", value="d20"),
            app_commands.Choice(name="join order", value="join_order"),
        ],
    )
    async def new(
        self,
        interaction: discord.Interaction,
        bots: app_commands.Range[int, 0, 5] = 0,
        sins: str = "mirror_roll",
        order: str = "d20",
        timeout: app_commands.Range[int, 30, 3600] | None = None,
        thread: bool | None = None,
    ) -> None:
        """Open the lobby; the other house rules are in its Options menu."""
        options = VicesOptions.model_validate({"sin_assignment": sins, "seat_order": order})
        await self.bot.lobby.open(
            Reply.of(interaction), ENGINE.kind, options, computers=bots, thread=thread, turn_timeout=timeout
        )


SUGGESTED_MAX = 80
"""A button's label limit: a suggestion whose dice don't fit opens the preview that lists them."""


def _suggested_button(
    ctx: Ctx, s: VicesState, suggested: Remove, units: list[Unit], name: tv.Name
) -> discord.ui.Button[Any]:
    """The computer player's removal as a shortcut naming its dice and points (``Suggested: 🟥Wrath ⚀1 ·
    d12 12 → 1 point``), one click; when they don't fit a button (or its id), a preview of them first."""
    turn = s.turn
    assert turn is not None
    values = {d.id: d.value for d in turn.pool}
    chosen = [u for u in units if u.id in suggested.units]
    points = ENGINE.removal_points(s, suggested.units)
    shown = " · ".join(tv.unit_dice(s, u, values, name) for u in chosen)
    label = _n("Suggested: {dice} → {n} point", "Suggested: {dice} → {n} points", points, dice=shown)
    if len(label) <= SUGGESTED_MAX:
        with contextlib.suppress(ControlTooLong):
            return ctx.button(label, suggested, emoji="💡")
    dice = sum(len(u.dice) for u in chosen)
    mask = encode_mask([i for i, u in enumerate(units) if u.id in suggested.units])
    see = _n(
        "Suggested: {dice} dice for {n} point (see them)",
        "Suggested: {dice} dice for {n} points (see them)",
        points,
        dice=dice,
    )
    return ctx.ui_button(see[:80], "hint", f"{ctx.session.version}.{mask}", emoji="💡")
