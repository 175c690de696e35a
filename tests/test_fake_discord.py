"""The local Discord itself: every protocol path a cog can take, Discord's checks, and fault injection."""

from __future__ import annotations

import asyncio
import json
import logging
import sys
from pathlib import Path

import aiohttp
import pytest

from bot.app import TabletopBot
from localdiscord import LocalDiscord, Perm
from tests.conftest import MakeBot

PROBE = ("cogs.meta", "tests.probe")


@pytest.fixture
async def probe_bot(make_bot: MakeBot) -> TabletopBot:
    """A bot with /ping and the probe cog."""
    return await make_bot(extensions=PROBE)


async def test_world_looks_like_a_real_guild(fake: LocalDiscord) -> None:
    ids = [fake.guild_id, fake.application_id, *(c.id for c in fake.channels), *(m.id for m in fake.members)]
    assert all(18 <= len(str(i)) <= 19 for i in ids)
    assert len(set(ids)) == len(ids)
    assert len(fake.channels) >= 3
    assert fake.members[0].permissions & Perm.MANAGE_GUILD
    assert not any(m.permissions & Perm.MANAGE_GUILD for m in fake.members[1:])
    assert "@everyone" in [m.name for m in fake.members]


async def test_defer_then_edit(fake: LocalDiscord, probe_bot: TabletopBot) -> None:
    res = await fake.slash(fake.channels[0], fake.members[1], "probe defer")
    message = await res.message()
    assert message.content == "deferred done" and not message.loading and not message.edited
    assert (await res.response())["type"] == 5


async def test_defer_then_followup_fills_in_the_deferred_message(fake: LocalDiscord, probe_bot: TabletopBot) -> None:
    res = await fake.slash(fake.channels[0], fake.members[1], "probe", subcommand="defer-followup")
    message = await res.message()
    assert message.content == "filled in" and message.ephemeral
    assert res.followup_messages == []


async def test_followups(fake: LocalDiscord, probe_bot: TabletopBot) -> None:
    member = fake.members[1]
    res = await fake.slash(fake.channels[1], member, "probe followups")
    second, third = await res.followups(2)
    assert (await res.message()).content == "first"
    assert [second.content, third.content] == ["second", "third"]
    assert third.ephemeral and fake.ephemerals(member) == [third]
    assert [m.content for m in fake.messages(fake.channels[1])] == ["first", "second"]
    assert all(m.interaction_id == res.id for m in (second, third))


async def test_buttons_select_and_modal(fake: LocalDiscord, probe_bot: TabletopBot) -> None:
    channel, alice, bob = fake.channels[0], fake.members[0], fake.members[1]
    board = await (await fake.slash(channel, alice, "probe buttons")).message()
    assert board.custom_ids == ["probe:alpha", "probe:later", "probe:ask", "probe:pick"]
    assert [b["label"] for b in board.buttons] == ["Alpha", "Later", "Ask"]

    clicked = await (await fake.click(board, "Alpha", bob)).message()
    assert clicked is board and board.content == f"alpha by {bob.id}" and board.edited

    await (await fake.click(board, "probe:later", bob)).message()
    assert board.content == "edited later"

    picked = await (await fake.select(board, "probe:pick", ["y"], bob)).message()
    assert picked.content == "picked y" and picked.id != board.id

    refused = await fake.select(board, "probe:pick", ["nope"], bob)
    assert refused.error and "refused" in refused.error

    asked = await fake.click(board, "Ask", bob)
    assert (await asked.response())["type"] == 9 and asked.modal is not None
    answered = await fake.submit_modal(asked, {"answer": "forty-two"})
    assert (await answered.message()).content == "got forty-two"
    too_long = await fake.submit_modal(asked, {"answer": "x" * 21})
    assert too_long.error and "length" in too_long.error


async def test_options_are_typed_and_validated_like_discord(fake: LocalDiscord, probe_bot: TabletopBot) -> None:
    channel, member = fake.channels[0], fake.members[1]
    ok = await fake.slash(channel, member, "probe say", options={"text": "hi", "count": 2, "mood": "sad"})
    assert (await ok.message()).content == "hi hi (sad)"
    leaf = await fake.slash(channel, member, "probe deep leaf", options={"level": 3})
    assert (await leaf.message()).content == "leaf 3"
    for bad in ({"text": ""}, {"text": "x" * 51}, {"text": "hi", "count": 4}, {"text": "hi", "mood": "angry"}, {}):
        res = await fake.slash(channel, member, "probe say", options=bad)
        assert res.error and "refused" in res.error, bad
    with pytest.raises(ValueError, match="no option"):
        await fake.slash(channel, member, "probe say", options={"txt": "hi"})
    with pytest.raises(ValueError, match="needs a subcommand"):
        await fake.slash(channel, member, "probe")


async def test_unknown_command_is_a_failure(fake: LocalDiscord, probe_bot: TabletopBot) -> None:
    with pytest.raises(LookupError):
        await fake.slash(fake.channels[0], fake.members[1], "nosuchcommand")
    assert fake.failures and "not a synced command" in fake.failures[0]
    fake.failures.clear()


async def test_default_member_permissions_hide_a_command(fake: LocalDiscord, probe_bot: TabletopBot) -> None:
    hidden = await fake.slash(fake.channels[0], fake.members[1], "probe-admin")
    assert hidden.error and "hidden" in hidden.error
    shown = await fake.slash(fake.channels[0], fake.members[0], "probe-admin")
    assert (await shown.message()).content == "admin ok"
    in_dm = await fake.slash(fake.dm_channel(), fake.dm_user, "probe-admin")
    assert in_dm.error and "DMs" in in_dm.error


async def test_dm_interaction(fake: LocalDiscord, probe_bot: TabletopBot) -> None:
    dm = fake.dm_channel()
    res = await fake.slash(dm, fake.dm_user, "ping")
    assert "user" in res.payload and "member" not in res.payload and res.payload["context"] == 1
    assert (await res.message()).content == "Pong!"


async def test_bot_opens_a_dm(fake: LocalDiscord, probe_bot: TabletopBot) -> None:
    member = fake.members[1]
    await (await fake.slash(fake.channels[0], member, "probe dm")).message()
    assert [m.content for m in fake.messages(fake.dm_channel(member))] == ["psst in DM"]


async def test_allowed_mentions_decide_who_is_pinged(fake: LocalDiscord, probe_bot: TabletopBot) -> None:
    channel, target = fake.channels[0], fake.members[2]
    res = await fake.slash(channel, fake.members[1], "probe mention", options={"who": target})
    message = await res.message()
    # The bot allows user pings but never @everyone.
    assert message.mentions == [target.id]
    assert "@everyone" in message.content and not message.mention_everyone
    everyone_named = next(m for m in fake.members if m.name == "@everyone")
    said = await fake.slash(channel, fake.members[1], "probe say", options={"text": f"@{everyone_named.name}"})
    assert not (await said.message()).mention_everyone


async def test_channel_messages_threads_and_permissions(fake: LocalDiscord, probe_bot: TabletopBot) -> None:
    channel, member = fake.channels[2], fake.members[1]
    res = await fake.slash(channel, member, "probe post")
    assert (await res.message()).content == "done"
    posted = await fake.wait_for_message(channel, lambda m: m.content.startswith("posted"))
    assert posted.content == "posted and edited" and posted.edited

    threads = await fake.slash(channel, member, "probe thread")
    await threads.message()
    await fake.wait_for(lambda: len(fake.threads) == 2 and all(fake.messages(t) for t in fake.threads))
    public, private = fake.threads
    assert public.id == (await threads.message()).id and public.parent_id == channel.id
    assert [m.content for m in fake.messages(public)] == ["first turn"]
    assert [m.content for m in fake.messages(private)] == ["psst"]
    in_thread = await fake.slash(public, member, "ping")
    assert (await in_thread.message()).channel_id == public.id

    fake.set_channel_permissions(channel, bot_deny=Perm.SEND_MESSAGES)
    denied = await fake.slash(channel, member, "probe post")
    assert (await denied.message()).content == "I cannot post here."


async def test_deleted_message_is_gone(fake: LocalDiscord, probe_bot: TabletopBot) -> None:
    channel = fake.channels[0]
    board = await (await fake.slash(channel, fake.members[0], "probe buttons")).message()
    fake.delete_message(channel, board.id)
    assert board.deleted and fake.messages(channel) == []
    with pytest.raises(LookupError):
        await fake.click(board, "Alpha", fake.members[1])


async def test_message_over_the_limit_is_rejected_and_recorded(fake: LocalDiscord, probe_bot: TabletopBot) -> None:
    fake.tolerate("50035")
    res = await fake.slash(fake.channels[0], fake.members[1], "probe toolong")
    with pytest.raises(AssertionError, match="50035"):
        await res.response()
    assert "2000 or fewer" in fake.tolerated[0]


async def test_second_initial_response_is_refused(fake: LocalDiscord, probe_bot: TabletopBot) -> None:
    fake.tolerate("40060")
    res = await fake.slash(fake.channels[0], fake.members[1], "probe twice")
    await fake.wait_for(lambda: fake.tolerated)
    assert res.error and "40060" in res.error
    assert res.original is not None and res.original.content == "one"


@pytest.mark.fake(response_deadline=0.2)
async def test_late_response_is_refused(fake: LocalDiscord, probe_bot: TabletopBot) -> None:
    fake.tolerate("10062")
    res = await fake.slash(fake.channels[0], fake.members[1], "probe slow", options={"seconds": 0.3})
    with pytest.raises(AssertionError, match="10062"):
        await res.response()
    assert "after the deadline" in fake.tolerated[0]


async def test_unimplemented_route_fails_loudly(fake: LocalDiscord, bot: TabletopBot) -> None:
    with pytest.raises(Exception, match="404"):
        await bot.fetch_guild(fake.guild_id)
    assert fake.failures == [f"the fake does not implement GET /api/v10/guilds/{fake.guild_id}?with_counts=1"]
    fake.failures.clear()


async def test_429_is_retried(fake: LocalDiscord, probe_bot: TabletopBot) -> None:
    fake.inject_429("/callback", retry_after=0.05)
    res = await fake.slash(fake.channels[0], fake.members[1], "ping")
    assert (await res.message()).content == "Pong!"
    callbacks = [r for r in fake.requests if r["path"].startswith(f"/api/v10/interactions/{res.id}/")]
    assert len(callbacks) == 2


async def test_single_500_on_a_callback_is_retried_in_time(fake: LocalDiscord, bot: TabletopBot) -> None:
    fake.inject_500_on_next_callback()
    res = await fake.slash(fake.channels[0], fake.members[1], "ping")
    assert (await res.message()).content == "Pong!"


@pytest.mark.fake(response_deadline=0.5)
async def test_500_past_the_deadline_is_logged_and_the_bot_carries_on(
    fake: LocalDiscord, bot: TabletopBot, caplog: pytest.LogCaptureFixture
) -> None:
    fake.tolerate("10062")
    fake.inject_500_on_next_callback()
    failed = await fake.slash(fake.channels[0], fake.members[1], "ping")
    with pytest.raises(AssertionError, match="10062"):
        await failed.response(timeout=5)
    await fake.wait_for(lambda: any(r.levelno >= logging.ERROR and "ping" in r.getMessage() for r in caplog.records))
    again = await fake.slash(fake.channels[0], fake.members[1], "ping")
    assert (await again.message()).content == "Pong!"


async def test_dropped_gateway_is_resumed(fake: LocalDiscord, bot: TabletopBot) -> None:
    sessions = len(fake.sessions)
    await fake.drop_gateway()
    # Sent while the bot is away: it must arrive through the RESUME replay.
    res = await fake.slash(fake.channels[0], fake.members[1], "ping")
    await fake.wait_for_resume()
    assert (await res.message()).content == "Pong!"
    assert len(fake.sessions) == sessions  # resumed, not re-identified


async def test_reconnect_request_is_resumed(fake: LocalDiscord, bot: TabletopBot) -> None:
    fake.request_reconnect()
    await fake.wait_for_resume()
    assert (await (await fake.slash(fake.channels[0], fake.members[1], "ping")).message()).content == "Pong!"


async def test_invalidated_session_identifies_again(fake: LocalDiscord, bot: TabletopBot) -> None:
    readies = fake.ready_count
    fake.invalidate_sessions()
    # discord.py waits 5 s before any IDENTIFY but the first (its identify rate limit).
    await fake.wait_for(lambda: fake.ready_count > readies, timeout=15, what="a new IDENTIFY")
    assert (await (await fake.slash(fake.channels[0], fake.members[1], "ping")).message()).content == "Pong!"
    assert fake.resume_count == 0


async def test_gateway_speaks_plain_text_json_too(fake: LocalDiscord) -> None:
    url = fake.base_url.replace("http://", "ws://") + "/gateway?v=10&encoding=json"
    async with aiohttp.ClientSession() as session, session.ws_connect(url) as ws:
        assert (await ws.receive_json())["op"] == 10
        await ws.send_json({"op": 2, "d": {"token": fake.token, "intents": 1, "properties": {}}})
        ready, guild = await ws.receive_json(), await ws.receive_json()
        assert ready["t"] == "READY" and ready["d"]["resume_gateway_url"] == fake.resume_gateway_url
        assert guild["t"] == "GUILD_CREATE" and len(guild["d"]["channels"]) == len(fake.channels)
        await ws.send_json({"op": 1, "d": ready["s"]})
        assert (await ws.receive_json())["op"] == 11
    async with aiohttp.ClientSession() as session, session.ws_connect(url) as ws:
        await ws.receive_json()
        await ws.send_json({"op": 2, "d": {"token": "wrong", "intents": 1, "properties": {}}})
        await ws.receive()
        assert ws.close_code == 4004


async def test_restarted_bot_keeps_its_database(make_bot: MakeBot, fake: LocalDiscord, tmp_path: object) -> None:
    first = await make_bot()
    await first.close()
    second = await make_bot()
    res = await fake.slash(fake.channels[0], fake.members[1], "ping")
    assert (await res.message()).content == "Pong!"
    assert second.settings.database_path == first.settings.database_path


SPEC_CHECK = Path(__file__).resolve().parents[1].parent / "shared" / "tools" / "discord_spec_check.py"


@pytest.mark.skipif(not SPEC_CHECK.exists(), reason="../shared (Discord's OpenAPI description) is absent")
async def test_every_request_of_a_tour_is_valid_under_discords_spec(
    fake: LocalDiscord, probe_bot: TabletopBot, tmp_path: Path
) -> None:
    channel, member = fake.channels[0], fake.members[1]
    commands = (
        "ping",
        "probe defer",
        "probe defer-followup",
        "probe followups",
        "probe post",
        "probe thread",
        "probe dm",
    )
    for command in commands:
        await (await fake.slash(channel, member, command)).message()
    board = await (await fake.slash(channel, member, "probe buttons")).message()
    await (await fake.click(board, "Alpha", member)).message()
    await (await fake.click(board, "Later", member)).message()
    await (await fake.select(board, "probe:pick", ["x"], member)).message()
    await fake.submit_modal(await fake.click(board, "Ask", member), {"answer": "yes"})
    await fake.wait_for(lambda: len(fake.threads) == 2 and all(fake.messages(t) for t in fake.threads))
    log = tmp_path / "requests.jsonl"
    log.write_text("".join(json.dumps(r) + "\n" for r in fake.requests))
    checker = await asyncio.create_subprocess_exec(
        sys.executable, str(SPEC_CHECK), str(log), stdout=asyncio.subprocess.PIPE
    )
    report, _ = await checker.communicate()
    assert checker.returncode == 0, report.decode()
    assert " 0 invalid, 0 unknown route" in report.decode()
