"""Migration 6: around /roll: saved rolls, dice boards, secret rolls, and luck statistics kept as per-member counts
(see bot/storage/luck.py); the logs written before this step are counted once, from luck_pending."""

from __future__ import annotations

from bot.storage.dialect import Both, Dialect, Step


def steps(d: Dialect) -> tuple[Step | Both, ...]:
    """The migration's statements, in ``d``'s SQL."""
    return (
        f"""CREATE TABLE saved_rolls (
            scope TEXT NOT NULL CHECK (scope IN ('member', 'channel', 'server')),
            owner_id {d.int} NOT NULL,
            name_key TEXT NOT NULL,
            name TEXT NOT NULL,
            expression TEXT NOT NULL,
            guild_id {d.int},
            created_by {d.int} NOT NULL,
            updated_at {d.real} NOT NULL,
            PRIMARY KEY (scope, owner_id, name_key)
        ){d.without_rowid}""",
        "CREATE INDEX saved_rolls_guild ON saved_rolls(guild_id) WHERE guild_id IS NOT NULL",
        f"""CREATE TABLE dice_boards (
            id {d.key},
            channel_id {d.int} NOT NULL,
            guild_id {d.int},
            owner_id {d.int} NOT NULL,
            source TEXT NOT NULL,
            source_id {d.int} NOT NULL,
            hidden INTEGER NOT NULL DEFAULT 0,
            buttons TEXT NOT NULL,
            message_id {d.int},
            created_at {d.real} NOT NULL
        )""",
        "CREATE INDEX dice_boards_channel ON dice_boards(channel_id)",
        f"""CREATE TABLE secret_rolls (
            id {d.key},
            channel_id {d.int} NOT NULL,
            guild_id {d.int},
            roller_id {d.int} NOT NULL,
            for_gm INTEGER NOT NULL DEFAULT 0,
            canonical TEXT NOT NULL,
            salt TEXT NOT NULL,
            commitment TEXT NOT NULL,
            message_id {d.int},
            created_at {d.real} NOT NULL,
            revealed_at {d.real}
        )""",
        "CREATE INDEX secret_rolls_created ON secret_rolls(created_at)",
        f"""CREATE TABLE luck_dice (
            user_id {d.int} NOT NULL,
            sides INTEGER NOT NULL,
            hidden INTEGER NOT NULL,
            day INTEGER NOT NULL,
            guild_id {d.int} NOT NULL,
            channel_id {d.int} NOT NULL,
            kind TEXT NOT NULL,
            campaign_id {d.int} NOT NULL,
            bin INTEGER NOT NULL,
            count {d.int} NOT NULL,
            total {d.int} NOT NULL,
            PRIMARY KEY (user_id, sides, hidden, day, guild_id, channel_id, kind, campaign_id, bin)
        ){d.without_rowid}""",
        # The same counts without the day, for all-time answers (the usual question) in a few hundred rows.
        f"""CREATE TABLE luck_faces (
            user_id {d.int} NOT NULL,
            hidden INTEGER NOT NULL,
            guild_id {d.int} NOT NULL,
            channel_id {d.int} NOT NULL,
            kind TEXT NOT NULL,
            campaign_id {d.int} NOT NULL,
            sides INTEGER NOT NULL,
            bin INTEGER NOT NULL,
            count {d.int} NOT NULL,
            total {d.int} NOT NULL,
            PRIMARY KEY (user_id, hidden, guild_id, channel_id, kind, campaign_id, sides, bin)
        ){d.without_rowid}""",
        f"""CREATE TABLE luck_totals (
            guild_id {d.int} NOT NULL,
            sides INTEGER NOT NULL,
            user_id {d.int} NOT NULL,
            count {d.int} NOT NULL,
            total {d.int} NOT NULL,
            PRIMARY KEY (guild_id, sides, user_id)
        ){d.without_rowid}""",
        "CREATE INDEX luck_totals_user ON luck_totals(user_id)",
        f"""CREATE TABLE luck_streaks (
            user_id {d.int} NOT NULL,
            sides INTEGER NOT NULL,
            public_only INTEGER NOT NULL,
            run INTEGER NOT NULL,
            best_hot INTEGER NOT NULL,
            best_cold INTEGER NOT NULL,
            PRIMARY KEY (user_id, public_only, sides)
        ){d.without_rowid}""",
        f"""CREATE TABLE luck_wins (
            guild_id {d.int} NOT NULL,
            user_id {d.int} NOT NULL,
            games INTEGER NOT NULL,
            wins INTEGER NOT NULL,
            PRIMARY KEY (guild_id, user_id)
        ){d.without_rowid}""",
        "CREATE INDEX luck_wins_user ON luck_wins(user_id)",
        f"""CREATE TABLE luck_members (
            user_id {d.int} PRIMARY KEY,
            off_leaderboard INTEGER NOT NULL DEFAULT 0,
            forgot_at {d.real}
        )""",
        "CREATE INDEX luck_members_forgot ON luck_members(forgot_at) WHERE forgot_at IS NOT NULL",
        f"""CREATE TABLE luck_pending (
            session_id {d.int} PRIMARY KEY,
            upto {d.int} NOT NULL
        )""",
        "INSERT INTO luck_pending (session_id, upto) "
        "SELECT session_id, MAX(seq) FROM session_events GROUP BY session_id",
    )
