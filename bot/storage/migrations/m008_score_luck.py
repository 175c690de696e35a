"""Migration 8: a game's own luck in points (rules.engine.ScoreLuck: turns against fair dice), per member and place and
day like the dice. Every log written so far is counted again for its turns (``upto``), and for its dice only up to
``dice_upto`` (0: all its dice are in the statistics already). A log still waiting for step 6's backfill keeps its
``upto`` as ``dice_upto``: the entries after it had their dice counted at commit, and their turns still count."""

from __future__ import annotations

from bot.storage.dialect import Both, Dialect, Step


def steps(d: Dialect) -> tuple[Step | Both, ...]:
    """The migration's statements, in ``d``'s SQL."""
    return (
        f"""CREATE TABLE luck_turns (
            user_id {d.int} NOT NULL,
            hidden INTEGER NOT NULL,
            day INTEGER NOT NULL,
            guild_id {d.int} NOT NULL,
            channel_id {d.int} NOT NULL,
            kind TEXT NOT NULL,
            campaign_id {d.int} NOT NULL,
            turns INTEGER NOT NULL,
            points {d.int} NOT NULL,
            luck {d.real} NOT NULL,
            variance {d.real} NOT NULL,
            PRIMARY KEY (user_id, hidden, day, guild_id, channel_id, kind, campaign_id)
        ){d.without_rowid}""",
        # Public turns per server and game, for the leaderboard (as luck_totals is for dice).
        f"""CREATE TABLE luck_turn_totals (
            guild_id {d.int} NOT NULL,
            kind TEXT NOT NULL,
            user_id {d.int} NOT NULL,
            turns INTEGER NOT NULL,
            points {d.int} NOT NULL,
            luck {d.real} NOT NULL,
            variance {d.real} NOT NULL,
            PRIMARY KEY (guild_id, kind, user_id)
        ){d.without_rowid}""",
        "CREATE INDEX luck_turn_totals_user ON luck_turn_totals(user_id)",
        f"ALTER TABLE luck_pending ADD COLUMN dice_upto {d.int} NOT NULL DEFAULT 0",
        "UPDATE luck_pending SET dice_upto = upto",
        "UPDATE luck_pending SET upto = (SELECT MAX(seq) FROM session_events e WHERE e.session_id = "
        "luck_pending.session_id) WHERE EXISTS (SELECT 1 FROM session_events e WHERE e.session_id = "
        "luck_pending.session_id AND e.seq > luck_pending.upto)",
        "INSERT INTO luck_pending (session_id, upto, dice_upto) "
        "SELECT session_id, MAX(seq), 0 FROM session_events GROUP BY session_id "
        "ON CONFLICT (session_id) DO NOTHING",
    )
