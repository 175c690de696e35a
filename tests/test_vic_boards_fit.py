"""Every Viciousness pool board, GM screen and roll message fits Discord's limits, whatever the campaign; odds now.

Boards are drawn for every state of random campaigns (the engine's property driver), and for the largest
pools the engine allows (eight sides of long names, twenty NPCs a side with ten dice each), serialised as
discord.py sends them and checked by the fake Discord's validator. Also: dice faces and the ways of sharing hits.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import discord

from bot.board import compose
from bot.models import Session, Status
from bot.spec import ViewContext
from cogs.viciousness.dice_text import die_face, face
from cogs.viciousness.narrate import narrate
from cogs.viciousness.odds import odds_now, pool_odds
from cogs.viciousness.pools_view import render_pool, splits, view_key
from cogs.viciousness.rivals_view import render_gm
from localdiscord.responses import DiscordError
from localdiscord.validation import check_message
from rules.dice import SeededDice
from rules.engine import GM_ROLES, PUBLIC, IllegalAction, Viewer, visible
from rules.viciousness import ENGINE, CampaignState
from rules.viciousness import odds as exact
from rules.viciousness.state import PoolDie
from tests.rules.test_vic_properties import SeededDice as RandomDice
from tests.rules.test_vic_properties import random_action
from tests.rules.vic_support import GM, P1

GM_VIEWER = Viewer(GM, GM_ROLES)


def campaign() -> Session:
    return Session(
        id=987654321,
        guild_id=1,
        channel_id=2,
        kind="viciousness",
        status=Status.ACTIVE,
        host_id=1,
        options={},
        seats=[],
        version=123456,
    )


def check(session: Session, ctx: ViewContext[CampaignState], render: object) -> None:
    drawn = render(ctx)  # type: ignore[operator]
    payload = compose(session, ENGINE.title, [], drawn, [], main=False)
    body = {
        "content": payload.content,
        "embeds": [e.to_dict() for e in payload.embeds],
        "components": payload.view.to_components() if payload.view else [],
        "allowed_mentions": discord.AllowedMentions.none().to_dict(),
    }
    try:
        check_message(body)
    except DiscordError as exc:  # pragma: no cover - the message says what broke
        raise AssertionError(f"{exc}: {body}") from exc


def check_state(session: Session, state: CampaignState, events: list[dict]) -> None:
    public = ENGINE.view(state, PUBLIC)
    for pool_id in public.pools:
        ctx = ViewContext(session=session, state=public, prompts=[], events=[], view=view_key(pool_id))
        check(session, ctx, lambda c, p=pool_id: render_pool(c, p))
    gm = ViewContext(session=session, state=state, prompts=[], events=[], viewer=GM_VIEWER, view="gm")
    check(session, gm, render_gm)
    for viewer, seen in ((PUBLIC, public), (GM_VIEWER, state)):
        text = "\n".join(narrate(seen, [e for e in events if visible(e, viewer)]))
        assert len(text[:2000]) <= 2000  # replies are cut to 2,000; a line never breaks the markdown of the next


def random_campaign(seed: int, steps: int) -> Iterator[tuple[CampaignState, list[dict[str, Any]]]]:
    """Each state of a random campaign (the engine's property driver) with the events that made it."""
    rng = random.Random(seed)
    state = ENGINE.start(ENGINE.options_model(), [], RandomDice(rng)).state
    dice = RandomDice(rng)
    for _ in range(steps):
        actor, data = random_action(rng, state)
        try:
            out = ENGINE.apply(state, actor, ENGINE.parse_action(data), dice)
        except (ValueError, IllegalAction):
            continue
        state = out.state
        yield state, out.events


def test_the_biggest_fight_fits() -> None:
    session = campaign()
    dice = SeededDice(7)
    sides = tuple(f"{'Ｗ' * 70} {i}" for i in range(8))
    state = ENGINE.apply(
        CampaignState(), GM, ENGINE.parse_action({"type": "open_violence", "sides": sides}), dice
    ).state
    for side in "abcdefgh":
        action = {"type": "add_npc", "pool": "t0p1", "side": side, "name": "Ｎ" * 70, "count": 20, "dice": [6] * 10}
        state = ENGINE.apply(state, GM, ENGINE.parse_action(action), dice).state
    check_state(session, state, [])
    out = ENGINE.apply(state, GM, ENGINE.parse_action({"type": "roll", "pool": "t0p1"}), dice)
    check_state(session, out.state, out.events)


def test_faces() -> None:
    assert [face(6, v) for v in range(1, 7)] == list("⚀⚁⚂⚃⚄⚅")
    assert face(4, 4) == "4️⃣"
    assert die_face(PoolDie(id="x", sides=6, source="base", rolls=(6, 2))) == "⚁(⚅)"
    assert die_face(PoolDie(id="x", sides=4, source="base", rolls=(1, 3))) == "1️⃣(3️⃣)"


def test_splits() -> None:
    assert splits(2, {"b": None, "c": None}, True) == [{"b": 0, "c": 2}, {"b": 1, "c": 1}, {"b": 2, "c": 0}]
    assert splits(2, {"b": 1, "c": 2}, False) == [
        {"b": 0, "c": 0},
        {"b": 0, "c": 1},
        {"b": 0, "c": 2},
        {"b": 1, "c": 0},
        {"b": 1, "c": 1},
    ]
    assert len(splits(9, {"b": None, "c": None, "d": None}, True)) > 25  # a form, not a select


def test_the_biggest_scheme_fits() -> None:
    session = campaign()
    dice = SeededDice(3)
    known = [f"{'Ｃ' * 990} {i}" for i in range(30)]
    opened = {"type": "open_knavery", "title": "Ｔ" * 1000, "total": 30, "known": known}
    state = ENGINE.apply(CampaignState(), GM, ENGINE.parse_action(opened), dice).state
    npcs = {"type": "add_npc", "pool": "t0p1", "name": "Ｎ" * 70, "count": 20, "dice": [6] * 10}
    state = ENGINE.apply(state, GM, ENGINE.parse_action(npcs), dice).state
    check_state(session, state, [])
    out = ENGINE.apply(state, GM, ENGINE.parse_action({"type": "roll", "pool": "t0p1"}), dice)
    check_state(session, out.state, out.events)


def test_a_crowded_gm_screen_fits() -> None:
    session = campaign()
    dice = SeededDice(5)
    state = CampaignState()
    for i in range(20):
        add = {"type": "add_rival", "name": "Ｒ" * 80, "rank": 7, "assets": ["Ａ" * 80] * 4, "notes": "Ｎ" * 1000}
        state = ENGINE.apply(state, GM, ENGINE.parse_action(add), dice).state
        for _ in range(3):
            design = {"type": "add_design", "rival": f"r{i + 1}", "text": "Ｄ" * 1000, "asset": "Ａ" * 80}
            state = ENGINE.apply(state, GM, ENGINE.parse_action(design), dice).state
    state = ENGINE.apply(state, GM, ENGINE.parse_action({"type": "notes", "text": "Ｇ" * 1000}), dice).state
    check_state(session, state, [])
    for kind in ("turn_start", "turn_end"):
        out = ENGINE.apply(state, GM, ENGINE.parse_action({"type": kind}), dice)
        state = out.state
        check_state(session, state, out.events)


def test_odds_now_counts_every_die_of_the_pool_as_it_stands() -> None:
    dice = SeededDice(1)
    state = CampaignState()
    troupe = {"type": "create_troupe", "name": "Knives", "asset": "headquarters"}
    troupe["captain"] = {"name": "Ana", "traits": ["Lurker", "Acrobat", "Medic"]}
    state = ENGINE.apply(state, P1, ENGINE.parse_action(troupe), dice).state
    ana = f"{P1}.1"
    for data in (
        {"type": "condition", "pc": ana, "change": "rattle"},
        {"type": "open_violence", "sides": ["Knives", "Guards"]},
        {"type": "join", "pool": "t0p1", "pc": ana, "side": "a"},
        {"type": "pick", "pool": "t0p1", "who": ana, "picks": [{"trait": "Lurker", "clause": 0}]},
        {"type": "add_npc", "pool": "t0p1", "side": "b", "name": "Guard", "count": 2},
        {"type": "equip", "pool": "t0p1", "side": "b", "n": 1},
    ):
        state = ENGINE.apply(state, GM, ENGINE.parse_action(data), dice).state
    pool = state.pools["t0p1"]
    rattled = (exact.Die(faces=4, rattled=True), exact.Die(faces=6, rattled=True))
    expected = exact.violence_odds(exact.Pool(dice=rattled), exact.Pool(dice=(exact.Die(faces=4),) * 3))
    assert pool_odds(state, pool) == expected
    assert odds_now(state, pool) == exact.summary(expected) + " (for Knives)"
    scheme = ENGINE.apply(state, GM, ENGINE.parse_action({"type": "open_knavery", "total": 0}), dice).state
    assert pool_odds(scheme, scheme.pools["t0p2"]) is None  # nothing to roll against
