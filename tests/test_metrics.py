"""``METRICS_PORT``: the bot's Prometheus metrics, scraped over HTTP while games are played through the local Discord.

The counts are checked against what happened (clicks answered, refused, failed; every request Discord received,
by route; a 429), and every label stays bounded after a varied run (no id, token or typed text ever becomes one).
"""

from __future__ import annotations

import asyncio
import random
import re
from collections import Counter
from collections.abc import Iterable

import aiohttp
import pytest
from prometheus_client.parser import text_string_to_metric_families
from prometheus_client.samples import Sample

from bot.app import TabletopBot
from bot.discord_routes import NOT_API, route_of
from bot.leases import Change
from bot.metrics import Outcome, query_methods
from bot.models import Status
from localdiscord.server import LocalDiscord
from rules.dice import ScriptedDice, SeededDice
from tests.conftest import MakeBot
from tests.core.clock import FakeClock
from tests.core.race import RACE_EXTENSIONS, current_board, live, start_race
from tests.test_e2e_crowns import play_one_click
from tests.weather.world import PLAYERS, everything_under_way

KINDS = {"command", "button", "select", "form", "other"}
METHODS = {"GET", "POST", "PATCH", "PUT", "DELETE"}
ROUTE = re.compile(r"^(/([a-z@][a-z0-9@.-]*|\{[a-z_]+\}))+$")
BOUNDED = {
    "kind": KINDS.__contains__,
    "outcome": {o.value for o in Outcome}.__contains__,
    "method": METHODS.__contains__,
    "route": lambda value: value == NOT_API or ROUTE.match(value) is not None,
    "status": lambda value: value == "error" or re.fullmatch(r"[1-5]\d\d", value) is not None,
    "query": set(query_methods()).__contains__,
    "change": {c.value for c in Change}.__contains__,
    "le": lambda value: True,  # a histogram's bucket bounds: fixed in the code
}
"""Every label a metric of the bot may have, and the values it may take."""
SERIES_LIMIT = 2000
CROWNS_CLICKS = 12


async def scrape(bot: TabletopBot) -> list[Sample]:
    """``GET /metrics`` on the bot's port, parsed: every sample."""
    url = f"http://127.0.0.1:{bot.status_server.port}/metrics"
    async with aiohttp.ClientSession() as session, session.get(url) as answer:
        assert answer.status == 200
        text = await answer.text()
    return [sample for family in text_string_to_metric_families(text) for sample in family.samples]


def total(samples: Iterable[Sample], name: str, **labels: str) -> float:
    """The sum of ``name``'s samples whose labels include ``labels``."""
    return sum(s.value for s in samples if s.name == name and labels.items() <= s.labels.items())


def discord_requests(samples: Iterable[Sample]) -> Counter[tuple[str, str]]:
    """Requests to Discord's API as the bot counted them, by method and route (every status)."""
    counted: Counter[tuple[str, str]] = Counter()
    for s in samples:
        if s.name == "tabletop_discord_requests_total" and s.labels["route"] != NOT_API:
            counted[s.labels["method"], s.labels["route"]] += int(s.value)
    return counted


def received(fake: LocalDiscord) -> Counter[tuple[str, str]]:
    """Requests the local Discord received, by method and route template."""
    return Counter((r["method"], route_of(r["path"].split("?")[0])) for r in fake.requests)


async def counted_as_received(fake: LocalDiscord, bot: TabletopBot) -> list[Sample]:
    """Scrape until the bot has counted every request Discord received (its count lands when the answer is read,
    a moment after Discord noted the request), within 5 s; the last scrape."""
    async with asyncio.timeout(5):
        while True:
            samples = await scrape(bot)
            if discord_requests(samples) == received(fake):
                return samples
            await asyncio.sleep(0.05)


def test_a_route_keeps_its_words_and_hides_ids_and_tokens() -> None:
    api = "/api/v10"
    assert route_of(f"{api}/channels/1234567890123/messages") == "/channels/{channel_id}/messages"
    assert route_of(f"{api}/channels/12/messages/34") == "/channels/{channel_id}/messages/{message_id}"
    assert route_of(f"{api}/interactions/99/aW50ZXJhY3Rpb246OTk6c2VjcmV0/callback") == (
        "/interactions/{interaction_id}/{token}/callback"
    )
    assert (
        route_of(f"{api}/webhooks/5/tok.en-_x/messages/@original")
        == "/webhooks/{webhook_id}/{token}/messages/@original"
    )
    assert route_of(f"{api}/guilds/1/scheduled-events/2") == "/guilds/{guild_id}/scheduled-events/{scheduled_event_id}"
    # An emoji, a name a member typed, a word Discord may add one day: never a label of their own.
    assert route_of(f"{api}/channels/1/messages/2/reactions/%F0%9F%8E%B2/@me") == (
        "/channels/{channel_id}/messages/{message_id}/reactions/{value}/@me"
    )
    assert route_of(f"{api}/channels/1/Alice's secret") == "/channels/{channel_id}/{value}"
    assert route_of(f"{api}" + "/channels/1" * 20).count("/") == 8
    assert route_of("/?v=10&encoding=json") == route_of("/gateway") == NOT_API


async def test_a_game_is_counted_as_it_happened(fake: LocalDiscord, make_bot: MakeBot) -> None:
    bot = await make_bot(extensions=(*RACE_EXTENSIONS, "cogs.dice"), metrics_port=0, clock=FakeClock())
    alice, bob, carol = fake.members[0], fake.members[1], fake.members[2]
    channel = fake.channels[0]
    bot.service.dice = ScriptedDice([1, 6, 2])  # Alice goes first (1 of d2), rolls 6; Bob 2
    board = await start_race(fake, channel, alice, [bob], target=10)  # /race new, Join, Start
    refused = await (await fake.click(board, "Roll", carol)).message()
    assert "not playing" in refused.content
    posts = f"/channels/{channel.id}/messages"
    fake.inject_429(f"POST /api/v10{posts}")  # the board Bob's turn brings is refused once, then sent again
    await (await fake.click(board, "Roll", alice)).message()
    for member in (bob, alice):
        if member is alice:
            bot.service.dice = ScriptedDice([])  # Alice's roll finds the script empty: an internal error
        board = await current_board(fake, channel)
        await (await fake.click(board, "Roll", member)).message()
    bot.service.dice = ScriptedDice([5])
    await (await fake.click(await current_board(fake, channel), "Roll", alice)).message()  # 6 + 5: she wins
    assert (await live(bot, channel)).winners == ["P1"]
    await (await fake.slash(channel, bob, "roll", options={"expression": "2d6"})).message()
    nonsense = await (await fake.slash(channel, bob, "roll", options={"expression": "2d6 <@1> x"})).message()
    assert nonsense.ephemeral

    samples = await counted_as_received(fake, bot)
    interactions = "tabletop_interactions_total"
    # 2 commands answered (/race new, /roll 2d6) and one refused; 6 clicks answered (Join, Start, 4 Rolls, of
    # which 1 refused, 1 failed), whether at once or deferred first (a busy machine).
    assert total(samples, interactions, kind="command", outcome="refused") == 1
    assert total(samples, interactions, kind="command") == 3
    assert total(samples, interactions, kind="button", outcome="refused") == 1
    assert total(samples, interactions, kind="button", outcome="error") == 1
    assert total(samples, "tabletop_internal_errors_total", kind="button") == 1
    assert total(samples, interactions, kind="button") == 7
    assert total(samples, interactions, outcome="late") == 0
    assert total(samples, "tabletop_interaction_first_response_seconds_count") == 10
    assert total(samples, "tabletop_interaction_answer_seconds_count") == 10
    # Every request Discord received, by route (checked above), and the 429 among them.
    route = "/channels/{channel_id}/messages"
    assert total(samples, "tabletop_discord_requests_total", method="POST", route=route, status="429") == 1
    assert total(samples, "tabletop_discord_requests_total", status="429") == 1
    callbacks = total(
        samples, "tabletop_discord_requests_total", route="/interactions/{interaction_id}/{token}/callback"
    )
    assert callbacks == 10  # one first response each
    # The store's time per method, the publisher's queue, the database's counts, the process.
    assert total(samples, "tabletop_store_query_seconds_count", query="save") == 5  # Join, Start, 3 rolls
    assert total(samples, "tabletop_publisher_queued") == 0
    assert total(samples, "tabletop_sessions_live") == 0  # the race is over
    assert total(samples, "tabletop_sessions_due") == total(samples, "tabletop_computer_turns_pending") == 0
    assert total(samples, "tabletop_gateway_down_seconds") == 0
    assert total(samples, "process_resident_memory_bytes") > 10_000_000
    assert_bounded(samples)


@pytest.mark.fake(response_deadline=0)
async def test_a_first_response_discord_refused_as_too_late_is_counted_late(
    fake: LocalDiscord, make_bot: MakeBot
) -> None:
    fake.tolerate("10062")  # every first response is too late here
    bot = await make_bot(extensions=("cogs.meta",), metrics_port=0)
    res = await fake.slash(fake.channels[0], fake.members[1], "ping")
    with pytest.raises(AssertionError, match="10062"):
        await res.response()
    samples = await counted_as_received(fake, bot)
    assert total(samples, "tabletop_interactions_total", kind="command", outcome="late") == 1
    assert total(samples, "tabletop_interactions_total") == 1  # the error report that followed failed the same way
    assert total(samples, "tabletop_interaction_answer_seconds_count") == 0


@pytest.mark.fake(channels=7)
async def test_labels_stay_bounded_after_every_game_and_hostile_text(fake: LocalDiscord, make_bot: MakeBot) -> None:
    bot = await make_bot(metrics_port=0, clock=FakeClock(), dice=SeededDice(17))
    bot.settings.computer_delay = 0
    # A scoresheet of its own first: its picture starts the drawing worker, which takes seconds on a busy machine,
    # longer than the world's steps wait.
    sheet = await fake.slash(fake.channels[6], fake.members[0], "vv sheet", options={"players": PLAYERS})
    await sheet.message(timeout=60)
    places = await everything_under_way(fake, bot)
    rng = random.Random(3)
    for _ in range(CROWNS_CLICKS):
        if (await play_one_click(fake, bot, places.crowns, rng)).status is not Status.ACTIVE:
            break
    member = fake.members[1]
    for text in ("1d6 # <@123456789012345678> 🎲 '; DROP TABLE", "x" * 200, "d" * 5000):
        await (await fake.slash(places.empty, member, "roll", options={"expression": text[:500]})).message()
    await bot.settled()
    samples = await counted_as_received(fake, bot)
    assert_bounded(samples)
    ids = {str(i) for i in (*fake.users, *(c.id for c in fake.channels), fake.guild.id)}
    assert not {value for s in samples for value in s.labels.values()} & ids
    assert len(samples) < SERIES_LIMIT, len(samples)


def assert_bounded(samples: list[Sample]) -> None:
    """Every label of the bot's own metrics is one it may have, with a value from its bounded set."""
    for sample in samples:
        if not sample.name.startswith("tabletop_"):
            continue
        for label, value in sample.labels.items():
            assert label in BOUNDED, f"{sample.name} has an unexpected label {label}"
            assert BOUNDED[label](value), f"{sample.name}{{{label}={value!r}}} is not a bounded value"


@pytest.mark.parametrize("port", ["", "0", "9100"])
def test_the_setting(port: str, monkeypatch: pytest.MonkeyPatch) -> None:
    from bot.settings import Settings

    monkeypatch.setenv("METRICS_PORT", port)
    settings = Settings(discord_token="t", _env_file=None)  # type: ignore[call-arg]
    assert settings.metrics_port == (int(port) if port else None)
