"""Errors a user sees, each with a stable code; Discord-free, so the service can raise them.

The text is short and friendly and shown to the user as is (privately); tests assert on the type
or the ``code``. Anything that is not a :class:`UserError` is a bug: it is logged with an error id
(``bot.replies.report_error``).
"""

from __future__ import annotations

import secrets

from pydantic import ValidationError
from pydantic_core import ErrorDetails

from bot.i18n import N_, _, localize
from rules.said import Said

_PLAIN_PROBLEMS = {
    "int_parsing": N_("please enter a whole number"),
    "int_from_float": N_("please enter a whole number"),
    "float_parsing": N_("please enter a number"),
    "missing": N_("please fill this in"),
    "greater_than_equal": N_("at least {ge}"),
    "less_than_equal": N_("at most {le}"),
    "string_too_long": N_("at most {max_length} characters"),
    "too_long": N_("at most {max_length}"),
    "string_too_short": N_("please fill this in"),
}


class UserError(Exception):
    """Something the user did or asked that can't be done; the message is shown to them as is (an engine's
    reason in the language being spoken: ``bot.i18n.localize``)."""

    code = "refused"

    def __init__(self, text: str) -> None:
        super().__init__(text)
        self.text = localize(text)


class NotPlaying(UserError):
    """The user has no seat in this game."""

    code = "not_playing"


class NotYourTurn(UserError):
    """The user plays, but nobody asked them to decide anything now."""

    code = "not_your_turn"


class NotPermitted(UserError):
    """The user's role doesn't allow this (the host, the GM, the record's owner…)."""

    code = "not_permitted"


class IllegalMove(UserError):
    """The rules don't allow this now; the text is the engine's reason."""

    code = "illegal"


class InvalidInput(UserError):
    """Typed input that doesn't fit (a modal field, a command option)."""

    code = "invalid_input"

    @classmethod
    def naming(cls, exc: ValidationError, tag: object = None) -> InvalidInput:
        """The first problem pydantic found in typed input, as a short sentence naming the field (never the
        action's ``tag``, where a union of actions names it first)."""
        error = exc.errors()[0]
        field = next((str(p) for p in reversed(error["loc"]) if isinstance(p, str) and p != tag), "")
        plain = _PLAIN_PROBLEMS.get(error["type"])
        message = _(plain, **error.get("ctx", {})) if plain else _problem(error)
        # A field's name is said as a game marked it (``N_("Amount")``), else as it is.
        where = _(field.replace("_", " ").capitalize()) if field else ""
        if where:
            return cls(_("{field}: {problem}.", field=where, problem=message))
        return cls(f"{message[:1].upper()}{message[1:]}.")


class StaleBoard(UserError):
    """A click on a board that no longer shows the game as it is."""

    code = "stale_board"

    def __init__(self, text: str | None = None, *, url: str | None = None):
        text = text if text is not None else _("This board is out of date; nothing was changed.")
        super().__init__(text if url is None else text + " " + _("Here is the [current board]({url}).", url=url))
        self.url = url


class SessionOver(UserError):
    """The game, sheet or campaign has ended (or never existed)."""

    code = "over"


class NoSession(UserError):
    """There is nothing of that kind in this channel."""

    code = "no_session"


class ChannelBusy(UserError):
    """The channel already has a live session of that kind."""

    code = "channel_busy"


class Busy(UserError):
    """A shared resource is full right now; trying again in a moment will work."""

    code = "busy"


class Conflict(UserError):
    """Someone else changed the same thing at the same moment, and retrying did not help."""

    code = "conflict"

    def __init__(self, text: str | None = None) -> None:
        super().__init__(text if text is not None else _("That changed at the same moment; please try again."))


def _problem(error: ErrorDetails) -> str:
    """A validator's own reason: an engine's said in the language spoken, pydantic's other words as they are."""
    raised = error.get("ctx", {}).get("error")
    reason = raised.args[0] if isinstance(raised, ValueError) and raised.args else None
    if isinstance(reason, Said):
        return localize(reason)
    return str(error["msg"]).removeprefix("Value error, ")


def new_error_id() -> str:
    """A short id to quote in a bug report and find in the logs."""
    return secrets.token_hex(4)
