"""What each of the store's writing methods tells, declared where it is written (``@writes``).

Every message a commit produces goes through an outbox: a session's in its log entry (``LogEntry.news``), any
other commit's in an ``Outgoing`` row written in its transaction (``bot.storage.outbox``). So a method that changes
what happened either carries its messages (``OUTBOX``), or has none but its author's private answer (``AUTHOR``);
the rest only keep books (``BOOKS``: which message shows what, what was told, statistics, clean-up).

``tests/core/test_outbox_paths.py`` holds the code to it: every method that writes must declare one of these (a
method found writing without a declaration fails), an ``OUTBOX`` method writes its messages in its transaction, and
after an ``OUTBOX`` or ``AUTHOR`` write (or a Service commit) no code in ``bot/`` or ``cogs/`` says anything but a
private answer itself.
"""

from __future__ import annotations

from collections.abc import Callable
from enum import StrEnum
from typing import Any, TypeVar

F = TypeVar("F", bound=Callable[..., Any])
TELLS = "__tells__"


class Tells(StrEnum):
    """What a writing method's change says, and through what."""

    OUTBOX = "outbox"
    """The change has messages: they are written with it, in its transaction, and delivered from there."""
    AUTHOR = "author"
    """The change's only message is the private answer to the member who made it (lost with the interaction if
    the bot stops: the member sees it failed, and asking again tells what is stored)."""
    BOOKS = "books"
    """Nothing to tell: which message shows what, what was told, statistics, clean-up."""


def writes(tells: Tells) -> Callable[[F], F]:
    """Declare what a writing method of the store tells (see the module)."""

    def declare(method: F) -> F:
        setattr(method, TELLS, tells)
        return method

    return declare


def tells_of(method: Callable[..., Any]) -> Tells | None:
    """What ``method`` declared it tells (None: it declared nothing, so it must not write)."""
    return getattr(method, TELLS, None)
