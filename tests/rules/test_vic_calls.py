"""A table that calls its players, in the engine: who it waits on (each wait once, when it begins), the reminders
asked for, the recap of what the channel saw, a planned session's reminders, and rival dice committed and revealed
(checked with the same SHA-256 as ``/dice verify``)."""

from __future__ import annotations

from typing import Any

from rules.engine import GM as GM_ROLE
from rules.engine import Viewer
from rules.roll.commitment import verify
from rules.viciousness import ENGINE
from rules.viciousness.calls import waits
from rules.viciousness.sessions import EVERYONE
from rules.viciousness.state import Planned
from tests.rules.vic_support import GM, MOTT, P1, P2, PIP, Campaign

SALT = "ab" * 16


def waiting(events: list[dict[str, Any]]) -> dict[str, list[str]]:
    """The waits that began, by kind, with whom they wait on."""
    return {e["kind"]: e["on"] for e in events if e["type"] == "waiting"}


def test_each_wait_calls_whom_it_waits_on_once_when_it_begins() -> None:
    c = Campaign()
    kestrel, mott = c.join(P1, minions=[MOTT])
    (pip,) = c.join(P2, PIP)
    started = c.gm({"type": "turn_start"})
    assert waiting(started) == {"turn": [P1, P2]}
    assert waiting(c.gm({"type": "company", "name": "Knives"})) == {}  # the same wait: nobody is called again
    opened = c.gm({"type": "open_knavery", "total": 1, "known": ["The lock"]})
    pool = opened[0]["pool"]
    assert waiting(opened) == {"join": [P1, P2]}
    # Kestrel joins: P1's join wait ends; his turn wait goes on (Mott has not acted); nobody new is waited on.
    assert waiting(c.act(P1, {"type": "join", "pool": pool, "pc": kestrel})) == {}
    # Pip joins: nobody else can bring anyone, so the scheme is ready to roll: the table waits on the GM.
    assert waiting(c.act(P2, {"type": "join", "pool": pool, "pc": pip})) == {"roll": [GM_ROLE]}
    failed = c.gm({"type": "roll", "pool": pool}, dice=[1, 1])
    assert waiting(failed) == {"thwart": [P1, P2]}  # a prepared group chooses
    thwarted = c.act(P1, {"type": "thwart", "pool": pool, "picks": []})
    assert waiting(thwarted) == {"fallout": [GM_ROLE]}
    assert {w.kind: w.on for w in waits(c.state)} == {"turn": (P1,), "fallout": (GM_ROLE,)}  # Mott hasn't acted
    c.act(P1, {"type": "act", "pc": mott, "kind": "rest"})
    assert {w.kind for w in waits(c.state)} == {"fallout"}


def test_a_rivals_wait_is_the_gms_secret() -> None:
    c = Campaign()
    c.join(P1)
    c.gm({"type": "add_rival", "name": "Baron", "rank": 3})
    c.gm({"type": "add_design", "rival": "r1", "text": "Ruin them"})
    c.gm({"type": "turn_start"})
    ended = c.gm({"type": "turn_end"}, dice=[1])  # 3 points ≥ 1: the design is initiated
    (secret,) = [e for e in ended if e["type"] == "waiting"]
    assert secret["kind"] == "rival" and secret["on"] == [GM_ROLE] and secret["only"] == ["gm"]


def test_reminders_are_for_players_who_asked_and_a_planned_sessions_players() -> None:
    c = Campaign()
    c.join(P1)
    c.join(P2, PIP)
    c.act(P1, {"type": "calls", "remind_after": 3})
    c.act(P2, {"type": "calls", "how": "off", "remind_after": 3})  # nothing at all for someone who asked for none
    c.forbid(P1, {"type": "calls", "owner": P2, "how": "dm"})
    c.gm({"type": "turn_start"})
    assert [(r.player, r.key, r.after) for r in ENGINE.reminders(c.state)] == [(P1, "turn:1", 3 * 3600.0)]
    session = Planned(start=2_000_000_000, minutes=180, reminders=(60, 1440))
    c.gm({"type": "plan_session", "session": session.model_dump()})
    planned = [r for r in ENGINE.reminders(c.state) if r.player == EVERYONE]
    assert [(r.key, r.at) for r in planned] == [
        ("session:2000000000:1440", 2_000_000_000 - 86400.0),
        ("session:2000000000:60", 2_000_000_000 - 3600.0),
    ]
    c.gm({"type": "cancel_session"})
    assert all(r.player != EVERYONE for r in ENGINE.reminders(c.state))


def test_the_recap_tells_what_the_channel_saw_and_starts_again() -> None:
    c = Campaign()
    (kestrel,) = c.join(P1)
    c.gm({"type": "add_rival", "name": "Baron", "rank": 3})
    c.gm({"type": "turn_start"})
    c.gm({"type": "reward", "method": "rare", "npc_rank": 3, "invest": True})
    c.gm({"type": "reveal", "text": "The seal was forged"})
    c.gm({"type": "reveal", "text": "Only for you", "to": [P1]})
    c.gm({"type": "condition", "pc": kestrel, "change": "wound"})
    ended = c.gm({"type": "turn_end"})
    recap = c.event("recap", ended)
    kinds = [i["type"] for i in recap["items"]]
    assert kinds == ["turn_started", "reward", "ip_changed", "revealed", "pc_wounded", "turn_ended"]
    assert all("Only for you" not in str(i) and "Baron" not in str(i) for i in recap["items"])
    # A recap told at a turn's end leaves the next one to start with the next turn.
    assert c.state.recap.items == () and c.state.recap.since_turn == 2
    c.reject(GM, {"type": "recap"}, "Nothing has happened since the last recap")


def test_rival_dice_committed_name_nothing_and_their_reveal_checks_out() -> None:
    c = Campaign(rival_dice="committed")
    c.join(P1)
    c.gm({"type": "add_rival", "name": "Baron", "rank": 3})
    c.gm({"type": "add_design", "rival": "r1", "text": "Ruin them"})
    c.gm({"type": "turn_start", "salt": SALT})
    ended = c.gm({"type": "turn_end", "salt": SALT}, dice=[14])
    committed = c.event("die_committed", ended)
    assert "only" not in committed and set(committed) == {"type", "sides", "turn", "commitment"}
    assert ENGINE.view(c.state, Viewer(P1)).committed == ()  # kept for the GM alone
    assert len(ENGINE.view(c.state, Viewer(GM, frozenset({GM_ROLE}))).committed) == 1
    revealed = c.event("die_revealed", c.gm({"type": "reveal_dice"}))
    assert revealed["line"] == "1d20 [14] = 14" and revealed["commitment"] == committed["commitment"]
    assert verify(committed["commitment"], revealed["line"], revealed["salt"])
    assert not verify(committed["commitment"], "1d20 [3] = 3", revealed["salt"])
    c.reject(GM, {"type": "reveal_dice"}, "No rival die waits")
    # Without the setting (or without a salt), nothing is committed.
    plain = Campaign()
    plain.join(P1)
    plain.gm({"type": "add_rival", "name": "Baron", "rank": 3})
    plain.gm({"type": "add_design", "rival": "r1", "text": "Ruin them"})
    plain.gm({"type": "turn_start", "salt": SALT})
    assert "die_committed" not in plain.kinds(plain.gm({"type": "turn_end", "salt": SALT}, dice=[14]))


def test_a_fights_waits_call_the_side_that_chooses_then_the_gm_then_those_standing() -> None:
    c = Campaign(death_test_timing="deferred")
    (kestrel,) = c.join(P1)
    c.gm({"type": "turn_start"})
    opened = c.gm(
        {
            "type": "open_violence",
            "sides": ["Knives", "Guards", "Rats"],
            "npcs": [{"side": 1, "name": "Guard", "count": 1}, {"side": 2, "name": "Rat", "count": 1}],
        }
    )
    pool = opened[0]["pool"]
    c.act(P1, {"type": "join", "pool": pool, "pc": kestrel, "side": "a"})
    c.gm({"type": "roll", "pool": pool}, dice=[4, 2, 2])
    resolved = c.gm({"type": "resolve", "pool": pool})
    assert waiting(resolved) == {"clash": [P1]}  # the Knives hit most: their player sends the hit
    wounds = c.act(P1, {"type": "assign", "pool": pool, "side": "a", "to": {"b": 1}})
    # The Guard is wounded: his death test waits for the GM (deferred), and Kestrel, standing, may flee.
    assert waiting(wounds) == {"flight": [P1], "death": [GM_ROLE]}
