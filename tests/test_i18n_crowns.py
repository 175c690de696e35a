"""Dice of Crowns in another language: over random games with every module, the boards (titles, fields, footer,
buttons, menus), every narration line, the one-line history, the options and the refusals are said in German,
Spanish, Brazilian Portuguese and the pseudo-language with no English left, and fit Discord's limits there."""

from __future__ import annotations

import random
import re
import typing
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import discord
import pytest

from bot.i18n import PSEUDO, _, localize, speaking
from bot.models import GuildSettings, Seat, Session, Status
from bot.spec import ViewContext
from cogs.crowns import MODULE_NAMES, TARGET_SETTING, CrownsSpec, narrate_event, retired_line
from rules.crowns import actions
from rules.crowns.data import FACE_NAMES, LEGENDARY_NAMES
from rules.crowns.engine import ENGINE
from rules.crowns.legality import illegal_reason
from rules.crowns.options import CrownsOptions
from rules.crowns.phases import PHASES
from rules.crowns.playout import random_options
from rules.crowns.state import CrownsState, Phase
from rules.dice import SeededDice
from rules.engine import IllegalAction

LANGUAGES = ("de", "es", "pt_BR", PSEUDO)
PLAYERS = ("Alys", "Brann", "Cato", "Dara", "Eun")
KEPT = (*FACE_NAMES.values(), *LEGENDARY_NAMES.values(), "Dice of Crowns", "Quick Play")
"""The rulebook's proper names, which stay English in every language (docs/i18n.md)."""
ENGLISH = re.compile(
    r"\b(the|and|your|you|is|not|of|with|from|to|rolled|rerolled|turn|gives|takes|earns|passes|nobody|round|"
    r"daggers?|skulls?|scrolls?|reroll|steal|settle|table|window|ends|holds|left|count|none|only)\b",
    re.IGNORECASE,
)
"""Words that give away a sentence left in English (none of them is a word of German, Spanish or Portuguese)."""
LIMITS = {"title": 256, "description": 4096, "field name": 256, "field value": 1024, "footer": 2048}
LIMITS |= {"button": 80, "placeholder": 150, "option": 100, "content": 2000}


@dataclass
class Shown:
    """Text a member reads, each piece with the Discord limit it must fit."""

    pieces: list[tuple[str, str]] = field(default_factory=list)

    def add(self, kind: str, *texts: str) -> None:
        self.pieces += [(kind, text) for text in texts]


def embed_and_controls(said: Shown, embeds: list[discord.Embed], rows: list[list[Any]]) -> None:
    """Every text of a drawn view."""
    for embed in embeds:
        said.add("title", embed.title or "")
        said.add("description", embed.description or "")
        said.add("footer", embed.footer.text or "")
        for item in embed.fields:
            said.add("field name", item.name or "")
            said.add("field value", item.value or "")
    for row in rows:
        for control in row:
            if isinstance(control, discord.ui.Select):
                said.add("placeholder", control.placeholder or "")
                said.add("option", *(o.label for o in control.options))
            else:
                said.add("button", str(control.label))


def without_names(text: str, names: tuple[str, ...] = ()) -> str:
    """``text`` less the names that stay as they are: the rulebook's, the players', mentions and code."""
    for name in sorted((*KEPT, *names), key=len, reverse=True):
        text = text.replace(name, " ")
    return re.sub(r"<@\d+>|`[^`]*`", " ", text)


def leftover_pseudo(text: str, names: tuple[str, ...] = ()) -> str:
    """What of ``text`` is outside every ⟦…⟧ and is a word (not a name, number, emoji or punctuation)."""
    text = without_names(text, names)
    while (shorter := re.sub(r"⟦[^⟦⟧]*⟧", " ", text)) != text:
        text = shorter
    return " ".join(re.findall(r"[A-Za-z]{2,}", text))


def check_said(said: Shown, language: str, names: tuple[str, ...] = ()) -> None:
    """Nothing left in English, and every piece within its limit."""
    assert said.pieces, "nothing was said"
    for kind, text in said.pieces:
        assert len(text) <= LIMITS[kind], (kind, len(text), text)
        if language == PSEUDO:
            assert not leftover_pseudo(text, names), (kind, text)
        else:
            assert not ENGLISH.search(without_names(text, names)), (language, kind, text)


def session_of(players: tuple[str, ...]) -> Session:
    return Session(
        id=1,
        guild_id=1,
        channel_id=1,
        kind="crowns",
        status=Status.ACTIVE,
        host_id=1,
        version=1,
        seats=[Seat(player=p, user_id=n, name=p) for n, p in enumerate(players, start=1)],
    )


@dataclass
class Step:
    """A position of a game and what led to it."""

    state: CrownsState
    events: list[dict[str, Any]]
    first: bool


def played(games: int = 8, steps: int = 300) -> Iterator[tuple[tuple[str, ...], Step]]:
    """Random games with every module and random house rules, one position at a time; then the two phases only
    7 of a kind reaches (a Claim to steal, the Crown to steal), set up by hand."""
    rng = random.Random(30)
    modules = {"fate": True, "legendary": True, "six_skulls": "choose"}
    for game in range(games):
        players = PLAYERS[: rng.randint(2, 5)]
        options = random_options(rng).model_copy(update={**modules, "overkill": game % 2 == 0})
        dice = SeededDice(game)
        outcome = ENGINE.start(options, players, dice)
        yield players, Step(outcome.state, outcome.events, True)
        state = outcome.state
        for _step in range(steps):
            prompts = ENGINE.prompts(state)
            if not prompts:
                break
            prompt = rng.choice(prompts)
            outcome = ENGINE.apply(state, prompt.player, rng.choice(ENGINE.legal_actions(state, prompt.player)), dice)
            state = outcome.state
            yield players, Step(state, outcome.events, False)
    start = ENGINE.start(CrownsOptions(legendary=True, last_stand=True), PLAYERS[:3], SeededDice(1)).state
    rich = tuple(seat.model_copy(update={"claims": 2}) for seat in start.players)
    for phase in (Phase.STEAL, Phase.LAST_STAND):
        yield PLAYERS[:3], Step(start.model_copy(update={"phase": phase, "players": rich}), [], False)


GAMES = list(played())


def candidates(state: CrownsState) -> list[Any]:
    """Actions of every kind, most of them illegal now."""
    rivals = [p.id for p in state.players]
    found: list[Any] = [actions.ROLL, actions.SETTLE, actions.END_TURN, actions.PASS_FATE]
    found += [actions.Reroll(group=g) for g in ("skulls", "scrolls", "both")]
    found += [actions.SixSkulls(choice=c) for c in ("claim", "fate")]
    found += [actions.FateReroll(die=d) for d in ("1", "9")] + [actions.Meddle(die=d) for d in ("2", "9")]
    found += [actions.AssignScroll(die="3", rival=r) for r in rivals] + [actions.AssignAll(rival=r) for r in rivals]
    found += [actions.Overkill(die="4", rival=r) for r in rivals] + [actions.OverkillAll(rival=r) for r in rivals]
    found += [actions.GiveDagger(to=r) for r in [*rivals, None]] + [actions.Steal(rival=r) for r in rivals]
    return [*found, actions.LastStandChoice(steal=True)]


def refusals() -> list[str]:
    """Every reason the engine gave for an action refused, over the sample games, once each."""
    found: dict[str, str] = {}
    for players, step in GAMES[::3]:
        for actor in (*players, "Stranger"):
            for action in candidates(step.state):
                reason = illegal_reason(step.state, actor, action)
                if reason is not None:
                    found.setdefault(reason, reason)
    for bad in ({"type": "reroll", "dice": ["1"]}, {"type": "nothing"}):
        with pytest.raises(IllegalAction) as refused:
            actions.parse_action(bad)
        found[refused.value.args[0]] = refused.value.args[0]
    for seated in (["Alys"], ["Alys", "Alys"]):
        with pytest.raises(IllegalAction) as refused:
            ENGINE.start(CrownsOptions(), seated, SeededDice(1))
        found[refused.value.args[0]] = refused.value.args[0]
    return list(found.values())


REFUSALS = refusals()


def test_the_sample_covers_the_game() -> None:
    """The sample games reach every phase, most events and many refusals: the checks below see them all."""
    phases = {step.state.phase for _players, step in GAMES}
    events = {e["type"] for _players, step in GAMES for e in step.events}
    assert set(PHASES) <= phases
    assert {"rolled", "scroll_rolled", "claim_gained", "fate_gained", "betrayal", "turn_ended", "game_over"} <= events
    assert len(REFUSALS) >= 25


@pytest.mark.parametrize("language", LANGUAGES)
def test_boards_are_said_in_the_language(language: str) -> None:
    spec = CrownsSpec()
    said = Shown()
    with speaking(language):
        for players, step in GAMES:
            session = session_of(players)
            if not ENGINE.prompts(step.state):
                session = session.model_copy(update={"status": Status.FINISHED})
            ctx: ViewContext[typing.Any] = ViewContext(
                session=session, state=step.state, prompts=ENGINE.prompts(step.state), events=step.events
            )
            ctx.first = step.first
            view = spec.render(ctx)
            embed_and_controls(said, view.embeds, view.rows)
    check_said(said, language, PLAYERS)
    titles = {text for kind, text in said.pieces if kind == "title"}
    assert len(titles) > 10


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_narration_and_history_line_is_said_in_the_language(language: str) -> None:
    said = Shown()

    def name(player: str | None) -> str:
        return f"**{player}**" if player is not None else _("nobody")

    with speaking(language):
        for players, step in GAMES:
            said.add("content", *(line for e in step.events if (line := narrate_event(e, name))))
            said.add("content", retired_line(session_of(players), step.events, step.state))
        lines = {line for _k, line in said.pieces}
    check_said(said, language, PLAYERS)
    assert len(lines) > 100


@pytest.mark.parametrize("language", LANGUAGES)
def test_refusals_are_said_in_the_language(language: str) -> None:
    with speaking(language):
        said = Shown([("content", localize(reason)) for reason in REFUSALS])
    check_said(said, language, PLAYERS)
    assert all(said_text != reason for (_k, said_text), reason in zip(said.pieces, REFUSALS, strict=True))


@pytest.mark.parametrize("language", LANGUAGES)
def test_options_rules_and_settings_are_said_in_the_language(language: str) -> None:
    spec = CrownsSpec()
    changed = CrownsOptions(
        fate=True,
        legendary=True,
        overkill=True,
        last_stand=True,
        **{o.key: o.choices[-1][1] for o in spec.lobby_options},
    )
    said = Shown()
    with speaking(language):
        for options in (CrownsOptions(), changed):
            said.add("content", spec.describe_options(options), spec.short_options(options))
        said.add(
            "content",
            spec.rules_summary(),
            TARGET_SETTING.line(GuildSettings(games={TARGET_SETTING.name: 5})),
            _(TARGET_SETTING.description),
        )
        for option in spec.lobby_options:
            said.add("placeholder", _(option.label))
            said.add("option", *(_(label) for label, _value in option.choices))
        said.add("option", *(_(words.words) for words in spec.luck_faces), *(_(m) for m in MODULE_NAMES.values()))
        said.add("option", *(localize(rule.label) for rule in PHASES.values()))
    check_said(said, language)


def test_english_is_unchanged() -> None:
    """The marked messages say in English exactly what they said before they were marked."""
    spec = CrownsSpec()

    def name(player: str | None) -> str:
        return f"**{player}**"

    claim = {"type": "claim_gained", "player": "Alys", "count": 2, "total": 3}
    assert narrate_event(claim, name) == "🎖️ **Alys** earns 2 Claims (now 3)."
    ended = {"type": "turn_ended", "player": "Alys", "reason": "no_dice"}
    assert narrate_event(ended, name) == "**Alys**'s turn ends (no dice left to reroll)."
    assert spec.short_options(CrownsOptions()) == "First to 3 Claims · Quick Play"
    assert spec.describe_options(CrownsOptions(fate=True)).splitlines()[1:] == [
        "Modules: Fate tokens",
        "Decision timer: 120 s; fate window: 20 s",
    ]
