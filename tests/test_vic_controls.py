"""The Viciousness control registry: every control a campaign draws is registered by its module, once.

Boards are drawn for every state of random campaigns (the engine's property driver), beside the private panels
(a price, the house rules, a troupe's pages and log, the character forms); each ``u:`` custom_id among them must
name a registered control, and each form the action of a registered form. A name registered twice stops setup.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from bot.board import compose, static_view
from bot.controls import decode_action, parse_ui_id
from bot.forms import FORM
from bot.models import MAIN_VIEW, Session
from bot.spec import ViewContext
from cogs.viciousness import controls, gm_tools, pages, sheets, turns
from cogs.viciousness.controls import RENAMED, Controls, DuplicateControl
from cogs.viciousness.forms import pc_form
from cogs.viciousness.house_rules import panel
from cogs.viciousness.pools_view import view_key
from cogs.viciousness.rivals_view import GM_VIEW
from cogs.viciousness.sheets import troupe_view
from cogs.viciousness.wealth import Draft, price_message
from rules.engine import GM_ROLES, PUBLIC, Viewer
from rules.viciousness import ENGINE, CampaignState
from rules.viciousness.actions import AddPC, Advance, CreateTroupe, Notes, Replace
from tests.rules.vic_support import GM
from tests.test_vic_boards_fit import campaign, random_campaign

REGISTRY = controls()
DRAFT = Draft(1, (), "", "a knife")


def custom_ids(components: list[dict[str, Any]]) -> Iterator[str]:
    """Every custom_id in a message's or a modal's components, however nested."""
    for component in components:
        if "custom_id" in component:
            yield component["custom_id"]
        yield from custom_ids(component.get("components") or [])
        if "component" in component:
            yield from custom_ids([component["component"]])


def unregistered(session: Session, ids: Iterator[str]) -> list[str]:
    """The game's own custom_ids among ``ids`` that no registered control or form takes."""
    missing = []
    for custom_id in ids:
        namespace, _, rest = custom_id.partition(":")
        route = parse_ui_id(rest) if namespace == "u" else None
        if route is None or (route.kind, route.session_id) != (session.kind, session.id):
            continue
        key, arg = route.key, route.arg
        known = key in REGISTRY.handlers and (key != FORM or decode_action(arg)["type"] in REGISTRY.forms)
        if not known:
            missing.append(custom_id)
    return missing


def drawn(session: Session, state: CampaignState) -> Iterator[str]:
    """The custom_ids of every board of ``state`` (as its GM sees them, and as anyone does) and its panels."""
    public = ENGINE.view(state, PUBLIC)
    keys = [MAIN_VIEW, GM_VIEW, *(troupe_view(o) for o in state.troupes), *(view_key(p) for p in state.pools)]
    for viewer, seen in ((Viewer(GM, GM_ROLES), state), (PUBLIC, public)):
        for key in keys:
            ctx = ViewContext(session=session, state=seen, prompts=[], events=[], viewer=viewer, view=key)
            view = REGISTRY.views[MAIN_VIEW if key == MAIN_VIEW else key.partition(":")[0]](ctx)
            payload = compose(session, ENGINE.title, [], view, [], main=False)
            yield from custom_ids(payload.view.to_components() if payload.view else [])
    rows = [row for troupe in state.troupes.values() for row in pages.page_buttons(session, troupe, 1)]
    views = [static_view(rows + turns.log_buttons(session, 1, 1, 3))]
    views += [m["view"] for m in (panel(session, state), price_message(session, state, DRAFT, gm=True))]
    for view in views:
        yield from custom_ids(view.to_components())
    forms = [gm_tools.notes_form(session, state.notes), pc_form(session, state, CreateTroupe, {"asset": "favor"})]
    for owner, troupe in state.troupes.items():
        forms += [pc_form(session, state, AddPC, {"owner": owner}), pc_form(session, state, Advance, {"owner": owner})]
        forms += [pc_form(session, state, Replace, {"old": pc.id}) for pc in troupe.pcs[1:2]]
    for modal in forms:
        yield modal.custom_id
        yield from custom_ids(modal.to_dict()["components"])


@pytest.mark.parametrize("seed", range(4))
def test_every_control_a_campaign_draws_is_registered(seed: int) -> None:
    session = campaign()
    seen: set[str] = set()
    for state, _ in random_campaign(seed, 150):
        ids = list(drawn(session, state))
        assert not unregistered(session, iter(ids)), unregistered(session, iter(ids))
        seen |= {parse_ui_id(i.partition(":")[2]).key for i in ids if i.startswith("u:")}
    assert {"me", "log", "form", "mods", "rules"} <= seen


def test_a_name_taken_twice_fails_at_setup() -> None:
    registry = Controls()
    sheets.register(registry)
    with pytest.raises(DuplicateControl, match=f"view.*'{MAIN_VIEW}'"):
        sheets.register(registry)
    registry.control("page", pages.page_buttons)  # type: ignore[arg-type]
    with pytest.raises(DuplicateControl, match="'page'"):
        pages.register(registry)
    gm_tools.register(registry)
    with pytest.raises(DuplicateControl, match="'notes'"):
        registry.form(Notes, REGISTRY.forms["notes"])


def test_every_module_registers_something_of_its_own() -> None:
    assert MAIN_VIEW in REGISTRY.views and "pool" in REGISTRY.views and GM_VIEW in REGISTRY.views
    assert {"create_troupe", "add_pc", "advance", "replace", "notes", "challenges", "cancel", "assign"} <= set(
        REGISTRY.forms
    )


def test_controls_drawn_under_their_old_keys_still_reach_their_handlers() -> None:
    # A campaign's boards stay up for weeks: a button drawn before the renaming is routed to the same handler.
    assert {old: REGISTRY.handlers.get(new) is not None for old, new in RENAMED.items()} == dict.fromkeys(RENAMED, True)
    assert not set(RENAMED) & set(REGISTRY.handlers)  # an old key never names a new control
