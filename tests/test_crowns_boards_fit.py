"""Every Dice of Crowns board the cog can draw fits Discord's limits, whatever the table.

Boards are drawn for every state of many random games (2 to 6 players with 32-character names,
every module), serialised as discord.py sends them, and checked by the fake Discord's validator.
"""

from __future__ import annotations

import random

import discord
import pytest

from bot.board import compose
from bot.models import Seat, Session, Status
from bot.spec import ViewContext
from cogs.crowns import CrownsSpec
from localdiscord.responses import DiscordError
from localdiscord.validation import check_message
from rules.crowns.engine import ENGINE
from rules.crowns.playout import random_options
from rules.dice import SeededDice

GAMES = 120
LONG_NAME = "Ｗ" * 32  # the longest display name, in wide characters


def table(players: int, options: dict) -> Session:
    seats = [Seat(player=f"P{i}", user_id=10**18 + i, name=f"{LONG_NAME[:31]}{i}") for i in range(1, players + 1)]
    return Session(
        id=987654321,
        guild_id=1,
        channel_id=2,
        kind="crowns",
        status=Status.ACTIVE,
        host_id=seats[0].user_id,
        options=options,
        seats=seats,
        version=123456,
    )


def wire(game: Session, ctx: ViewContext) -> dict:
    """The message body discord.py would send for this board."""
    payload = compose(game, ENGINE.title, ctx.prompts, CrownsSpec().render(ctx), [])
    return {
        "content": payload.content,
        "embeds": [e.to_dict() for e in payload.embeds],
        "components": payload.view.to_components() if payload.view else [],
        "allowed_mentions": discord.AllowedMentions.none().to_dict(),
    }


@pytest.mark.parametrize("seed", range(4))
def test_every_board_fits_discords_limits(seed: int) -> None:
    rng = random.Random(seed)
    for number in range(GAMES // 4):
        options = random_options(rng)
        players = [f"P{i}" for i in range(1, rng.randint(2, 6) + 1)]
        dice = SeededDice(seed * 1000 + number)
        game = table(len(players), options.model_dump(mode="json"))
        outcome = ENGINE.start(options, players, dice)
        state, events = outcome.state, outcome.events
        while True:
            game.status = Status.FINISHED if ENGINE.winners(state) else Status.ACTIVE
            game.winners = ENGINE.winners(state)
            ctx = ViewContext(session=game, state=state, prompts=ENGINE.prompts(state), events=events)
            body = wire(game, ctx)
            try:
                check_message(body)
            except DiscordError as exc:  # pragma: no cover - the message says what broke
                raise AssertionError(f"{exc}: {body}") from exc
            if game.status is Status.FINISHED:
                break
            player = ENGINE.prompts(state)[0].player
            action = rng.choice(ENGINE.legal_actions(state, player))
            outcome = ENGINE.apply(state, player, action, dice)
            state, events = outcome.state, outcome.events
