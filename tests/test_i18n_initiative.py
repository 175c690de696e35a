"""The initiative tracker in another language: through a fight with players, a group of NPCs, a hidden one revealed,
conditions, Delay, Previous, Undo and the end, the board (for the channel, the GM and a player), every news line
and every refusal are said in German, Spanish, Brazilian Portuguese and the pseudo-language with no English left,
and fit Discord's limits there."""

from __future__ import annotations

import typing
from typing import Any

import pytest
from pydantic import BaseModel

from bot.i18n import _, localize, speaking
from bot.models import Scope, Seat, Session, Status
from bot.spec import ViewContext
from cogs.initiative.commands import NO_TRACKER
from cogs.initiative.spec import InitiativeSpec, _say
from localdiscord.server import LocalDiscord
from rules.dice import ScriptedDice, SeededDice
from rules.engine import GM, IllegalAction, Viewer
from rules.initiative.engine import ENGINE
from rules.initiative.state import Delay, InitState, Join, Next, Previous, Remove, Reveal, SetCondition
from rules.said import Said
from tests.conftest import MakeBot
from tests.test_e2e_initiative import EXTENSIONS
from tests.test_i18n_crowns import LANGUAGES, Shown, check_said, embed_and_controls

NAMES = ("Alia", "Borin", "Goblin", "Shade", "Stunned", "Blessed", "Prone")
"""Names members typed (entries and conditions): they stay as typed."""
GM_ID, ALIA, BORIN = "100", "101", "102"
DICE = {"e1.1": [14], "e1.tie": [5], "e2.tie": [3], "e3.1": [9], "e3.tie": [7], "h1.1": [20], "h1.tie": [2]}
FIGHT: list[tuple[str, BaseModel]] = [
    (ALIA, Join(name="Alia", roll="1d20+3")),
    (BORIN, Join(name="Borin", value=12, mod=2)),
    (GM_ID, Join(name="Goblin", roll="1d20", npc=True, count=3)),
    (GM_ID, Join(name="Shade", roll="1d20", npc=True, hidden=True)),
    (GM_ID, Next()),
    (GM_ID, SetCondition(who="Alia", name="Stunned", turns=1)),
    (GM_ID, SetCondition(who="Borin", name="Blessed")),
    (GM_ID, Next()),
    (GM_ID, Delay()),
    (GM_ID, Previous()),
    (GM_ID, SetCondition(who="Borin", name="Blessed", turns=0)),
    (GM_ID, Reveal(who="Shade")),
    (GM_ID, Remove(who="Goblin 2")),
    *[(GM_ID, Next()) for _ in range(8)],
    (GM_ID, SetCondition(who="Goblin 1", name="Prone", turns=2)),
    *[(GM_ID, Next()) for _ in range(4)],
]
REFUSED: list[tuple[str, BaseModel]] = [
    (ALIA, Join(name="Alia again", roll="1d20")),
    (GM_ID, Join(name="Alia", value=3, npc=True)),
    (GM_ID, Join(name="   ", value=3, npc=True)),
    (GM_ID, Join(name="Many", roll="3x1d20", npc=True)),
    (GM_ID, Remove(who="Nobody")),
    (GM_ID, Reveal(who="Alia")),
    (GM_ID, SetCondition(who="Alia", name="Dazed", turns=0)),
    (GM_ID, Next(of="e999")),
]
FORBIDDEN: list[tuple[str, BaseModel]] = [
    (ALIA, Join(name="Orc", npc=True)),
    (ALIA, Join(member=BORIN, name="Borin 2")),
    (ALIA, Next(of="e2")),
    (ALIA, Remove(who="Borin")),
    (ALIA, Reveal(who="Shade")),
]


def session() -> Session:
    return Session(
        id=2,
        guild_id=1,
        channel_id=1,
        kind="init",
        scope=Scope.TRACKER,
        status=Status.ACTIVE,
        host_id=int(GM_ID),
        version=1,
        roles={GM_ID: [GM]},
        seats=[Seat(player=p, user_id=int(p), name=n) for p, n in ((ALIA, "Alia"), (BORIN, "Borin"))],
    )


def fought() -> list[tuple[InitState, list[dict[str, Any]]]]:
    """Each position of the fight and the events that led to it; then an undo and a redo of the last change."""
    dice = ScriptedDice({k: list(v) for k, v in DICE.items()})
    outcome = ENGINE.start(ENGINE.options_model(), [], dice)
    steps = [(outcome.state, outcome.events)]
    for actor, action in FIGHT:
        if isinstance(action, Next | Delay):
            action = action.model_copy(update={"of": steps[-1][0].current})
        outcome = ENGINE.apply(steps[-1][0], actor, action, dice)
        steps.append((outcome.state, outcome.events))
    last = steps[-1][1]
    steps += [(steps[-1][0], [{"type": "undone", "events": last}, {"type": "redone", "events": []}])]
    return steps


STEPS = fought()


def refusals(state: InitState) -> list[str]:
    """What the tracker says to every refused change, as the engine says it."""
    said = []
    for actor, action in REFUSED:
        with pytest.raises(IllegalAction) as refused:
            ENGINE.apply(state, actor, action, SeededDice(1))
        said.append(refused.value.args[0])
    for actor, action in FORBIDDEN:
        with pytest.raises(IllegalAction) as refused:
            ENGINE.authorize(state, actor, frozenset(), action)
        said.append(refused.value.args[0])
    return said


def test_the_fight_covers_the_tracker() -> None:
    kinds = {e["type"] for _state, events in STEPS for e in events}
    assert {"joined", "turn", "condition", "uncondition", "expired", "delayed", "revealed", "removed"} <= kinds


@pytest.mark.parametrize("language", LANGUAGES)
def test_boards_and_news_are_said_in_the_language(language: str) -> None:
    spec = InitiativeSpec()
    viewers = (Viewer(), Viewer(GM_ID, frozenset({GM})), Viewer(ALIA))
    shown = Shown()
    with speaking(language):
        for state, events in STEPS:
            for viewer in viewers:
                seen = ENGINE.view(state, viewer)
                ctx: ViewContext[typing.Any] = ViewContext(
                    session=session(), state=seen, prompts=[], events=events, viewer=viewer
                )
                view = spec.render(ctx)
                embed_and_controls(shown, view.embeds, view.rows)
            shown.add("content", *spec.narrate(session(), events))
            shown.add("content", *(line for e in events if (line := _say(e, mention=True))))
        shown.add("content", spec.rules_summary(), _(NO_TRACKER))
    check_said(shown, language, NAMES)
    assert len({text for kind, text in shown.pieces if kind == "content"}) > 20


@pytest.mark.parametrize("language", LANGUAGES)
def test_refusals_are_said_in_the_language(language: str) -> None:
    english = refusals(STEPS[8][0])
    with speaking(language):
        shown = Shown([("content", localize(reason)) for reason in english])
    check_said(shown, language, NAMES)
    assert [text for _kind, text in shown.pieces] != english


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_bad_roll_is_refused_in_the_language_with_the_dice_reason_in_it(language: str) -> None:
    """The reason a roll can't be done is the dice engine's (said in its own catalog); the tracker's words around
    it are said here."""
    with pytest.raises(IllegalAction) as refused:
        ENGINE.apply(STEPS[8][0], GM_ID, Join(name="Bad", roll="2d", npc=True), SeededDice(1))
    reason = refused.value.args[0]
    assert isinstance(reason, Said) and reason.msgid == "That roll doesn't work: {error}"
    with speaking(language):
        said, dice_reason = localize(reason), localize(reason.params["error"])
    assert dice_reason in said
    assert not said.startswith("That roll doesn't work") and said != reason


def test_english_is_unchanged() -> None:
    """The marked messages say in English exactly what they said before they were marked."""
    joined = {"type": "joined", "names": ["Goblin 1", "Goblin 2"], "roll": "1d20", "dice": [9], "total": 9}
    assert _say(joined, mention=False) == "🎲 **Goblin 1**, **Goblin 2** join: `1d20` → [9] = **9**."
    condition = {"type": "condition", "name": "Alia", "condition": "Stunned", "turns": 1}
    assert _say(condition, mention=False) == "**Alia**: *Stunned*, for 1 turn."
    turn = {"type": "turn", "round": 2, "name": "Alia", "owner": ALIA, "new_round": True}
    assert _say(turn, mention=True) == f"**Round 2** · ⚔️ <@{ALIA}>, your turn: **Alia**."
    assert _say({"type": "undone", "events": []}, mention=False) == "↩️ Undone."


async def test_a_german_server_sees_the_tracker_in_german(fake: LocalDiscord, make_bot: MakeBot) -> None:
    """Through the bot: the board and the channel's news in the server's language, a member's own answers and
    refusals in theirs."""
    fake.guilds[0].preferred_locale = "de"
    channel, gm, alice, bob = fake.channels[0], fake.members[0], fake.members[1], fake.members[2]
    alice.locale = bob.locale = gm.locale = "de"
    bot = await make_bot(extensions=EXTENSIONS, dice=ScriptedDice({"e1.1": [14], "e1.tie": [5]}))
    board = await (await fake.slash(channel, gm, "init start")).message()
    assert "Initiative wird gewürfelt" in str(board.embeds) and "Noch niemand" in str(board.embeds)
    joined = await (await fake.slash(channel, alice, "init join", options={"roll": "1d20+3", "name": "Alia"})).message()
    assert "**Alia** tritt bei: `1d20+3` → [14] = **17**." in joined.content
    await fake.wait_for(lambda: "Alia" in str(board.embeds), what="Alia on the board")
    assert "Gleichstand: höherer Modifikator" in str(board.embeds)
    refused = await (await fake.click(board, "Starten", bob)).message()
    assert refused.ephemeral and "Nur die SL" in refused.content
    left = await (await fake.slash(channel, bob, "init leave")).message()
    assert left.ephemeral and "Du bist nicht in der Reihenfolge." in left.content
    await fake.click(board, "Starten", gm)
    await fake.wait_for_message(channel, lambda m: "du bist dran: **Alia**" in m.content)
    await bot.settled()
