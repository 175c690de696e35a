"""Migration 14: the language a member chose to be answered in (``/language``; ``bot.languages``). A member who never
chose has no row and is answered in their Discord's language."""

from __future__ import annotations

from bot.storage.dialect import Both, Dialect, Step


def steps(d: Dialect) -> tuple[Step | Both, ...]:
    """The migration's statements, in ``d``'s SQL."""
    return (
        f"""CREATE TABLE member_languages (
            user_id {d.int} PRIMARY KEY,
            language TEXT NOT NULL
        ){d.without_rowid}""",
    )
