"""Campaign-like sessions end to end, on the ledger test game: slash-command and modal actions,
records edited at once by two members, GM-only information, undo and redo, roles."""

from __future__ import annotations

import asyncio
import json

import pytest

from bot.app import TabletopBot
from bot.models import Scope, Session
from bot.replay import replay
from localdiscord.guild import Channel
from localdiscord.messages import Message
from localdiscord.server import LocalDiscord
from rules.dice import ScriptedDice
from tests.conftest import MakeBot
from tests.core.clock import FakeClock
from tests.databases import Database, on_database

EXTENSIONS = ("cogs.meta", "cogs.game", "tests.testgame.cog", "tests.testgame.ledger_cog")
CANARY = "CANARY-7f3a-secret-plan"


@pytest.fixture
def make_bot(database: Database, make_bot: MakeBot) -> MakeBot:
    """Every bot of this module on both backends (SQLite, PostgreSQL).

    ``database`` comes first: set up before the bots, it is torn down after they are closed."""
    return on_database(make_bot, database)


async def ledger_bot(make_bot: MakeBot, **options: object) -> TabletopBot:
    return await make_bot(extensions=EXTENSIONS, clock=FakeClock(), **options)


async def ledger(bot: TabletopBot, channel: Channel) -> Session:
    await bot.settled()
    session = await bot.store.live_session(channel.id, Scope.CAMPAIGN)
    assert session is not None
    return session


async def open_ledger(fake: LocalDiscord, channel: Channel) -> Message:
    """Alice opens a ledger (she is its GM); Bob and Carol open their pages."""
    gm, bob, carol = fake.members[0], fake.members[1], fake.members[2]
    sheet = await (await fake.slash(channel, gm, "ledger new")).message()
    for member, name in ((bob, "Bob"), (carol, "Carol")):
        reply = await (await fake.slash(channel, member, "ledger join", options={"name": name})).message()
        assert reply.ephemeral and "open" in reply.content
    return sheet


def everything_shown(fake: LocalDiscord, channel: Channel) -> str:
    """Every channel message as the API returns it (content, embeds, components)."""
    return json.dumps([m.data for m in fake.messages(channel)], ensure_ascii=False)


async def test_slash_and_modal_actions_update_the_posted_sheets(fake: LocalDiscord, make_bot: MakeBot) -> None:
    bot = await ledger_bot(make_bot)
    channel = fake.channels[0]
    bob = fake.members[1]
    sheet = await open_ledger(fake, channel)
    await (await fake.slash(channel, bob, "ledger add", options={"amount": 5})).message()
    await fake.wait_for(lambda: "Bob: 5" in str(sheet.embeds), what="the overview to show Bob's 5")
    page = await (await fake.slash(channel, bob, "ledger page")).message()
    assert not page.ephemeral and "Total: 5" in str(page.embeds)
    opened = await fake.click(page, "Add…", bob)
    bad = await fake.submit_modal(opened, {"amount": "lots"})
    refusal = await bad.message()
    assert refusal.ephemeral and refusal.content.startswith("Amount:")
    good = await (await fake.submit_modal(await fake.click(page, "Add…", bob), {"amount": "7"})).message()
    assert good.id == page.id and "Total: 12" in str(good.embeds)
    session = await ledger(bot, channel)
    assert session.state["pages"][str(bob.id)]["entries"] == [5, 7]


async def test_two_members_editing_their_own_pages_at_once_both_succeed(fake: LocalDiscord, make_bot: MakeBot) -> None:
    bot = await ledger_bot(make_bot)
    channel = fake.channels[0]
    bob, carol = fake.members[1], fake.members[2]
    await open_ledger(fake, channel)
    bob_page = await (await fake.slash(channel, bob, "ledger page")).message()
    carol_page = await (await fake.slash(channel, carol, "ledger page")).message()
    # Both click "+1" on their own page at the same moment: each page is its own record, so the
    # commit of one doesn't make the other's button stale.
    clicks = [await fake.click(bob_page, "+1", bob), await fake.click(carol_page, "+1", carol)]
    replies = await asyncio.gather(*(c.message() for c in clicks))
    assert all(not r.ephemeral for r in replies), [r.content for r in replies]
    session = await ledger(bot, channel)
    assert session.state["pages"][str(bob.id)]["entries"] == [1]
    assert session.state["pages"][str(carol.id)]["entries"] == [1]
    # Each page's record moved on its own; the session as a whole moved twice.
    assert session.records[f"page:{bob.id}"] != session.records[f"page:{carol.id}"]


async def test_a_member_cant_edit_someone_elses_page(fake: LocalDiscord, make_bot: MakeBot) -> None:
    bot = await ledger_bot(make_bot)
    channel = fake.channels[0]
    bob, carol = fake.members[1], fake.members[2]
    await open_ledger(fake, channel)
    carol_page = await (await fake.slash(channel, carol, "ledger page")).message()
    refused = await (await fake.click(carol_page, "+1", bob)).message()
    assert refused.ephemeral and "someone else's page" in refused.content
    session = await ledger(bot, channel)
    assert session.state["pages"][str(carol.id)]["entries"] == []


async def test_gm_only_notes_reach_only_the_gm(fake: LocalDiscord, make_bot: MakeBot) -> None:
    """The canary: a GM's secret appears in no channel message, no log and no reply but the GM's own."""
    bot = await ledger_bot(make_bot)
    bot.service.dice = ScriptedDice([4, 2])
    channel = fake.channels[0]
    gm, bob, carol = fake.members[0], fake.members[1], fake.members[2]
    sheet = await open_ledger(fake, channel)
    refused = await (await fake.slash(channel, bob, "ledger note", options={"text": "mine"})).message()
    assert refused.ephemeral and "Only the GM" in refused.content
    await (await fake.slash(channel, gm, "ledger note", options={"text": CANARY})).message()
    page = await (await fake.slash(channel, bob, "ledger page")).message()
    await (await fake.click(page, "Roll a d6", bob)).message()
    for member in (gm, bob, carol):
        await (await fake.slash(channel, member, "ledger gm")).message()
        await (await fake.slash(channel, member, "game log")).response()
    await (await fake.slash(channel, gm, "ledger cogm", options={"member": carol})).message()
    carols_view = await (await fake.slash(channel, carol, "ledger gm")).message()
    assert CANARY in str(carols_view.embeds)  # a co-GM sees what the GM sees
    await bot.settled()
    assert CANARY not in everything_shown(fake, channel)
    assert "Bob: 4" in str(sheet.embeds)
    assert not any(CANARY in json.dumps(m.data, ensure_ascii=False) for m in fake.ephemerals(bob))
    assert any(CANARY in json.dumps(m.data, ensure_ascii=False) for m in fake.ephemerals(gm))
    session = await ledger(bot, channel)
    entries = await bot.store.log_entries(session.id)
    assert replay(bot.registry.get("ledger"), session.engine_options, entries).model_dump(mode="json") == session.state


async def test_undo_and_redo_rebuild_the_state_from_the_log(fake: LocalDiscord, make_bot: MakeBot) -> None:
    bot = await ledger_bot(make_bot)
    bot.service.dice = ScriptedDice([6])
    channel = fake.channels[0]
    bob, carol = fake.members[1], fake.members[2]
    await open_ledger(fake, channel)
    page = await (await fake.slash(channel, bob, "ledger page")).message()
    await (await fake.slash(channel, bob, "ledger add", options={"amount": 3})).message()
    await ledger(bot, channel)  # the page is redrawn with its new version
    rolled = await (await fake.click(page, "Roll a d6", bob)).message()
    assert not rolled.ephemeral
    refused = await (await fake.slash(channel, carol, "ledger undo")).message()
    assert refused.ephemeral and "someone else's page" in refused.content  # undo needs the right to redo it
    for command, entries in (("ledger undo", [3]), ("ledger undo", []), ("ledger redo", [3]), ("ledger redo", [3, 6])):
        reply = await (await fake.slash(channel, bob, command)).message()
        assert reply.ephemeral
        session = await ledger(bot, channel)
        assert session.state["pages"][str(bob.id)]["entries"] == entries, command
    nothing = await (await fake.slash(channel, bob, "ledger redo")).message()
    assert "nothing to redo" in nothing.content
    await fake.wait_for(lambda: "Total: 9" in str(page.embeds), what="the page to show the redone roll")
    session = await ledger(bot, channel)
    entries = await bot.store.log_entries(session.id)
    assert [e.action["kind"] for e in entries][-4:] == ["undo", "undo", "redo", "redo"]
    assert replay(bot.registry.get("ledger"), session.engine_options, entries).model_dump(mode="json") == session.state


async def test_a_campaign_and_a_table_game_share_a_channel(fake: LocalDiscord, make_bot: MakeBot) -> None:
    bot = await ledger_bot(make_bot)
    bot.service.dice = ScriptedDice([1, 3])
    channel = fake.channels[0]
    alice, bob = fake.members[0], fake.members[1]
    await open_ledger(fake, channel)
    lobby = await (await fake.slash(channel, alice, "race new")).message()
    await (await fake.click(lobby, "Join", bob)).message()
    await (await fake.click(lobby, "Start", alice)).message()
    await (await fake.slash(channel, bob, "ledger add", options={"amount": 2})).message()
    table = await bot.service.live_table(channel.id)
    assert table is not None and table.kind == "race"
    assert (await ledger(bot, channel)).state["pages"][str(bob.id)]["entries"] == [2]
