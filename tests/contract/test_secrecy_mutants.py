"""The secrecy check (``tests/contract/secrecy.py``) finds a secret wherever it surfaces: secret dice made to leak in
one way each, and the check must fail on each of them. A check that passes these is the hole it was written to close
(removing ``only`` from the roll events put every die on the public board, and the old check still passed)."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from typing import Any

import pytest
from pydantic import BaseModel

from bot.models import Session
from bot.registry import GameKind
from rules.dice import DiceSource
from rules.engine import Outcome
from tests.contract.games import GAMES
from tests.contract.kit import Game
from tests.contract.play import play
from tests.contract.secrecy import check_secret, secrets
from tests.secret.cog import SecretSpec
from tests.secret.engine import SecretEngine, SecretOptions, SecretState

SEEDS = range(4)


class Shown(SecretEngine):
    """Each die's roll is told to everyone: the events lose their ``only``."""

    def start(self, options: SecretOptions, players: Sequence[str], dice: DiceSource) -> Outcome[SecretState]:
        outcome = super().start(options, players, dice)
        return Outcome(outcome.state, [{k: v for k, v in e.items() if k != "only"} for e in outcome.events])


class Counted(SecretEngine):
    """A reroll is counted for its roller in the luck statistics, which anyone may read."""

    def rollers(self, events: Sequence[Mapping[str, Any]]) -> list[tuple[str, str]]:
        return [(e["player"], f"die.{e['player']}.again") for e in events if e["type"] == "rerolled"]


def told(session: Session, state: BaseModel, events: list[dict[str, Any]]) -> list[str]:
    """A narration that reads the session's whole state (as a spec reading it through the bot could): each bid is
    told with how far the dice are from it."""
    assert isinstance(state, SecretState)
    total = sum(v or 0 for v in state.dice.values())
    return [f"bid {e['total']}, {total - e['total']} under the dice" for e in events if e["type"] == "bid"]


def variant(engine: SecretEngine, **changed: Any) -> Game:
    """Secret dice as the suite plays it, with another engine (and other fields of its ``Game``)."""
    secret = next(g for g in GAMES if g.name == "secret")

    class Spec(SecretSpec):
        kind = GameKind(engine)

    return dataclasses.replace(secret, name=f"secret-{type(engine).__name__}", spec=Spec(), **changed)


def leaks(game: Game) -> list[str]:
    """What the secrecy check says of a few games of ``game``."""
    found = []
    for seed in SEEDS:
        p = play(game, seed)
        for change, blind in secrets(p):
            try:
                check_secret(p, change, blind)
            except AssertionError as exc:
                found.append(str(exc))
    return found


def test_secret_dice_as_written_leak_nothing() -> None:
    assert leaks(variant(SecretEngine())) == []


def test_a_roll_told_to_everyone_is_found_in_the_events() -> None:
    found = leaks(variant(Shown()))
    assert found and all("events of entry 0" in f and "the channel" in f for f in found[:3]), found[:3]


def test_a_secret_die_in_the_luck_statistics_is_found() -> None:
    found = leaks(variant(Counted()))
    assert any(f.startswith("secret-Counted: luck of entry") for f in found), found[:3]


def test_a_secret_die_in_the_narration_is_found() -> None:
    found = leaks(variant(SecretEngine(), narrator=told))
    assert any("narration of entry" in f for f in found), found[:3]


def test_a_computer_given_the_whole_state_is_found(monkeypatch: pytest.MonkeyPatch) -> None:
    """The core as it was: a computer was handed every seat's dice, and bid from them."""

    def whole_state(kind: GameKind, state: BaseModel, player: str, dice: DiceSource, strength: str) -> BaseModel:
        assert kind.computers is not None
        action: BaseModel = kind.computers.computer_action(state, player, dice, strength)
        return action

    monkeypatch.setattr(GameKind, "computer_action", whole_state)
    found = leaks(variant(SecretEngine()))
    assert any("computer of entry" in f for f in found), found[:3]
