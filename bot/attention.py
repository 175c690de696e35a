"""After a restart: everything that needs the bot, found through one small index and handed on in batches.

What needs attention (``Store.attention``): a session drawn behind its version (the bot stopped between a commit
and its drawing), a computer seat to move, news not yet told; and what commits outside any session still have to
show (``Store.outbox``: the outbox holds nothing else). Due deadlines are the timer loop's (it reads them in
batches too). Nothing here reads every session: startup costs what needs doing, not what is stored, and the
catch-up drawings and posts wait behind the interactions' (``Publisher.catch_up``, ``Outbox.catch_up``), so
members are answered first.
"""

from __future__ import annotations

import logging

from bot.computers import ComputerSeats
from bot.outbox import Outbox
from bot.publisher import Publisher
from bot.shards import ALL, Shards
from bot.storage import Store
from bot.storage.base import ATTENTION_BATCH
from bot.storage.outbox import OUTBOX_BATCH

log = logging.getLogger(__name__)


async def attend(
    store: Store, publisher: Publisher, computers: ComputerSeats, outbox: Outbox, shards: Shards = ALL
) -> int:
    """Hand every session needing attention (in the servers of ``shards``) to the publisher and the computer
    seats, and every outbox row to the outbox desk, a batch at a time; returns how many there were."""
    handed = await _sessions(store, publisher, computers, shards)
    told = await _outbox(store, outbox, shards)
    if told:
        log.info("Telling %d commits' messages not yet shown", told)
    return handed + told


async def _sessions(store: Store, publisher: Publisher, computers: ComputerSeats, shards: Shards) -> int:
    after, handed = 0, 0
    while True:
        await publisher.backlog_below(ATTENTION_BATCH)
        ids = await store.attention(shards, after=after)
        if not ids:
            break
        for session_id in ids:
            session = await store.session(session_id)
            if session is None:
                continue
            publisher.catch_up(session_id)
            computers.consider(session)
        handed += len(ids)
        after = ids[-1]
    if handed:
        log.info("Caught up with %d sessions that needed attention", handed)
    return handed


async def _outbox(store: Store, outbox: Outbox, shards: Shards) -> int:
    after, handed = 0, 0
    while True:
        await outbox.backlog_below(OUTBOX_BATCH)
        rows = await store.outbox(shards, after=after)
        if not rows:
            return handed
        for outgoing in rows:
            outbox.catch_up(outgoing)
        handed += len(rows)
        after = rows[-1].id
