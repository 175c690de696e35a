"""Every Vices & Vengeance board the table game can draw fits Discord's limits, whatever the table.

Boards (and the removal's private preview of every die at once) are drawn for every state of 100 random
games (2 to 7 players with 32-character names, random house rules), serialised as discord.py sends them,
and checked by the fake Discord's validator.
"""

from __future__ import annotations

import random
from typing import Any

import discord
import pytest

from bot.board import compose
from bot.models import Seat, Session, Status
from bot.spec import ViewContext
from cogs.vices.table import TableSpec, preview_text
from localdiscord.responses import DiscordError
from localdiscord.validation import check_message
from rules.dice import SeededDice
from rules.vices.engine import ENGINE
from rules.vices.playout import random_options, random_removal

GAMES = 100
LONG_NAME = "Ｗ" * 32  # the longest display name, in wide characters
SPEC = TableSpec(bot=None)  # type: ignore[arg-type]  # drawing needs no bot


def table(players: int, options: dict[str, Any]) -> Session:
    seats = [Seat(player=f"P{i}", user_id=10**18 + i, name=f"{LONG_NAME[:31]}{i}") for i in range(1, players + 1)]
    return Session(
        id=987654321,
        guild_id=1,
        channel_id=2,
        kind="vices",
        status=Status.ACTIVE,
        host_id=seats[0].user_id,
        options=options,
        seats=seats,
        version=123456,
    )


def wire(game: Session, ctx: ViewContext) -> dict[str, Any]:
    """The message body discord.py would send for this board."""
    payload = compose(game, ENGINE.title, ctx.prompts, SPEC.render(ctx), [])
    return {
        "content": payload.content,
        "embeds": [e.to_dict() for e in payload.embeds],
        "components": payload.view.to_components() if payload.view else [],
        "allowed_mentions": discord.AllowedMentions.none().to_dict(),
    }


def check(body: dict[str, Any]) -> None:
    try:
        check_message(body)
    except DiscordError as exc:  # pragma: no cover - the message says what broke
        raise AssertionError(f"{exc}: {body}") from exc


@pytest.mark.parametrize("seed", range(4))
def test_every_board_fits_discords_limits(seed: int) -> None:
    rng = random.Random(seed)
    for number in range(GAMES // 4):
        options = random_options(rng)
        players = [f"P{i}" for i in range(1, rng.randint(2, 7) + 1)]
        dice = SeededDice(seed * 1000 + number)
        game = table(len(players), options.model_dump(mode="json"))
        outcome = ENGINE.start(options, players, dice)
        state, events = outcome.state, outcome.events
        first = True
        while True:
            game.status = Status.FINISHED if ENGINE.winners(state) else Status.ACTIVE
            game.winners = ENGINE.winners(state)
            prompts = ENGINE.prompts(state)
            ctx = ViewContext(session=game, state=state, prompts=prompts, events=events, first=first)
            check(wire(game, ctx))
            assert SPEC.retired(ctx)
            first = False
            if game.status is Status.FINISHED:
                break
            player = prompts[0].player
            if prompts[0].decision == "remove":
                units = ENGINE.removable_units(state)
                if units and rng.random() < 0.1:
                    # Everything at once: the longest preview the removal can show.
                    action: Any = random_removal(state, rng)
                    points = ENGINE.removal_points(state, action.units)
                    assert len(preview_text(game, state, units, list(action.units), points)) < 2000
                else:
                    action = rng.choice(ENGINE.legal_actions(state, player))
            else:
                action = rng.choice(ENGINE.legal_actions(state, player))
            outcome = ENGINE.apply(state, player, action, dice)
            state, events = outcome.state, outcome.events
            game.version += 1
