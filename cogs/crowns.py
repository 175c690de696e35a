"""Dice of Crowns in a channel: ``/crowns new``, the board, and a button for every legal decision.

The engine (``rules/crowns``) decides what is legal; this cog only draws the state, offers the legal
actions of whoever must act as buttons and selects, and narrates what happened.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands
from pydantic import BaseModel

from bot.app import TabletopBot
from bot.i18n import N_, _, _n, _p
from bot.models import Session
from bot.names import escape_name
from bot.registry import GameKind
from bot.replies import PUBLIC_ANSWER, Reply
from bot.server_settings import game_setting
from bot.service import COMPUTER_SEAT, TIMED_OUT
from bot.spec import Choice, FaceLuck, GameSpec, LobbyOption, View, ViewContext
from rules.crowns.actions import (
    END_TURN,
    PASS_FATE,
    ROLL,
    SETTLE,
    AssignAll,
    AssignScroll,
    FateReroll,
    GiveDagger,
    LastStandChoice,
    Meddle,
    Overkill,
    OverkillAll,
    Reroll,
    SixSkulls,
    Steal,
)
from rules.crowns.data import FACE_NAMES, LEGENDARY_NAMES
from rules.crowns.engine import ENGINE
from rules.crowns.options import CrownsOptions
from rules.crowns.state import CrownsState, Die, DieState, Phase

FACE_EMOJI = {"CROWN": "👑", "DAGGER": "🗡️", "SKULL": "💀", "SCROLL": "📜"}
CLAIM = "🎖️"
FATE = "🔮"
THE_CROWN = "🫅"
MAX_NEWS_LINES = 14
LEGEND = " · ".join(f"{emoji} {FACE_NAMES[face]}" for face, emoji in FACE_EMOJI.items())
ROW_WIDTH = 5

MODULE_NAMES = {
    "fate": N_("Fate tokens"),
    "legendary": N_("Legendary rolls"),
    "overkill": N_("Overkill"),
    "last_stand": N_("Last Stand"),
}
TURN_END_REASONS = {
    "claim": N_("a token was earned"),
    "settled": N_("settled for Fate"),
    "betrayal": N_("betrayed"),
    "no_dice": N_("no dice left to reroll"),
    "voluntary": N_("stopped"),
    "crown_steal": N_("took the Crown"),
    "unreachable": N_("no set can be reached"),
}
REROLL_GROUPS = {"skulls": N_("skulls"), "scrolls": N_("scrolls"), "both": N_("both")}
"""The engine's reroll groups (``Reroll.group``) as a player reads them."""

log = logging.getLogger(__name__)


def face(name: str | None) -> str:
    """A die face as emoji plus its name: ``👑 Rightful Heir``."""
    if name is None:
        return "🎲"
    return f"{FACE_EMOJI[name]} {FACE_NAMES[name]}"


def die_emoji(die: Die) -> str:
    """A die's face emoji, 🎲 while it waits to be rolled."""
    shown = die.face if die.face is not None and die.state is not DieState.HANDED else None
    return FACE_EMOJI[shown] if shown is not None else "🎲"


def dice_group(dice: list[Die]) -> str:
    """Dice in a list, by face, each face as often as it shows and then the dice's numbers (which the Fate
    menus name), worded so they are not read as values: ``👑👑 (dice 2, 5) · 🗡️ (die 6)``."""
    faces: dict[str, list[str]] = {}
    for die in dice:
        faces.setdefault(die_emoji(die), []).append(die.id)
    return " · ".join(f"{emoji * len(ids)} ({die_numbers(ids)})" for emoji, ids in faces.items())


def die_numbers(ids: list[str]) -> str:
    """``die 3`` or ``dice 1, 4``."""
    return _n("die {ids}", "dice {ids}", len(ids), ids=", ".join(ids))


def chunks(items: list[Any], size: int = ROW_WIDTH) -> list[list[Any]]:
    """Split ``items`` into rows of at most ``size``."""
    return [items[i : i + size] for i in range(0, len(items), size)]


Ctx = ViewContext[CrownsState]


TARGET_SETTING = game_setting(
    "crowns_target",
    N_("Dice of Crowns: Claims needed to win in new games, unless /crowns new says."),
    int,
    3,
    lambda value: _("Dice of Crowns games are played to **{value} Claims** unless `/crowns new` says.", value=value),
    choices=((N_("3 Claims (Quick Play)"), 3), (N_("5 Claims"), 5)),
)
"""A server's usual Claim target (a game's own ``/settings`` option)."""


def _die_by_die(
    ctx: Ctx, legal: list[BaseModel], one: tuple[type[BaseModel], str, str], every: tuple[type[BaseModel], str]
) -> list[list[Any]]:
    """Buttons sending the first die still to place to each rival (``one``: its action, label with ``{die}`` and
    ``{rival}``, and emoji), and buttons sending all of them to one rival (``every``: its action and label with
    ``{rival}``); the labels are marked messages, said here."""
    (single, label_one, emoji), (all_of, label_all) = one, every
    singles: list[Any] = [a for a in legal if isinstance(a, single)]
    alls: list[Any] = [a for a in legal if isinstance(a, all_of)]
    die = singles[0].die  # one die at a time keeps the choice within a row of buttons
    name = ctx.session.name_of
    buttons = [ctx.button(_(label_one, die=die, rival=name(a.rival)), a, emoji=emoji) for a in singles if a.die == die]
    to_one = [ctx.button(_(label_all, rival=name(a.rival)), a, style=discord.ButtonStyle.primary) for a in alls]
    return chunks(buttons) + chunks(to_one)


class CrownsSpec(GameSpec[CrownsState]):
    """The Dice of Crowns game as the core sees it."""

    kind = GameKind(ENGINE)
    luck_faces = (FaceLuck(N_("👑 crowns"), 1, 6), FaceLuck(N_("🗡️ daggers"), 2, 6))  # data/crowns/dice.yaml: d6 1, 2
    legend = LEGEND
    lobby_options = (
        LobbyOption(
            "first_player",
            N_("First player"),
            ((N_("Random first player"), "random"), (N_("First seat starts"), "host")),
        ),
        LobbyOption(
            "six_skulls",
            N_("6 skulls with Fate tokens"),
            (
                (N_("Choose 1 Claim or 2 Fate"), "choose"),
                (N_("Always 1 Claim"), "claim"),
                (N_("Always 2 Fate"), "fate"),
            ),
        ),
        LobbyOption(
            "dagger_timeout_default",
            N_("A dagger nobody assigned in time goes to"),
            (
                (N_("The rival who rolled it"), "self"),
                (N_("The active player"), "active"),
                (N_("A random player"), "random"),
            ),
        ),
        LobbyOption(
            "fate_windows",
            N_("When Fate can be spent"),
            (
                (N_("After scrolls are resolved"), "post_resolution"),
                (N_("Also before each scroll result"), "also_pre_scroll"),
            ),
        ),
        LobbyOption(
            "legendary_mode",
            N_("What counts as 7 of a kind"),
            ((N_("All 7 dice you hold"), "possession"), (N_("One roll of all 7 dice"), "single_roll")),
        ),
        LobbyOption(
            "twists_fallback",
            N_("7 skulls when no rival has a Claim"),
            ((N_("Take a Claim from the supply"), "supply_claim"), (N_("Nothing"), "nothing")),
        ),
        LobbyOption(
            "meddle_held_die",
            N_("A 2-Fate reroll of a rival's die"),
            (
                (N_("Skulls and scrolls go to the active player"), "scroll_like"),
                (N_("The die stays with its holder"), "stays"),
            ),
        ),
        LobbyOption(
            "legendary_on_fate_reroll",
            N_("Fate rerolls count towards 7 of a kind"),
            ((N_("No"), False), (N_("Yes"), True)),
        ),
        LobbyOption(
            "auto_end_unreachable",
            N_("End the turn when no set can be reached"),
            ((N_("No (reroll until no dice are left)"), False), (N_("Yes"), True)),
        ),
        LobbyOption("allow_voluntary_end", N_("Allow ending a turn by choice"), ((N_("No"), False), (N_("Yes"), True))),
        LobbyOption(
            "limit_fate_supply", N_("Limit Fate tokens to the box's 10"), ((N_("No"), False), (N_("Yes"), True))
        ),
    )

    # -- the board ---------------------------------------------------------------------------------

    def render(self, ctx: Ctx) -> View:
        """The table, the active player's dice, what just happened, and controls for who must act."""
        s = ctx.state
        over = ctx.over
        title = (
            _("Dice of Crowns · final standings")
            if over
            else _("Dice of Crowns · turn {turn}, round {round}", turn=s.turn_no, round=s.round_no)
        )
        embed = discord.Embed(title=title, colour=discord.Colour.gold())
        news = self.narrate(ctx.session, ctx.events)
        if news:
            embed.description = "\n".join(news[-MAX_NEWS_LINES:])[:4000]
        embed.add_field(name=_p("the game table", "Table"), value=self._table(ctx, s)[:1024], inline=False)
        if not over:
            dice = self._active_dice(ctx, s)[:1024]
            embed.add_field(name=_("{player}'s dice", player=ctx.name(s.active))[:256], value=dice, inline=False)
        if s.phase is Phase.FATE_WINDOW:
            waiting = ", ".join(ctx.name(p.player) for p in ctx.prompts) or _("nobody")
            spend = _("May spend Fate now: {players}.", players=waiting)[:1024]
            embed.add_field(name=f"{FATE} " + _("Fate window"), value=spend, inline=False)
        footer = self.short_options(s.options)
        embed.set_footer(text=f"{footer}\n{LEGEND}" if ctx.first else footer)  # the key to the faces, once
        rows: list[list[discord.ui.Item[Any]]]
        rows = self._controls(ctx, s) if not over else [[ctx.core_button(_("Rematch"), "rematch", emoji="🔁")]]
        return View(embeds=[embed], rows=rows)

    def _table(self, ctx: Ctx, s: CrownsState) -> str:
        """One line per seat; once the game is over, in order of the final standings."""
        lines = []
        target = s.options.claim_target
        seats = s.players
        if s.phase is Phase.GAME_OVER:
            seats = tuple(sorted(seats, key=lambda p: (p.id != s.winner, p.left, -p.claims, -p.fate)))
        for seat in seats:
            name = ctx.name(seat.id)
            if seat.left:
                lines.append(_("· ~~{player}~~ (left)", player=name))
                continue
            marker = "▶" if seat.id == s.active and s.phase is not Phase.GAME_OVER else "·"
            parts = [f"{marker} **{name}** {CLAIM} {seat.claims}/{target}"]
            if s.options.fate:
                parts.append(f"{FATE} {seat.fate}")
            if s.crown_holder == seat.id:
                parts.append(f"{THE_CROWN} " + _("holds the Crown"))
            if seat.messenger:
                parts.append("📜 " + _("immune to daggers"))
            if seat.id == s.winner:
                parts.append("🏆")
            held = [d for d in s.held(seat.id) if seat.id != s.active and d.state is DieState.LOCKED]
            if held:
                parts.append(_("holds {dice}", dice=dice_group(held)))
            lines.append(" · ".join(parts))
        return "\n".join(lines)

    @staticmethod
    def _active_dice(ctx: Ctx, s: CrownsState) -> str:
        groups = (
            (_("To roll"), DieState.HANDED),
            (_("Set aside"), DieState.LOCKED),
            (_("Skulls"), DieState.FREE_SKULL),
            (_("Returned scrolls"), DieState.RETURNED_SCROLL),
            (_("New scrolls"), DieState.PENDING_SCROLL),
        )
        lines = []
        for label, state in groups:
            dice = [d for d in s.dice if d.holder == s.active and d.state is state]
            if dice:
                lines.append(f"{label}: {dice_group(dice)}")
        out = [f"📜 ({die_numbers([q.die])}) → {ctx.name(q.rival)}" for q in s.scroll_queue]
        if out:
            lines.append(_("With rivals: {dice}", dice=" · ".join(out)))
        if s.rolling is not None:
            # The die a rival has just rolled for this player stays in sight while its fate is decided.
            rolled = dice_group([s.die(s.rolling.die)])
            lines.append(_("Rolled by {rival}: {dice}", rival=ctx.name(s.rolling.rival), dice=rolled))
        counts = s.counts()
        lines.append(
            _(
                "Count: 👑 {crowns} · 🗡️ {daggers} · 💀 {skulls}",
                crowns=counts.crowns,
                daggers=counts.daggers,
                skulls=counts.skulls,
            )
        )
        rerollable = [_n("{n} skull", "{n} skulls", counts.free_skulls)] if counts.free_skulls else []
        rerollable += [_n("{n} scroll", "{n} scrolls", counts.ret_scrolls)] if counts.ret_scrolls else []
        if rerollable and s.phase is Phase.DECIDE:
            lines.append(_("Can reroll: {dice}", dice=", ".join(rerollable)))
        return "\n".join(lines)

    def _controls(self, ctx: Ctx, s: CrownsState) -> list[list[discord.ui.Item[Any]]]:
        """Buttons and selects for exactly the legal actions of whoever must act now."""
        legal: list[BaseModel] = []
        for prompt in ctx.prompts:
            legal += [a for a in ENGINE.legal_actions(s, prompt.player) if a not in legal]
        builder = _CONTROLS.get(s.phase)
        return builder(self, ctx, s, legal) if builder else []

    def _turn_start(self, ctx: Ctx, s: CrownsState, legal: list[BaseModel]) -> list[list[Any]]:
        handed = sum(1 for d in s.dice if d.holder == s.active and d.state is DieState.HANDED)
        label = _n("Roll {n} dice", "Roll {n} dice", handed)
        return [[ctx.button(label, ROLL, style=discord.ButtonStyle.primary, emoji="🎲")]]

    def _scroll_assign(self, ctx: Ctx, s: CrownsState, legal: list[BaseModel]) -> list[list[Any]]:
        one = (AssignScroll, N_("Scroll {die} → {rival}"), "📜")
        return _die_by_die(ctx, legal, one, (AssignAll, N_("All scrolls → {rival}")))

    def _give_dagger(self, ctx: Ctx, s: CrownsState, legal: list[BaseModel]) -> list[list[Any]]:
        buttons = [
            ctx.button(
                _("Dagger → {player}", player=ctx.session.name_of(a.to)) if a.to else _("Dagger → random player"),
                a,
                emoji="🗡️",
            )
            for a in legal
            if isinstance(a, GiveDagger)
        ]
        return chunks(buttons)

    def _decide(self, ctx: Ctx, s: CrownsState, legal: list[BaseModel]) -> list[list[Any]]:
        counts = s.counts()
        sizes = {"skulls": counts.free_skulls, "scrolls": counts.ret_scrolls}
        sizes["both"] = sizes["skulls"] + sizes["scrolls"]
        row: list[Any] = []
        for a in legal:
            if isinstance(a, Reroll):
                label = _("Reroll {group} ({n})", group=_(REROLL_GROUPS[a.group]), n=sizes[a.group])
                row.append(ctx.button(label, a, style=discord.ButtonStyle.primary, emoji="🎲"))
        if SETTLE in legal:
            row.append(ctx.button(_("Settle for 1 Fate"), SETTLE, style=discord.ButtonStyle.success, emoji=FATE))
        if END_TURN in legal:
            row.append(ctx.button(_("End turn"), END_TURN))
        return [row]

    def _six_skulls(self, ctx: Ctx, s: CrownsState, legal: list[BaseModel]) -> list[list[Any]]:
        labels = {"claim": (_("Take 1 Claim"), CLAIM), "fate": (_("Take 2 Fate"), FATE)}
        return [
            [ctx.button(labels[a.choice][0], a, emoji=labels[a.choice][1]) for a in legal if isinstance(a, SixSkulls)]
        ]

    def _last_stand(self, ctx: Ctx, s: CrownsState, legal: list[BaseModel]) -> list[list[Any]]:
        return [
            [
                ctx.button(
                    _("Steal the Crown"),
                    LastStandChoice(steal=True),
                    style=discord.ButtonStyle.danger,
                    emoji=THE_CROWN,
                ),
                ctx.button(_("Take my roll"), LastStandChoice(steal=False)),
            ]
        ]

    def _steal(self, ctx: Ctx, s: CrownsState, legal: list[BaseModel]) -> list[list[Any]]:
        buttons = [
            ctx.button(
                _("Steal from {rival} ({claims})", rival=ctx.session.name_of(a.rival), claims=s.seat(a.rival).claims),
                a,
                emoji=CLAIM,
            )
            for a in legal
            if isinstance(a, Steal)
        ]
        return chunks(buttons)

    def _overkill(self, ctx: Ctx, s: CrownsState, legal: list[BaseModel]) -> list[list[Any]]:
        one = (Overkill, N_("Dagger {die} → {rival}"), "🗡️")
        return _die_by_die(ctx, legal, one, (OverkillAll, N_("All extra daggers → {rival}")))

    def _fate_window(self, ctx: Ctx, s: CrownsState, legal: list[BaseModel]) -> list[list[Any]]:
        rows: list[list[Any]] = []
        own = [a for a in legal if isinstance(a, FateReroll)]
        if own:
            choices = [self._die_choice(ctx, s, a) for a in own]
            who = ctx.session.name_of(s.active)[:60]
            rows.append([ctx.select(choices, placeholder=_("{player}: reroll one of your dice (1 Fate)", player=who))])
        meddles = [a for a in legal if isinstance(a, Meddle)]
        if meddles:
            choices = [self._die_choice(ctx, s, a) for a in meddles]
            rows.append([ctx.select(choices, placeholder=_("Reroll any die on the table (2 Fate)"))])
        rows.append([ctx.button(_p("fate window", "Pass"), PASS_FATE, emoji="✋")])
        return rows

    @staticmethod
    def _die_choice(ctx: Ctx, s: CrownsState, action: FateReroll | Meddle) -> Choice:
        die = s.die(action.die)
        holder = ctx.session.name_of(die.holder) if die.holder else _("nobody")
        shown = FACE_NAMES[die.face] if die.face else _("not rolled")
        label = _("Die {die}: {face} — {holder}", die=die.id, face=shown, holder=holder)
        return Choice(label=label, action=action, emoji=FACE_EMOJI.get(die.face or "", "🎲"))

    # -- words ---------------------------------------------------------------------------------

    def retired(self, ctx: Ctx) -> str:
        """One line for a board that is replaced: "Turn 3 · Bob rolled 👑👑💀 and earned a Claim"."""
        return retired_line(ctx.session, ctx.events, ctx.state)

    def narrate(self, session: Session, events: list[dict[str, Any]]) -> list[str]:
        """One plain sentence per event worth telling."""

        def name(player: str | None) -> str:
            if player is None:
                return _("nobody")
            return f"**{escape_name(session.name_of(player))}**"

        return [line for event in events if (line := narrate_event(event, name))]

    def describe_options(self, options: BaseModel) -> str:
        """The options in force, one line each: target, modules, timers, and every changed house rule."""
        assert isinstance(options, CrownsOptions)
        modules = [_(label) for key, label in MODULE_NAMES.items() if getattr(options, key)]
        turn, window = options.timeouts["turn"], options.timeouts["fate_window"]
        lines = [
            _("Claims to win: {n}", n=options.claim_target),
            _("Modules: {modules}", modules=", ".join(modules) if modules else _("none (Quick Play)")),
            _("Decision timer: {turn} s; fate window: {window} s", turn=turn, window=window)
            if options.fate
            else _("Decision timer: {turn} s", turn=turn),
        ]
        defaults = CrownsOptions()
        for option in self.lobby_options:
            value = getattr(options, option.key)
            if value != getattr(defaults, option.key):
                chosen = next((_(label) for label, v in option.choices if v == value), str(value))
                lines.append(f"{_(option.label)}: {chosen}")
        return "\n".join(lines)

    @staticmethod
    def short_options(options: CrownsOptions) -> str:
        """One footer line: target and modules."""
        modules = [_(label) for key, label in MODULE_NAMES.items() if getattr(options, key)]
        chosen = ", ".join(modules) if modules else "Quick Play"  # the rulebook's name for the basic game
        return _("First to {n} Claims · {modules}", n=options.claim_target, modules=chosen)

    def rules_summary(self) -> str:
        """How a turn goes, in a few lines."""
        return _(
            "Roll all the dice handed to you. 👑 crowns and 🗡️ daggers are set aside; 📜 scrolls must be given "
            "to rivals, who roll them for you: a crown stays with them, a dagger goes to whoever they choose, "
            "a skull or scroll comes back to you.\n"
            "3 👑 earn a Claim; 5 💀 earn a Claim; 3 🗡️ end your turn with nothing. Otherwise reroll your skulls, "
            "your returned scrolls, or both — all of a group or none. Your turn ends when you earn a token, are "
            "betrayed, or have nothing left to reroll; then all your dice go to the next player.\n"
            "First to the Claim target wins."
        )


@dataclass
class TurnStory:
    """What the events of one turn tell: the turn's number, its player (when the events show it), the events."""

    turn: int
    player: str | None
    events: list[dict[str, Any]] = field(default_factory=list)

    @property
    def started_here(self) -> bool:
        """The turn's start is among the events (not only its end)."""
        return bool(self.events) and self.events[0]["type"] == "turn_started"

    @property
    def unchosen(self) -> bool:
        """Nobody chose anything in it: the start of a turn, the bot's rolls for its player and what followed."""
        return self.started_here and all(_automatic(e) for e in self.events)


# Whose turn an event shows, by its type: the field that names the active player.
_ACTIVE_FIELD = {
    "rolled": "player",
    "turn_ended": "player",
    "scroll_assigned": "player",
    "scroll_rolled": "active",
    "die_returned": "to",
    "betrayal": "player",
    "dice_passed": "player",
    "no_roll": "player",
}
# Events nobody chose: a turn's start and what follows from a roll (the choices are the rolls and hand-outs).
_AUTOMATIC = frozenset(
    {
        "turn_started",
        "no_roll",
        "messenger_ended",
        "legendary",
        "scroll_rolled",
        "die_kept",
        "die_returned",
        "claim_gained",
        "fate_gained",
        "betrayal",
        "turn_ended",
        "dice_passed",
    }
)


_FOLLOW_UPS = frozenset({"die_kept", "die_returned"})


def _automatic(event: dict[str, Any]) -> bool:
    """An event of a turn's start that nobody chose: the opening roll and what follows from it alone."""
    if event.get("forced"):
        return True
    if event["type"] == "rolled":
        return bool(event["reason"] == "turn_roll")
    if event["type"] == "dagger_given":
        return bool(event["how"] != "choice")
    return event["type"] in _AUTOMATIC


def turn_stories(events: list[dict[str, Any]], current: CrownsState) -> list[TurnStory]:
    """The events split by turn, each turn numbered and with its player, as the log says.

    Events before the first ``turn_started`` belong to the turn before it (or to the turn in progress)."""
    first = next((e for e in events if e["type"] == "turn_started"), None)
    stories = [TurnStory(first["turn"] - 1 if first else current.turn_no, None)]
    for event in events:
        if event["type"] == "turn_started":
            stories.append(TurnStory(event["turn"], event["player"]))
        stories[-1].events.append(event)
    stories = [story for story in stories if story.events]
    for story in stories:
        if story.player is None:
            story.player = next((e[_ACTIVE_FIELD[e["type"]]] for e in story.events if e["type"] in _ACTIVE_FIELD), None)
    if stories and stories[-1].player is None and first is None:
        stories[-1].player = current.active
    return stories


def board_stories(events: list[dict[str, Any]], current: CrownsState) -> list[TurnStory]:
    """The turns a retired board tells, from the events since it was posted (the core includes the change that
    posted it, and the one that replaces it): not the end of the turn before it nor a turn the bot played out
    before the board was posted, which the board it replaced told, nor the start of the next turn, which the
    new board shows."""
    stories = turn_stories(events, current)
    if len(stories) > 1 and stories[-1].unchosen:
        stories.pop()
    while len(stories) > 1 and (not stories[0].started_here or stories[0].unchosen):
        stories.pop(0)
    return stories


def retired_line(session: Session, events: list[dict[str, Any]], current: CrownsState) -> str:
    """What happened on a board, in one line: each turn it saw, with whose turn it was, the last roll and
    how it ended: "Turn 3 · Bob rerolled 👑👑💀 and earned 1 Claim"."""

    def name(player: str | None) -> str:
        return f"**{escape_name(session.name_of(player))}**" if player is not None else _("nobody")

    clauses = [_story_clause(story, name) for story in board_stories(events, current)]
    return " · ".join(clause for clause in clauses if clause) or _("the game moved on.")


def _story_clause(story: TurnStory, name: Callable[[str | None], str]) -> str:
    """One turn in a few words: its player's last roll and the turn's outcome, each with who it was."""
    rolls = [e for e in story.events if e["type"] == "rolled"]
    parts: list[str] = []
    subject = None
    if rolls:
        last = rolls[-1]
        subject = last["player"]
        faces = "".join(FACE_EMOJI[d["face"]] for d in last["dice"])
        if last["reason"] == "turn_roll":
            parts.append(_("{player} rolled {faces}", player=name(subject), faces=faces))
        else:
            parts.append(_("{player} rerolled {faces}", player=name(subject), faces=faces))
    outcome = next((e for e in reversed(story.events) if e["type"] in _OUTCOMES), None)
    if outcome is not None:
        who = outcome.get("player", outcome.get("winner"))
        told = _OUTCOMES[outcome["type"]](outcome)
        parts.append(told if who == subject else _("{player} {outcome}", player=name(who), outcome=told))
    if not parts:
        # A die's way back after a rival's roll is part of that roll's line: tell the roll.
        lines = [line for e in story.events if e["type"] not in _FOLLOW_UPS and (line := narrate_event(e, name))]
        parts += lines[-1:]
    if not parts:
        return ""
    clause = parts[0] if len(parts) == 1 else _("{roll} and {outcome}", roll=parts[0], outcome=parts[1])
    return _("Turn {turn} · {story}", turn=story.turn, story=clause)


_OUTCOMES: dict[str, Callable[[dict[str, Any]], str]] = {
    "game_over": lambda e: _("won the game 🏆"),
    "claim_gained": lambda e: _n("earned {n} Claim", "earned {n} Claims", e["count"]),
    "betrayal": lambda e: _("was betrayed 🗡️"),
    "fate_gained": lambda e: _("took {n} Fate", n=e["count"]),
    "crown_taken": lambda e: _("took the Crown"),
}


_CONTROLS: dict[Phase, Callable[[CrownsSpec, Ctx, CrownsState, list[BaseModel]], list[list[Any]]]] = {
    Phase.TURN_START: CrownsSpec._turn_start,
    Phase.SCROLL_ASSIGN: CrownsSpec._scroll_assign,
    Phase.DAGGER_ASSIGN: CrownsSpec._give_dagger,
    Phase.DECIDE: CrownsSpec._decide,
    Phase.SIX_SKULLS: CrownsSpec._six_skulls,
    Phase.LAST_STAND: CrownsSpec._last_stand,
    Phase.STEAL: CrownsSpec._steal,
    Phase.OVERKILL_ASSIGN: CrownsSpec._overkill,
    Phase.FATE_WINDOW: CrownsSpec._fate_window,
}

Narrator = Callable[[dict[str, Any], Callable[[str | None], str]], str | None]


def narrate_event(event: dict[str, Any], name: Callable[[str | None], str]) -> str | None:
    """The sentence for one event (None: told elsewhere, or not worth a line). Every event type the engine emits
    is declared in ``_NARRATORS`` (``tests/test_crowns_declared.py`` checks it); one that is not is a bug, said in
    the log rather than dropped without a word."""
    narrator = _NARRATORS.get(event["type"])
    if narrator is None:
        log.warning("Dice of Crowns: no narrator for event %r", event["type"])
        return None
    return narrator(event, name)


def _rolled(e: dict[str, Any], n: Callable[[str | None], str]) -> str:
    faces = " ".join(FACE_EMOJI[d["face"]] for d in e["dice"])
    if e["reason"] == "turn_roll":
        # Nobody clicked it: say who it was for and why the bot rolled it.
        return "🎲 " + _n(
            "The bot rolled {player}'s {n} dice to start the turn: {faces}",
            "The bot rolled {player}'s {n} dice to start the turn: {faces}",
            len(e["dice"]),
            player=n(e["player"]),
            faces=faces,
        )
    group = _(REROLL_GROUPS.get(e["group"], e["group"]))
    if e.get("forced"):
        # A reroll with no alternative is the bot's: say so.
        return _(
            "{player} rerolled {group}: {faces} (the only choice)", player=n(e["player"]), group=group, faces=faces
        )
    return _("{player} rerolled {group}: {faces}", player=n(e["player"]), group=group, faces=faces)


def _game_started(e: dict[str, Any], n: Callable[[str | None], str]) -> str:
    first = n(e["first_player"])
    if e.get("how") == "random":
        return _("{player} goes first (drawn at random), with all 7 dice.", player=first)
    if e.get("how") == "host":
        return _("{player} goes first (the first seat), with all 7 dice.", player=first)
    return _("{player} goes first, with all 7 dice.", player=first)


def _turn_ended(e: dict[str, Any], n: Callable[[str | None], str]) -> str:
    known = TURN_END_REASONS.get(e["reason"])
    reason = _(known) if known else e["reason"].replace("_", " ")
    return _("{player}'s turn ends ({reason}).", player=n(e["player"]), reason=reason)


def _fate_reroll(e: dict[str, Any], n: Callable[[str | None], str]) -> str:
    change = f"{FACE_EMOJI.get(e['old_face'], '🎲')} → {face(e['face'])}"
    said = {"player": n(e["player"]), "cost": e["cost"], "die": e["die"], "change": change}
    if e["holder"] == e["player"]:
        return f"{FATE} " + _("{player} spends {cost} Fate to reroll their die {die} ({change}).", **said)
    return f"{FATE} " + _(
        "{player} spends {cost} Fate to reroll {holder}'s die {die} ({change}).", holder=n(e["holder"]), **said
    )


def _game_over(e: dict[str, Any], n: Callable[[str | None], str]) -> str:
    if e["reason"] == "forfeit":
        return "🏆 " + _("{player} seizes the Crown by forfeit!", player=n(e["winner"]))
    return "🏆 " + _("{player} seizes the Crown!", player=n(e["winner"]))


def _dagger_given(e: dict[str, Any], n: Callable[[str | None], str]) -> str:
    said = {"player": n(e["player"]), "to": n(e["to"])}
    if e["how"] == "default":
        return _("{player} gives the dagger to {to} (time ran out).", **said)
    if e["how"] == "random":
        return _("{player} gives the dagger to {to} (at random).", **said)
    return _("{player} gives the dagger to {to}.", **said)


def _betrayal(e: dict[str, Any], n: Callable[[str | None], str]) -> str:
    said = {"player": n(e["player"]), "daggers": e["daggers"]}
    if e.get("crown_kept"):
        return "🗡️ " + _(
            "Betrayal! {player} holds {daggers} daggers: no token this turn. They keep the Crown for another round.",
            **said,
        )
    return "🗡️ " + _("Betrayal! {player} holds {daggers} daggers: no token this turn.", **said)


def _crown_taken(e: dict[str, Any], n: Callable[[str | None], str]) -> str:
    if e.get("rival"):
        return f"{THE_CROWN} " + _("{player} takes the Crown from {rival}!", player=n(e["player"]), rival=n(e["rival"]))
    return f"{THE_CROWN} " + _("{player} takes the Crown!", player=n(e["player"]))


_NARRATORS: dict[str, Narrator] = {
    "game_started": _game_started,
    "turn_started": lambda e, n: None,
    "no_roll": lambda e, n: _(
        "{player} has no dice to roll; their held dice count as they are.", player=n(e["player"])
    ),
    "messenger_ended": lambda e, n: _(
        "{player} rolls again and is no longer immune to daggers.", player=n(e["player"])
    ),
    "rolled": _rolled,
    "legendary": lambda e, n: _(
        "✨ **{name}!** ({player}, 7 × {face})",
        name=LEGENDARY_NAMES[e["face"]],
        player=n(e["player"]),
        face=face(e["face"]),
    ),
    "scroll_assigned": lambda e, n: _(
        "{player} gives scroll die {die} to {rival}.", player=n(e["player"]), die=e["die"], rival=n(e["rival"])
    ),
    "scroll_rolled": lambda e, n: _(
        "{player} rolled {active}'s scroll die {die}: {face}.",
        player=n(e["player"]),
        active=n(e["active"]),
        die=e["die"],
        face=face(e["face"]),
    ),
    "die_kept": lambda e, n: _("{player} keeps the Rightful Heir for their own turn.", player=n(e["player"])),
    "die_returned": lambda e, n: _("It goes back to {player}.", player=n(e["to"])),
    "dagger_given": _dagger_given,
    "fate_window_opened": lambda e, n: (
        f"{FATE} " + _("Fate window: {players} may act.", players=", ".join(n(p) for p in e["players"]))
    ),
    "fate_passed": lambda e, n: None,
    "fate_window_closed": lambda e, n: None,
    "fate_reroll": _fate_reroll,
    "claim_gained": lambda e, n: (
        f"{CLAIM} "
        + _n(
            "{player} earns {n} Claim (now {total}).",
            "{player} earns {n} Claims (now {total}).",
            e["count"],
            player=n(e["player"]),
            total=e["total"],
        )
    ),
    "fate_gained": lambda e, n: (
        f"{FATE} "
        + _("{player} gains {count} Fate (now {total}).", player=n(e["player"]), count=e["count"], total=e["total"])
    ),
    "claim_stolen": lambda e, n: _("{player} steals a Claim from {rival}.", player=n(e["player"]), rival=n(e["rival"])),
    "nothing_to_steal": lambda e, n: _("No rival has a Claim for {player} to steal.", player=n(e["player"])),
    # Crimson Feast takes one Claim (data/crowns/dice.yaml): the plural is for a variant that takes more.
    "claim_lost": lambda e, n: _n(
        "{player} loses {n} Claim (now {total}).",
        "{player} loses {n} Claims (now {total}).",
        e["count"],
        player=n(e["player"]),
        total=e["total"],
    ),
    "betrayal": _betrayal,
    "overkill_kept": lambda e, n: _("No rival can take the extra daggers; {player} keeps them.", player=n(e["player"])),
    "overkill": lambda e, n: _(
        "{player} sends extra dagger {die} to {rival}.", player=n(e["player"]), die=e["die"], rival=n(e["rival"])
    ),
    "crown_taken": _crown_taken,
    "turn_ended": _turn_ended,
    "dice_passed": lambda e, n: _n(
        "{player} passes {n} dice to {to}.",
        "{player} passes {n} dice to {to}.",
        len(e["dice"]),
        player=n(e["player"]),
        to=n(e["to"]),
    ),
    "player_left": lambda e, n: _("{player} left the table.", player=n(e["player"])),
    # The core's own events: told by the core (a note on the board, news in the channel).
    TIMED_OUT: lambda e, n: None,
    COMPUTER_SEAT: lambda e, n: None,
    "crown_returned": lambda e, n: _("The Crown goes back in the box."),
    "game_over": _game_over,
}


@app_commands.guild_only()
class Crowns(commands.GroupCog, group_name="crowns", group_description="Dice of Crowns."):
    """``/crowns new``: open a Dice of Crowns lobby in this channel."""

    def __init__(self, bot: TabletopBot) -> None:
        self.bot = bot
        bot.register(CrownsSpec())
        bot.add_setting(TARGET_SETTING)
        super().__init__()

    @app_commands.command(
        name="new", description="Open a Dice of Crowns lobby here (2–6 players).", extras=PUBLIC_ANSWER
    )
    @app_commands.describe(
        target="Claims needed to win (default: the server's setting, else 3; Last Stand plays to 5).",
        fate="Advanced: Fate tokens (settle, pictured pair, Fate rerolls).",
        legendary="Advanced: Legendary rolls (7 of a kind).",
        overkill="Advanced: Overkill & Cascading Betrayal.",
        last_stand="Advanced: Last Stand (hold the Crown for a round).",
        bots="Computer players to seat now (more can be added in the lobby).",
        timeout="Seconds for each decision before its default is taken (default: server setting, else 120).",
        fate_window="Seconds the fate window stays open.",
        seating="Seat order: join order or random.",
        thread="Play in a new thread (default: the server's setting).",
    )
    @app_commands.choices(
        target=[
            app_commands.Choice(name="3 Claims (Quick Play)", value=3),
            app_commands.Choice(name="5 Claims", value=5),
        ]
    )
    @app_commands.choices(
        seating=[
            app_commands.Choice(name="join order", value="join"),
            app_commands.Choice(name="random", value="random"),
        ]
    )
    async def new(
        self,
        interaction: discord.Interaction,
        target: int | None = None,
        fate: bool = False,
        legendary: bool = False,
        overkill: bool = False,
        last_stand: bool = False,
        bots: app_commands.Range[int, 0, 5] = 0,
        timeout: app_commands.Range[int, 30, 3600] | None = None,
        fate_window: app_commands.Range[int, 5, 300] = 20,
        seating: str = "join",
        thread: bool | None = None,
    ) -> None:
        """Open the lobby with the common options; the rest are in the lobby's Options menu."""
        if target is None and interaction.guild_id is not None:
            target = (await self.bot.store.guild_settings(interaction.guild_id)).game(TARGET_SETTING.name, 3)
        options = CrownsOptions(
            claim_target=5 if target == 5 else 3,
            fate=fate,
            legendary=legendary,
            overkill=overkill,
            last_stand=last_stand,
            timeouts={"fate_window": fate_window},
        )
        await self.bot.lobby.open(
            Reply.of(interaction),
            ENGINE.kind,
            options,
            computers=bots,
            seating=seating,
            thread=thread,
            turn_timeout=timeout,
        )


async def setup(bot: TabletopBot) -> None:
    """discord.py extension entry point."""
    await bot.add_cog(Crowns(bot))
