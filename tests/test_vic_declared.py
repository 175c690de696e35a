"""Viciousness, declared once and complete: every action is a class with its own ``type`` (the union pydantic
validates is made from them), and each is applied by exactly one module's handler; a collision fails loudly."""

from __future__ import annotations

import types
from typing import ClassVar, Literal

import pytest

from rules.viciousness import actions, engine
from rules.viciousness.actions import ACTIONS, Action, declared, parse_action


def test_every_action_has_exactly_one_handler() -> None:
    assert set(engine.HANDLERS) == set(ACTIONS.values())


def test_every_action_parses_to_its_own_class() -> None:
    for name, cls in ACTIONS.items():
        with pytest.raises(Exception) as refused:  # any validation error: the fields are missing
            parse_action({"type": name, "not_a_field": 1})
        assert name in str(refused.value) or cls.__name__ in str(refused.value)


def test_two_modules_applying_one_action_fail_loudly() -> None:
    twice = types.ModuleType("twice")
    twice.HANDLERS = {actions.Notes: lambda work, action: None}  # type: ignore[attr-defined]
    with pytest.raises(TypeError, match="Notes is applied by two modules"):
        engine.handlers_of(engine.company, engine.rivals, twice)


def test_two_actions_of_one_type_fail_loudly() -> None:
    class Base(Action):
        DOING: ClassVar[str] = "test"

    class One(Base):
        type: Literal["same"] = "same"

    class Other(Base):
        type: Literal["same"] = "same"

    with pytest.raises(TypeError, match="two Viciousness actions have the type 'same'"):
        declared(Base)
    assert One and Other
