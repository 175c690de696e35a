"""A committed result is never lost: a Viciousness bot process is killed after a commit and before its result
reached the channel (the answer held by the local Discord, or the post), started again, and the result is in the
channel exactly once — a pool's roll, a turn's start, and a rival's consequence the channel may see.

Each campaign is imported (two troupes, and for the rival a design whose consequence waits to be confirmed), so
the bot process is driven only by what a GM and a player would click."""

from __future__ import annotations

import asyncio
import sqlite3
import subprocess
from collections.abc import Callable
from pathlib import Path

from localdiscord.guild import Channel, Member
from localdiscord.messages import Message
from localdiscord.server import LocalDiscord
from rules.dice import ScriptedDice
from rules.viciousness.engine import ENGINE
from rules.viciousness.options import VicOptions
from rules.viciousness.state import CampaignState, Design, Move, Rival
from rules.viciousness.transfer import export_campaign
from tests.bot_process import spawn_bot_process
from tests.core.test_kill_windows import kill
from tests.vic_e2e_support import join_with

ENV = {"EXTENSIONS": "cogs.meta,cogs.game,cogs.viciousness", "LOG_LEVEL": "WARNING"}
WAIT_S = 15.0


def two_troupes(bea: Member, cal: Member) -> CampaignState:
    """A campaign with Bea's Knives (Ana) and Cal's Crows (Bo)."""
    state = ENGINE.start(VicOptions(), [], ScriptedDice([])).state
    for member, troupe, captain, traits in (
        (bea, "Knives", "Ana", ["Lurker", "Acrobat", "Medic"]),
        (cal, "Crows", "Bo", ["Duelist", "Historian", "Marksman"]),
    ):
        action = {
            "type": "create_troupe",
            "owner": str(member.id),
            "name": troupe,
            "captain": {"name": captain, "traits": traits},
            "asset": "headquarters",
        }
        state = ENGINE.apply(state, str(member.id), ENGINE.parse_action(action), ScriptedDice([])).state
    return state


def news_pending(db_path: Path, channel: Channel) -> int | None:
    """The first log entry whose news may not be in the channel yet (None: all of it is)."""
    with sqlite3.connect(db_path) as conn:
        row = conn.execute(
            "SELECT news_from FROM sessions WHERE channel_id = ? AND scope = 'campaign' AND status = 'active'",
            (channel.id,),
        ).fetchone()
    return None if row is None else row[0]


async def until(predicate: Callable[[], bool], what: str) -> None:
    """Wait until ``predicate()`` holds of the database file (another process writes it)."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + WAIT_S
    while not predicate():
        assert loop.time() < deadline, f"timed out waiting for {what}"
        await asyncio.sleep(0.01)


def said(fake: LocalDiscord, channel: Channel, text: str) -> list[Message]:
    """The channel's public messages that say ``text``."""
    return [m for m in fake.messages(channel) if text in m.content and not m.ephemeral]


async def start(fake: LocalDiscord, db_path: Path, state: CampaignState) -> subprocess.Popen[bytes]:
    """A bot process, and the campaign imported in the first channel by the GM (the first member)."""
    proc = await spawn_bot_process(fake, db_path, ENV)
    channel, gm = fake.channels[0], fake.members[0]
    data = export_campaign(state).encode()
    await (await fake.slash(channel, gm, "vic-gm campaign import", options={"file": ("c.json", data)})).message()
    return proc


async def restart_and_count(
    fake: LocalDiscord, db_path: Path, proc: subprocess.Popen[bytes], channel: Channel, text: str
) -> tuple[subprocess.Popen[bytes], Message]:
    """Kill ``proc`` (the commit is in the file, its news not in the channel), start a new bot, and return it with
    the one message saying ``text`` once everything is told."""
    await kill(proc)
    assert said(fake, channel, text) == []
    proc = await spawn_bot_process(fake, db_path, ENV)
    await fake.wait_for(lambda: said(fake, channel, text), timeout=WAIT_S, what=f"{text!r} told after the restart")
    await until(lambda: news_pending(db_path, channel) is None, "the news marked as told")
    (message,) = said(fake, channel, text)
    return proc, message


async def test_a_pools_roll_killed_before_its_answer_is_told_once_after_the_restart(
    fake: LocalDiscord, tmp_path: Path
) -> None:
    db_path = tmp_path / "vic.sqlite3"
    channel, gm, bea, cal = fake.channels[0], fake.members[0], fake.members[1], fake.members[2]
    proc = await start(fake, db_path, two_troupes(bea, cal))
    try:
        await (await fake.slash(channel, gm, "vic-gm turn start")).message()
        board = await (await fake.slash(channel, gm, "vic-gm knavery", options={"challenges": 1})).message()
        await join_with(fake, board, "Ana", bea)
        await until(lambda: news_pending(db_path, channel) is None, "the turn's news told")
        callback = fake.hold("/callback")  # the roll's answer never reaches Discord
        click = await fake.click(board, "Roll", gm)
        await callback.arrived()
        await until(lambda: news_pending(db_path, channel) is not None, "the roll committed")
        click.allow_no_response()
        callback.drop()
        proc, told = await restart_and_count(fake, db_path, proc, channel, "The scheme is rolled")
        await fake.wait_for(lambda: board.edits > 0 and "Roll" not in board.describe_buttons(), what="the board")
        assert told.id > board.id  # below the board
        if "over" in str(board.embeds):  # the scheme succeeded: the board points at its results, and they are there
            assert "Its results are in the messages below it" in str(board.embeds)
    finally:
        if proc.poll() is None:
            await kill(proc)


async def test_a_turns_start_killed_before_its_answer_is_told_once_after_the_restart(
    fake: LocalDiscord, tmp_path: Path
) -> None:
    db_path = tmp_path / "vic.sqlite3"
    channel, gm = fake.channels[0], fake.members[0]
    proc = await start(fake, db_path, two_troupes(fake.members[1], fake.members[2]))
    try:
        await until(lambda: news_pending(db_path, channel) is None, "the import drawn")
        callback = fake.hold("/callback")
        command = await fake.slash(channel, gm, "vic-gm turn start")
        await callback.arrived()
        await until(lambda: news_pending(db_path, channel) is not None, "the turn's start committed")
        command.allow_no_response()
        callback.drop()
        proc, _ = await restart_and_count(fake, db_path, proc, channel, "**Turn 1** begins")
        # The turn's end, killed after Discord showed its answer and before the bot heard back: not told twice.
        answer = fake.hold("/callback", after_effect=True)
        await fake.slash(channel, gm, "vic-gm turn end")
        await answer.arrived()
        await until(lambda: news_pending(db_path, channel) is not None, "the turn's end committed")
        await kill(proc)
        answer.drop()
        assert len(said(fake, channel, "Turn 1 is over")) == 1
        proc = await spawn_bot_process(fake, db_path, ENV)
        await until(lambda: news_pending(db_path, channel) is None, "the news marked as told")
        assert len(said(fake, channel, "Turn 1 is over")) == 1
    finally:
        if proc.poll() is None:
            await kill(proc)


def with_a_consequence(state: CampaignState) -> CampaignState:
    """``state`` with a rival whose design succeeded: its consequence (the wealth track lowers by 1) waits for
    the GM to confirm."""
    move = Move(design="d1", stage="confirm", d20=3, eligible=("d1",), d4=1, severity="light", row=1)
    design = Design(id="d1", text="Squeeze the docks", points=5)
    rival = Rival(id="r1", name="The Baron", rank=3, minions=1, designs=(design,), move=move)
    return state.model_copy(update={"rivals": {"r1": rival}, "company": state.company.model_copy(update={"ip": 8})})


async def test_a_rivals_public_news_killed_before_it_is_posted_is_told_once_after_the_restart(
    fake: LocalDiscord, tmp_path: Path
) -> None:
    db_path = tmp_path / "vic.sqlite3"
    channel, gm = fake.channels[0], fake.members[0]
    proc = await start(fake, db_path, with_a_consequence(two_troupes(fake.members[1], fake.members[2])))
    try:
        await until(lambda: news_pending(db_path, channel) is None, "the import drawn")
        screen = await (await fake.slash(channel, gm, "vic-gm screen")).message()
        posted = fake.hold(f"POST /api/v10/channels/{channel.id}/messages")  # the news never reaches the channel
        await fake.click(screen, "The Baron: apply the consequence", gm)
        await posted.arrived()
        await until(lambda: news_pending(db_path, channel) is not None, "the consequence committed")
        posted.drop()
        proc, told = await restart_and_count(fake, db_path, proc, channel, "Investment points −1 → 7")
        assert "Baron" not in told.content and "Squeeze" not in told.content  # the rival stays the GM's
    finally:
        if proc.poll() is None:
            await kill(proc)
