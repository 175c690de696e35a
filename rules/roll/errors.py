"""The one exception type a user ever sees from /roll."""

from __future__ import annotations


class RollError(ValueError):
    """The roll cannot be done; ``str(error)`` is a short, friendly sentence to show the user as is (in English:
    ``message`` is the same sentence as the roller said it, to say in the reader's language)."""

    @property
    def message(self) -> str:
        """The sentence, a ``rules.said.Said`` when the roller said it (``str()`` of the error keeps only the
        English); plain text when it came from elsewhere (d20's own errors)."""
        return self.args[0] if self.args and isinstance(self.args[0], str) else str(self)


class RollSyntaxError(RollError):
    """The text isn't notation the grammar can read at all (as opposed to notation refused for what it means)."""
