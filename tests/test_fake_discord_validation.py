"""The fake's copies of Discord's rules: message limits, mentions and command schemas."""

from __future__ import annotations

from typing import Any

import pytest

from localdiscord.guild import Member, Role
from localdiscord.interactions import OptionRejected, modal_submit_components
from localdiscord.messages import compute_mentions
from localdiscord.responses import DiscordError
from localdiscord.validation import check_commands, check_message, check_option_value


def button(custom_id: str, label: str = "Go") -> dict[str, Any]:
    """A plain button."""
    return {"type": 2, "style": 1, "label": label, "custom_id": custom_id}


def row(*components: dict[str, Any]) -> dict[str, Any]:
    """An action row."""
    return {"type": 1, "components": list(components)}


def select(custom_id: str, options: int) -> dict[str, Any]:
    """A string select with ``options`` options."""
    return {
        "type": 3,
        "custom_id": custom_id,
        "options": [{"label": f"o{i}", "value": f"v{i}"} for i in range(options)],
    }


def refused(payload: dict[str, Any], **kwargs: Any) -> str:
    """Discord's error message for ``payload`` (fails if Discord would accept it)."""
    with pytest.raises(DiscordError) as caught:
        check_message(payload, **kwargs)
    return caught.value.message


def test_a_sensible_message_passes() -> None:
    rows = [row(*(button(f"b{r}{i}") for i in range(5))) for r in range(4)] + [row(select("s", 25))]
    check_message({"content": "x" * 2000, "embeds": [{"title": "t", "description": "d"}] * 10, "components": rows})


@pytest.mark.parametrize(
    ("payload", "reason"),
    [
        ({"content": "x" * 2001}, "2000 or fewer"),
        ({"content": ""}, "empty message"),
        ({"embeds": [{"title": "t"}] * 11}, "10 or fewer"),
        ({"embeds": [{"title": "x" * 257}]}, "256 or fewer"),
        ({"embeds": [{"description": "x" * 4000}, {"description": "x" * 2001}]}, "6000"),
        ({"embeds": [{"fields": [{"name": "n", "value": "v"}] * 26}]}, "25 or fewer"),
        ({"components": [row(button(f"b{i}")) for i in range(6)]}, "5 or fewer"),
        ({"components": [row(*(button(f"b{i}") for i in range(6)))]}, "1 to 5 buttons"),
        ({"components": [row(select("s", 3), button("b"))]}, "exactly one select"),
        ({"components": [row(button("x" * 101))]}, "between 1 and 100"),
        ({"components": [row(button("same"), button("same"))]}, "cannot be duplicated"),
        ({"components": [row(button("b", label="x" * 81))]}, "80 or fewer"),
        ({"components": [row(select("s", 26))]}, "between 1 and 25"),
        ({"components": [button("b")]}, "inside an action row"),
        ({"content": "hi", "allowed_mentions": {"parse": ["users"], "users": ["1"]}}, "conflicts"),
    ],
)
def test_limits_are_enforced(payload: dict[str, Any], reason: str) -> None:
    assert reason in refused(payload)


def test_an_edit_may_leave_out_the_content() -> None:
    check_message({"components": []}, creating=False)


def test_mentions_follow_allowed_mentions() -> None:
    alice, bob = Member(100000000000000001, "alice", "Alice", []), Member(100000000000000002, "bob", "Bob", [])
    role = Role(100000000000000003, "Players", 0, position=1)
    users, roles = {alice.id: alice, bob.id: bob}, {role.id: role}
    content = f"<@{alice.id}> <@!{bob.id}> <@&{role.id}> @everyone"
    everything = compute_mentions(content, None, users, roles)
    assert [u["id"] for u in everything["mentions"]] == [str(alice.id), str(bob.id)]
    assert everything["mention_roles"] == [str(role.id)] and everything["mention_everyone"]
    only_bob = compute_mentions(content, {"parse": [], "users": [bob.id]}, users, roles)
    assert [u["id"] for u in only_bob["mentions"]] == [str(bob.id)]
    assert only_bob["mention_roles"] == [] and not only_bob["mention_everyone"]
    users_only = compute_mentions("@everyone @here", {"parse": ["users"]}, users, roles)
    assert not users_only["mention_everyone"]


def command(**overrides: Any) -> dict[str, Any]:
    """A valid chat-input command with one required and one optional option."""
    options = [
        {"type": 3, "name": "expression", "description": "Dice", "required": True},
        {"type": 5, "name": "private", "description": "Only you see it"},
    ]
    return {"type": 1, "name": "roll", "description": "Roll dice", "options": options} | overrides


@pytest.mark.parametrize(
    "bad",
    [
        command(name="Roll"),
        command(name="x" * 33),
        command(description=""),
        command(description="x" * 101),
        command(options=list(reversed(command()["options"]))),
        command(options=[{"type": 3, "name": f"o{i}", "description": "d"} for i in range(26)]),
        command(options=[{"type": 3, "name": "c", "description": "d", "choices": [{"name": "n", "value": "v"}] * 26}]),
    ],
)
def test_invalid_command_schemas_are_refused(bad: dict[str, Any]) -> None:
    with pytest.raises(DiscordError):
        check_commands([bad])


def test_valid_commands_pass_but_not_twice() -> None:
    check_commands([command()])
    with pytest.raises(DiscordError, match="unique"):
        check_commands([command(), command()])


@pytest.mark.parametrize(
    ("option", "value", "ok"),
    [
        ({"type": 3, "name": "s", "max_length": 5}, "hello", True),
        ({"type": 3, "name": "s", "max_length": 5}, "hello!", False),
        ({"type": 4, "name": "i", "min_value": 1, "max_value": 3}, 3, True),
        ({"type": 4, "name": "i", "min_value": 1, "max_value": 3}, 4, False),
        ({"type": 4, "name": "i"}, 1.5, False),
        ({"type": 10, "name": "f"}, 1.5, True),
        ({"type": 5, "name": "b"}, "yes", False),
        ({"type": 3, "name": "c", "choices": [{"name": "A", "value": "a"}]}, "b", False),
        ({"type": 3, "name": "c", "choices": [{"name": "A", "value": "a"}], "autocomplete": True}, "b", True),
    ],
)
def test_option_values(option: dict[str, Any], value: Any, ok: bool) -> None:
    assert (check_option_value(option, value) is None) is ok


@pytest.mark.parametrize(
    ("option", "value", "ok"),
    [
        ({"type": 3, "name": "s", "max_length": 5}, "x" * 6000, True),
        ({"type": 3, "name": "s", "max_length": 5}, "x" * 6001, False),
        ({"type": 3, "name": "s", "min_length": 1}, "", True),
        ({"type": 4, "name": "i", "min_value": 1, "max_value": 3}, -(2**53), True),
        ({"type": 4, "name": "i", "min_value": 1, "max_value": 3}, 2**53 + 1, False),
        ({"type": 4, "name": "i"}, "3", False),
        ({"type": 3, "name": "c", "choices": [{"name": "A", "value": "a"}]}, "b", True),
    ],
)
def test_what_a_modified_client_sends(option: dict[str, Any], value: Any, ok: bool) -> None:
    """Without the client's checks only Discord's own limits hold: types, 6,000 characters, ±2^53."""
    assert (check_option_value(option, value, client=False) is None) is ok


SELECT = {"type": 3, "custom_id": "pick", "min_values": 1, "max_values": 2, "options": [{"value": "a"}, {"value": "b"}]}
TEXT = {"type": 4, "custom_id": "name", "max_length": 5}
FORM = {"custom_id": "form", "components": [{"type": 18, "component": SELECT}, {"type": 18, "component": TEXT}]}


@pytest.mark.parametrize(
    ("values", "client_ok", "modified_ok"),
    [
        ({"pick": ["a", "b"], "name": "Bo"}, True, True),
        ({"pick": ["c"], "name": "Bo"}, False, True),
        ({"pick": ["a", "b", "a"], "name": "Bo"}, False, True),
        ({"pick": [], "name": "Bo"}, False, True),
        ({"pick": ["a"], "name": "x" * 6}, False, True),
        ({"pick": ["a"], "name": ""}, False, True),
        ({"pick": ["a"], "name": "x" * 4001}, False, False),
    ],
)
def test_form_submissions(values: dict[str, Any], client_ok: bool, modified_ok: bool) -> None:
    for client_checks, ok in ((True, client_ok), (False, modified_ok)):
        try:
            modal_submit_components(FORM, values, client_checks=client_checks)
        except OptionRejected:
            assert not ok, (values, client_checks)
        else:
            assert ok, (values, client_checks)
