"""No token in the log: the bot's own, and the interaction tokens discord.py prints at DEBUG."""

from __future__ import annotations

import asyncio
import logging
import os
import signal
import sys
from pathlib import Path

from bot.logs import REDACTED, RedactingFormatter, redact
from localdiscord import LocalDiscord
from tests.bot_process import output_path, process_exit, spawn_bot_process

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
        # A clean stop, so every line about these interactions has been written before we read.
        exited = process_exit(proc)
        os.kill(proc.pid, signal.SIGTERM)
        assert await asyncio.wait_for(exited, 15) == 0
    finally:
        if proc.poll() is None:
            os.kill(proc.pid, signal.SIGKILL)
            proc.wait()
    output = output_path(db).read_text()
    # The lines that would have held them are there, redacted (/webhooks/ URLs only come after a defer).
    assert output.count(f"/{REDACTED}/callback") == 3 and output.count(f"'token': '{REDACTED}'") == 3
    for token in (command.token, click.token, lobby.token, fake.token):
        assert token not in output
