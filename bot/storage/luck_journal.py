"""The luck statistics' journal: a commit adds one row saying what it counts, and the rows are folded into the
statistics later, many at a time (``fold``).

Why: adding a click's dice straight to the statistics is a statement per face and per table, and clicks of one
server add to the same rows (a member's totals in the server, their streaks), so concurrent clicks queued on
each other's row locks (on PostgreSQL, 60 clicks across channels answered at 15 a second). A journal row is one
insert, of a row nobody else writes. Readers fold first, so what they read is as current as before; the bot also
folds in the background so the journal stays short. One folder at a time (PostgreSQL: an advisory lock held by
the folding transaction; SQLite: its write lock), so streaks run on in the order the journal was written.
"""

from __future__ import annotations

import json
from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

from bot.ratings import RatingChange
from bot.storage.dialect import POSTGRESQL, Dialect
from bot.storage.luck import DiceTally, TurnTally, Where, WinTally, streak_step
from bot.storage.sql import Sql
from rules.engine import TurnLuck

FOLD_BATCH = 500
"""Journal rows folded in one transaction (SQLite's writes wait for it: keep it short)."""
FOLD_LOCK = 0x10CC_F01D
"""PostgreSQL advisory lock of the folding transaction (and of ``forget_luck``'s)."""

INSERT_JOURNAL = "INSERT INTO luck_journal (counts) VALUES (?)"

_DICE_UPSERT = (
    "INSERT INTO luck_dice (user_id, sides, hidden, day, guild_id, channel_id, kind, campaign_id, bin, count, total) "
    "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) "
    "ON CONFLICT (user_id, sides, hidden, day, guild_id, channel_id, kind, campaign_id, bin) "
    "DO UPDATE SET count = luck_dice.count + excluded.count, total = luck_dice.total + excluded.total"
)
_FACES_UPSERT = (
    "INSERT INTO luck_faces (user_id, hidden, guild_id, channel_id, kind, campaign_id, sides, bin, count, total) "
    "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) "
    "ON CONFLICT (user_id, hidden, guild_id, channel_id, kind, campaign_id, sides, bin) "
    "DO UPDATE SET count = luck_faces.count + excluded.count, total = luck_faces.total + excluded.total"
)
_TOTALS_UPSERT = (
    "INSERT INTO luck_totals (guild_id, sides, user_id, count, total) VALUES (?, ?, ?, ?, ?) "
    "ON CONFLICT (guild_id, sides, user_id) "
    "DO UPDATE SET count = luck_totals.count + excluded.count, total = luck_totals.total + excluded.total"
)
_TURNS_UPSERT = (
    "INSERT INTO luck_turns (user_id, hidden, day, guild_id, channel_id, kind, campaign_id, turns, points, luck, "
    "variance) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) "
    "ON CONFLICT (user_id, hidden, day, guild_id, channel_id, kind, campaign_id) "
    "DO UPDATE SET turns = luck_turns.turns + excluded.turns, points = luck_turns.points + excluded.points, "
    "luck = luck_turns.luck + excluded.luck, variance = luck_turns.variance + excluded.variance"
)
_TURN_TOTALS_UPSERT = (
    "INSERT INTO luck_turn_totals (guild_id, kind, user_id, turns, points, luck, variance) "
    "VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (guild_id, kind, user_id) "
    "DO UPDATE SET turns = luck_turn_totals.turns + excluded.turns, "
    "points = luck_turn_totals.points + excluded.points, luck = luck_turn_totals.luck + excluded.luck, "
    "variance = luck_turn_totals.variance + excluded.variance"
)
_WINS_UPSERT = (
    "INSERT INTO luck_wins (guild_id, user_id, games, wins) VALUES (?, ?, ?, ?) "
    "ON CONFLICT (guild_id, user_id) DO UPDATE SET games = luck_wins.games + excluded.games, "
    "wins = luck_wins.wins + excluded.wins"
)
_STREAKS_UPSERT = (
    "INSERT INTO luck_streaks (user_id, sides, public_only, run, best_hot, best_cold) "
    "VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (user_id, sides, public_only) "
    "DO UPDATE SET run = excluded.run, best_hot = excluded.best_hot, best_cold = excluded.best_cold"
)


@dataclass
class LuckBatch:
    """Dice tallies, scored turns and wins to add to the statistics together (through the journal); and a finished
    game's ratings, written by its commit itself (never journaled: they are checked against what was read)."""

    tallies: list[DiceTally] = field(default_factory=list)
    wins: list[WinTally] = field(default_factory=list)
    turns: list[TurnTally] = field(default_factory=list)
    ratings: list[RatingChange] = field(default_factory=list)
    """A finished game's rating changes (``bot.ratings``), written only if each member's rating is unchanged."""
    ratings_pending: bool = False
    """A finished game left unrated for migration 12's recompute: committed only while that is still to run."""

    def __bool__(self) -> bool:
        return bool(self.tallies or self.wins or self.turns or self.ratings or self.ratings_pending)


def _where(w: Where) -> list[Any]:
    return [w.user_id, w.guild_id, w.channel_id, w.kind, w.campaign_id, int(w.hidden)]


def _where_from(values: list[Any]) -> Where:
    user_id, guild_id, channel_id, kind, campaign_id, hidden = values
    return Where(user_id, guild_id, channel_id, kind, campaign_id, bool(hidden))


def encode(batch: LuckBatch) -> str:
    """A batch as its journal row stores it."""
    return json.dumps(
        {
            "d": [
                [_where(t.where), t.day, [[s, b, c, n] for (s, b), (c, n) in t.faces.items()], t.sequence]
                for t in batch.tallies
            ],
            "t": [
                [_where(t.where), t.day, [u.player, u.turns, u.points, u.luck, u.variance]]
                for t in batch.turns
                for u in (t.turns,)
            ],
            "w": [[w.guild_id, w.kind, w.players, w.winners] for w in batch.wins],
        },
        separators=(",", ":"),
    )


def decode(text: str) -> LuckBatch:
    """A journal row's batch."""
    data = json.loads(text)
    return LuckBatch(
        tallies=[
            DiceTally(_where_from(w), day, {(s, b): (c, n) for s, b, c, n in faces}, tuple((s, f) for s, f in sequence))
            for w, day, faces, sequence in data["d"]
        ],
        turns=[TurnTally(_where_from(w), day, TurnLuck(*turns)) for w, day, turns in data["t"]],
        wins=[WinTally(g, kind, tuple(players), tuple(winners)) for g, kind, players, winners in data["w"]],
    )


def _summed(table: dict[tuple[Any, ...], list[Any]], key: tuple[Any, ...], *values: Any) -> None:
    sums = table.get(key)
    if sums is None:
        table[key] = list(values)
    else:
        for i, value in enumerate(values):
            sums[i] += value


@dataclass
class _Sums:
    """Many batches' additions, summed per row of each table (so each row is written once a fold)."""

    dice: dict[tuple[Any, ...], list[Any]] = field(default_factory=dict)
    faces: dict[tuple[Any, ...], list[Any]] = field(default_factory=dict)
    totals: dict[tuple[Any, ...], list[Any]] = field(default_factory=dict)
    turns: dict[tuple[Any, ...], list[Any]] = field(default_factory=dict)
    turn_totals: dict[tuple[Any, ...], list[Any]] = field(default_factory=dict)
    wins: dict[tuple[Any, ...], list[Any]] = field(default_factory=dict)
    sequences: dict[tuple[int, int, bool], list[int]] = field(default_factory=lambda: defaultdict(list))
    """(member, die size, public only) → the faces rolled, in order."""

    def add(self, batch: LuckBatch) -> None:
        """Add one batch."""
        for t in batch.tallies:
            w, hidden = t.where, int(t.where.hidden)
            for (sides, index), (count, total) in t.faces.items():
                place = (w.guild_id, w.channel_id, w.kind, w.campaign_id)
                _summed(self.dice, (w.user_id, sides, hidden, t.day, *place, index), count, total)
                _summed(self.faces, (w.user_id, hidden, *place, sides, index), count, total)
                if not hidden:
                    _summed(self.totals, (w.guild_id, sides, w.user_id), count, total)
            for public_only in (False,) if hidden else (False, True):
                for sides, face in t.sequence:
                    self.sequences[(w.user_id, sides, public_only)].append(face)
        for turned in batch.turns:
            w, luck = turned.where, turned.turns
            values = (luck.turns, luck.points, luck.luck, luck.variance)
            place = (w.guild_id, w.channel_id, w.kind, w.campaign_id)
            _summed(self.turns, (w.user_id, int(w.hidden), turned.day, *place), *values)
            if not w.hidden:
                _summed(self.turn_totals, (w.guild_id, w.kind, w.user_id), *values)
        for won in batch.wins:
            for player in won.players:
                _summed(self.wins, (won.guild_id, player), 1, int(player in won.winners))


async def apply(sql: Sql, batches: list[LuckBatch]) -> None:
    """Add ``batches`` to the statistics, in order: each row written once, a statement per table (rows in key
    order, so two writers never wait for each other in a circle)."""
    sums = _Sums()
    for batch in batches:
        sums.add(batch)
    for statement, table in (
        (_DICE_UPSERT, sums.dice),
        (_FACES_UPSERT, sums.faces),
        (_TOTALS_UPSERT, sums.totals),
        (_TURNS_UPSERT, sums.turns),
        (_TURN_TOTALS_UPSERT, sums.turn_totals),
        (_WINS_UPSERT, sums.wins),
    ):
        if table:
            await sql.executemany(statement, [(*key, *values) for key, values in sorted(table.items())])
    streaks = []
    for (user, sides, public_only), faces in sorted(sums.sequences.items()):
        rows = await sql.fetch(
            "SELECT run, best_hot, best_cold FROM luck_streaks WHERE user_id = ? AND sides = ? AND public_only = ?",
            user,
            sides,
            int(public_only),
        )
        row = rows[0] if rows else {"run": 0, "best_hot": 0, "best_cold": 0}
        run, hot, cold = int(row["run"]), int(row["best_hot"]), int(row["best_cold"])
        for face in faces:
            run, hot, cold = streak_step(run, hot, cold, sides, face)
        streaks.append((user, sides, int(public_only), run, hot, cold))
    if streaks:
        await sql.executemany(_STREAKS_UPSERT, streaks)


async def lock_folding(sql: Sql, dialect: Dialect) -> None:
    """Be the only folder until the transaction ends (SQLite's transaction is the only writer already)."""
    if dialect == POSTGRESQL:
        await sql.execute("SELECT pg_advisory_xact_lock(?)", FOLD_LOCK)


async def fold(sql: Sql, dialect: Dialect, limit: int = FOLD_BATCH) -> int:
    """In a transaction: fold up to ``limit`` journal rows, oldest first, into the statistics; how many."""
    await lock_folding(sql, dialect)
    rows = await sql.fetch(
        "DELETE FROM luck_journal WHERE id IN (SELECT id FROM luck_journal ORDER BY id LIMIT ?) RETURNING id, counts",
        limit,
    )
    if rows:
        ordered = sorted(rows, key=lambda r: int(r["id"]))
        await apply(sql, [decode(r["counts"]) for r in ordered])
    return len(rows)
