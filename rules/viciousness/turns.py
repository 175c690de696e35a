"""The turn loop (RULES.md P2, 3.6 #38): coins and rival moves at turn start; rest, coins and rival dice at turn end."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rules.engine import IllegalAction
from rules.said import said
from rules.viciousness.actions import Action, TurnEnd, TurnStart
from rules.viciousness.characters import shorten_recovery
from rules.viciousness.data import ECONOMY
from rules.viciousness.rivals import accrue, make_move, rival_die
from rules.viciousness.state import Coins
from rules.viciousness.work import Work


def _turn_start(w: Work, a: TurnStart) -> None:
    turn = w.s.turn
    if turn.running:
        raise IllegalAction(said("Turn {n} is under way: end it first.", n=turn.number))
    number = turn.number + 1
    w.put(turn=turn.model_copy(update={"number": number, "running": True, "pools": 0}))
    # One coin per troupe that isn't dissolved, at the rank the company has now (3.6 #38).
    troupes = sum(1 for t in w.s.troupes.values() if not t.dissolved)
    count = troupes * ECONOMY.turn_coins_per_troupe
    rank = w.s.company.rank
    w.company(turn_coins=Coins(rank=rank, count=count) if count else None)
    w.emit("turn_started", turn=number, coins=count, rank=rank, troupes=troupes, length=turn.length)
    for rival in w.s.rivals.values():
        if rival.move is not None and rival.move.stage == "initiated" and not rival.dropped:
            make_move(w, rival)


def _turn_end(w: Work, a: TurnEnd) -> None:
    turn = w.s.turn
    if not turn.running:
        raise IllegalAction(said("No turn is under way."))
    for rival in w.s.rivals.values():
        if rival.move is not None and not rival.dropped:
            raise IllegalAction(
                said("{rival}'s move is still waiting for you: finish it before ending the turn.", rival=rival.name)
            )
    coins = w.s.company.turn_coins
    if coins is not None:
        w.company(turn_coins=None)
        w.emit("coins_discarded", rank=coins.rank, count=coins.count)
    for troupe in w.s.troupes.values():
        for pc in troupe.pcs:
            if pc.action_turn != turn.number or pc.action != "rest" or not pc.active:
                continue
            if pc.rattled:
                w.update_pc(pc.id, rattled=False)
                w.emit("pc_calmed", pc=pc.id, name=pc.name, cause="rest")
            if pc.wounded:
                shorten_recovery(w, pc.id, 1, "rest")
    for rival in w.s.rivals.values():
        if not rival.dropped and rival.working:
            w.put_rival(rival_die(w, accrue(w, rival)))
    w.put(turn=w.s.turn.model_copy(update={"running": False}))
    w.emit("turn_ended", turn=turn.number)


HANDLERS: dict[type[Action], Callable[[Work, Any], None]] = {TurnStart: _turn_start, TurnEnd: _turn_end}
