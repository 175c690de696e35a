"""The one exception type a user ever sees from /roll."""

from __future__ import annotations


class RollError(ValueError):
    """The roll cannot be done; ``str(error)`` is a short, friendly sentence to show the user as is."""


class RollSyntaxError(RollError):
    """The text isn't notation the grammar can read at all (as opposed to notation refused for what it means)."""
