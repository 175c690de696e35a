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
    "fate": "Fate tokens",
    "legendary": "Legendary rolls",
    "overkill": "Overkill",
    "last_stand": "Last Stand",
}
TURN_END_REASONS = {
    "claim": "a token was earned",
    "settled": "settled for Fate",
    "betrayal": "betrayed",
    "no_dice": "no dice left to reroll",
    "voluntary": "stopped",
    "crown_steal": "took the Crown",
    "unreachable": "no set can be reached",
}

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
    return f"die {ids[0]}" if len(ids) == 1 else f"dice {', '.join(ids)}"


def chunks(items: list[Any], size: int = ROW_WIDTH) -> list[list[Any]]:
    """Split ``items`` into rows of at most ``size``."""
    return [items[i : i + size] for i in range(0, len(items), size)]


Ctx = ViewContext[CrownsState]


TARGET_SETTING = game_setting(
    "crowns_target",
    "Dice of Crowns: Claims needed to win in new games, unless /crowns new says.",
    int,
    3,
    lambda value: f"Dice of Crowns games are played to **{value} Claims** unless `/crowns new` says.",
    choices=(("3 Claims (Quick Play)", 3), ("5 Claims", 5)),
)
"""A server's usual Claim target (a game's own ``/settings`` option)."""


def _die_by_die(
    ctx: Ctx, legal: list[BaseModel], one: tuple[type[BaseModel], str, str], every: tuple[type[BaseModel], str]
) -> list[list[Any]]:
    """Buttons sending the first die still to place to each rival (``one``: its action, noun and emoji), and
    buttons sending all of them to one rival (``every``: its action and label)."""
    (single, noun, emoji), (all_of, label) = one, every
    singles: list[Any] = [a for a in legal if isinstance(a, single)]
    alls: list[Any] = [a for a in legal if isinstance(a, all_of)]
    die = singles[0].die  # one die at a time keeps the choice within a row of buttons
    name = ctx.session.name_of
    buttons = [ctx.button(f"{noun} {die} → {name(a.rival)}", a, emoji=emoji) for a in singles if a.die == die]
    to_one = [ctx.button(f"{label} → {name(a.rival)}", a, style=discord.ButtonStyle.primary) for a in alls]
    return chunks(buttons) + chunks(to_one)


class CrownsSpec(GameSpec[CrownsState]):
    """The Dice of Crowns game as the core sees it."""

    kind = GameKind(ENGINE)
    luck_faces = (FaceLuck("👑 crowns", 1, 6), FaceLuck("🗡️ daggers", 2, 6))  # data/crowns/dice.yaml: d6 1, 2
    legend = LEGEND
    lobby_options = (
        LobbyOption("first_player", "First player", (("Random first player", "random"), ("First seat starts", "host"))),
        LobbyOption(
            "six_skulls",
            "6 skulls with Fate tokens",
            (("Choose 1 Claim or 2 Fate", "choose"), ("Always 1 Claim", "claim"), ("Always 2 Fate", "fate")),
        ),
        LobbyOption(
            "dagger_timeout_default",
            "A dagger nobody assigned in time goes to",
            (("The rival who rolled it", "self"), ("The active player", "active"), ("A random player", "random")),
        ),
        LobbyOption(
            "fate_windows",
            "When Fate can be spent",
            (("After scrolls are resolved", "post_resolution"), ("Also before each scroll result", "also_pre_scroll")),
        ),
        LobbyOption(
            "legendary_mode",
            "What counts as 7 of a kind",
            (("All 7 dice you hold", "possession"), ("One roll of all 7 dice", "single_roll")),
        ),
        LobbyOption(
            "twists_fallback",
            "7 skulls when no rival has a Claim",
            (("Take a Claim from the supply", "supply_claim"), ("Nothing", "nothing")),
        ),
        LobbyOption(
            "meddle_held_die",
            "A 2-Fate reroll of a rival's die",
            (("Skulls and scrolls go to the active player", "scroll_like"), ("The die stays with its holder", "stays")),
        ),
        LobbyOption(
            "legendary_on_fate_reroll",
            "Fate rerolls count towards 7 of a kind",
            (("No", False), ("Yes", True)),
        ),
        LobbyOption(
            "auto_end_unreachable",
            "End the turn when no set can be reached",
            (("No (reroll until no dice are left)", False), ("Yes", True)),
        ),
        LobbyOption("allow_voluntary_end", "Allow ending a turn by choice", (("No", False), ("Yes", True))),
        LobbyOption("limit_fate_supply", "Limit Fate tokens to the box's 10", (("No", False), ("Yes", True))),
    )

    # -- the board ---------------------------------------------------------------------------------

    def render(self, ctx: Ctx) -> View:
        """The table, the active player's dice, what just happened, and controls for who must act."""
        s = ctx.state
        over = ctx.over
        title = "Dice of Crowns · final standings" if over else f"Dice of Crowns · turn {s.turn_no}, round {s.round_no}"
        embed = discord.Embed(title=title, colour=discord.Colour.gold())
        news = self.narrate(ctx.session, ctx.events)
        if news:
            embed.description = "\n".join(news[-MAX_NEWS_LINES:])[:4000]
        embed.add_field(name="Table", value=self._table(ctx, s)[:1024], inline=False)
        if not over:
            embed.add_field(name=f"{ctx.name(s.active)}'s dice", value=self._active_dice(ctx, s)[:1024], inline=False)
        if s.phase is Phase.FATE_WINDOW:
            waiting = ", ".join(ctx.name(p.player) for p in ctx.prompts) or "nobody"
            embed.add_field(name=f"{FATE} Fate window", value=f"May spend Fate now: {waiting}.", inline=False)
        footer = self.short_options(s.options)
        embed.set_footer(text=f"{footer}\n{LEGEND}" if ctx.first else footer)  # the key to the faces, once
        rows: list[list[discord.ui.Item[Any]]]
        rows = self._controls(ctx, s) if not over else [[ctx.core_button("Rematch", "rematch", emoji="🔁")]]
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
                lines.append(f"· ~~{name}~~ (left)")
                continue
            marker = "▶" if seat.id == s.active and s.phase is not Phase.GAME_OVER else "·"
            parts = [f"{marker} **{name}** {CLAIM} {seat.claims}/{target}"]
            if s.options.fate:
                parts.append(f"{FATE} {seat.fate}")
            if s.crown_holder == seat.id:
                parts.append(f"{THE_CROWN} holds the Crown")
            if seat.messenger:
                parts.append("📜 immune to daggers")
            if seat.id == s.winner:
                parts.append("🏆")
            held = [d for d in s.held(seat.id) if seat.id != s.active and d.state is DieState.LOCKED]
            if held:
                parts.append("holds " + dice_group(held))
            lines.append(" · ".join(parts))
        return "\n".join(lines)

    @staticmethod
    def _active_dice(ctx: Ctx, s: CrownsState) -> str:
        groups = (
            ("To roll", DieState.HANDED),
            ("Set aside", DieState.LOCKED),
            ("Skulls", DieState.FREE_SKULL),
            ("Returned scrolls", DieState.RETURNED_SCROLL),
            ("New scrolls", DieState.PENDING_SCROLL),
        )
        lines = []
        for label, state in groups:
            dice = [d for d in s.dice if d.holder == s.active and d.state is state]
            if dice:
                lines.append(f"{label}: {dice_group(dice)}")
        out = [f"📜 (die {q.die}) → {ctx.name(q.rival)}" for q in s.scroll_queue]
        if out:
            lines.append("With rivals: " + " · ".join(out))
        if s.rolling is not None:
            # The die a rival has just rolled for this player stays in sight while its fate is decided.
            lines.append(f"Rolled by {ctx.name(s.rolling.rival)}: {dice_group([s.die(s.rolling.die)])}")
        counts = s.counts()
        lines.append(f"Count: 👑 {counts.crowns} · 🗡️ {counts.daggers} · 💀 {counts.skulls}")
        rerollable = [f"{n} {what}" for n, what in ((counts.free_skulls, "skull"), (counts.ret_scrolls, "scroll")) if n]
        if rerollable and s.phase is Phase.DECIDE:
            lines.append("Can reroll: " + ", ".join(f"{r}{'s' if not r.startswith('1 ') else ''}" for r in rerollable))
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
        return [[ctx.button(f"Roll {handed} dice", ROLL, style=discord.ButtonStyle.primary, emoji="🎲")]]

    def _scroll_assign(self, ctx: Ctx, s: CrownsState, legal: list[BaseModel]) -> list[list[Any]]:
        return _die_by_die(ctx, legal, (AssignScroll, "Scroll", "📜"), (AssignAll, "All scrolls"))

    def _give_dagger(self, ctx: Ctx, s: CrownsState, legal: list[BaseModel]) -> list[list[Any]]:
        buttons = [
            ctx.button(f"Dagger → {ctx.session.name_of(a.to)}" if a.to else "Dagger → random player", a, emoji="🗡️")
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
                label = f"Reroll {a.group} ({sizes[a.group]})"
                row.append(ctx.button(label, a, style=discord.ButtonStyle.primary, emoji="🎲"))
        if SETTLE in legal:
            row.append(ctx.button("Settle for 1 Fate", SETTLE, style=discord.ButtonStyle.success, emoji=FATE))
        if END_TURN in legal:
            row.append(ctx.button("End turn", END_TURN))
        return [row]

    def _six_skulls(self, ctx: Ctx, s: CrownsState, legal: list[BaseModel]) -> list[list[Any]]:
        labels = {"claim": ("Take 1 Claim", CLAIM), "fate": ("Take 2 Fate", FATE)}
        return [
            [ctx.button(labels[a.choice][0], a, emoji=labels[a.choice][1]) for a in legal if isinstance(a, SixSkulls)]
        ]

    def _last_stand(self, ctx: Ctx, s: CrownsState, legal: list[BaseModel]) -> list[list[Any]]:
        return [
            [
                ctx.button(
                    "Steal the Crown", LastStandChoice(steal=True), style=discord.ButtonStyle.danger, emoji=THE_CROWN
                ),
                ctx.button("Take my roll", LastStandChoice(steal=False)),
            ]
        ]

    def _steal(self, ctx: Ctx, s: CrownsState, legal: list[BaseModel]) -> list[list[Any]]:
        buttons = [
            ctx.button(f"Steal from {ctx.session.name_of(a.rival)} ({s.seat(a.rival).claims})", a, emoji=CLAIM)
            for a in legal
            if isinstance(a, Steal)
        ]
        return chunks(buttons)

    def _overkill(self, ctx: Ctx, s: CrownsState, legal: list[BaseModel]) -> list[list[Any]]:
        return _die_by_die(ctx, legal, (Overkill, "Dagger", "🗡️"), (OverkillAll, "All extra daggers"))

    def _fate_window(self, ctx: Ctx, s: CrownsState, legal: list[BaseModel]) -> list[list[Any]]:
        rows: list[list[Any]] = []
        own = [a for a in legal if isinstance(a, FateReroll)]
        if own:
            choices = [self._die_choice(ctx, s, a) for a in own]
            who = ctx.session.name_of(s.active)[:60]
            rows.append([ctx.select(choices, placeholder=f"{who}: reroll one of your dice (1 Fate)")])
        meddles = [a for a in legal if isinstance(a, Meddle)]
        if meddles:
            choices = [self._die_choice(ctx, s, a) for a in meddles]
            rows.append([ctx.select(choices, placeholder="Reroll any die on the table (2 Fate)")])
        rows.append([ctx.button("Pass", PASS_FATE, emoji="✋")])
        return rows

    @staticmethod
    def _die_choice(ctx: Ctx, s: CrownsState, action: FateReroll | Meddle) -> Choice:
        die = s.die(action.die)
        holder = ctx.session.name_of(die.holder) if die.holder else "nobody"
        label = f"Die {die.id}: {FACE_NAMES[die.face] if die.face else 'not rolled'} — {holder}"
        return Choice(label=label, action=action, emoji=FACE_EMOJI.get(die.face or "", "🎲"))

    # -- words ---------------------------------------------------------------------------------

    def retired(self, ctx: Ctx) -> str:
        """One line for a board that is replaced: "Turn 3 · Bob rolled 👑👑💀 and earned a Claim"."""
        return retired_line(ctx.session, ctx.events, ctx.state)

    def narrate(self, session: Session, events: list[dict[str, Any]]) -> list[str]:
        """One plain sentence per event worth telling."""

        def name(player: str | None) -> str:
            if player is None:
                return "nobody"
            return f"**{escape_name(session.name_of(player))}**"

        return [line for event in events if (line := narrate_event(event, name))]

    def describe_options(self, options: BaseModel) -> str:
        """The options in force, one line each: target, modules, timers, and every changed house rule."""
        assert isinstance(options, CrownsOptions)
        modules = [label for key, label in MODULE_NAMES.items() if getattr(options, key)]
        lines = [
            f"Claims to win: {options.claim_target}",
            f"Modules: {', '.join(modules) if modules else 'none (Quick Play)'}",
            f"Decision timer: {options.timeouts['turn']} s"
            + (f"; fate window: {options.timeouts['fate_window']} s" if options.fate else ""),
        ]
        defaults = CrownsOptions()
        for option in self.lobby_options:
            value = getattr(options, option.key)
            if value != getattr(defaults, option.key):
                chosen = next((label for label, v in option.choices if v == value), str(value))
                lines.append(f"{option.label}: {chosen}")
        return "\n".join(lines)

    @staticmethod
    def short_options(options: CrownsOptions) -> str:
        """One footer line: target and modules."""
        modules = [label for key, label in MODULE_NAMES.items() if getattr(options, key)]
        return f"First to {options.claim_target} Claims · " + (", ".join(modules) if modules else "Quick Play")

    def rules_summary(self) -> str:
        """How a turn goes, in a few lines."""
        return (
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
        return f"**{escape_name(session.name_of(player))}**" if player is not None else "nobody"

    clauses = [_story_clause(story, name) for story in board_stories(events, current)]
    return " · ".join(clause for clause in clauses if clause) or "the game moved on."


def _story_clause(story: TurnStory, name: Callable[[str | None], str]) -> str:
    """One turn in a few words: its player's last roll and the turn's outcome, each with who it was."""
    rolls = [e for e in story.events if e["type"] == "rolled"]
    parts: list[str] = []
    subject = None
    if rolls:
        last = rolls[-1]
        subject = last["player"]
        faces = "".join(FACE_EMOJI[d["face"]] for d in last["dice"])
        parts.append(f"{name(subject)} {'rolled' if last['reason'] == 'turn_roll' else 'rerolled'} {faces}")
    outcome = next((e for e in reversed(story.events) if e["type"] in _OUTCOMES), None)
    if outcome is not None:
        who = outcome.get("player", outcome.get("winner"))
        said = _OUTCOMES[outcome["type"]](outcome)
        parts.append(said if who == subject else f"{name(who)} {said}")
    if not parts:
        # A die's way back after a rival's roll is part of that roll's line: tell the roll.
        told = [line for e in story.events if e["type"] not in _FOLLOW_UPS and (line := narrate_event(e, name))]
        parts += told[-1:]
    return f"Turn {story.turn} · " + " and ".join(parts) if parts else ""


_OUTCOMES: dict[str, Callable[[dict[str, Any]], str]] = {
    "game_over": lambda e: "won the game 🏆",
    "claim_gained": lambda e: f"earned {e['count']} Claim" + ("s" if e["count"] != 1 else ""),
    "betrayal": lambda e: "was betrayed 🗡️",
    "fate_gained": lambda e: f"took {e['count']} Fate",
    "crown_taken": lambda e: "took the Crown",
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
        return f"🎲 The bot rolled {n(e['player'])}'s {len(e['dice'])} dice to start the turn: {faces}"
    # A reroll with no alternative is the bot's: say so.
    only = " (the only choice)" if e.get("forced") else ""
    return f"{n(e['player'])} rerolled {e['group']}: {faces}{only}"


def _game_started(e: dict[str, Any], n: Callable[[str | None], str]) -> str:
    how = {"random": " (drawn at random)", "host": " (the first seat)"}.get(e.get("how", ""), "")
    return f"{n(e['first_player'])} goes first{how}, with all 7 dice."


def _turn_ended(e: dict[str, Any], n: Callable[[str | None], str]) -> str:
    reason = TURN_END_REASONS.get(e["reason"], e["reason"].replace("_", " "))
    return f"{n(e['player'])}'s turn ends ({reason})."


def _fate_reroll(e: dict[str, Any], n: Callable[[str | None], str]) -> str:
    whose = "their" if e["holder"] == e["player"] else f"{n(e['holder'])}'s"
    return (
        f"{FATE} {n(e['player'])} spends {e['cost']} Fate to reroll {whose} die {e['die']} "
        f"({FACE_EMOJI.get(e['old_face'], '🎲')} → {face(e['face'])})."
    )


def _game_over(e: dict[str, Any], n: Callable[[str | None], str]) -> str:
    how = " by forfeit" if e["reason"] == "forfeit" else ""
    return f"🏆 {n(e['winner'])} seizes the Crown{how}!"


_NARRATORS: dict[str, Narrator] = {
    "game_started": _game_started,
    "turn_started": lambda e, n: None,
    "no_roll": lambda e, n: f"{n(e['player'])} has no dice to roll; their held dice count as they are.",
    "messenger_ended": lambda e, n: f"{n(e['player'])} rolls again and is no longer immune to daggers.",
    "rolled": _rolled,
    "legendary": lambda e, n: f"✨ **{LEGENDARY_NAMES[e['face']]}!** ({n(e['player'])}, 7 × {face(e['face'])})",
    "scroll_assigned": lambda e, n: f"{n(e['player'])} gives scroll die {e['die']} to {n(e['rival'])}.",
    "scroll_rolled": lambda e, n: (
        f"{n(e['player'])} rolled {n(e['active'])}'s scroll die {e['die']}: {face(e['face'])}."
    ),
    "die_kept": lambda e, n: f"{n(e['player'])} keeps the Rightful Heir for their own turn.",
    "die_returned": lambda e, n: f"It goes back to {n(e['to'])}.",
    "dagger_given": lambda e, n: (
        f"{n(e['player'])} gives the dagger to {n(e['to'])}"
        + {"choice": ".", "default": " (time ran out).", "random": " (at random)."}.get(e["how"], ".")
    ),
    "fate_window_opened": lambda e, n: f"{FATE} Fate window: " + ", ".join(n(p) for p in e["players"]) + " may act.",
    "fate_passed": lambda e, n: None,
    "fate_window_closed": lambda e, n: None,
    "fate_reroll": _fate_reroll,
    "claim_gained": lambda e, n: (
        f"{CLAIM} {n(e['player'])} earns {e['count']} Claim"
        + ("s" if e["count"] != 1 else "")
        + f" (now {e['total']})."
    ),
    "fate_gained": lambda e, n: f"{FATE} {n(e['player'])} gains {e['count']} Fate (now {e['total']}).",
    "claim_stolen": lambda e, n: f"{n(e['player'])} steals a Claim from {n(e['rival'])}.",
    "nothing_to_steal": lambda e, n: f"No rival has a Claim for {n(e['player'])} to steal.",
    "claim_lost": lambda e, n: f"{n(e['player'])} loses {e['count']} Claim (now {e['total']}).",
    "betrayal": lambda e, n: (
        f"🗡️ Betrayal! {n(e['player'])} holds {e['daggers']} daggers: no token this turn."
        + (" They keep the Crown for another round." if e.get("crown_kept") else "")
    ),
    "overkill_kept": lambda e, n: f"No rival can take the extra daggers; {n(e['player'])} keeps them.",
    "overkill": lambda e, n: f"{n(e['player'])} sends extra dagger {e['die']} to {n(e['rival'])}.",
    "crown_taken": lambda e, n: (
        f"{THE_CROWN} {n(e['player'])} takes the Crown" + (f" from {n(e['rival'])}" if e.get("rival") else "") + "!"
    ),
    "turn_ended": _turn_ended,
    "dice_passed": lambda e, n: f"{n(e['player'])} passes {len(e['dice'])} dice to {n(e['to'])}.",
    "player_left": lambda e, n: f"{n(e['player'])} left the table.",
    # The core's own events: told by the core (a note on the board, news in the channel).
    TIMED_OUT: lambda e, n: None,
    COMPUTER_SEAT: lambda e, n: None,
    "crown_returned": lambda e, n: "The Crown goes back in the box.",
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
