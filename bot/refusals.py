"""The engine's refusals as the member's errors: one mapping for every step (act, create, start, leave, undo)."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator

from pydantic import ValidationError

from bot.errors import IllegalMove, InvalidInput, NotPermitted
from rules import engine as contract


@contextlib.contextmanager
def engine_refusals(*, authorizing: bool = False) -> Iterator[None]:
    """The engine's refusals as the member's errors. While ``authorizing``, any refusal means the member may not
    (``NotPermitted``)."""
    try:
        yield
    except ValidationError as exc:
        raise InvalidInput.naming(exc) from None
    except contract.NotPermitted as exc:
        raise NotPermitted(exc.reason) from None
    except contract.IllegalAction as exc:
        raise (NotPermitted(exc.reason) if authorizing else IllegalMove(exc.reason)) from None
