"""Changes made on behalf of something that may apply only once: a form sent again (a client retrying a slow
answer) is refused once the first one committed, while a form's several changes all commit."""

from __future__ import annotations

import contextlib
import contextvars
from collections import OrderedDict
from collections.abc import Hashable, Iterator
from dataclasses import dataclass

from bot.errors import StaleBoard
from bot.i18n import N_, _

ONCE_KEYS = 4096
"""How many things applied once a process remembers (a retry comes within seconds of the first)."""
SENT_ALREADY = N_("That was already sent; nothing more was changed.")


@dataclass
class Once:
    """Changes to one session made on behalf of one thing that may apply once."""

    session_id: int
    key: Hashable
    committed: bool = False


class OnceGuard:
    """Remembers what applied once (the latest ``capacity`` keys) and which ``scope`` the running task is in."""

    def __init__(self, capacity: int = ONCE_KEYS) -> None:
        self.capacity = capacity
        self._applied: OrderedDict[Hashable, None] = OrderedDict()
        self._current: contextvars.ContextVar[Once | None] = contextvars.ContextVar("once", default=None)

    def __len__(self) -> int:
        return len(self._applied)

    @contextlib.contextmanager
    def scope(self, session_id: int, key: Hashable) -> Iterator[None]:
        """The changes made to ``session_id`` inside apply once per ``key``."""
        token = self._current.set(Once(session_id, key))
        try:
            yield
        finally:
            self._current.reset(token)

    def check(self, session_id: int) -> Once | None:
        """The scope this change to ``session_id`` is part of (refused if it applied already), or None."""
        once = self._current.get()
        if once is None or once.session_id != session_id:
            return None
        if not once.committed and once.key in self._applied:
            raise StaleBoard(_(SENT_ALREADY))
        return once

    def sent_already(self, session_id: int) -> bool:
        """Whether the running scope applied already: a repeat of something sent, whose answer must not undo
        the first one's."""
        once = self._current.get()
        return once is not None and once.session_id == session_id and once.key in self._applied

    def applied(self, once: Once | None) -> None:
        """The change made in ``once`` committed: its key applied."""
        if once is None:
            return
        once.committed = True
        self._applied[once.key] = None
        self._applied.move_to_end(once.key)
        if len(self._applied) > self.capacity:
            self._applied.popitem(last=False)
