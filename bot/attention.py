"""After a restart: everything that needs the bot, found through one small index and handed on in batches.

What needs attention (``Store.attention``): a session drawn behind its version (the bot stopped between a commit
and its drawing), a computer seat to move, news not yet told. Due deadlines are the timer loop's (it reads them in
batches too). Nothing here reads every session: startup costs what needs doing, not what is stored, and the
catch-up drawings wait behind the interactions' (``Publisher.catch_up``), so members are answered first.
"""

from __future__ import annotations

import logging

from bot.computers import ComputerSeats
from bot.publisher import Publisher
from bot.shards import ALL, Shards
from bot.storage import Store
from bot.storage.base import ATTENTION_BATCH

log = logging.getLogger(__name__)


async def attend(store: Store, publisher: Publisher, computers: ComputerSeats, shards: Shards = ALL) -> int:
    """Hand every session needing attention (in the servers of ``shards``) to the publisher and the computer
    seats, a batch at a time; returns how many there were."""
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
