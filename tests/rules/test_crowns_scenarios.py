"""RULES.md 2.7 acceptance scenarios DC-1…DC-14 through the engine, with scripted dice."""

from __future__ import annotations

import pytest

from rules.crowns import ENGINE
from rules.crowns.actions import (
    AssignScroll,
    FateReroll,
    GiveDagger,
    Meddle,
    PassFate,
    Reroll,
    Roll,
    Settle,
    SixSkulls,
    Steal,
)
from rules.crowns.state import DieState, Face, Phase
from rules.engine import IllegalAction
from tests.rules.crowns_support import Game, table


def reject(game: Game, actor: str, action: object, reason_part: str) -> None:
    """The action is refused with a reason containing ``reason_part``; the state is unchanged."""
    before = game.state.model_dump_json()
    with pytest.raises(IllegalAction) as info:
        game.act(actor, action)  # type: ignore[arg-type]
    assert reason_part in info.value.reason
    assert game.state.model_dump_json() == before


def test_dc1_three_crowns_and_a_scroll_back_as_skull() -> None:
    g = Game(table())
    g.act("P1", Roll(), "CCCKKSD")
    assert g.phase is Phase.SCROLL_ASSIGN
    assert g.legal() == [AssignScroll(die="6", rival="P2"), AssignScroll(die="6", rival="P3")]
    events = g.act("P1", AssignScroll(die="6", rival="P2"), "K")
    rolled = next(e for e in events if e["type"] == "scroll_rolled")
    assert rolled == {"type": "scroll_rolled", "player": "P2", "active": "P1", "die": "6", "face": "SKULL"}
    assert {"type": "die_returned", "player": "P2", "to": "P1", "die": "6", "face": "SKULL"} in events
    gained = next(e for e in events if e["type"] == "claim_gained")
    assert gained == {"type": "claim_gained", "player": "P1", "count": 1, "total": 1, "reason": "rightful_heir"}
    assert g.claims() == {"P1": 1, "P2": 0, "P3": 0}
    passed = next(e for e in events if e["type"] == "dice_passed")
    assert passed == {"type": "dice_passed", "player": "P1", "to": "P2", "dice": ["1", "2", "3", "4", "5", "6", "7"]}
    assert g.state.active == "P2" and g.phase is Phase.TURN_START
    assert g.handed_to("P2") == ["1", "2", "3", "4", "5", "6", "7"]
    assert g.holding("P1") == [] and g.holding("P3") == []


def test_dc2_three_daggers_block_tokens() -> None:
    g = Game(table(active="P2"))
    events = g.act("P2", Roll(), "DDDCCCK")
    assert {"type": "betrayal", "player": "P2", "daggers": 3, "crown_kept": False} in events
    assert g.claims() == {"P1": 0, "P2": 0, "P3": 0}
    assert g.state.active == "P3" and g.handed_to("P3") == ["1", "2", "3", "4", "5", "6", "7"]


@pytest.mark.parametrize(("face", "reason"), [("C", "rightful_heir"), ("K", "fickle_fate")])
def test_dc3_returned_scroll_rerolled_alone(face: str, reason: str) -> None:
    g = Game(table())
    g.act("P1", Roll(), "KKKCCSS")
    g.act("P1", AssignScroll(die="6", rival="P2"))
    g.act("P1", AssignScroll(die="7", rival="P3"), "SK")
    assert g.state.die("6").state is DieState.RETURNED_SCROLL
    assert g.state.die("7").state is DieState.FREE_SKULL
    counts = g.state.counts()
    assert (counts.crowns, counts.skulls, counts.ret_scrolls, counts.daggers) == (2, 4, 1, 0)
    assert g.legal() == [Reroll(group="skulls"), Reroll(group="scrolls"), Reroll(group="both")]
    events = g.act("P1", Reroll(group="scrolls"), face)
    assert {
        "type": "rolled",
        "player": "P1",
        "reason": "reroll",
        "group": "scrolls",
        "dice": [{"die": "6", "face": Face.CROWN if face == "C" else Face.SKULL}],
    } in events
    assert g.claims()["P1"] == 1
    assert any(e["type"] == "claim_gained" and e["reason"] == reason for e in events)


def test_dc5_too_few_dice_then_next_turn() -> None:
    g = Game(table())
    g.act("P1", Roll(), "CCDDSSS")
    g.act("P1", AssignScroll(die="5", rival="P2"))
    g.act("P1", AssignScroll(die="6", rival="P2"))
    g.act("P1", AssignScroll(die="7", rival="P3"), "CCD")
    assert g.phase is Phase.DAGGER_ASSIGN
    prompt = ENGINE.prompts(g.state)
    assert [(p.player, p.decision) for p in prompt] == [("P3", "give_dagger")]
    reject(g, "P1", GiveDagger(to="P2"), "Only the rival who rolled that dagger")
    events = g.act("P3", GiveDagger(to="P2"))
    assert {"type": "dagger_given", "player": "P3", "to": "P2", "die": "7", "how": "choice"} in events
    assert {"type": "turn_ended", "player": "P1", "reason": "no_dice"} in events
    assert g.claims() == {"P1": 0, "P2": 0, "P3": 0}
    assert g.handed_to("P2") == ["1", "2", "3", "4"]
    assert [d.id for d in g.state.held("P2") if d.state is DieState.LOCKED] == ["5", "6", "7"]
    g.act("P2", Roll(), "KKKD")
    counts = g.state.counts()
    assert (counts.crowns, counts.daggers, counts.skulls) == (2, 2, 3)
    assert g.legal() == [Reroll(group="skulls")]


def _dc6_state(**options: object) -> Game:
    g = Game(table(fate_tokens={"P1": 1} if options.get("fate") else None, **options))  # type: ignore[arg-type]
    g.act("P1", Roll(), "CDKKKSS")
    g.act("P1", AssignScroll(die="6", rival="P2"))
    g.act("P1", AssignScroll(die="7", rival="P3"), "KS")
    return g


def test_dc6_which_rerolls_are_legal() -> None:
    g = _dc6_state()
    counts = g.state.counts()
    assert (counts.crowns, counts.daggers, counts.free_skulls, counts.ret_scrolls) == (1, 1, 4, 1)
    assert g.legal() == [Reroll(group="skulls"), Reroll(group="scrolls"), Reroll(group="both")]
    reject(g, "P1", {"type": "reroll", "group": "skulls", "dice": ["3", "4"]}, "rerolled together")
    reject(g, "P1", {"type": "reroll", "group": "skulls", "dice": ["2"]}, "Locked crowns and daggers")
    reject(g, "P1", FateReroll(die="2"), "You can't do that now")
    reject(g, "P2", Reroll(group="skulls"), "It's not your turn.")


def test_dc6_fate_reroll_targets_the_locked_dagger() -> None:
    g = _dc6_state(fate=True)
    assert g.phase is Phase.FATE_WINDOW
    assert FateReroll(die="2") in g.legal()
    events = g.act("P1", FateReroll(die="2"), "C")
    spend = next(e for e in events if e["type"] == "fate_reroll")
    assert spend["die"] == "2" and spend["old_face"] == "DAGGER" and spend["face"] == "CROWN" and spend["cost"] == 1
    assert g.state.die("2").face is Face.CROWN and g.state.die("2").state is DieState.LOCKED
    assert g.fate()["P1"] == 0
    assert g.phase is Phase.DECIDE  # window closed: nobody can spend any more


def test_dc7_immediate_win_at_target() -> None:
    g = Game(table(active="P3", claims={"P3": 2}))
    g.act("P3", Roll(), "CCCKKSD")
    events = g.act("P3", AssignScroll(die="6", rival="P1"), "K")
    assert g.claims()["P3"] == 3
    assert ENGINE.winners(g.state) == ["P3"] and g.phase is Phase.GAME_OVER
    over = events[-1]
    assert over["type"] == "game_over" and over["winner"] == "P3" and over["reason"] == "claims"
    assert ENGINE.prompts(g.state) == [] and ENGINE.legal_actions(g.state, "P1") == []
    reject(g, "P1", Roll(), "The game is over.")


@pytest.mark.parametrize(("target", "wins"), [(3, True), (5, False)])
def test_dc8_birthright(target: int, wins: bool) -> None:
    g = Game(table(claims={"P1": 1}, legendary=True, claim_target=target))
    events = g.act("P1", Roll(), "CCCCCCC")
    assert {"type": "legendary", "player": "P1", "face": "CROWN", "name": "The Birthright"} in events
    assert g.claims()["P1"] == 3
    assert ENGINE.winners(g.state) == (["P1"] if wins else None)
    if not wins:
        assert g.state.active == "P2"


def test_dc9_twists_of_fate_steals() -> None:
    g = Game(table(claims={"P2": 2}, legendary=True))
    events = g.act("P1", Roll(), "KKKKKKK")
    assert {"type": "claim_stolen", "player": "P1", "rival": "P2", "rival_total": 1} in events
    assert g.claims() == {"P1": 1, "P2": 1, "P3": 0}
    assert g.state.active == "P2"


@pytest.mark.parametrize(("fallback", "claims"), [("supply_claim", 1), ("nothing", 0)])
def test_dc9_twists_of_fate_with_nothing_to_steal(fallback: str, claims: int) -> None:
    g = Game(table(legendary=True, twists_fallback=fallback))
    g.act("P1", Roll(), "KKKKKKK")
    assert g.claims()["P1"] == claims
    assert g.state.active == "P2"


def test_twists_of_fate_choice_between_victims() -> None:
    g = Game(table(claims={"P2": 1, "P3": 2}, legendary=True))
    g.act("P1", Roll(), "KKKKKKK")
    assert g.phase is Phase.STEAL
    assert g.legal() == [Steal(rival="P2"), Steal(rival="P3")]
    assert ENGINE.default_action(g.state, "P1") == Steal(rival="P3")
    reject(g, "P1", Steal(rival="P1"), "not a rival")
    g.act("P1", Steal(rival="P2"))
    assert g.claims() == {"P1": 1, "P2": 0, "P3": 2}


@pytest.mark.parametrize(("before", "after"), [(2, 1), (0, 0)])
def test_dc10_crimson_feast(before: int, after: int) -> None:
    g = Game(table(claims={"P1": before}, legendary=True, overkill=True))
    events = g.act("P1", Roll(), "DDDDDDD")
    assert {"type": "legendary", "player": "P1", "face": "DAGGER", "name": "Crimson Feast"} in events
    assert g.claims()["P1"] == after
    assert not [e for e in events if e["type"] in ("overkill", "betrayal")]
    assert g.handed_to("P2") == ["1", "2", "3", "4", "5", "6", "7"]


def test_dc13a_settle() -> None:
    g = Game(table(fate=True, claim_target=5))
    g.act("P1", Roll(), "CCDKKKS")
    g.act("P1", AssignScroll(die="7", rival="P2"), "S")
    counts = g.state.counts()
    assert (counts.skulls, counts.crowns, counts.daggers, counts.ret_scrolls) == (3, 2, 1, 1)
    assert g.legal() == [Reroll(group="skulls"), Reroll(group="scrolls"), Reroll(group="both"), Settle()]
    assert ENGINE.default_action(g.state, "P1") == Reroll(group="both")
    events = g.act("P1", Settle())
    assert {"type": "fate_gained", "player": "P1", "count": 1, "total": 1, "reason": "settle"} in events
    assert g.handed_to("P2") == ["1", "2", "3", "4", "5", "6", "7"]


def test_dc13b_pictured_pair() -> None:
    g = Game(table(active="P2", fate=True, claim_target=5))
    g.act("P2", Roll(), "CCCKKKD")
    assert g.claims()["P2"] == 1 and g.fate()["P2"] == 1
    assert g.state.active == "P3"


def test_dc13c_six_skulls_choice() -> None:
    g = Game(table(active="P3", fate=True, claim_target=5))
    g.act("P3", Roll(), "KKKKKKC")
    assert g.phase is Phase.SIX_SKULLS
    assert g.legal("P3") == [SixSkulls(choice="claim"), SixSkulls(choice="fate")]
    assert ENGINE.default_action(g.state, "P3") == SixSkulls(choice="claim")
    g.act("P3", SixSkulls(choice="fate"))
    assert g.fate()["P3"] == 2 and g.claims()["P3"] == 0
    assert g.state.active == "P1"


def test_dc13d_no_settle_with_three_daggers() -> None:
    g = Game(table(fate=True, claim_target=5))
    events = g.act("P1", Roll(), "KKKDDDC")
    assert [e["type"] for e in events if e["type"] in ("betrayal", "fate_gained", "claim_gained")] == ["betrayal"]
    assert g.fate()["P1"] == 0 and g.state.active == "P2"


@pytest.mark.parametrize("spend", [True, False])
def test_dc14a_spending_one_fate(spend: bool) -> None:
    g = Game(table(fate_tokens={"P1": 1}, fate=True))
    g.act("P1", Roll(), "CCDDKKK")
    assert g.phase is Phase.FATE_WINDOW
    g.act("P1", PassFate())
    assert g.phase is Phase.DECIDE
    g.act("P1", Reroll(group="skulls"), "DCK")
    counts = g.state.counts()
    assert (counts.crowns, counts.daggers, counts.skulls) == (3, 3, 1)
    assert g.phase is Phase.FATE_WINDOW
    if spend:
        g.act("P1", FateReroll(die="5"), "C")
        assert g.claims()["P1"] == 1 and g.fate()["P1"] == 0
    else:
        events = g.act("P1", PassFate())
        assert any(e["type"] == "betrayal" for e in events)
        assert g.claims()["P1"] == 0 and g.fate()["P1"] == 1


def test_dc14b_meddle_by_a_rival() -> None:
    g = Game(table(fate_tokens={"P2": 2}, fate=True))
    events = g.act("P1", Roll(), "CCCKKKD")
    assert {"type": "fate_window_opened", "kind": "post_resolution", "players": ["P2"]} in events
    prompts = ENGINE.prompts(g.state)
    assert [(p.player, p.decision, p.timer, p.ping) for p in prompts] == [("P2", "fate_window", "fate_window", False)]
    assert Meddle(die="1") in g.legal("P2") and g.legal("P1") == []
    reject(g, "P3", Meddle(die="1"), "no Fate tokens")
    reject(g, "P2", FateReroll(die="1"), "Only the active player can spend 1 Fate")
    g.act("P2", Meddle(die="1"), "D")
    counts = g.state.counts()
    assert (counts.crowns, counts.daggers, counts.skulls) == (2, 2, 3)
    assert g.claims()["P1"] == 0 and g.fate()["P2"] == 0
    assert g.phase is Phase.DECIDE and Settle() in g.legal()
