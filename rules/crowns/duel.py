"""Two-player Dice of Crowns without modules, solved exactly: the chance to win from every position.

With two players and no module, a position between turns is only (the mover's Claims, the rival's Claims,
the crowns the mover already holds), and a position inside a turn is (crowns, daggers, free skulls, crowns
the rival kept from this turn's scrolls): every one of the seven dice is then accounted for (the rest are
returned scrolls). Each rerolled die is a crown (1/6), a dagger (1/6), a skull (1/3) or a scroll (1/3) that
the rival rolls: a crown the rival keeps for their next turn (1/18), a dagger the rival gives back (1/18),
a skull (1/9) or a scroll (1/9) that comes back. The rival always gives the dagger to the active player: it
can only cost the active player their Claim, while keeping it could only cost the rival theirs.

The game is solved backwards over the Claims (they only ever grow): a turn class by class of positions that can
lead to each other (policy iteration, each step an exact linear solve), and the two players' turns at the same
Claims by iterating to 1e-12. The same solver plays out a fixed in-turn
policy against another (:func:`match`), which gives the exact result of one computer against another.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache, lru_cache
from importlib import resources
from itertools import product
from pathlib import Path

from rules.crowns.data import CROWNS_FOR_CLAIM, DAGGERS_END_TURN, SKULLS_FOR_CLAIM
from rules.crowns.state import Counts
from rules.crowns.strategy import reroll_value

DICE = 7
END = "end"
"""Ending the turn by choice (only with ``allow_voluntary_end``)."""
TOLERANCE = 1e-12

Key = tuple[int, int, int, int]
"""Inside a turn: (crowns, daggers, free skulls, crowns the rival kept); returned scrolls are the rest."""
Ending = tuple[bool, int]
"""How a turn ended: (with a Claim, crowns the rival kept)."""
Policy = Callable[[Key], str] | None
"""A fixed choice of group in each open position, or None for the best one."""

# Per rerolled die: what it adds to (crowns, daggers, free skulls, returned scrolls, crowns the rival kept).
_DIE: tuple[tuple[tuple[int, int, int, int, int], float], ...] = (
    ((1, 0, 0, 0, 0), 1 / 6),
    ((0, 1, 0, 0, 0), 1 / 6 + 1 / 18),
    ((0, 0, 1, 0, 0), 1 / 3 + 1 / 9),
    ((0, 0, 0, 1, 0), 1 / 9),
    ((0, 0, 0, 0, 1), 1 / 18),
)


@dataclass(frozen=True)
class Table:
    """The house rules that change a turn: ending it by choice, and ending it when no set can be reached."""

    voluntary_end: bool = False
    auto_end_unreachable: bool = False


def returned(key: Key) -> int:
    """The returned scrolls of an in-turn position."""
    c, d, k, g = key
    return DICE - c - d - k - g


@cache
def _roll(n: int) -> tuple[tuple[tuple[int, int, int, int, int], float], ...]:
    """What rolling ``n`` dice adds, with its chance."""
    dist: dict[tuple[int, int, int, int, int], float] = {(0, 0, 0, 0, 0): 1.0}
    for _ in range(n):
        nxt: dict[tuple[int, int, int, int, int], float] = {}
        for have, p in dist.items():
            for add, q in _DIE:
                got = (have[0] + add[0], have[1] + add[1], have[2] + add[2], have[3] + add[3], have[4] + add[4])
                nxt[got] = nxt.get(got, 0.0) + p * q
        dist = nxt
    return tuple(dist.items())


def _settle(table: Table, c: int, d: int, k: int, s: int, g: int) -> Key | Ending:
    """After a roll and its scrolls: the turn's ending, or the position to decide in (RULES.md S7)."""
    if d >= DAGGERS_END_TURN:
        return (False, g)
    if c >= CROWNS_FOR_CLAIM or k >= SKULLS_FOR_CLAIM:
        return (True, g)
    if k + s == 0:
        return (False, g)
    if table.auto_end_unreachable and c + k + s < CROWNS_FOR_CLAIM and k + s < SKULLS_FOR_CLAIM:
        return (False, g)
    return (c, d, k, g)


def _after(table: Table, kept: tuple[int, int, int, int, int], n: int) -> dict[Key | Ending, float]:
    """Where rolling ``n`` dice, keeping ``kept``, leads."""
    out: dict[Key | Ending, float] = {}
    for (dc, dd, dk, ds, dg), p in _roll(n):
        c, d, k, s, g = kept
        where = _settle(table, c + dc, d + dd, k + dk, s + ds, g + dg)
        out[where] = out.get(where, 0.0) + p
    return out


@cache
def open_positions(table: Table) -> tuple[Key, ...]:
    """Every in-turn position where the active player chooses, those closest to the turn's end first."""
    keys = [
        key
        for key in product(range(CROWNS_FOR_CLAIM), range(DAGGERS_END_TURN), range(SKULLS_FOR_CLAIM), range(DICE + 1))
        if returned(key) >= 0 and _settle(table, *key[:3], returned(key), key[3]) == key
    ]
    return tuple(sorted(keys, key=lambda k: (-(k[0] + k[1] + k[3]), -k[2])))


def choices(key: Key, table: Table) -> tuple[str, ...]:
    """The groups on offer (and ending the turn, if the table allows it)."""
    k, s = key[2], returned(key)
    groups = tuple(g for g, ok in (("skulls", k), ("scrolls", s), ("both", k and s)) if ok)
    return (*groups, END) if table.voluntary_end else groups


@cache
def moves_of(table: Table) -> dict[tuple[Key, str], tuple[tuple[Key | Ending, float], ...]]:
    """Each position's choices and where they lead."""
    moves: dict[tuple[Key, str], tuple[tuple[Key | Ending, float], ...]] = {}
    for key in open_positions(table):
        c, d, k, g = key
        s = returned(key)
        for choice in choices(key, table):
            if choice == END:
                moves[key, choice] = (((False, g), 1.0),)
                continue
            k_kept = 0 if choice in ("skulls", "both") else k
            s_kept = 0 if choice in ("scrolls", "both") else s
            n = k + s - k_kept - s_kept
            moves[key, choice] = tuple(_after(table, (c, d, k_kept, s_kept, g), n).items())
    return moves


@cache
def _starts(table: Table, held: int) -> tuple[tuple[Key | Ending, float], ...]:
    """Where a turn begun holding ``held`` crowns goes after its first roll."""
    return tuple(_after(table, (held, 0, 0, 0, 0), DICE - held).items())


def _progress(key: Key) -> tuple[int, int, int]:
    """What a roll can only add to (crowns, daggers, crowns the rival kept): positions sharing it form a class
    whose members can lead to each other (every rerolled die a skull or a scroll again); any other move goes to a
    class further on."""
    return key[0], key[1], key[3]


@cache
def _classes(table: Table) -> tuple[tuple[Key, ...], ...]:
    """The open positions by class, classes further on in the turn first."""
    groups: dict[tuple[int, int, int], list[Key]] = {}
    for key in open_positions(table):
        groups.setdefault(_progress(key), []).append(key)
    return tuple(tuple(v) for v in groups.values())


def turn_values(table: Table, endings: dict[Ending, float], policy: Policy = None) -> dict[Key, float]:
    """The value of every open position, an ending being worth ``endings[ending]``, the active player
    choosing by ``policy`` (the best choice when None).

    Classes are solved one at a time, those further on first, so each move's outcomes outside its class are
    summed once; inside a class, by policy iteration with an exact linear solve of at most five positions."""
    moves = moves_of(table)
    values: dict[Key, float] = {}
    for members in _classes(table):
        where_in = {key: i for i, key in enumerate(members)}
        offers: list[list[tuple[str, float, list[float]]]] = []
        for key in members:
            row = []
            for option in choices(key, table) if policy is None else (policy(key),):
                fixed, inside = 0.0, [0.0] * len(members)
                for where, p in moves[key, option]:
                    if len(where) == 2:
                        fixed += p * endings[where]
                    elif where in where_in:
                        inside[where_in[where]] += p
                    else:
                        fixed += p * values[where]
                row.append((option, fixed, inside))
            offers.append(row)
        chosen = [0] * len(members)
        while True:
            solution = _solve_linear([offers[i][chosen[i]] for i in range(len(members))])
            better = [_best_offer(row, solution) for row in offers]
            if all(
                _worth(offers[i][better[i]], solution) <= _worth(offers[i][chosen[i]], solution) + TOLERANCE
                for i in range(len(members))
            ):
                break
            chosen = better
        values.update(zip(members, solution, strict=True))
    return values


def _best_offer(row: list[tuple[str, float, list[float]]], values: list[float]) -> int:
    """The index of the best of a position's offers (the first of equals)."""
    return max(range(len(row)), key=lambda j: (_worth(row[j], values), -j))


def _worth(offer: tuple[str, float, list[float]], values: list[float]) -> float:
    _, fixed, inside = offer
    return fixed + sum(p * v for p, v in zip(inside, values, strict=True))


def _solve_linear(rows: list[tuple[str, float, list[float]]]) -> list[float]:
    """The values ``v`` with ``v[i] = fixed[i] + sum(inside[i][j] * v[j])``: Gaussian elimination (the
    system is diagonally dominant, each row leaving the class with a chance above zero)."""
    n = len(rows)
    a = [
        [(1.0 if i == j else 0.0) - inside[j] for j in range(n)] + [fixed] for i, (_, fixed, inside) in enumerate(rows)
    ]
    for col in range(n):
        pivot = a[col][col]
        for r in range(n):
            if r != col and a[r][col] != 0.0:
                f = a[r][col] / pivot
                a[r] = [x - f * y for x, y in zip(a[r], a[col], strict=True)]
    return [a[i][n] / a[i][i] for i in range(n)]


def start_values(table: Table, endings: dict[Ending, float], values: dict[Key, float]) -> list[float]:
    """A turn's value begun holding 0 … 7 crowns."""
    return [
        sum(p * (endings[w] if len(w) == 2 else values[w]) for w, p in _starts(table, held)) for held in range(DICE + 1)
    ]


Wins = dict[tuple[int, int, int], list[float]]
"""(mover, mover's Claims, rival's Claims) → the mover's chance to win from the start of their turn, for each
number of crowns the mover holds then: ``wins[mover, a, b][held]``."""


def endings_for(target: int, wins: Wins, mover: int, a: int, b: int) -> dict[Ending, float]:
    """What each way a turn can end is worth to ``mover`` (with ``a`` Claims, the rival ``b``)."""
    out: dict[Ending, float] = {}
    for g in range(DICE + 1):
        out[True, g] = 1.0 if a + 1 >= target else 1.0 - wins[1 - mover, b, a + 1][g]
        out[False, g] = 1.0 - wins[1 - mover, b, a][g]
    return out


def solve(target: int, table: Table, policies: tuple[Policy, Policy] = (None, None)) -> Wins:
    """Each mover's chance to win from each start of a turn, mover ``i`` choosing by ``policies[i]`` (the best
    choice when None): backwards over the Claims, iterating the two players' turns at the same Claims."""
    wins: Wins = {(i, a, b): [0.5] * (DICE + 1) for i in (0, 1) for a in range(target) for b in range(target)}
    movers = (0,) if policies[0] is policies[1] else (0, 1)  # the same play: both movers' tables are the same
    for level in range(2 * target - 2, -1, -1):
        cells = [(i, a, level - a) for i in movers for a in range(target) if 0 <= level - a < target]
        change = 1.0
        while change >= TOLERANCE:
            change = 0.0
            for i, a, b in cells:
                endings = endings_for(target, wins, i, a, b)
                new = start_values(table, endings, turn_values(table, endings, policies[i]))
                change = max(change, *(abs(x - y) for x, y in zip(new, wins[i, a, b], strict=True)))
                wins[i, a, b] = new
                if len(movers) == 1:
                    wins[1, a, b] = new
    return wins


def match(target: int, table: Table, first: Policy, second: Policy) -> float:
    """The exact chance that the player choosing by ``first``, who plays first, beats ``second``."""
    return solve(target, table, (first, second))[0, 0, 0][0]


def normal_policy(table: Table) -> Callable[[Key], str]:
    """The Normal computer's choice (:mod:`rules.crowns.strategy`) in each position: its chance of a Claim this
    turn, blind to the crowns the rival kept and to the score."""

    def choose(key: Key) -> str:
        c, d, k, _ = key
        counts = Counts(c, d, k, k, returned(key))
        offers = choices(key, table)
        return max(offers, key=lambda o: (reroll_value(counts, o, fate=False) if o != END else 0.0, -offers.index(o)))

    return choose


TABLES = resources.files("data") / "crowns" / "duel.json"
"""The solved game for every claim target and table (``python -m rules.crowns.duel`` writes it): solving one takes
seconds, too long for a computer's turn."""
TARGETS = (3, 5)


def table_name(target: int, table: Table) -> str:
    """The key of a solved game in :data:`TABLES`."""
    return f"{target}:{int(table.voluntary_end)}{int(table.auto_end_unreachable)}"


def every_table() -> list[tuple[int, Table]]:
    """Every claim target and table that is solved."""
    return [(t, Table(v, u)) for t in TARGETS for v in (False, True) for u in (False, True)]


@cache
def _shipped() -> dict[str, list[list[list[float]]]]:
    with TABLES.open(encoding="utf-8") as fh:
        data: dict[str, list[list[list[float]]]] = json.load(fh)
    return data


def shipped(target: int, table: Table) -> Wins:
    """The solved game, as shipped (both movers' tables are the same under best play)."""
    cells = _shipped()[table_name(target, table)]
    return {(i, a, b): cells[a][b] for i in (0, 1) for a in range(target) for b in range(target)}


@lru_cache(maxsize=64)
def _turn(target: int, table: Table, a: int, b: int) -> tuple[dict[Ending, float], dict[Key, float]]:
    endings = endings_for(target, shipped(target, table), 0, a, b)
    return endings, turn_values(table, endings)


def choice_values(target: int, table: Table, a: int, b: int, key: Key) -> dict[str, float]:
    """Each choice's exact chance to win at ``key``, for a mover with ``a`` Claims against a rival with ``b``,
    both playing best from there."""
    endings, values = _turn(target, table, a, b)
    return {
        option: sum(p * (endings[w] if len(w) == 2 else values[w]) for w, p in moves_of(table)[key, option])
        for option in choices(key, table)
    }


def write(path: Path) -> None:
    """Solve every table and write them all to ``path``."""
    data = {}
    for target, table in every_table():
        wins = solve(target, table)
        data[table_name(target, table)] = [[wins[0, a, b] for b in range(target)] for a in range(target)]
    path.write_text(json.dumps(data, separators=(",", ":")) + "\n", encoding="utf-8")


if __name__ == "__main__":
    write(Path(str(TABLES)))
