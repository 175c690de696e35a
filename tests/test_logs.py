"""No token and no secret in the log: the bot's own token, the interaction tokens discord.py prints at DEBUG, and a
secret roll's salt, label and result, which the database driver and discord.py would print at DEBUG."""

from __future__ import annotations

import asyncio
import logging
import os
import re
import signal
import subprocess
import sys
from pathlib import Path

from bot.logs import REDACTED, RedactingFormatter, WithoutPayloads, redact
from localdiscord import LocalDiscord
from tests.bot_process import output_path, process_exit, spawn_bot_process
from tests.databases import Database

TOKEN = "aW50ZXJhY3Rpb246abc-DEF_123"


def test_interaction_token_in_a_callback_url() -> None:
    line = f"POST http://127.0.0.1:1/api/v10/interactions/1577/{TOKEN}/callback has returned status code 200"
    assert (
        redact(line)
        == f"POST http://127.0.0.1:1/api/v10/interactions/1577/{REDACTED}/callback has returned status code 200"
    )


def test_interaction_token_in_webhook_urls() -> None:
    for tail in ("", "/messages/@original", "/messages/123?wait=true", "?wait=1"):
        line = f"PATCH https://discord.com/api/v10/webhooks/42/{TOKEN}{tail} with {{}}"
        assert redact(line) == f"PATCH https://discord.com/api/v10/webhooks/42/{REDACTED}{tail} with {{}}"


def test_token_fields_in_dumped_payloads() -> None:
    gateway = f"WebSocket Event: {{'op': 0, 'd': {{'id': '9', 'token': '{TOKEN}', 'version': 1}}}}"
    assert redact(gateway) == f"WebSocket Event: {{'op': 0, 'd': {{'id': '9', 'token': '{REDACTED}', 'version': 1}}}}"
    as_json = f'{{"access_token": "{TOKEN}", "type": 4}}'
    assert redact(as_json) == f'{{"access_token": "{REDACTED}", "type": 4}}'


def test_secrets_and_harmless_text() -> None:
    assert redact("logging in with bot-S3CRET now", ("bot-S3CRET",)) == f"logging in with {REDACTED} now"
    harmless = "GET /api/v10/channels/1/messages; {'tokens_left': 3, 'token': None}"
    assert redact(harmless) == harmless


def test_formatter_redacts_the_traceback_too() -> None:
    try:
        raise RuntimeError(f"404 on /webhooks/42/{TOKEN}/messages/@original")
    except RuntimeError:
        record = logging.LogRecord("t", logging.ERROR, __file__, 1, "failed: %s", ("bot-S3CRET",), sys.exc_info())
    text = RedactingFormatter("%(message)s", "bot-S3CRET").format(record)
    assert "Traceback" in text and f"/webhooks/42/{REDACTED}/messages" in text
    assert TOKEN not in text and "bot-S3CRET" not in text


def test_payloads_are_told_by_their_size() -> None:
    body = '{"content": "Only you see this: 17", "flags": 64}'
    sent = logging.LogRecord(
        "discord.http", logging.DEBUG, "", 1, "%s %s with %s has returned %s", ("POST", "/x", body, 200), None
    )
    event = {"op": 0, "t": "INTERACTION_CREATE", "s": 4, "d": {"data": {"options": [{"value": "Baron Vex"}]}}}
    got = logging.LogRecord("discord.gateway", logging.DEBUG, "", 1, "Shard %s: WebSocket Event: %s", (0, event), None)
    for record in (sent, got):
        WithoutPayloads().filter(record)
    assert sent.getMessage() == f"POST /x with <{len(body)} characters> has returned 200"
    assert got.getMessage() == "Shard 0: WebSocket Event: {'op': 0, 't': 'INTERACTION_CREATE', 's': 4}"


async def stopped(proc: subprocess.Popen[bytes]) -> None:
    """Stop the bot cleanly, so every line about what it did has been written before the test reads."""
    try:
        exited = process_exit(proc)
        os.kill(proc.pid, signal.SIGTERM)
        assert await asyncio.wait_for(exited, 15) == 0
    finally:
        if proc.poll() is None:
            os.kill(proc.pid, signal.SIGKILL)
            proc.wait()


async def test_debug_log_of_a_real_run_holds_no_token(fake: LocalDiscord, tmp_path: Path) -> None:
    db = tmp_path / "bot.sqlite3"
    proc = await spawn_bot_process(fake, db, {"LOG_LEVEL": "DEBUG"})
    try:
        channel = fake.channels[0]
        command = await fake.slash(channel, fake.members[1], "roll", options={"expression": "4d6kh3"})
        click = await fake.click(await command.message(), "Roll again", fake.members[2])
        await click.message()
        lobby = await fake.slash(channel, fake.members[1], "crowns new")
        await lobby.message()
    finally:
        await stopped(proc)
    output = output_path(db).read_text()
    # The lines that would have held them are there, redacted or summed up (/webhooks/ URLs only come after a
    # defer; a Gateway event is told by its name, without the payload that holds the token).
    assert output.count(f"/{REDACTED}/callback") == 3 and output.count("'t': 'INTERACTION_CREATE'") == 3
    for token in (command.token, click.token, lobby.token, fake.token):
        assert token not in output


async def test_debug_log_shows_nothing_of_a_secret_roll_before_its_reveal(
    fake: LocalDiscord, database: Database
) -> None:
    """The salt, the label and the result of a ``/dice secret`` roll, stored in the database and sent to the roller
    alone, are in no line of a DEBUG log, whichever database the bot uses."""
    label = "for the dragon's hoard"
    proc = await spawn_bot_process(fake, database.path, {"LOG_LEVEL": "DEBUG", **database.env()})
    try:
        roll = await fake.slash(
            fake.channels[0], fake.members[1], "dice secret", options={"expression": "12d10000", "label": label}
        )
        await roll.followups()  # the result, sent to the roller alone
    finally:
        await stopped(proc)
    store = database.store()
    await store.open()
    try:
        secret = await store.secret(1)
    finally:
        await store.close()
    assert secret is not None and secret.revealed_at is None and secret.canonical.startswith(label)
    faces = re.search(r"\[([^\]]+)\]", secret.canonical)
    assert faces is not None and faces[1].count(",") == 11
    output = output_path(database.path).read_text()
    assert "aiosqlite" not in output and "INSERT INTO secret_rolls" not in output
    for shown in (secret.salt, label, secret.canonical, faces[1]):
        assert shown not in output, shown
