"""Our own scenarios for what RULES.md 2.7 leaves out: Overkill, the Messenger, Last Stand, leaving,
pre-scroll fate windows, timeout defaults and setup. Expected results follow S5–S10 and 2.6."""

from __future__ import annotations

import pytest

from rules.crowns import ENGINE, CrownsOptions
from rules.crowns.actions import (
    AssignScroll,
    GiveDagger,
    LastStandChoice,
    Meddle,
    Overkill,
    OverkillAll,
    PassFate,
    Reroll,
    Roll,
)
from rules.crowns.state import DieState, Face, Phase
from rules.dice import ScriptedDice
from rules.engine import IllegalAction
from tests.rules.crowns_support import Game, table
from tests.rules.test_crowns_scenarios import reject


def with_seat(game: Game, player: str, **update: object) -> None:
    """Change one seat of the game under test (setup only)."""
    seats = tuple(p.model_copy(update=update) if p.id == player else p for p in game.state.players)
    game.state = game.state.model_copy(update={"players": seats})


# -- Overkill & Cascading Betrayal (2.6 #25, #26) ------------------------------------------------


def test_overkill_extras_go_to_chosen_rivals() -> None:
    g = Game(table(overkill=True))
    events = g.act("P1", Roll(), "DDDDDCK")
    assert {"type": "betrayal", "player": "P1", "daggers": 5, "crown_kept": False} in events
    assert g.phase is Phase.OVERKILL_ASSIGN and g.state.overkill_left == 2
    singles = [a for a in g.legal() if isinstance(a, Overkill)]
    assert [(a.die, a.rival) for a in singles] == [(d, r) for d in "12345" for r in ("P2", "P3")]
    assert [a for a in g.legal() if isinstance(a, OverkillAll)] == [OverkillAll(rival="P2"), OverkillAll(rival="P3")]
    assert ENGINE.default_action(g.state, "P1") == Overkill(die="1", rival="P2")
    reject(g, "P1", Overkill(die="6", rival="P2"), "Die 6 is not one of your daggers.")
    reject(g, "P1", Overkill(die="1", rival="P1"), "Extra daggers go to rivals.")
    g.act("P1", Overkill(die="1", rival="P2"))
    assert ENGINE.default_action(g.state, "P1") == Overkill(die="2", rival="P3")
    events = g.act("P1", Overkill(die="2", rival="P2"))
    assert {"type": "overkill", "player": "P1", "die": "2", "rival": "P2"} in events
    assert {"type": "turn_ended", "player": "P1", "reason": "betrayal"} in events
    assert g.handed_to("P2") == ["3", "4", "5", "6", "7"]
    assert [(d.id, d.state, d.face) for d in g.state.held("P2") if d.state is DieState.LOCKED] == [
        ("1", DieState.LOCKED, Face.DAGGER),
        ("2", DieState.LOCKED, Face.DAGGER),
    ]
    # The extras count on P2's turn: 2 held daggers + 1 rolled = Betrayal.
    events = g.act("P2", Roll(), "DCCKK")
    assert {"type": "betrayal", "player": "P2", "daggers": 3, "crown_kept": False} in events


def test_all_extra_daggers_to_one_rival_in_one_go() -> None:
    g = Game(table(overkill=True))
    g.act("P1", Roll(), "DDDDDCK")
    reject(g, "P1", OverkillAll(rival="P1"), "Extra daggers go to rivals.")
    events = g.act("P1", OverkillAll(rival="P3"))
    assert [e["die"] for e in events if e["type"] == "overkill"] == ["1", "2"]
    assert {"type": "turn_ended", "player": "P1", "reason": "betrayal"} in events


def test_seven_daggers_without_legendary_give_three_extras() -> None:
    g = Game(table(players=("P1", "P2"), overkill=True))
    events = g.act("P1", Roll(), "DDDDDDD")
    assert [e["die"] for e in events if e["type"] == "overkill"] == ["1", "2", "3"]
    assert g.holding("P2") == ["1", "2", "3", "4", "5", "6", "7"]
    assert g.handed_to("P2") == ["4", "5", "6", "7"]


def test_overkill_skips_a_messenger_immune_rival() -> None:
    g = Game(table(overkill=True, legendary=True))
    with_seat(g, "P3", messenger=True)
    events = g.act("P1", Roll(), "DDDDCCK")
    assert [(e["die"], e["rival"]) for e in events if e["type"] == "overkill"] == [("1", "P2")]


def test_overkill_kept_when_every_rival_is_immune() -> None:
    g = Game(table(players=("P1", "P2"), overkill=True, legendary=True))
    with_seat(g, "P2", messenger=True)
    events = g.act("P1", Roll(), "DDDDCCK")
    assert {"type": "overkill_kept", "player": "P1", "count": 1} in events
    assert g.handed_to("P2") == ["1", "2", "3", "4", "5", "6", "7"]


# -- The Messenger (2.6 #23) -------------------------------------------------------------------


def test_messenger_immunity_blocks_daggers_until_next_roll() -> None:
    g = Game(table(legendary=True))
    events = g.act("P1", Roll(), "SSSSSSS")
    assert {"type": "legendary", "player": "P1", "face": "SCROLL", "name": "The Messenger"} in events
    assert g.state.seat("P1").messenger and g.phase is Phase.SCROLL_ASSIGN
    for die in "1234":
        g.act("P1", AssignScroll(die=die, rival="P2"))
    for die in "56":
        g.act("P1", AssignScroll(die=die, rival="P3"))
    g.act("P1", AssignScroll(die="7", rival="P3"), "D")
    assert g.phase is Phase.DAGGER_ASSIGN
    assert g.legal("P2") == [GiveDagger(to="P2"), GiveDagger(to="P3")]
    reject(g, "P2", GiveDagger(to="P1"), "protected by The Messenger")
    g.act("P2", GiveDagger(to="P3"), "KSCKKD")
    assert g.legal("P3") == [GiveDagger(to="P2"), GiveDagger(to="P3")]
    g.act("P3", GiveDagger(to="P2"))
    assert g.holding("P2") == ["4", "7"] and g.holding("P3") == ["1"]
    counts = g.state.counts()
    assert (counts.skulls, counts.ret_scrolls, counts.daggers, counts.crowns) == (3, 1, 0, 0)
    events = g.act("P1", Reroll(group="scrolls"), "K")
    assert events[0] == {"type": "messenger_ended", "player": "P1"}
    assert not g.state.seat("P1").messenger
    assert g.phase is Phase.DECIDE and g.legal() == [Reroll(group="skulls")]


def test_messenger_lasts_through_rivals_turns() -> None:
    g = Game(table(players=("P1", "P2"), legendary=True))
    g.act("P1", Roll(), "SSSSSSS" + "KKKKKKK")  # all 7 back as skulls: 7 skulls after the Messenger
    assert g.state.seat("P1").messenger
    assert g.state.active == "P2"  # Twists of Fate with nobody to rob: a Claim from the supply
    assert g.claims()["P1"] == 1


# -- Last Stand (S8, S10, 2.6 #29–#32) ----------------------------------------------------------


def test_last_stand_forces_target_five() -> None:
    assert CrownsOptions(last_stand=True, claim_target=3).claim_target == 5


def test_last_stand_fifth_claim_takes_the_crown_then_a_full_round_wins() -> None:
    g = Game(table(claims={"P1": 4}, last_stand=True))
    events = g.act("P1", Roll(), "CCCKKKD")
    assert {"type": "crown_taken", "player": "P1", "rival": None, "reason": "fifth_claim"} in events
    assert not [e for e in events if e["type"] == "claim_gained"]
    assert g.claims()["P1"] == 4 and g.state.crown_holder == "P1"
    assert ENGINE.winners(g.state) is None
    g.act("P2", Roll(), "DDDKKKC")
    events = g.act("P3", Roll(), "DDDKKKC")
    started = events[-1]
    assert started["type"] == "turn_started" and started["player"] == "P1" and started["crown_turn"] is True
    events = g.act("P1", Roll(), "KKKKCCD")
    assert events[-1]["type"] == "game_over" and events[-1]["reason"] == "crown"
    assert ENGINE.winners(g.state) == ["P1"]


def test_last_stand_three_daggers_on_the_crown_turn_delay_victory() -> None:
    g = Game(table(last_stand=True))
    g.state = g.state.model_copy(update={"crown_holder": "P1", "crown_turn": True})
    events = g.act("P1", Roll(), "DDDKKKC")
    assert {"type": "betrayal", "player": "P1", "daggers": 3, "crown_kept": True} in events
    assert g.state.crown_holder == "P1" and ENGINE.winners(g.state) is None
    assert g.state.active == "P2"


@pytest.mark.parametrize("legendary", [False, True])
def test_last_stand_seven_crowns_may_steal_the_crown(legendary: bool) -> None:
    g = Game(table(active="P2", claims={"P1": 4, "P2": 1}, last_stand=True, legendary=legendary))
    g.state = g.state.model_copy(update={"crown_holder": "P1"})
    g.act("P2", Roll(), "CCCCCCC")
    assert g.phase is Phase.LAST_STAND
    assert g.legal("P2") == [LastStandChoice(steal=True), LastStandChoice(steal=False)]
    assert ENGINE.default_action(g.state, "P2") == LastStandChoice(steal=True)
    stolen = Game(g.state)
    events = stolen.act("P2", LastStandChoice(steal=True))
    assert {"type": "crown_taken", "player": "P2", "rival": "P1", "reason": "steal"} in events
    assert stolen.state.crown_holder == "P2" and stolen.claims() == {"P1": 4, "P2": 1, "P3": 0}
    kept = Game(g.state)
    kept.act("P2", LastStandChoice(steal=False))
    assert kept.state.crown_holder == "P1"
    assert kept.claims()["P2"] == (3 if legendary else 2)  # Birthright +2, or Rightful Heir +1


def test_last_stand_birthright_from_four_claims() -> None:
    g = Game(table(claims={"P1": 4}, last_stand=True, legendary=True))
    events = g.act("P1", Roll(), "CCCCCCC")
    kinds = [e["type"] for e in events]
    assert kinds.index("crown_taken") < kinds.index("claim_gained")
    assert g.claims()["P1"] == 5 and g.state.crown_holder == "P1"
    assert ENGINE.winners(g.state) is None and g.state.active == "P2"


# -- Players leaving (2.6 #34) -------------------------------------------------------------------


def test_rival_deciding_a_dagger_leaves() -> None:
    g = Game(table())
    g.act("P1", Roll(), "CCDDSSS")
    g.act("P1", AssignScroll(die="5", rival="P2"))
    g.act("P1", AssignScroll(die="6", rival="P2"))
    g.act("P1", AssignScroll(die="7", rival="P3"), "CCD")
    out = ENGINE.remove_player(g.state, "P3", ScriptedDice([]))
    kinds = [e["type"] for e in out.events]
    assert kinds[:2] == ["dagger_given", "player_left"]
    state = out.state
    assert state.seat("P3").left and state.active == "P2"
    assert [d.id for d in state.dice if d.holder == "P2" and d.state is DieState.HANDED] == ["1", "2", "3", "4", "7"]
    assert state.rivals("P2") == ["P1"]


def test_active_player_leaves_mid_turn() -> None:
    g = Game(table(claims={"P1": 2}))
    g.act("P1", Roll(), "CCKKKSS")
    g.act("P1", AssignScroll(die="6", rival="P2"), "")
    out = ENGINE.remove_player(g.state, "P1", ScriptedDice([1]))  # die 6 is rolled for P2 anyway: a crown
    assert out.state.active == "P2" and out.state.seat("P1").claims == 0
    assert out.state.die("6").holder == "P2" and out.state.die("6").state is DieState.LOCKED
    assert [d.id for d in out.state.dice if d.state is DieState.HANDED] == ["1", "2", "3", "4", "5", "7"]
    assert {"type": "turn_ended", "player": "P1", "reason": "left"} in out.events


def test_last_opponent_leaving_is_a_forfeit() -> None:
    g = Game(table(players=("P1", "P2")))
    out = ENGINE.remove_player(g.state, "P1", ScriptedDice([]))
    assert ENGINE.winners(out.state) == ["P2"]
    assert out.events[-1]["reason"] == "forfeit"
    with pytest.raises(IllegalAction, match="over"):
        ENGINE.remove_player(out.state, "P2", ScriptedDice([]))


# -- Fate windows --------------------------------------------------------------------------------


def test_pre_scroll_window_meddles_a_rivals_roll() -> None:
    g = Game(table(fate_tokens={"P2": 2}, fate=True, fate_windows="also_pre_scroll"))
    g.act("P1", Roll(), "CCKKKSD")
    events = g.act("P1", AssignScroll(die="6", rival="P2"), "C")
    assert {"type": "fate_window_opened", "kind": "pre_scroll", "players": ["P2"]} in events
    assert g.legal("P2") == [Meddle(die=d) for d in "1234567"] + [PassFate()]
    events = g.act("P2", Meddle(die="6"), "K")
    assert {"type": "die_returned", "player": "P2", "to": "P1", "die": "6", "face": "SKULL"} in events
    counts = g.state.counts()
    assert (counts.crowns, counts.skulls, counts.daggers) == (2, 4, 1)
    assert g.phase is Phase.DECIDE


def test_meddled_rival_skull_comes_to_the_active_player() -> None:
    g = Game(table(fate_tokens={"P3": 2}, fate=True))
    g.act("P1", Roll(), "CCKKKSD")
    g.act("P1", AssignScroll(die="6", rival="P2"), "C")  # P2 keeps a crown; window opens for P3
    assert g.phase is Phase.FATE_WINDOW
    events = g.act("P3", Meddle(die="6"), "K")
    spend = next(e for e in events if e["type"] == "fate_reroll")
    assert spend["holder"] == "P2" and spend["moved_to"] == "P1" and spend["kind"] == "meddle"
    assert g.state.die("6").holder == "P1" and g.state.die("6").state is DieState.FREE_SKULL


# -- Timeout defaults and setup ------------------------------------------------------------------


def test_scroll_default_goes_round_the_rivals() -> None:
    g = Game(table())
    g.act("P1", Roll(), "CKKKSSS")
    defaults = []
    for _ in range(2):
        action = ENGINE.default_action(g.state, "P1")
        defaults.append(action)
        g.act("P1", action)
    assert defaults == [AssignScroll(die="5", rival="P2"), AssignScroll(die="6", rival="P3")]
    assert ENGINE.default_action(g.state, "P1") == AssignScroll(die="7", rival="P2")


def test_dagger_default_random_uses_the_dice() -> None:
    g = Game(table(dagger_timeout_default="random"))
    g.act("P1", Roll(), "CKKKKKS")
    g.act("P1", AssignScroll(die="7", rival="P2"), "D")
    default = ENGINE.default_action(g.state, "P2")
    assert default == GiveDagger(to=None) and default in g.legal("P2")
    source = ScriptedDice({"dagger_recipient": [3]})
    out = ENGINE.apply(g.state, "P2", default, source)
    assert out.state.die("7").holder == "P3"


def test_first_player_is_rolled() -> None:
    out = ENGINE.start(CrownsOptions(), ["A", "B", "C"], ScriptedDice({"first_player": [2]}))
    assert out.state.active == "B" and out.events[0]["first_player"] == "B"
    assert [(p.player, p.decision) for p in ENGINE.prompts(out.state)] == [("B", "roll")]


@pytest.mark.parametrize("players", [["A"], ["A"] * 7, ["A", "A"]])
def test_start_rejects_bad_seating(players: list[str]) -> None:
    with pytest.raises(IllegalAction, match=r"players|seat"):
        ENGINE.start(CrownsOptions(), players, ScriptedDice([]))
