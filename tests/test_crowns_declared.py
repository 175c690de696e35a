"""Dice of Crowns, declared once and complete: every action of the union has its phase, its checks and its effect;
every phase has its controls; every event the engine can emit is declared in the narration (silent ones too); and
on boards drawn from random games, every legal action of whoever must act has a control."""

from __future__ import annotations

import random
import re
import typing
from pathlib import Path

from bot.controls import decode_action
from bot.models import Seat, Session, Status
from bot.spec import ANY_ACTION, ViewContext
from cogs.crowns import _CONTROLS, _NARRATORS, CrownsSpec
from rules.crowns.actions import CrownsAction
from rules.crowns.engine import _HANDLERS, ENGINE
from rules.crowns.legality import _CHECKS
from rules.crowns.phases import PHASE_OF, PHASES
from rules.crowns.playout import random_options
from rules.dice import SeededDice

RULES = Path(__file__).resolve().parents[1] / "rules" / "crowns"
ACTIONS = set(typing.get_args(typing.get_args(CrownsAction)[0]))


def test_every_action_has_its_phase_checks_and_effect() -> None:
    assert set(PHASE_OF) == ACTIONS
    assert set(_HANDLERS) == ACTIONS
    assert set(_CHECKS) <= ACTIONS  # an action with nothing to check beyond its phase and turn has no entry
    assert set(_CONTROLS) == set(PHASES)


def test_every_event_the_engine_emits_is_narrated_or_declared_silent() -> None:
    emitted = {m for path in RULES.glob("*.py") for m in re.findall(r'emit\(\s*"([a-z_]+)"', path.read_text())}
    assert emitted, "no events found: the engine's emit calls changed shape"
    assert emitted <= set(_NARRATORS), sorted(emitted - set(_NARRATORS))


def test_every_legal_action_has_a_control_on_the_board() -> None:
    spec = CrownsSpec()
    rng = random.Random(5)
    for game in range(12):
        players = [f"P{n}" for n in range(1, rng.randint(2, 5) + 1)]
        options = random_options(rng)
        dice = SeededDice(game)
        state = ENGINE.start(options, players, dice).state
        session = Session(
            id=1,
            guild_id=1,
            channel_id=1,
            kind="crowns",
            status=Status.ACTIVE,
            host_id=1,
            version=1,
            seats=[Seat(player=p, user_id=n, name=p) for n, p in enumerate(players, start=1)],
        )
        for _ in range(400):
            prompts = ENGINE.prompts(state)
            if not prompts:
                break
            ctx: ViewContext[typing.Any] = ViewContext(session=session, state=state, prompts=prompts, events=[])
            drawn = spec.render(ctx)
            offered = set()
            for row in drawn.rows:
                for item in row:
                    custom_id = str(item.custom_id)
                    encoded = custom_id.split(":", 3)[3]
                    if encoded.startswith(ANY_ACTION):
                        offered |= {decode_action(o.value)["type"] for o in item.options}  # type: ignore[attr-defined]
                    else:
                        offered.add(decode_action(encoded)["type"])
            for prompt in prompts:
                legal = {a.model_dump()["type"] for a in ENGINE.legal_actions(state, prompt.player)}
                assert legal <= offered, (state.phase, legal - offered)
            prompt = rng.choice(prompts)
            action = rng.choice(ENGINE.legal_actions(state, prompt.player))
            state = ENGINE.apply(state, prompt.player, action, dice).state
