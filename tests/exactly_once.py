"""Firing N identical interactions at once, and reading how each was answered (``tests/test_exactly_once*.py``)."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable

from bot.app import TabletopBot
from bot.models import LogEntry, Session
from localdiscord.interactions import CallbackType, InteractionResult

CLICKS = 12
DEADLINE_S = 3.0
STALE = "out of date"
INTERNAL = "went wrong"
"""What an internal error says (``report_error``): never the answer to a duplicate click."""


async def at_once(n: int, send: Callable[[], Awaitable[InteractionResult]]) -> list[InteractionResult]:
    """``n`` identical interactions dispatched together, before the bot has handled any of them."""
    return list(await asyncio.gather(*(send() for _ in range(n))))


def said(res: InteractionResult) -> list[str]:
    """What the member was told privately in answer: the response's own text, its message if private, follow-ups."""
    texts = []
    if res.response_type == CallbackType.CHANNEL_MESSAGE and res.response_data:
        texts.append(str(res.response_data.get("content", "")))
    elif res.original is not None and res.original.ephemeral:
        texts.append(res.original.content)
    texts += [m.content for m in res.followup_messages if m.ephemeral]
    return texts


async def answered(bot: TabletopBot, results: list[InteractionResult], *refusals: str) -> list[str]:
    """Every interaction was answered within Discord's deadline and none with an internal error; what they were
    told privately, all together (a deferral says nothing). With ``refusals``, all but one were refused with a
    text saying one of them ("out of date", "already"…)."""
    for res in results:
        await res.response(timeout=DEADLINE_S + 2)
        assert res.latency is not None and res.latency < DEADLINE_S, res
    await bot.settled()
    texts = [text for res in results for text in said(res)]
    assert not [t for t in texts if INTERNAL in t], texts
    if refusals:  # every click but the one applied was refused, saying why
        assert len([t for t in texts if any(r in t for r in refusals)]) == len(results) - 1, texts
    return texts


async def entries_after(bot: TabletopBot, session: Session | int, version: int) -> list[LogEntry]:
    """The log entries committed after ``version`` (every change writes one)."""
    await bot.settled()
    session_id = session if isinstance(session, int) else session.id
    return [e for e in await bot.store.log_entries(session_id) if e.seq > version]


def chosen(entries: list[LogEntry]) -> list[LogEntry]:
    """The entries a member's click made (not the bot's forced moves that follow one)."""
    return [e for e in entries if e.action.get("how") == "player"]
