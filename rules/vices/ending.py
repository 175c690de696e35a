"""The end of a game (RULES.md 1.5 E1–E3): exactly 70 ahead of the lowest, and the Mythical-pair tie-break."""

from __future__ import annotations

from rules.vices.data import EXACT_TARGET
from rules.vices.pool import PAIR_DICE
from rules.vices.scoring import pair_points
from rules.vices.state import Pick, TieBreak, VicesState
from rules.vices.table import Table


def candidates(state: VicesState) -> tuple[list[str], bool]:
    """E1: the players on exactly 70 if any (True), else those with the lowest total; never a player who left."""
    present = state.present()
    exact = [p for p in present if state.seat(p).total == EXACT_TARGET]
    if exact:
        return exact, True
    low = min(state.seat(p).total for p in present)
    return [p for p in present if state.seat(p).total == low], False


def places(state: VicesState) -> dict[str, int]:
    """Every player still in a finished game by E1's order: the winner first, then those on exactly 70, then the
    lowest totals; equal totals share a place. Players who left are not placed."""
    rest = sorted(
        (p for p in state.present() if p not in state.winners),
        key=lambda p: (state.seat(p).total != EXACT_TARGET, state.seat(p).total),
    )
    placed = dict.fromkeys(state.winners, 1)
    for i, player in enumerate(rest):
        before = rest[i - 1] if i else None
        same = before is not None and state.seat(before).total == state.seat(player).total
        placed[player] = placed[before] if same and before is not None else len(state.winners) + i + 1
    return placed


def finish_game(t: Table, reason: str = "end_of_round") -> None:
    """E1–E2: one candidate wins, several go to the tie-break. ``reason``: ``end_of_round`` after the 70
    trigger, ``too_few_players`` when players left."""
    s = t.s
    best, exact = candidates(s)
    t.put(turn=None, claim=None)
    t.emit(
        "game_ended",
        reason=reason,
        totals={p.id: p.total for p in s.players},
        candidates=best,
        exact_target=exact,
    )
    if len(best) == 1:
        _win(t, best[0])
    else:
        t.put(phase="tiebreak", tiebreak=TieBreak(contenders=tuple(best)))
        t.emit("tiebreak_started", contenders=best, round=1)


def pick_pair(t: Table, player: str, pair: str) -> None:
    """D9: a contender picks a pair; once all have, the pairs are rolled in seat order."""
    tb = t.s.tiebreak
    assert tb is not None
    tb = tb.model_copy(update={"picks": (*tb.picks, Pick(player=player, pair=pair))})
    t.put(tiebreak=tb)
    t.emit("pair_chosen", player=player, pair=pair, round=tb.round)
    if len(tb.picks) == len(tb.contenders):
        _roll_tiebreak(t)


def drop_contender(t: Table, player: str) -> None:
    """A contender left: the others go on (and one left over wins)."""
    tb = t.s.tiebreak
    assert tb is not None
    rest = tuple(p for p in tb.contenders if p != player)
    picks = tuple(p for p in tb.picks if p.player != player)
    if len(rest) == 1:
        _win(t, rest[0])
        return
    t.put(tiebreak=tb.model_copy(update={"contenders": rest, "picks": picks}))
    if len(picks) == len(rest):
        _roll_tiebreak(t)


def _roll_tiebreak(t: Table) -> None:
    """Each contender, in seat order, rolls their pair in dice.yaml order; the lowest score wins, ties
    among the lowest roll again (E2)."""
    tb = t.s.tiebreak
    assert tb is not None
    picks = {p.player: p.pair for p in tb.picks}
    wild = t.s.options.silver_bullet_wild_face
    points: dict[str, int] = {}
    rolls = []
    for player in tb.contenders:
        pair = picks[player]
        dice = PAIR_DICE[pair]
        values = [t.roll(d) for d in dice]
        points[player] = pair_points(pair, values[0], values[1], wild_face=wild)
        rolls.append(
            {
                "player": player,
                "pair": pair,
                "dice": [{"die": d, "value": v} for d, v in zip(dice, values, strict=True)],
                "points": points[player],
            }
        )
    low = min(points.values())
    tied = [p for p in tb.contenders if points[p] == low]
    t.emit("tiebreak_rolled", round=tb.round, rolls=rolls, lowest=low, tied=tied if len(tied) > 1 else [])
    if len(tied) == 1:
        _win(t, tied[0])
    else:
        t.put(tiebreak=TieBreak(contenders=tuple(tied), round=tb.round + 1))


def _win(t: Table, player: str) -> None:
    t.put(phase="over", winners=(player,), tiebreak=None, turn=None, claim=None)
    t.emit("game_over", winner=player, total=t.seat(player).total, exact_target=t.seat(player).total == EXACT_TARGET)


def next_game_order(state: VicesState) -> list[str]:
    """E3: the players still at the table, rotated so the winner sits last (relative order kept)."""
    present = state.present()
    if not state.winners or state.winners[0] not in present:
        return present
    i = present.index(state.winners[0])
    return present[i + 1 :] + present[: i + 1]
