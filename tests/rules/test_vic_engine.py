"""The engine contract: permissions, records, hidden rivals, undo, export/import, data files; rival edge cases."""

from __future__ import annotations

import json

import pytest
from pydantic import ValidationError

from rules.engine import PUBLIC, HiddenInformation, Permissions, Records, Undo, Viewer, visible
from rules.text import echo
from rules.viciousness import ENGINE, parse_action
from rules.viciousness.data import FILES, TRAITS, load
from rules.viciousness.transfer import CampaignImportError, export_campaign, import_campaign
from tests.rules.test_vic_scenarios import points, vey
from tests.rules.vic_support import GM, KESTREL, MOTT, P1, P2, PIP, Campaign


def test_capabilities() -> None:
    assert isinstance(ENGINE, Permissions) and isinstance(ENGINE, Records)
    assert isinstance(ENGINE, HiddenInformation) and isinstance(ENGINE, Undo)
    assert not hasattr(ENGINE, "prompts") and not hasattr(ENGINE, "min_players")
    assert (ENGINE.kind, ENGINE.title) == ("viciousness", "Viciousness")


@pytest.mark.parametrize("name", sorted(FILES))
def test_each_data_file_loads_through_its_model(name: str) -> None:
    assert load(name)


def test_traits_data() -> None:
    kinds = [t.kind for t in TRAITS.values()]
    assert len(TRAITS) == 27 and (kinds.count("knowledge"), kinds.count("magic"), kinds.count("special")) == (6, 6, 1)


def test_permissions() -> None:
    c = Campaign()
    (kestrel,) = c.join(P1, KESTREL)
    (pip,) = c.join(P2, PIP)
    c.forbid(P2, {"type": "edit_troupe", "owner": P1, "name": "Mine now"}, "That troupe isn't yours")
    c.forbid(P2, {"type": "edit_pc", "pc": kestrel, "name": "X"}, "That character isn't yours")
    c.forbid(
        P2,
        {
            "type": "create_troupe",
            "owner": P1,
            "name": "T",
            "captain": {"name": "X", "traits": ["Driver", "Duelist", "Hacker"]},
            "asset": "favor",
        },
        "Only the GM can create a troupe for someone else.",
    )
    c.forbid(P1, {"type": "turn_start"}, "Only the GM can start a turn.")
    c.forbid(P1, {"type": "add_rival", "name": "X", "rank": 3}, "Only the GM can manage rivals.")
    c.forbid(
        P1,
        {"type": "buy", "item": "Ale", "rank": 2, "pay": [{"coins": "turn"}]},
        "Only the GM can buy without a character.",
    )
    c.gm({"type": "edit_troupe", "owner": P1, "name": "Renamed by the GM"})
    c.gm({"type": "edit_pc", "pc": pip, "concept": "A thief"})
    pool = c.gm({"type": "open_knavery", "total": 1})[0]["pool"]
    c.forbid(P2, {"type": "join", "pool": pool, "pc": kestrel})
    c.act(P1, {"type": "join", "pool": pool, "pc": kestrel})
    c.forbid(P2, {"type": "pick", "pool": pool, "who": kestrel, "picks": []})
    co_gm = frozenset({"co_gm"})
    ENGINE.authorize(c.state, "300", co_gm, parse_action({"type": "turn_start"}))


def test_two_troupe_edits_touch_only_their_own_records() -> None:
    c = Campaign()
    c.join(P1, KESTREL)
    c.join(P2, PIP)
    before = ENGINE.records(c.state)
    c.act(P1, {"type": "edit_troupe", "owner": P1, "henchmen": ["Two dockhands"]})
    c.act(P2, {"type": "add_asset", "owner": P2, "text": "A stolen barge"})
    after = ENGINE.records(c.state)
    changed = {k for k in after if after[k] != before.get(k)}
    assert changed == {f"troupe:{P1}", f"troupe:{P2}"}
    # A turn start leaves the troupes alone; actions are marked in the turn they are taken (the recap notes it).
    c.gm({"type": "turn_start"})
    assert {k for k, v in ENGINE.records(c.state).items() if v != after[k]} == {"company", "turn", "recap"}


def test_rivals_are_hidden_from_players() -> None:
    c = Campaign()
    c.join(P1, KESTREL)
    rival = vey(c)
    c.gm({"type": "notes", "text": "Vey is P1's mother"})
    player = ENGINE.view(c.state, Viewer(id=P1))
    assert player.rivals == {} and player.notes == "" and type(player) is type(c.state)
    assert ENGINE.view(c.state, PUBLIC).rivals == {}
    assert ENGINE.view(c.state, Viewer(id=GM, roles=frozenset({"co_gm"}))).rivals[rival].name == "Countess Vey"
    rival_events = [e for e in c.events if e["type"] in ("rival_added", "design_added", "split", "notes_changed")]
    assert rival_events and all(e["only"] == ["gm"] for e in rival_events)
    assert not any(visible(e, Viewer(id=P1)) for e in rival_events)
    events = c.gm({"type": "reveal", "text": "A masked rider watches the docks."})
    assert visible(events[0], PUBLIC) and events[0]["text"] == "A masked rider watches the docks."


def test_turn_end_events_about_rivals_are_gm_only() -> None:
    c = Campaign()
    vey(c)
    c.gm({"type": "turn_start"})
    events = c.gm({"type": "turn_end"}, [20])
    assert {e["type"] for e in events if not visible(e, PUBLIC)} == {"ambition_points", "rival_die"}


def test_undoable() -> None:
    assert ENGINE.undoable(parse_action({"type": "set_ip", "ip": 3}))
    assert not ENGINE.undoable(parse_action({"type": "roll", "pool": "t1p1"}))
    assert ENGINE.undoable(parse_action({"type": "consequence", "rival": "r1", "row": 3}))
    assert not ENGINE.undoable(parse_action({"type": "consequence", "rival": "r1"}))


def test_actions_parse_and_round_trip() -> None:
    with pytest.raises(ValidationError):
        parse_action({"type": "edit_pc", "pc": "1.1", "name": "x" * 81})
    with pytest.raises(ValidationError):
        parse_action({"type": "reveal", "text": "x" * 1001})
    with pytest.raises(ValidationError):
        parse_action({"type": "fly"})
    action = parse_action({"type": "assign", "pool": "t1p1", "side": "a", "to": {"b": 2}})
    assert parse_action(json.loads(action.model_dump_json())) == action
    assert len(json.dumps({"type": "flee", "pool": "t12p3", "who": "123456789012345678.12"})) < 100


def test_export_and_import() -> None:
    c = Campaign()
    c.join(P1, KESTREL, [MOTT])
    vey(c)
    text = export_campaign(c.state)
    assert import_campaign(text) == c.state
    assert import_campaign(text.encode()) == c.state
    with pytest.raises(CampaignImportError, match="not JSON"):
        import_campaign("{nope")
    with pytest.raises(CampaignImportError, match="not a Viciousness campaign export"):
        import_campaign({"format": "crowns"})
    with pytest.raises(CampaignImportError, match="deeper than a campaign"):
        import_campaign('{"a":' * 100_000 + "1" + "}" * 100_000)
    data = json.loads(text)
    data["state"]["company"]["ip"] = -4
    pc = data["state"]["troupes"][P1]["pcs"][0]
    pc["traits"] = [*pc["traits"], {"name": "Driver"}, {"name": "Hacker"}]
    with pytest.raises(CampaignImportError) as info:
        import_campaign(data)
    assert any("state.company.ip" in p for p in info.value.problems)
    assert any("at most 4" in p for p in info.value.problems)
    data = json.loads(text)
    data["state"]["troupes"][P1]["pcs"][0]["traits"][0]["name"] = "Flying"
    with pytest.raises(CampaignImportError, match="Flying"):
        import_campaign(data)


# -- rivals ------------------------------------------------------------------------------------------


def test_rival_limits_and_rejections() -> None:
    c = Campaign()
    rival = vey(c)
    c.gm({"type": "add_design", "rival": rival, "text": "Third"})
    c.reject(
        GM, {"type": "add_design", "rival": rival, "text": "Fourth"}, "Countess Vey already has 3 designs under way."
    )
    c.reject(
        GM,
        {"type": "edit_design", "rival": rival, "design": "d3", "asset": "A dragon"},
        f"Countess Vey has no asset called {echo('A dragon')}.",
    )
    c.reject(GM, {"type": "split", "rival": rival, "points": {"d1": 1}}, "exactly 3 points")
    c.reject(GM, {"type": "initiate", "rival": rival, "design": "d1"}, "no move waiting")
    c.gm({"type": "turn_start"})
    c.gm({"type": "turn_end"}, [2])
    c.reject(
        GM, {"type": "initiate", "rival": rival, "design": "d2"}, "The rival die (2) didn't make that design eligible."
    )
    c.gm({"type": "initiate", "rival": rival})
    assert c.state.rivals[rival].move is None


def test_unsubtle_move_foiled_with_speed_chess_refund() -> None:
    c = Campaign(speed_chess=True)
    rival = vey(c, unsubtle=True)
    c.gm({"type": "turn_start"})
    c.gm({"type": "turn_end"}, [1])
    assert points(c, rival) == {"d1": 3, "d2": 1}
    events = c.gm({"type": "turn_start"})
    assert c.event("rival_moves", events)["unsubtle"] is True and c.state.rivals[rival].move.stage == "interference"  # type: ignore[union-attr]
    c.reject(GM, {"type": "turn_end"}, "Countess Vey's move is still waiting for you")
    c.gm({"type": "interfere", "rival": rival, "foiled": True})
    assert points(c, rival) == {"d1": 0, "d2": 2} and c.state.rivals[rival].designs[0].status == "foiled"


def test_speed_chess_on_failed_roll() -> None:
    for flag, d2 in ((False, 1), (True, 2)):
        c = Campaign(speed_chess=True, speed_chess_on_failed_roll=flag)
        rival = vey(c)
        c.gm({"type": "turn_start"})
        c.gm({"type": "turn_end"}, [1])
        c.gm({"type": "turn_start"}, [4])
        assert points(c, rival) == {"d1": 0, "d2": d2}


def test_interference_fails_then_the_d4() -> None:
    c = Campaign()
    rival = vey(c, unsubtle=True)
    c.gm({"type": "turn_start"})
    c.gm({"type": "turn_end"}, [1])
    c.gm({"type": "turn_start"})
    events = c.gm({"type": "interfere", "rival": rival, "foiled": False}, [1])
    assert c.event("rival_roll", events)["success"] is True


def test_consequences_rattle_and_wound_a_pc_when_confirmed() -> None:
    c = Campaign()
    kestrel, mott = c.join(P1, KESTREL, [MOTT])
    rival = vey(c)
    c.gm({"type": "turn_start"})
    c.gm({"type": "turn_end"}, [1])
    c.gm({"type": "turn_start"}, [1])
    c.gm({"type": "consequence", "rival": rival, "severity": "medium", "row": 3})
    c.reject(GM, {"type": "confirm", "rival": rival}, "Name the PC who is wounded.")
    events = c.gm({"type": "confirm", "rival": rival, "pc": mott})
    assert c.pc(mott).wounded and visible(c.event("pc_wounded", events), PUBLIC)
    c.gm({"type": "turn_end"}, [1])  # d2 (1 point + 3) initiated
    c.gm({"type": "turn_start"}, [3])
    c.gm({"type": "consequence", "rival": rival, "row": 3})
    c.gm({"type": "confirm", "rival": rival, "pc": kestrel})
    assert c.pc(kestrel).rattled


def test_per_rival_asset_bonus() -> None:
    c = Campaign(asset_bonus_scope="per_rival")
    rival = vey(c)
    c.gm({"type": "edit_design", "rival": rival, "design": "d2", "asset": "Gold"})
    c.gm({"type": "turn_start"})
    c.gm({"type": "turn_end"}, [20])
    assert points(c, rival) == {"d1": 3, "d2": 1}
    per_design = Campaign()
    rival = vey(per_design)
    per_design.gm({"type": "edit_design", "rival": rival, "design": "d2", "asset": "Gold"})
    per_design.gm({"type": "turn_start"})
    per_design.gm({"type": "turn_end"}, [20])
    assert points(per_design, rival) == {"d1": 3, "d2": 2}
