"""Storage for everything around ``/roll``: saved rolls, dice boards, secret rolls and luck statistics.

The SQL is written once, with ``?`` placeholders, and runs on both backends through each one's connection
(``bot.storage.sql``). Every query here is on a key or an index (the storage
tests check the plans with ``EXPLAIN``).
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Callable, Sequence
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass, field
from typing import Any, Literal, Protocol

from bot.models import LogEntry, News, Outgoing, Session, Told
from bot.ratings import RatingChange
from bot.registry import GameKind
from bot.storage.luck import DiceTally, TurnTally, WinTally, entry_tallies, streak_step, turn_tallies, win_tally
from bot.storage.outbox import add_outgoing
from bot.storage.pushes import PushableRoll, PushTables
from bot.storage.ratings import write_ratings
from bot.storage.rows import Row
from bot.storage.sql import Sql
from bot.storage.writes import Tells, writes

SavedScope = Literal["member", "channel", "server"]
SAVED_SCOPES: tuple[SavedScope, ...] = ("member", "channel", "server")
SECRETS_KEPT_S = 180 * 86_400
"""Secret rolls are kept this long (revealed or not), then forgotten."""
BACKFILL_BATCH = 50
SECRET_DRAWING = "dice-secret"
"""The outbox's name for a secret roll's commitment message (``Told.draw``)."""
BOARD_DRAWING = "dice-board"
"""The outbox's name for a dice board's message."""


@dataclass(frozen=True, slots=True)
class SavedRoll:
    """A named roll in one scope: a member's own (everywhere), a channel's, or a server's."""

    scope: SavedScope
    owner_id: int
    """The member, channel or server id, by scope."""
    name: str
    expression: str
    guild_id: int | None = None
    created_by: int = 0
    updated_at: float = 0.0

    @property
    def key(self) -> str:
        """The name as compared: case doesn't matter."""
        return name_key(self.name)


def name_key(name: str) -> str:
    """A saved roll's name as compared (case-insensitive, in any script)."""
    return name.casefold()


@dataclass(frozen=True, slots=True)
class BoardButton:
    """One button of a dice board: a saved roll's name, and the label on the button."""

    name: str
    label: str


@dataclass(frozen=True, slots=True)
class DiceBoard:
    """A message of buttons, each rolling a saved roll of its source (a member's rolls, or the channel's)."""

    id: int
    channel_id: int
    guild_id: int | None
    owner_id: int
    source: SavedScope
    source_id: int
    """The member or channel whose saved rolls the buttons roll."""
    hidden: bool
    """Answers go privately to whoever clicked."""
    buttons: tuple[BoardButton, ...]
    message_id: int | None = None
    created_at: float = 0.0


@dataclass(frozen=True, slots=True)
class SecretRoll:
    """A roll whose result only its roller (and the GM, for a GM roll) sees until it is revealed."""

    id: int
    channel_id: int
    guild_id: int | None
    roller_id: int
    for_gm: bool
    canonical: str
    salt: str
    commitment: str
    message_id: int | None = None
    created_at: float = 0.0
    revealed_at: float | None = None


@dataclass(frozen=True, slots=True)
class LuckCount:
    """Summed tallies of one die size's face (or bin)."""

    sides: int
    bin: int
    count: int
    total: int


@dataclass(frozen=True, slots=True)
class Streak:
    """A member's runs for one die size: the current one (> 0 above the mean), and the longest of each kind."""

    sides: int
    run: int
    best_hot: int
    best_cold: int


@dataclass(frozen=True, slots=True)
class LuckFilter:
    """Which of a member's dice to count."""

    since_day: int | None = None
    guild_id: int | None = None
    channel_id: int | None = None
    kind: str | None = None
    campaign_id: int | None = None
    public_only: bool = True


@dataclass(frozen=True, slots=True)
class TurnTotals:
    """A member's turns in a game that measures its dice luck in points (``rules.engine.ScoreLuck``), summed."""

    turns: int
    points: int
    luck: float
    """Points the dice gave in the member's favour against fair dice, with the same choices."""
    variance: float


@dataclass(frozen=True, slots=True)
class MemberTotals:
    """One member's dice of one size in a server, for comparisons (leaderboard, ranks)."""

    user_id: int
    sides: int
    count: int
    total: int


@dataclass(frozen=True, slots=True)
class WinCount:
    """One member's finished table games in a server."""

    user_id: int
    games: int
    wins: int


@dataclass
class _Batch:
    """Dice tallies and wins to add to the statistics together."""

    tallies: list[DiceTally] = field(default_factory=list)
    wins: list[WinTally] = field(default_factory=list)
    turns: list[TurnTally] = field(default_factory=list)
    ratings: list[RatingChange] = field(default_factory=list)
    """A finished game's rating changes (``bot.ratings``), written only if each member's rating is unchanged."""
    ratings_pending: bool = False
    """A finished game left unrated for migration 12's recompute: committed only while that is still to run."""

    def __bool__(self) -> bool:
        return bool(self.tallies or self.wins or self.turns or self.ratings or self.ratings_pending)


CommitCounts = _Batch
"""What one commit adds to the statistics (``commit_counts``)."""

_MEMBER_TABLES = (
    "luck_dice",
    "luck_faces",
    "luck_turns",
    "luck_turn_totals",
    "luck_totals",
    "luck_streaks",
    "luck_wins",
    "ratings",
)
"""Every table of a member's statistics (``forget_luck`` empties them of the member)."""
_SAVED_COLUMNS = "scope, owner_id, name, expression, guild_id, created_by, updated_at"
_BOARD_COLUMNS = "id, channel_id, guild_id, owner_id, source, source_id, hidden, buttons, message_id, created_at"
_SECRET_COLUMNS = (
    "id, channel_id, guild_id, roller_id, for_gm, canonical, salt, commitment, message_id, created_at, revealed_at"
)
_LUCK_UPSERT = (
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
    "INSERT INTO luck_wins (guild_id, user_id, games, wins) VALUES (?, ?, 1, ?) "
    "ON CONFLICT (guild_id, user_id) DO UPDATE SET games = luck_wins.games + 1, wins = luck_wins.wins + excluded.wins"
)


def _saved(row: Row) -> SavedRoll:
    return SavedRoll(
        scope=row["scope"],
        owner_id=int(row["owner_id"]),
        name=row["name"],
        expression=row["expression"],
        guild_id=row["guild_id"],
        created_by=int(row["created_by"]),
        updated_at=float(row["updated_at"]),
    )


def _board(row: Row) -> DiceBoard:
    return DiceBoard(
        id=int(row["id"]),
        channel_id=int(row["channel_id"]),
        guild_id=row["guild_id"],
        owner_id=int(row["owner_id"]),
        source=row["source"],
        source_id=int(row["source_id"]),
        hidden=bool(row["hidden"]),
        buttons=tuple(BoardButton(b["name"], b["label"]) for b in json.loads(row["buttons"])),
        message_id=row["message_id"],
        created_at=float(row["created_at"]),
    )


def _secret(row: Row) -> SecretRoll:
    return SecretRoll(
        id=int(row["id"]),
        channel_id=int(row["channel_id"]),
        guild_id=row["guild_id"],
        roller_id=int(row["roller_id"]),
        for_gm=bool(row["for_gm"]),
        canonical=row["canonical"],
        salt=row["salt"],
        commitment=row["commitment"],
        message_id=row["message_id"],
        created_at=float(row["created_at"]),
        revealed_at=None if row["revealed_at"] is None else float(row["revealed_at"]),
    )


def buttons_json(buttons: Sequence[BoardButton]) -> str:
    """A board's buttons as stored."""
    return json.dumps([{"name": b.name, "label": b.label} for b in buttons], ensure_ascii=False)


class DiceStore(Protocol):
    """The part of ``Store`` around ``/roll`` (implemented once, by :class:`DiceTables`)."""

    async def saved_rolls(self, scope: SavedScope, owner_id: int) -> list[SavedRoll]: ...
    async def saved_roll(self, scope: SavedScope, owner_id: int, name: str) -> SavedRoll | None: ...
    async def saved_in_guild(self, guild_id: int) -> int: ...
    @writes(Tells.AUTHOR)
    async def put_saved_roll(self, roll: SavedRoll, *, new: bool) -> bool: ...
    @writes(Tells.AUTHOR)
    async def delete_saved_roll(self, scope: SavedScope, owner_id: int, name: str) -> bool: ...
    async def create_dice_board(self, board: DiceBoard) -> tuple[DiceBoard, Outgoing]: ...
    async def dice_board(self, board_id: int) -> DiceBoard | None: ...
    async def dice_boards_in(self, channel_id: int) -> list[DiceBoard]: ...
    async def update_dice_board(self, board: DiceBoard, at: float) -> Outgoing: ...
    async def dice_board_shown(self, board_id: int, message_id: int) -> None: ...
    async def delete_dice_board(self, board_id: int) -> None: ...
    async def create_secret(self, secret: SecretRoll) -> tuple[SecretRoll, Outgoing]: ...
    async def secret(self, secret_id: int) -> SecretRoll | None: ...
    @writes(Tells.BOOKS)
    async def secret_shown(self, secret_id: int, message_id: int) -> None: ...
    async def reveal_secret(self, secret_id: int, at: float, news: News) -> Outgoing | None: ...
    async def create_pushable(self, roll: PushableRoll) -> tuple[PushableRoll, Outgoing]: ...
    async def pushable(self, roll_id: int) -> PushableRoll | None: ...
    async def pushable_shown(self, roll_id: int, message_id: int) -> None: ...
    async def push_roll(self, roll_id: int, state: tuple[int, ...], pushed: str, at: float) -> Outgoing | None: ...
    @writes(Tells.BOOKS)
    async def record_dice(self, tallies: Sequence[DiceTally]) -> None: ...
    async def luck_counts(self, user_id: int, where: LuckFilter) -> list[LuckCount]: ...
    async def luck_turns(self, user_id: int, where: LuckFilter) -> TurnTotals | None: ...
    async def luck_streaks(self, user_id: int, *, public_only: bool) -> list[Streak]: ...
    async def luck_in_guild(self, guild_id: int) -> list[MemberTotals]: ...
    async def turns_in_guild(self, guild_id: int, kind: str) -> dict[int, TurnTotals]: ...
    async def wins_in_guild(self, guild_id: int) -> list[WinCount]: ...
    async def leaderboard_hidden(self, user_ids: Sequence[int]) -> set[int]: ...
    @writes(Tells.AUTHOR)
    async def set_leaderboard(self, user_id: int, *, shown: bool) -> None: ...
    @writes(Tells.AUTHOR)
    async def forget_luck(self, user_id: int, at: float) -> None: ...
    async def backfill_luck(
        self, sessions: Callable[[int], Any], entries: Callable[..., Any], kinds: Callable[[str], GameKind | None]
    ) -> int: ...


class DiceTables(PushTables):
    """The dice features' queries, for any backend that provides ``_sql()`` and ``_sql_transaction()``."""

    def _sql(self) -> Sql:
        """Each statement on its own (a write committed by itself)."""
        raise NotImplementedError

    def _sql_transaction(self, *, quick: bool = False) -> AbstractAsyncContextManager[Sql]:
        """One transaction. ``quick``: a few statements by key that must not wait (SQLite runs them on the event
        loop's own thread when the file is free)."""
        raise NotImplementedError

    # -- saved rolls ---------------------------------------------------------------------------------

    async def saved_rolls(self, scope: SavedScope, owner_id: int) -> list[SavedRoll]:
        """Every saved roll of one owner in one scope, by name."""
        rows = await self._sql().fetch(
            f"SELECT {_SAVED_COLUMNS} FROM saved_rolls WHERE scope = ? AND owner_id = ? ORDER BY name_key",
            scope,
            owner_id,
        )
        return [_saved(r) for r in rows]

    async def saved_roll(self, scope: SavedScope, owner_id: int, name: str) -> SavedRoll | None:
        """One saved roll by name (case-insensitive)."""
        rows = await self._sql().fetch(
            f"SELECT {_SAVED_COLUMNS} FROM saved_rolls WHERE scope = ? AND owner_id = ? AND name_key = ?",
            scope,
            owner_id,
            name_key(name),
        )
        return _saved(rows[0]) if rows else None

    async def saved_in_guild(self, guild_id: int) -> int:
        """How many channel and server rolls a server holds (for its limit)."""
        rows = await self._sql().fetch("SELECT COUNT(*) AS n FROM saved_rolls WHERE guild_id = ?", guild_id)
        return int(rows[0]["n"])

    @writes(Tells.AUTHOR)
    async def put_saved_roll(self, roll: SavedRoll, *, new: bool) -> bool:
        """Add a saved roll (False if the name is taken in its scope), or replace one (False if it is gone)."""
        sql = self._sql()
        if new:
            changed = await sql.execute(
                "INSERT INTO saved_rolls (scope, owner_id, name_key, name, expression, guild_id, created_by, "
                "updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (scope, owner_id, name_key) DO NOTHING",
                roll.scope,
                roll.owner_id,
                roll.key,
                roll.name,
                roll.expression,
                roll.guild_id if roll.scope != "member" else None,
                roll.created_by,
                float(roll.updated_at),
            )
        else:
            changed = await sql.execute(
                "UPDATE saved_rolls SET name = ?, expression = ?, updated_at = ? "
                "WHERE scope = ? AND owner_id = ? AND name_key = ?",
                roll.name,
                roll.expression,
                float(roll.updated_at),
                roll.scope,
                roll.owner_id,
                roll.key,
            )
        return changed == 1

    @writes(Tells.AUTHOR)
    async def delete_saved_roll(self, scope: SavedScope, owner_id: int, name: str) -> bool:
        """Delete a saved roll; False if there was none by that name."""
        changed = await self._sql().execute(
            "DELETE FROM saved_rolls WHERE scope = ? AND owner_id = ? AND name_key = ?", scope, owner_id, name_key(name)
        )
        return changed == 1

    # -- dice boards ---------------------------------------------------------------------------------

    @writes(Tells.OUTBOX)
    async def create_dice_board(self, board: DiceBoard) -> tuple[DiceBoard, Outgoing]:
        """Store a new board, and its message to post (in the outbox, in the same transaction); returns it with its
        id."""
        async with self._sql_transaction(quick=True) as sql:
            rows = await sql.fetch(
                "INSERT INTO dice_boards (channel_id, guild_id, owner_id, source, source_id, hidden, buttons, "
                "created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?) RETURNING id",
                board.channel_id,
                board.guild_id,
                board.owner_id,
                board.source,
                board.source_id,
                int(board.hidden),
                buttons_json(board.buttons),
                float(board.created_at),
            )
            stored = dataclasses.replace(board, id=int(rows[0]["id"]))
            outgoing = await add_outgoing(sql, _drawing(BOARD_DRAWING, stored), board.created_at)
        return stored, outgoing

    async def dice_board(self, board_id: int) -> DiceBoard | None:
        """A board by id."""
        rows = await self._sql().fetch(f"SELECT {_BOARD_COLUMNS} FROM dice_boards WHERE id = ?", board_id)
        return _board(rows[0]) if rows else None

    async def dice_boards_in(self, channel_id: int) -> list[DiceBoard]:
        """A channel's boards, newest first."""
        rows = await self._sql().fetch(
            f"SELECT {_BOARD_COLUMNS} FROM dice_boards WHERE channel_id = ? ORDER BY id DESC", channel_id
        )
        return [_board(r) for r in rows]

    @writes(Tells.OUTBOX)
    async def update_dice_board(self, board: DiceBoard, at: float) -> Outgoing:
        """Store a board's buttons and privacy, and its message to draw again (in the outbox, in the same
        transaction)."""
        async with self._sql_transaction(quick=True) as sql:
            await sql.execute(
                "UPDATE dice_boards SET buttons = ?, hidden = ? WHERE id = ?",
                buttons_json(board.buttons),
                int(board.hidden),
                board.id,
            )
            return await add_outgoing(sql, _drawing(BOARD_DRAWING, board), at)

    @writes(Tells.BOOKS)
    async def dice_board_shown(self, board_id: int, message_id: int) -> None:
        """Record the message that shows a board."""
        await self._sql().execute("UPDATE dice_boards SET message_id = ? WHERE id = ?", message_id, board_id)

    @writes(Tells.BOOKS)
    async def delete_dice_board(self, board_id: int) -> None:
        """Forget a board (its message was deleted, or it was taken down)."""
        await self._sql().execute("DELETE FROM dice_boards WHERE id = ?", board_id)

    # -- secret rolls --------------------------------------------------------------------------------

    @writes(Tells.OUTBOX)
    async def create_secret(self, secret: SecretRoll) -> tuple[SecretRoll, Outgoing]:
        """Store a committed secret roll and its commitment message to post (in the outbox, in the same transaction),
        forgetting those past ``SECRETS_KEPT_S``; returns it with its id."""
        async with self._sql_transaction() as sql:
            await sql.execute(
                "DELETE FROM secret_rolls WHERE created_at < ?", float(secret.created_at - SECRETS_KEPT_S)
            )
            rows = await sql.fetch(
                "INSERT INTO secret_rolls (channel_id, guild_id, roller_id, for_gm, canonical, salt, commitment, "
                "created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?) RETURNING id",
                secret.channel_id,
                secret.guild_id,
                secret.roller_id,
                int(secret.for_gm),
                secret.canonical,
                secret.salt,
                secret.commitment,
                float(secret.created_at),
            )
            stored = dataclasses.replace(secret, id=int(rows[0]["id"]))
            outgoing = await add_outgoing(sql, _drawing(SECRET_DRAWING, stored), secret.created_at)
        return stored, outgoing

    async def secret(self, secret_id: int) -> SecretRoll | None:
        """A secret roll by id."""
        rows = await self._sql().fetch(f"SELECT {_SECRET_COLUMNS} FROM secret_rolls WHERE id = ?", secret_id)
        return _secret(rows[0]) if rows else None

    @writes(Tells.BOOKS)
    async def secret_shown(self, secret_id: int, message_id: int) -> None:
        """Record the channel message that shows a secret roll's commitment."""
        await self._sql().execute("UPDATE secret_rolls SET message_id = ? WHERE id = ?", message_id, secret_id)

    @writes(Tells.OUTBOX)
    async def reveal_secret(self, secret_id: int, at: float, news: News) -> Outgoing | None:
        """Mark a secret roll revealed, with what that shows (its commitment drawn again, and ``news``: the result
        and salt) in the outbox, in the same transaction. Only the one call that revealed it gets the outbox row
        (a double click reveals once); the others get None."""
        async with self._sql_transaction(quick=True) as sql:
            rows = await sql.fetch(
                "UPDATE secret_rolls SET revealed_at = ? WHERE id = ? AND revealed_at IS NULL "
                "RETURNING channel_id, guild_id",
                float(at),
                secret_id,
            )
            if not rows:
                return None
            told = [Told(draw=SECRET_DRAWING, ref=secret_id), Told(news=news)]
            outgoing = Outgoing(channel_id=int(rows[0]["channel_id"]), guild_id=rows[0]["guild_id"], told=told)
            return await add_outgoing(sql, outgoing, at)

    # -- luck ----------------------------------------------------------------------------------------

    @writes(Tells.BOOKS)
    async def record_dice(self, tallies: Sequence[DiceTally]) -> None:
        """Add ``/roll`` dice to the statistics."""
        async with self._sql_transaction() as sql:
            await _apply(sql, _Batch(list(tallies)))

    async def luck_counts(self, user_id: int, where: LuckFilter) -> list[LuckCount]:
        """A member's dice per die size and face, summed over the filter."""
        clauses, params = _filtered(user_id, where)
        # All time (no period) reads the counts kept without days: a few hundred rows, not one per day.
        table = "luck_faces" if where.since_day is None else "luck_dice"
        rows = await self._sql().fetch(
            f"SELECT sides, bin, SUM(count) AS count, SUM(total) AS total FROM {table} "
            f"WHERE {clauses} GROUP BY sides, bin ORDER BY sides, bin",
            *params,
        )
        return [LuckCount(int(r["sides"]), int(r["bin"]), int(r["count"]), int(r["total"])) for r in rows]

    async def luck_turns(self, user_id: int, where: LuckFilter) -> TurnTotals | None:
        """A member's scored turns and their dice luck in points, summed over the filter (None: no turns)."""
        clauses, params = _filtered(user_id, where)
        rows = await self._sql().fetch(
            "SELECT SUM(turns) AS turns, SUM(points) AS points, SUM(luck) AS luck, SUM(variance) AS variance "
            f"FROM luck_turns WHERE {clauses}",
            *params,
        )
        row = rows[0] if rows else None
        if row is None or not row["turns"]:
            return None
        return TurnTotals(int(row["turns"]), int(row["points"]), float(row["luck"]), float(row["variance"]))

    async def luck_streaks(self, user_id: int, *, public_only: bool) -> list[Streak]:
        """A member's runs per die size (of public dice only, or of all their dice)."""
        rows = await self._sql().fetch(
            "SELECT sides, run, best_hot, best_cold FROM luck_streaks WHERE user_id = ? AND public_only = ? "
            "ORDER BY sides",
            user_id,
            int(public_only),
        )
        return [Streak(int(r["sides"]), int(r["run"]), int(r["best_hot"]), int(r["best_cold"])) for r in rows]

    async def luck_in_guild(self, guild_id: int) -> list[MemberTotals]:
        """Every member's public dice per size in a server, all time (for the leaderboard and ranks)."""
        rows = await self._sql().fetch(
            "SELECT user_id, sides, count, total FROM luck_totals WHERE guild_id = ?", guild_id
        )
        return [MemberTotals(int(r["user_id"]), int(r["sides"]), int(r["count"]), int(r["total"])) for r in rows]

    async def turns_in_guild(self, guild_id: int, kind: str) -> dict[int, TurnTotals]:
        """Every member's public turns of a game in a server, all time, by member (for the leaderboard)."""
        rows = await self._sql().fetch(
            "SELECT user_id, turns, points, luck, variance FROM luck_turn_totals WHERE guild_id = ? AND kind = ?",
            guild_id,
            kind,
        )
        return {
            int(r["user_id"]): TurnTotals(int(r["turns"]), int(r["points"]), float(r["luck"]), float(r["variance"]))
            for r in rows
        }

    async def wins_in_guild(self, guild_id: int) -> list[WinCount]:
        """Every member's finished table games in a server."""
        rows = await self._sql().fetch("SELECT user_id, games, wins FROM luck_wins WHERE guild_id = ?", guild_id)
        return [WinCount(int(r["user_id"]), int(r["games"]), int(r["wins"])) for r in rows]

    async def leaderboard_hidden(self, user_ids: Sequence[int]) -> set[int]:
        """Which of ``user_ids`` left the leaderboards."""
        hidden: set[int] = set()
        for user_id in user_ids:  # a leaderboard shows a handful; each is a key lookup
            rows = await self._sql().fetch(
                "SELECT 1 AS x FROM luck_members WHERE user_id = ? AND off_leaderboard = 1", user_id
            )
            if rows:
                hidden.add(user_id)
        return hidden

    @writes(Tells.AUTHOR)
    async def set_leaderboard(self, user_id: int, *, shown: bool) -> None:
        """Join or leave the leaderboards (kept until changed)."""
        await self._sql().execute(
            "INSERT INTO luck_members (user_id, off_leaderboard) VALUES (?, ?) "
            "ON CONFLICT (user_id) DO UPDATE SET off_leaderboard = excluded.off_leaderboard",
            user_id,
            int(not shown),
        )

    @writes(Tells.AUTHOR)
    async def forget_luck(self, user_id: int, at: float) -> None:
        """Delete a member's statistics and ratings (a game's log keeps its dice); dice from logs not yet counted are
        skipped."""
        async with self._sql_transaction() as sql:
            for table in _MEMBER_TABLES:
                await sql.execute(f"DELETE FROM {table} WHERE user_id = ?", user_id)
            await sql.execute(
                "INSERT INTO luck_members (user_id, forgot_at) VALUES (?, ?) "
                "ON CONFLICT (user_id) DO UPDATE SET forgot_at = excluded.forgot_at",
                user_id,
                float(at),
            )

    @writes(Tells.BOOKS)
    async def backfill_luck(
        self, sessions: Callable[[int], Any], entries: Callable[..., Any], kinds: Callable[[str], GameKind | None]
    ) -> int:
        """Count logs written before the statistics counted them, a batch of sessions at a time: the turns of each
        entry up to ``upto``, and the dice up to ``dice_upto`` (the entries after it had their dice counted at
        commit, by a version of the bot that counted dice but not turns); a finished game's win if its whole log
        is before ``dice_upto`` (else its last commit counted it).

        ``sessions(id)`` and ``entries(id)`` read a session and its log (the store's own methods); ``kinds(kind)``
        is the game kind (None for a game this bot no longer runs). Returns how many sessions were counted (0 when
        there is nothing left).
        """
        pending = await self._sql().fetch(
            "SELECT session_id, upto, dice_upto FROM luck_pending ORDER BY session_id LIMIT ?", BACKFILL_BATCH
        )
        forgot = await self._forgot_at() if pending else {}
        for row in pending:
            session_id, upto, dice_upto = int(row["session_id"]), int(row["upto"]), int(row["dice_upto"])
            session: Session | None = await sessions(session_id)
            kind = None if session is None else kinds(session.kind)
            wanted = session is not None and (dice_upto > 0 or (kind is not None and kind.score_luck is not None))
            log: list[LogEntry] = await entries(session_id) if session is not None and wanted else []
            batch = _Batch()
            if session is not None:
                for entry in log:
                    if entry.seq > upto:
                        break
                    counts = commit_counts(session, entry, kind, finished=False)
                    if counts is None:
                        continue
                    counted = _after(counts, entry.at, forgot)
                    batch.turns += counted.turns
                    if entry.seq <= dice_upto:
                        batch.tallies += counted.tallies
                won = win_tally(session)
                if won is not None and log and log[-1].seq <= dice_upto:
                    batch.wins.append(won)
            async with self._sql_transaction() as sql:
                if await sql.execute("DELETE FROM luck_pending WHERE session_id = ?", session_id):
                    await _apply(sql, batch)
        return len(pending)

    async def _forgot_at(self) -> dict[int, float]:
        rows = await self._sql().fetch("SELECT user_id, forgot_at FROM luck_members WHERE forgot_at IS NOT NULL")
        return {int(r["user_id"]): float(r["forgot_at"]) for r in rows}

    @staticmethod
    async def count_commit(sql: Sql, counts: CommitCounts) -> None:
        """Add what a committed log entry adds to the statistics (``commit_counts``), in the transaction that
        wrote it."""
        await _apply(sql, counts)


def _drawing(kind: str, shown: DiceBoard | SecretRoll) -> Outgoing:
    """The outbox row that draws ``shown``'s message (posted the first time, edited after)."""
    return Outgoing(channel_id=shown.channel_id, guild_id=shown.guild_id, told=[Told(draw=kind, ref=shown.id)])


def commit_counts(
    session: Session, entry: LogEntry | None, kind: GameKind | None, *, finished: bool = True
) -> CommitCounts | None:
    """What a commit adds to the statistics, or None if nothing (most commits: no dice, no finish). Worked out
    once per commit, by the service (it walks every die of the entry). ``finished``: count a finished table
    game's win too."""
    if entry is None:
        return None
    counts = _Batch(entry_tallies(session, entry, kind), turns=turn_tallies(session, entry, kind))
    won = win_tally(session) if finished else None
    if won is not None:
        counts.wins.append(won)
    return counts if counts else None


def _after(counts: _Batch, at: float, forgot: dict[int, float]) -> _Batch:
    """``counts`` without the members who deleted their statistics after ``at``."""
    kept = _Batch()
    kept.tallies = [t for t in counts.tallies if at > forgot.get(t.where.user_id, float("-inf"))]
    kept.turns = [t for t in counts.turns if at > forgot.get(t.where.user_id, float("-inf"))]
    return kept


def _filtered(user_id: int, where: LuckFilter) -> tuple[str, list[Any]]:
    """The WHERE clause (and its parameters) of a member's counts under ``where``."""
    clauses = ["user_id = ?"]
    params: list[Any] = [user_id]
    if where.public_only:
        clauses.append("hidden = 0")
    for column, value in (
        ("guild_id", where.guild_id),
        ("channel_id", where.channel_id),
        ("kind", where.kind),
        ("campaign_id", where.campaign_id),
    ):
        if value is not None:
            clauses.append(f"{column} = ?")
            params.append(value)
    if where.since_day is not None:
        clauses.append("day >= ?")
        params.append(where.since_day)
    return " AND ".join(clauses), params


async def _apply(sql: Sql, batch: _Batch) -> None:
    for counted in batch.tallies:
        where = counted.where
        for (sides, index), (count, total) in counted.faces.items():
            await sql.execute(
                _LUCK_UPSERT,
                where.user_id,
                sides,
                int(where.hidden),
                counted.day,
                where.guild_id,
                where.channel_id,
                where.kind,
                where.campaign_id,
                index,
                count,
                total,
            )
            await sql.execute(
                _FACES_UPSERT,
                where.user_id,
                int(where.hidden),
                where.guild_id,
                where.channel_id,
                where.kind,
                where.campaign_id,
                sides,
                index,
                count,
                total,
            )
        if not where.hidden:
            per_size: dict[int, list[int]] = {}
            for (sides, _), (count, total) in counted.faces.items():
                sums = per_size.setdefault(sides, [0, 0])
                sums[0] += count
                sums[1] += total
            for sides, (count, total) in per_size.items():
                await sql.execute(_TOTALS_UPSERT, where.guild_id, sides, where.user_id, count, total)
        await _streaks(sql, counted)
    for turned in batch.turns:
        where, turns = turned.where, turned.turns
        await sql.execute(
            _TURNS_UPSERT,
            where.user_id,
            int(where.hidden),
            turned.day,
            where.guild_id,
            where.channel_id,
            where.kind,
            where.campaign_id,
            turns.turns,
            turns.points,
            turns.luck,
            turns.variance,
        )
        if not where.hidden:
            await sql.execute(
                _TURN_TOTALS_UPSERT,
                where.guild_id,
                where.kind,
                where.user_id,
                turns.turns,
                turns.points,
                turns.luck,
                turns.variance,
            )
    for won in batch.wins:
        for player in won.players:
            await sql.execute(_WINS_UPSERT, won.guild_id, player, int(player in won.winners))
    await write_ratings(sql, batch.ratings, pending=batch.ratings_pending)


async def _streaks(sql: Sql, counted: DiceTally) -> None:
    """Carry the member's runs on through the faces just rolled (all dice; and public dice alone)."""
    scopes = (False,) if counted.where.hidden else (False, True)
    user = counted.where.user_id
    for public_only in scopes:
        for sides in sorted({s for s, _ in counted.sequence}):
            rows = await sql.fetch(
                "SELECT run, best_hot, best_cold FROM luck_streaks WHERE user_id = ? AND sides = ? AND public_only = ?",
                user,
                sides,
                int(public_only),
            )
            run, hot, cold = (
                (int(rows[0]["run"]), int(rows[0]["best_hot"]), int(rows[0]["best_cold"])) if rows else (0, 0, 0)
            )
            for die, face in counted.sequence:
                if die == sides:
                    run, hot, cold = streak_step(run, hot, cold, sides, face)
            await sql.execute(
                "INSERT INTO luck_streaks (user_id, sides, public_only, run, best_hot, best_cold) "
                "VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (user_id, sides, public_only) "
                "DO UPDATE SET run = excluded.run, best_hot = excluded.best_hot, best_cold = excluded.best_cold",
                user,
                sides,
                int(public_only),
                run,
                hot,
                cold,
            )


__all__ = [
    "BOARD_DRAWING",
    "SAVED_SCOPES",
    "SECRET_DRAWING",
    "BoardButton",
    "DiceBoard",
    "DiceStore",
    "DiceTables",
    "LuckCount",
    "LuckFilter",
    "MemberTotals",
    "SavedRoll",
    "SavedScope",
    "SecretRoll",
    "Streak",
    "TurnTotals",
    "WinCount",
    "commit_counts",
]
