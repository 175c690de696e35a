"""The session cache: a read that overlaps this process's own write never takes its place."""

from __future__ import annotations

from bot.models import Board, Status
from bot.storage.cache import SessionCache
from tests.core.test_storage import lobby


def test_a_read_at_the_cached_version_keeps_what_this_process_wrote_since() -> None:
    cache = SessionCache()
    posted = lobby().model_copy(update={"id": 7, "version": 3})
    cache.keep(posted)
    board = Board(view="board", channel_id=111, message_id=99, shown_version=3, posted_at=0.0, status=Status.LOBBY)
    cache.shown(7, board, None, 3)
    # A SELECT that started before the board was stored comes back with the row as it was.
    assert cache.read(posted) is cache.get(7)
    assert cache.get(7).boards["board"].message_id == 99  # type: ignore[union-attr]


def test_a_read_of_a_newer_version_replaces_the_cached_copy() -> None:
    cache = SessionCache()
    cache.keep(lobby().model_copy(update={"id": 7, "version": 3}))
    newer = lobby().model_copy(update={"id": 7, "version": 4})  # another process moved the session on
    assert cache.read(newer) is newer and cache.get(7) is newer
