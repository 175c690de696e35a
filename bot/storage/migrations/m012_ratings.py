"""Migration 12: ratings (``bot.ratings``), per server, game and member, sorted by their ordinal for the leaderboards.
The finished games so far are rated once, in the order they ended, by the bot's first start after this step
(``recompute_ratings``: it needs the games' own places, which only the running bot knows); until then a game that
finishes is left to that recompute (``ratings_pending`` holds its one row)."""

from __future__ import annotations

from bot.storage.dialect import Both, Dialect, Step


def steps(d: Dialect) -> tuple[Step | Both, ...]:
    """The migration's statements, in ``d``'s SQL."""
    return (
        f"""CREATE TABLE ratings (
            guild_id {d.int} NOT NULL,
            kind TEXT NOT NULL,
            user_id {d.int} NOT NULL,
            mu {d.real} NOT NULL,
            sigma {d.real} NOT NULL,
            ordinal {d.real} NOT NULL,
            games INTEGER NOT NULL,
            PRIMARY KEY (guild_id, kind, user_id)
        ){d.without_rowid}""",
        "CREATE INDEX ratings_top ON ratings(guild_id, kind, ordinal)",
        "CREATE INDEX ratings_user ON ratings(user_id)",
        "CREATE TABLE ratings_pending (id INTEGER PRIMARY KEY)",
        "INSERT INTO ratings_pending (id) VALUES (1)",
    )
