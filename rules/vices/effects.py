"""Sin matches (RULES.md 1.5 T4): the penalty roll, then each Sin's effect, with the choices they offer.

An effect that cannot be carried out does nothing [VV:L57]: the ``effect_none`` event says why.
Choices are listed in the fixed order of 1.8 #35 (reserves first, then holders in seat order, several
Sins of one holder in precedence order), so the first option is also the timeout default.
"""

from __future__ import annotations

from collections import Counter

from rules.vices.actions import EffectAction, Envy
from rules.vices.data import (
    ENVY,
    GLUTTONY,
    GREED,
    LARGE,
    LUST,
    METALLIC,
    NEMESIS,
    PRIDE,
    SLOTH,
    SMALL,
    WRATH,
)
from rules.vices.scoring import die_points, penalty_points
from rules.vices.state import NEMESIS_SLOTH, OUT, RESERVES, Choice, Effect, Match, VicesState, large_dice
from rules.vices.table import Table

EFFECT_OF: dict[str, Effect] = {WRATH: "wrath", GLUTTONY: "gluttony", GREED: "greed", LUST: "lust", ENVY: "envy"}
"""The Sins whose effect may need a choice, and the decision name of that choice."""


def sin_targets(state: VicesState, effect: Effect, player: str) -> list[str]:
    """The Sins ``player``'s Wrath, Greed, Gluttony or Lust could act on now, in the fixed order."""
    turn = state.turn
    assert turn is not None
    if effect in ("wrath", "greed"):
        return state.sins_of(turn.defender)
    if effect == "gluttony":
        return state.reserves()
    # Lust: another attacker's Sin or the reserves, never the defender's (D8).
    others = set(state.present()) - {player, turn.defender}
    return state.ordered_sins([s for s, at in state.sins.items() if at == RESERVES or at in others])


def envy_swaps(state: VicesState, player: str) -> list[tuple[str, str]]:
    """(give, take) pairs for ``player``'s Envy: one of their Sins for a Sin in the reserves or held by any
    other player, the defender included (1.8 #13)."""
    others = set(state.present()) - {player}
    takes = state.ordered_sins([s for s, at in state.sins.items() if at == RESERVES or at in others])
    return [(give, take) for give in state.sins_of(player) for take in takes]


def option_count(state: VicesState, effect: Effect, player: str) -> int:
    """How many ways the effect can be carried out now."""
    return len(envy_swaps(state, player)) if effect == "envy" else len(sin_targets(state, effect, player))


def resolve(t: Table, match: Match) -> bool:
    """Resolve one Sin match: (Gluttony's take), the penalty roll, the effect. False when it waits for the
    owner's choice (a Choice is then pending)."""
    if t.seat(match.player).left:
        _penalty(t, match)
        t.emit("effect_none", sin=match.sin, player=match.player, reason="player_left")
        return True
    if match.sin == GLUTTONY:
        reserves = t.s.reserves()
        if len(reserves) > 1:
            _ask(t, "gluttony", match.player)
            return False
        _gluttony(t, match, reserves[0] if reserves else None)
        return True
    _penalty(t, match)
    if match.sin == SLOTH:
        _sloth(t, match)
        return True
    effect = EFFECT_OF.get(match.sin)
    if effect is None:  # Pride: its extra die was in the penalty roll, nothing more.
        return True
    count = option_count(t.s, effect, match.player)
    if count == 0:
        t.emit("effect_none", sin=match.sin, player=match.player, reason=_NOTHING[effect])
    elif count == 1 and not (effect == "envy" and t.s.options.envy_optional):
        if effect == "envy":
            _swap(t, match.player, *envy_swaps(t.s, match.player)[0])
        else:
            _take(t, effect, match.player, sin_targets(t.s, effect, match.player)[0])
    else:
        _ask(t, effect, match.player)
        return False
    return True


_NOTHING: dict[Effect, str] = {
    "wrath": "defender_has_no_sin",
    "greed": "defender_has_no_sin",
    "lust": "nothing_to_take",
    "envy": "nothing_to_exchange",
    "gluttony": "reserves_empty",
}


def choose(t: Table, action: EffectAction) -> None:
    """Carry out the pending effect the way its owner chose (the action has passed the legality checks)."""
    turn = t.turn
    match = turn.queue[0]
    t.put_turn(choice=None)
    if isinstance(action, Envy):
        if action.give is None or action.take is None:
            t.emit("envy_declined", player=match.player)
        else:
            _swap(t, match.player, action.give, action.take)
    elif action.type == "gluttony":
        _gluttony(t, match, action.sin)
    else:
        _take(t, action.type, match.player, action.sin)


def abandon(t: Table) -> None:
    """The owner of the pending choice left: their effect does nothing, but Gluttony's penalty is still rolled."""
    turn = t.turn
    choice = turn.choice
    assert choice is not None
    t.put_turn(choice=None)
    t.emit("effect_none", sin=turn.queue[0].sin, player=choice.player, reason="player_left")
    if choice.effect == "gluttony":
        _penalty(t, turn.queue[0])


def _ask(t: Table, effect: Effect, player: str) -> None:
    t.put_turn(choice=Choice(effect=effect, player=player))
    t.emit("choice_needed", decision=effect, player=player, defender=t.turn.defender)


def _gluttony(t: Table, match: Match, taken: str | None) -> None:
    """Gluttony takes a Sin from the reserves first; its die joins the penalty roll (1.8 #9)."""
    added: list[str] = []
    if taken is None:
        t.emit("effect_none", sin=GLUTTONY, player=match.player, reason="reserves_empty")
    else:
        t.move_sin(taken, match.player)
        t.emit("sin_taken", player=match.player, sin=taken, source=RESERVES, by=GLUTTONY, dice=large_dice(taken))
        if t.s.options.gluttony_added_die == "taken_large":
            added.append(LARGE[taken])
        elif any(d.id == SMALL[taken] for d in t.turn.pool):
            added.append(SMALL[taken])
        if taken == PRIDE:
            added.append(METALLIC)
    _penalty(t, match, added)


def _penalty(t: Table, match: Match, added: list[str] | None = None) -> None:
    """The defender rolls the small and large dice (and any extra die) and scores them at once (T4c)."""
    sin = match.sin
    dice = [SMALL[sin], LARGE[sin], *(added or ())]
    if sin == PRIDE:
        dice.append(METALLIC)
    values = [t.roll(d) for d in dice]
    points = penalty_points(values)
    counts = Counter(values)
    turn = t.turn
    leaving = {d for d in dice if d in SMALL.values()}
    t.put_turn(
        pool=tuple(d for d in turn.pool if d.id not in leaving),
        scored=turn.scored + tuple(d for d in dice if d in leaving),
        score=turn.score + points,
        penalty_met=True,
    )
    t.emit(
        "penalty",
        defender=turn.defender,
        sin=sin,
        player=match.player,
        dice=[
            {"die": d, "value": v, "points": 0 if counts[v] > 1 else die_points(6, v)}
            for d, v in zip(dice, values, strict=True)
        ],
        points=points,
        turn_score=turn.score + points,
    )


def _take(t: Table, effect: Effect, player: str, sin: str) -> None:
    """Wrath destroys the Sin; Greed, Lust and Gluttony take it."""
    source = t.s.sins[sin]
    if effect == "wrath":
        t.move_sin(sin, OUT)
        t.emit("sin_destroyed", player=player, sin=sin, source=source, dice=large_dice(sin))
    else:
        t.move_sin(sin, player)
        t.emit("sin_taken", player=player, sin=sin, source=source, by=effect.capitalize(), dice=large_dice(sin))


def _swap(t: Table, player: str, give: str, take: str) -> None:
    """Envy: the given Sin goes where the taken one was; tokens move with their Sins."""
    other = t.s.sins[take]
    t.put(sins={**t.s.sins, give: other, take: player})
    t.emit("sins_swapped", player=player, gave=give, took=take, other=other)


def _sloth(t: Table, match: Match) -> None:
    """Remove the Sloth d20 (or the matcher's own, vv.sloth_removes) from play for the rest of the game."""
    s = t.s
    colour = SLOTH if s.options.sloth_removes == "sloth_die" else s.seat(match.player).sin
    owner = s.nemesis_owner(colour) if colour else None
    if colour is None or owner is None:
        t.emit("effect_none", sin=SLOTH, player=match.player, reason="die_not_in_play")
        return
    if colour in s.nemesis_out:
        t.emit("effect_none", sin=SLOTH, player=match.player, reason="die_already_removed")
        return
    die = NEMESIS[colour]
    turn = t.turn
    in_pool = any(d.id == die for d in turn.pool)
    t.put(nemesis_out={**s.nemesis_out, colour: NEMESIS_SLOTH})
    if in_pool:
        # It leaves the pool unscored (1.8 #15, #33).
        t.put_turn(pool=tuple(d for d in turn.pool if d.id != die))
    t.emit("nemesis_removed", die=die, owner=owner, player=match.player, reason="sloth", from_pool=in_pool)
