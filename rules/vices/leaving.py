"""A player leaving mid-game (RULES.md 1.8 #36)."""

from __future__ import annotations

from rules.vices import effects
from rules.vices.data import NEMESIS
from rules.vices.ending import drop_contender, finish_game
from rules.vices.seating import assign_sins
from rules.vices.state import NEMESIS_LEFT, RESERVES
from rules.vices.table import Table
from rules.vices.turn import after_choice, end_turn, settle


def remove_player(t: Table, player: str) -> None:
    """The leaver's Sins go to the reserves and their d20 leaves play (unscored if it is in the pool); their
    score stays but they cannot win. A defender's turn ends without its points. Fewer than
    vv.min_players left ends the game."""
    s = t.s
    sins = s.sins_of(player)
    colour = s.seat(player).sin
    die_out = colour is not None and colour not in s.nemesis_out
    t.put(sins={**s.sins, **dict.fromkeys(sins, RESERVES)}, last_turns=tuple(p for p in s.last_turns if p != player))
    if colour is not None and die_out:
        t.put(nemesis_out={**s.nemesis_out, colour: NEMESIS_LEFT})
    t.put_seat(player, left=True)
    if s.first_seat == player and t.s.present():
        t.put(first_seat=t.s.clockwise_from(player)[0])
    t.emit(
        "player_left",
        player=player,
        sins_to_reserves=sins,
        nemesis_out=NEMESIS[colour] if colour is not None and die_out else None,
        first_seat=t.s.first_seat,
    )
    if s.phase == "tiebreak":
        drop_contender(t, player)
    elif len(t.s.present()) < s.options.min_players:
        finish_game(t, "too_few_players")
    elif s.phase == "setup":
        if s.claim is not None and s.claim.player == player:
            t.put(claim=None)
            assign_sins(t)
    else:
        _leave_turn(t, player)


def _leave_turn(t: Table, player: str) -> None:
    turn = t.turn
    sin = t.seat(player).sin
    die = NEMESIS[sin] if sin is not None else None
    in_pool = any(d.id == die for d in turn.pool)
    if in_pool or any(d.id == die for d in turn.absorbing):
        # Absorbed or about to be: it leaves with its owner, unscored.
        t.put_turn(
            pool=tuple(d for d in turn.pool if d.id != die),
            absorbing=tuple(d for d in turn.absorbing if d.id != die),
        )
        t.emit("nemesis_removed", die=die, owner=player, player=player, reason="left", from_pool=in_pool)
    if player == turn.defender:
        end_turn(t, abandoned=True)
    elif turn.choice is not None and turn.choice.player == player:
        effects.abandon(t)
        after_choice(t)
    elif turn.choice is None and not turn.queue:
        # The defender may have lost the last die they could remove.
        settle(t)
