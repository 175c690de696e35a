"""A form's custom_id: its version is part of what must fit in Discord's 100 characters, and it reads back whole;
a form's lines and list paths are filled in as separate entries."""

from __future__ import annotations

import pytest

from bot.controls import CUSTOM_ID_MAX, ControlTooLong, form_id, parse_ui_id, ui_id
from bot.forms import _put


def test_a_form_id_that_fits_without_its_version_but_not_with_it_is_refused_where_it_is_built() -> None:
    arg = "x" * (CUSTOM_ID_MAX - len(ui_id("viciousness", 123456789, "form", "")) - 1)
    assert len(ui_id("viciousness", 123456789, "form", arg)) == CUSTOM_ID_MAX
    with pytest.raises(ControlTooLong):
        form_id("viciousness", 123456789, 4242, "form", arg)


def test_a_form_id_reads_back_with_its_version_and_an_argument_holding_colons_and_ats() -> None:
    route = parse_ui_id(form_id("viciousness", 12, 34, "form", "a:b@c").partition(":")[2])
    assert (route.kind, route.session_id, route.version, route.key, route.arg, route.drawn) == (
        "viciousness",
        12,
        34,
        "form",
        "a:b@c",
        None,
    )


def test_list_entries_filled_out_of_order_stay_apart() -> None:
    action: dict[str, object] = {}
    _put(action, "who.1.name", "Bea")
    _put(action, "who.0.name", "Cal")
    assert action == {"who": [{"name": "Cal"}, {"name": "Bea"}]}
