"""The initiative tracker's state machine: ordering and ties, rounds, delay, conditions, hidden NPCs, undo."""

from __future__ import annotations

import random
from typing import Any

import pytest
from pydantic import BaseModel

from rules.dice import RecordingDice, ReplayDice, ScriptedDice, SeededDice
from rules.engine import GM, IllegalAction, NotPermitted, Viewer, visible
from rules.initiative.engine import InitiativeEngine
from rules.initiative.state import InitOptions, InitState

ENGINE = InitiativeEngine()
GM_ROLES = frozenset({GM})
ALICE, BOB, GM_ID = "101", "102", "900"


def act(state: InitState, actor: str, data: dict[str, Any], dice: Any = None) -> tuple[InitState, list[dict]]:
    action = ENGINE.parse_action(data)
    roles = GM_ROLES if actor == GM_ID else frozenset()
    ENGINE.authorize(state, actor, roles, action)
    outcome = ENGINE.apply(state, actor, action, dice or ScriptedDice([]))
    return outcome.state, outcome.events


def names(state: InitState) -> list[str]:
    return [state.entries[e].name for e in state.order]


def table() -> InitState:
    """Alice rolls 1d20+3 (14 → 17), Bob sets 12, the GM adds two goblins at 15."""
    state = ENGINE.start(InitOptions(), [], ScriptedDice([])).state
    state, _ = act(
        state, ALICE, {"type": "join", "name": "Alice", "roll": "1d20+3"}, ScriptedDice({"e1.1": [14], "e1.tie": [5]})
    )
    state, _ = act(state, BOB, {"type": "join", "name": "Bob", "value": 12}, ScriptedDice({"e2.tie": [3]}))
    goblins = {"type": "join", "name": "Goblin", "value": 15, "npc": True, "count": 2}
    state, _ = act(state, GM_ID, goblins, ScriptedDice({"e3.tie": [9]}))
    return state


def test_join_by_roll_and_value_orders_highest_first() -> None:
    state = table()
    assert names(state) == ["Alice", "Goblin 1", "Goblin 2", "Bob"]
    alice = state.find("alice")
    assert alice is not None and (alice.total, alice.mod, alice.owner) == (17, 3, ALICE)
    assert state.round == 0 and state.current is None


def test_ties_go_to_the_higher_modifier_then_the_roll_off_then_the_earlier() -> None:
    state = InitState()
    state, _ = act(
        state, ALICE, {"type": "join", "name": "A", "roll": "1d20+1"}, ScriptedDice({"e1.1": [14], "e1.tie": [20]})
    )
    state, _ = act(
        state, BOB, {"type": "join", "name": "B", "roll": "1d20+5"}, ScriptedDice({"e2.1": [10], "e2.tie": [1]})
    )
    assert names(state) == ["B", "A"]  # both 15: +5 beats +1
    state, events = act(
        state, GM_ID, {"type": "join", "name": "C", "value": 15, "mod": 5, "npc": True}, ScriptedDice({"e3.tie": [7]})
    )
    assert names(state) == ["C", "B", "A"]  # 15 (+5) both: roll-off 7 beats 1
    assert events[0]["tiebreak"] == 7
    state, _ = act(
        state, GM_ID, {"type": "join", "name": "D", "value": 15, "mod": 5, "npc": True}, ScriptedDice({"e4.tie": [7]})
    )
    assert names(state) == ["C", "D", "B", "A"]  # all equal: who joined first


def test_rounds_turns_and_pings() -> None:
    state = table()
    state, events = act(state, GM_ID, {"type": "next"})
    assert (state.round, state.current) == (1, "e1")
    assert events == [
        {"type": "turn", "round": 1, "id": "e1", "name": "Alice", "owner": ALICE, "ping": True, "new_round": True}
    ]
    for expected in ("Goblin 1", "Goblin 2", "Bob"):
        state, events = act(state, GM_ID, {"type": "next"})
        assert state.entries[state.current or ""].name == expected
        assert events[-1]["ping"] is (expected == "Bob")  # NPCs are never called
    state, events = act(state, BOB, {"type": "next", "of": "e2"})  # Bob ends his own turn
    assert (state.round, state.current) == (2, "e1") and events[-1]["new_round"]


def test_previous_goes_back_without_calling_again_nor_counting_twice() -> None:
    state = table()
    state, _ = act(state, GM_ID, {"type": "cond", "who": "Alice", "name": "Blessed", "turns": 2})
    state, _ = act(state, GM_ID, {"type": "next"})
    state, _ = act(state, GM_ID, {"type": "next"})  # Alice's turn ends: Blessed 1 left
    state, events = act(state, GM_ID, {"type": "prev"})
    assert state.current == "e1" and events[0]["back"] and not events[0]["ping"]
    state, _ = act(state, GM_ID, {"type": "next"})  # the same turn end again: not counted twice
    assert state.entries["e1"].conditions[0].turns == 1
    with pytest.raises(IllegalAction):
        act(
            act(InitState(), ALICE, {"type": "join", "name": "A", "value": 3}, ScriptedDice({"e1.tie": [1]}))[0],
            GM_ID,
            {"type": "prev"},
        )


def test_previous_from_the_top_goes_to_the_last_of_the_round_before() -> None:
    state = table()
    for _ in range(5):
        state, _ = act(state, GM_ID, {"type": "next"})
    assert (state.round, state.current) == (2, "e1")
    state, _ = act(state, GM_ID, {"type": "prev"})
    assert (state.round, state.entries[state.current or ""].name) == (1, "Bob")
    first = act(table(), GM_ID, {"type": "next"})[0]
    with pytest.raises(IllegalAction, match="first turn"):
        act(first, GM_ID, {"type": "prev"})


def test_conditions_count_down_on_the_holders_turn_and_expire() -> None:
    state = table()
    state, _ = act(state, GM_ID, {"type": "cond", "who": "Bob", "name": "Stunned", "turns": 1})
    state, _ = act(state, GM_ID, {"type": "cond", "who": "Bob", "name": "Prone"})  # until taken off
    state, _ = act(state, GM_ID, {"type": "next"})
    for _ in range(3):
        state, events = act(state, GM_ID, {"type": "next"})
        assert not [e for e in events if e["type"] == "expired"]
    assert state.current == "e2"
    state, events = act(state, BOB, {"type": "next", "of": "e2"})  # Bob's turn ends
    assert events[0] == {"type": "expired", "id": "e2", "name": "Bob", "owner": BOB, "condition": "Stunned"}
    assert [c.name for c in state.entries["e2"].conditions] == ["Prone"]
    state, events = act(state, BOB, {"type": "cond", "who": "Bob", "name": "prone", "turns": 0})
    assert state.entries["e2"].conditions == () and events[0]["type"] == "uncondition"


def test_a_condition_put_on_during_the_holders_turn_starts_next_turn() -> None:
    state = act(table(), GM_ID, {"type": "next"})[0]
    state, _ = act(state, ALICE, {"type": "cond", "who": "Alice", "name": "Raging", "turns": 1})
    state, events = act(state, ALICE, {"type": "next", "of": "e1"})
    assert not [e for e in events if e["type"] == "expired"]
    for _ in range(4):
        state, events = act(state, GM_ID, {"type": "next"})
    assert [e["condition"] for e in events if e["type"] == "expired"] == ["Raging"]


def test_delay_lets_the_next_one_act_first() -> None:
    state = act(table(), GM_ID, {"type": "next"})[0]
    state, events = act(state, ALICE, {"type": "delay", "of": "e1"})
    assert names(state) == ["Goblin 1", "Alice", "Goblin 2", "Bob"] and state.current == "e3"
    assert events[0]["type"] == "delayed" and events[0]["after"] == "Goblin 1"
    state, events = act(state, GM_ID, {"type": "next"})
    assert state.current == "e1" and not events[-1]["ping"]  # Alice was called for this round already


def test_the_last_one_delaying_starts_the_next_round_after_the_first() -> None:
    state = table()
    for _ in range(4):
        state, _ = act(state, GM_ID, {"type": "next"})
    state, events = act(state, BOB, {"type": "delay", "of": "e2"})
    assert state.round == 2 and state.current == "e1" and names(state)[:2] == ["Alice", "Bob"]
    assert events[-1]["new_round"]


def test_remove_the_current_one_passes_the_turn_on() -> None:
    state = act(table(), GM_ID, {"type": "next"})[0]
    state, events = act(state, ALICE, {"type": "rm", "who": "Alice"})
    assert state.current == "e3" and "e1" not in state.entries and [e["type"] for e in events] == ["removed", "turn"]
    state, _ = act(state, GM_ID, {"type": "rm", "who": "bob"})
    assert names(state) == ["Goblin 1", "Goblin 2"]


def test_who_may_do_what() -> None:
    state = act(table(), GM_ID, {"type": "next"})[0]
    for data in ({"type": "prev"}, {"type": "rm", "who": "Goblin 1"}, {"type": "reveal", "who": "Bob"}):
        with pytest.raises(NotPermitted):
            act(state, BOB, data)
    for data in ({"type": "next"}, {"type": "next", "of": "e1"}, {"type": "next", "of": "e2"}):
        with pytest.raises(NotPermitted):
            act(state, BOB, data)  # Alice's turn, not Bob's
    with pytest.raises(NotPermitted):  # nor, after the GM's Next made it his, can Bob take that Next back (Undo)
        ENGINE.authorize(
            act(state, GM_ID, {"type": "next"})[0], BOB, frozenset(), ENGINE.parse_action({"type": "next"})
        )
    with pytest.raises(NotPermitted):
        act(state, BOB, {"type": "join", "name": "Alice", "member": ALICE, "value": 3})
    with pytest.raises(IllegalAction, match="over already"):  # a turn ends once
        act(act(state, ALICE, {"type": "next", "of": "e1"})[0], GM_ID, {"type": "next", "of": "e1"})
    with pytest.raises(NotPermitted):
        act(state, BOB, {"type": "join", "name": "Wolf", "npc": True, "value": 3})
    with pytest.raises(NotPermitted):
        act(state, BOB, {"type": "cond", "who": "Alice", "name": "Hexed", "turns": 3})
    with pytest.raises(IllegalAction, match="already"):
        act(state, BOB, {"type": "join", "name": "Bob again", "value": 3})


def test_hidden_npcs_reach_the_gm_only_until_revealed() -> None:
    state = act(table(), GM_ID, {"type": "next"})[0]
    ogre = {"type": "join", "name": "Ogre", "roll": "1d20", "npc": True, "hidden": True}
    state, events = act(state, GM_ID, ogre, ScriptedDice({"h1.1": [20], "h1.tie": [2]}))
    assert events[0]["only"] == ["gm"] and names(state)[0] == "Ogre"
    public = ENGINE.view(state, Viewer(BOB))
    assert "Ogre" not in names(public) and "h1" not in public.entries and public.next_hidden == 1
    assert ENGINE.view(state, Viewer(GM_ID, GM_ROLES)) == state
    for _ in range(4):  # to the Ogre's turn in round 2
        state, events = act(state, GM_ID, {"type": "next"})
    assert state.current == "h1"
    seen = ENGINE.view(state, Viewer(BOB))
    assert seen.current is None and seen.gm_turn
    assert [e for e in events if visible(e, Viewer(BOB))] == [
        {"type": "turn", "round": 2, "hidden": True, "new_round": True}
    ]
    with pytest.raises(NotPermitted):  # a player can't even name it
        act(state, BOB, {"type": "rm", "who": "Ogre"})
    state, events = act(state, GM_ID, {"type": "reveal", "who": "Ogre"})
    assert state.current == "e5" and state.entries["e5"].name == "Ogre" and events[0]["current"]
    assert ENGINE.view(state, Viewer(BOB)) == state


def test_refusals_are_readable() -> None:
    with pytest.raises(IllegalAction, match="Nobody"):
        act(InitState(), GM_ID, {"type": "next"})
    with pytest.raises(IllegalAction, match="roll"):
        act(InitState(), ALICE, {"type": "join", "name": "A", "roll": "1d20+"})
    with pytest.raises(IllegalAction, match="once"):
        act(InitState(), ALICE, {"type": "join", "name": "A", "roll": "2x 1d20"}, ScriptedDice([5, 5, 5]))
    with pytest.raises(IllegalAction, match="name"):
        act(table(), GM_ID, {"type": "join", "name": "goblin 2", "npc": True, "value": 3}, ScriptedDice([1]))


def _random_action(rng: random.Random, state: InitState) -> tuple[str, dict[str, Any]]:
    who = rng.choice([*state.order, "nobody"]) if state.order else "x"
    choices: list[dict[str, Any]] = [
        {
            "type": "join",
            "name": f"N{rng.randrange(40)}",
            "roll": "1d20+2",
            "npc": True,
            "hidden": rng.random() < 0.3,
            "count": rng.randint(1, 3),
        },
        {"type": "next"},
        {"type": "next"},
        {"type": "next"},
        {"type": "prev"},
        {"type": "delay"},
        {"type": "rm", "who": who},
        {"type": "reveal", "who": who},
        {"type": "cond", "who": who, "name": rng.choice(["A", "B"]), "turns": rng.choice([None, 0, 1, 2])},
    ]
    return GM_ID, rng.choice(choices)


def test_random_play_keeps_the_invariants_and_replays() -> None:
    rng = random.Random(30)
    for game in range(40):
        state, log = InitState(), []
        dice = SeededDice(game)
        for _ in range(60):
            actor, data = _random_action(rng, state)
            recording = RecordingDice(dice)
            action = ENGINE.parse_action(data)
            try:
                outcome = ENGINE.apply(state, actor, action, recording)
            except IllegalAction:
                continue
            log.append((actor, action, recording.rolls))
            assert outcome.state is not state and outcome.state == InitState.model_validate_json(
                outcome.state.model_dump_json()
            )
            state = outcome.state
            assert sorted(state.order) == sorted(state.entries) and len(set(state.order)) == len(state.order)
            assert state.current is None or state.current in state.entries
            assert all(k == e.id and k[0] == ("h" if e.hidden else "e") for k, e in state.entries.items())
            keys = [state.entries[e].key for e in state.order]
            assert state.round >= (1 if state.current else 0) and len(keys) == len(state.entries)
        replayed = InitState()
        for actor, action, rolls in log:
            replayed = ENGINE.apply(replayed, actor, action, ReplayDice(rolls)).state
        assert replayed == state


def test_apply_leaves_its_input_alone() -> None:
    state = table()
    before = state.model_dump()
    act(state, GM_ID, {"type": "next"})
    act(state, GM_ID, {"type": "cond", "who": "Bob", "name": "X", "turns": 1})
    assert state.model_dump() == before
    assert isinstance(ENGINE.parse_action({"type": "delay"}), BaseModel) and ENGINE.undoable(
        ENGINE.parse_action({"type": "next"})
    )


def test_a_members_initiative_dice_count_for_them_and_an_npcs_for_nobody() -> None:
    _, events = act(InitState(), ALICE, {"type": "join", "name": "A", "roll": "2d20kh1+1"}, ScriptedDice([3, 17, 9]))
    assert ENGINE.rollers(events) == [(ALICE, "e1.1"), (ALICE, "e1.2"), (ALICE, "e1.tie")]
    npc = {"type": "join", "name": "Wolf", "roll": "1d20", "npc": True}
    assert ENGINE.rollers(act(InitState(), GM_ID, npc, ScriptedDice([3, 4]))[1]) == []
