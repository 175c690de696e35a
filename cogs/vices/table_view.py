"""How the Vices & Vengeance table game reads in a channel: dice as faces, the scoreboard, plain sentences.

Pure drawing helpers for ``cogs/vices/table.py``: nothing here changes a game. Every number a player needs
is on the board: each die's face and value with the points it would score if removed now, the attackers'
dice of the last roll, the turn score, and each player's original Sin, total, Sins held and Nemesis d20.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from bot.i18n import N_, _, _n
from bot.models import Session
from bot.names import escape_name
from cogs.vices.sheet_view import SIN_EMOJI, SIN_LETTERS, die_name
from rules.said import said
from rules.vices.data import METALLIC, PAIR_OF, SIDES, SIN_OF_DIE, SIN_SPECS, SINS, SPOILERS
from rules.vices.pool import GROUP_JOIN, Unit, units_of
from rules.vices.sheet_data import PAIR_TITLES
from rules.vices.state import NEMESIS_SLOTH, OUT, RESERVES, VicesState

D6_FACES = "⚀⚁⚂⚃⚄⚅"
LEGEND = said(
    "⚀–⚅ d6 faces, other dice by number · 🟥Wr Wrath, 🟦Sl Sloth, 🟪Pr Pride, 🔵Lu Lust, 🟨Gr Greed, "
    "🟧Gl Gluttony, 🟩En Envy · →n what a die scores if removed now · "
    "lowest total wins; exactly 70 wins outright"
)
"""The key to the board: a ``said`` as the core says it too (``localize``, the ``/game rules`` key). The Sins keep
the rulebook's names in every language."""
NEMESIS_IN_PLAY = N_("d20 in play")
EFFECT_CHOICES = {
    "wrath": N_("Destroy {sin}"),
    "greed": N_("Take {sin}"),
    "gluttony": N_("Take {sin} ({holder})"),
    "lust": N_("Take {sin} ({holder})"),
}
"""An effect's choice as a button says it; Wrath and Greed take from the defender, so the holder goes unsaid."""
Name = Callable[[str | None], str]


def face(die: str, value: int, *, plain: bool = False) -> str:
    """A die's face and value: ``⚄5`` for a d6, the number in code style for the others (bare if ``plain``:
    select options and buttons show no markdown)."""
    if SIDES[die] == 6:
        return f"{D6_FACES[value - 1]}{value}"
    return str(value) if plain else f"`{value}`"


def sin_tag(sin: str) -> str:
    """A Sin with its colour: ``🟥Wrath``."""
    return f"{SIN_EMOJI[sin]}{sin}"


def sin_mark(sin: str) -> str:
    """A Sin on a die, short: its colour and first letters, ``🟦Sl`` (never the colour alone)."""
    return f"{SIN_EMOJI[sin]}{SIN_LETTERS[sin]}"


def sins_text(sins: Iterable[str]) -> str:
    """Several Sins with their colours, or "no Sin"."""
    tags = [sin_tag(s) for s in sins]
    return " ".join(tags) if tags else _("no Sin")


def die_label(state: VicesState, die: str, name: Name) -> str:
    """What players call a die: ``🟥Wrath`` (small Sin die), ``d12``, ``Medusa``, ``Bob's d20``."""
    if die.startswith("s."):
        return sin_tag(SIN_OF_DIE[die])
    if die.startswith("L."):
        return _("{sin} large", sin=sin_tag(SIN_OF_DIE[die]))
    if die == METALLIC:
        return _("🟪metallic")
    if die.startswith("N."):
        owner = state.nemesis_owner(SIN_OF_DIE[die])
        return _("{name}'s d20", name=name(owner)) if owner else _("{sin} d20", sin=SIN_OF_DIE[die])
    return die if die in SPOILERS else die_name(die)


def unit_label(state: VicesState, unit: Unit, values: dict[str, int], name: Name) -> str:
    """A removable unit for a menu or a button (no markdown): ``d12 7 → 5``, ``Mirror & Medusa ⚂3 ⚂3 → 0``."""
    return f"{unit_dice(state, unit, values, name)} → {unit.points}"


def unit_dice(state: VicesState, unit: Unit, values: dict[str, int], name: Name) -> str:
    """A removable unit's dice as they show (no markdown): ``d12 7``, ``Mirror & Medusa ⚂3 ⚂3``."""
    if unit.id in PAIR_TITLES:
        faces = " ".join(face(d, values[d], plain=True) for d in unit.dice)
        return f"{PAIR_TITLES[unit.id]} {faces}"  # type: ignore[index]
    if GROUP_JOIN in unit.id:
        who = " + ".join(die_label(state, d, name) for d in unit.dice)
        return _("{dice} (all {value})", dice=who, value=values[unit.dice[0]])
    die = unit.dice[0]
    return f"{die_label(state, die, name)} {face(die, values[die], plain=True)}"


def unit_name(unit: dict[str, Any], name: Name, remover: str | None = None) -> str:
    """A removed unit of a ``removed`` event in a sentence: ``Wrath``, ``d12``, ``Mirror & Medusa``,
    ``equal d20s``, ``Bob's d20`` (as the board calls it; older logs without the owner: ``Greed d20``)."""
    key = unit["unit"]
    if key in PAIR_TITLES:
        return PAIR_TITLES[key]
    if GROUP_JOIN in key:
        return _("equal d20s")
    if key.startswith("N."):
        owner = unit["dice"][0].get("owner")
        if owner is not None and owner == remover:
            return _("their d20")
        return _("{name}'s d20", name=name(owner)) if owner else _("{sin} d20", sin=SIN_OF_DIE[key])
    if key.startswith("s."):
        return SIN_OF_DIE[key]
    return die_name(key)


def plain(player: str | None, session: Session) -> str:
    """A player's name without markup, for select options and buttons."""
    return session.name_of(player) if player else _("nobody")


# -- the defender's dice ---------------------------------------------------------------------------------


def dice_lines(state: VicesState, name: Name) -> list[str]:
    """The defender's pool grouped: small Sin dice by Sin, spoilers, pairs, d20s; each face →points."""
    turn = state.turn
    if turn is None:
        return []
    options = state.options
    points = {u.id: u.points for u in units_of(turn, options.nemesis_zero_rule, options.silver_bullet_wild_face)}
    values = {d.id: d.value for d in turn.pool}
    sins, spoilers, pairs, d20s = [], [], [], []
    for die in turn.pool:
        score = points.get(die.id)
        tail = f"→**{score}**" if score is not None else ""
        if die.id.startswith("s."):
            sins.append(f"{sin_mark(SIN_OF_DIE[die.id])}{face(die.id, die.value)}{tail}")
        elif die.id in SPOILERS:
            spoilers.append(f"{die.id} {face(die.id, die.value)}{tail}")
        elif die.id in PAIR_OF:
            pair = PAIR_OF[die.id]
            if die.id == pair.dice[0]:
                second = pair.dice[1]
                pairs.append(
                    f"{die_name(die.id)} {face(die.id, die.value)} {die_name(second)} "
                    f"{face(second, values[second])}→**{points.get(pair.key, 0)}**"
                )
        else:
            joined = _(" (joined: removable next roll)") if die.joined else ""
            matched = _(" matched") if die.id in turn.matched else ""
            d20s.append(f"{die_label(state, die.id, name)} {face(die.id, die.value)}{tail}{matched}{joined}")
    lines = []
    for label, items, sep in ((N_("Sins"), sins, " "), (N_("Spoilers"), spoilers, " · "), (N_("Pairs"), pairs, " · ")):
        if items:
            lines.append(f"**{_(label)}** " + sep.join(items))
    if d20s:
        lines.append("**d20s** " + " · ".join(d20s))
    zero_groups = [u for u in points if GROUP_JOIN in u]
    if zero_groups:
        lines.append(_("Equal d20s can be removed together for 0."))
    return lines


def attackers_lines(state: VicesState, roll: dict[str, Any] | None, name: Name) -> list[str]:
    """The attackers' dice of the last roll, one line per attacker, a ✅ on each that matched."""
    if roll is None:
        return []
    defender = roll["groups"][0]["dice"]
    small = {d["die"]: d["value"] for d in defender if d["die"].startswith("s.")}
    d20s = {d["value"] for d in defender if SIDES[d["die"]] == 20}
    parts = []
    for group in roll["groups"][1:]:
        dice = []
        for d in group["dice"]:
            die, value = d["die"], d["value"]
            if die.startswith("L."):
                hit = small.get(f"s.{SIN_OF_DIE[die]}") == value
                dice.append(f"{sin_mark(SIN_OF_DIE[die])}{face(die, value)}" + ("✅" if hit else ""))
            else:
                dice.append(f"d20 {face(die, value)}" + ("✅" if value in d20s else ""))
        parts.append(f"{name(group['player'])} " + " ".join(dice))
    return parts or [_("No attacker's die could match.")]


# -- the scoreboard --------------------------------------------------------------------------------------


def nemesis_text(state: VicesState, player: str, name: Name) -> str:
    """Where a player's Nemesis d20 is: in play, in a defender's pool, or out of play."""
    sin = state.seat(player).sin
    if sin is None:
        return ""
    if sin in state.nemesis_out:
        return _("d20 out (Sloth)") if state.nemesis_out[sin] == NEMESIS_SLOTH else _("d20 out")
    turn = state.turn
    if turn is not None and f"N.{sin}" in turn.absorbed:
        return _("d20 with {name}", name=name(turn.defender))
    return _(NEMESIS_IN_PLAY)


def score_lines(state: VicesState, name: Name) -> list[str]:
    """One line per seat (in final standings order once the game is over), then the reserves and what is out.

    A seat's line is short enough for a phone: its original Sin by colour and letters, the total, the Sins
    held, and its Nemesis d20 only when it is not simply in play."""
    seats = list(state.players)
    if state.phase == "over":
        seats.sort(key=lambda p: (p.id not in state.winners, p.left, p.total))
    defender = state.turn.defender if state.turn is not None else None
    lines = []
    for seat in seats:
        if seat.left:
            lines.append("· " + _("~~{name}~~ left ({total})", name=name(seat.id), total=seat.total))
            continue
        marker = "▶" if seat.id == defender else ("🏆" if seat.id in state.winners else "·")
        original = f" ({sin_mark(seat.sin)})" if seat.sin else ""
        parts = [f"{marker} {name(seat.id)}{original} **{seat.total}**"]
        if state.phase != "setup" or seat.sin:
            parts.append(_("holds {sins}", sins=sins_text(state.sins_of(seat.id))))
            nemesis = nemesis_text(state, seat.id, name)
            # No dice roll in a tie-break or after the game; in play is what a d20 usually is: only news is told.
            if state.phase in ("setup", "turn") and nemesis != _(NEMESIS_IN_PLAY):
                parts.append(nemesis)
        lines.append(" · ".join(p for p in parts if p))
    # Until every player has a Sin, the Sins left are still to be claimed, not the reserves yet.
    left = sins_text(state.reserves())
    extra = [_("Unclaimed: {sins}", sins=left) if state.phase == "setup" else _("Reserves: {sins}", sins=left)]
    out = [s for s in SINS if state.sins[s] == OUT]
    gone = [_("{sin} d20", sin=sin_tag(c)) for c in SINS if c in state.nemesis_out]
    if out or gone:
        extra.append(_("Out of play: {what}", what=" ".join([sin_tag(s) for s in out] + gone)))
    lines.append(" · ".join(extra))
    if state.end_triggered and state.last_turns and state.phase == "turn":
        lines.append(_("Last turns: {players}", players=", ".join(name(p) for p in state.last_turns)))
    return lines


# -- sentences -------------------------------------------------------------------------------------------


def _from(source: str, name: Name) -> str:
    return _("the reserves") if source == RESERVES else f"{name(source)}"


def _penalty(e: dict[str, Any], n: Name) -> str:
    faces = [d["value"] for d in e["dice"]]
    values = " + ".join(f"{d['value']}{_added(d['die'], e['sin'])}" for d in e["dice"])
    why = _(" (equal dice score 0)") if len(set(faces)) < len(faces) else ""
    return _n(
        "{player}'s {sin} matched: penalty {values} → {n} point{why}.",
        "{player}'s {sin} matched: penalty {values} → {n} points{why}.",
        e["points"],
        player=n(e["player"]),
        sin=e["sin"],
        values=values,
        why=why,
    )


def _added(die: str, sin: str) -> str:
    """A penalty die not of the matched Sin, tagged: Pride's metallic die, the die Gluttony adds."""
    if die == METALLIC:
        return _(" (metallic)")
    other = SIN_OF_DIE.get(die)
    return _(" ({sin}'s die)", sin=other) if other and other != sin else ""


def _taken(e: dict[str, Any], n: Name) -> str:
    player, source, sin, by = n(e["player"]), e["source"], e["sin"], e["by"]
    if source == RESERVES:
        return _("{player} takes {sin} from the reserves ({by}).", player=player, sin=sin, by=by)
    return _("{player} takes {owner}'s {sin} ({by}).", player=player, owner=n(source), sin=sin, by=by)


def _removed(e: dict[str, Any], n: Name) -> str:
    if not e["units"]:
        return _("{player} keeps every die this roll.", player=n(e["player"]))
    what = ", ".join(unit_name(u, n, e["player"]) for u in e["units"])
    return _(
        "{player} removes {what} → {points} (turn {turn}).",
        player=n(e["player"]),
        what=what,
        points=e["points"],
        turn=e["turn_score"],
    )


def _matches(e: dict[str, Any], n: Name) -> str | None:
    parts = [_("{player}'s {sin}", player=n(m["player"]), sin=sin_tag(m["sin"])) for m in e["sins"]]
    return _("Matched: {sins}.", sins=", ".join(parts)) if parts else None


_NONE_REASONS = {
    "defender_has_no_sin": N_("the defender holds no Sin"),
    "nothing_to_take": N_("there is nothing to take"),
    "nothing_to_exchange": N_("there is nothing to exchange"),
    "reserves_empty": N_("the reserves are empty"),
    "player_left": N_("its player left"),
    "die_not_in_play": N_("that d20 is not in play"),
    "die_already_removed": N_("that d20 is already out"),
}


def _and(items: list[str]) -> str:
    """``A``, ``A and B``, ``A, B and C`` in the language being spoken."""
    if len(items) < 2:
        return "".join(items)
    return _("{first} and {last}", first=", ".join(items[:-1]), last=items[-1])


def _tiebreak_rolled(e: dict[str, Any], n: Name) -> str:
    """``Tie-break round 1: Bob's Mirror & Medusa ⚅6 ⚅6 → 0; …`` (lowest wins)."""

    def rolled(r: dict[str, Any]) -> str:
        faces = " ".join(face(d["die"], d["value"]) for d in r["dice"])
        player, points = n(r["player"]), r["points"]
        if r.get("pair") in PAIR_TITLES:
            pair = PAIR_TITLES[r["pair"]]
            return _("{player}'s {pair} {faces} → {points}", player=player, pair=pair, faces=faces, points=points)
        return f"{player} {faces} → {points}"

    rolls = "; ".join(map(rolled, e["rolls"]))
    if e["tied"]:
        return _(
            "Tie-break round {round} (lowest wins): {rolls}. Tied again: roll again.", round=e["round"], rolls=rolls
        )
    return _("Tie-break round {round} (lowest wins): {rolls}.", round=e["round"], rolls=rolls)


def _turn_ended(e: dict[str, Any], n: Name) -> str:
    if e["abandoned"]:
        return _("{player}'s turn ends without its points.", player=n(e["player"]))
    return _(
        "{player} scores {score} this turn (total {total}).",
        player=n(e["player"]),
        score=e["turn_score"],
        total=e["total"],
    )


def _seat_rolls(e: dict[str, Any], n: Name) -> str:
    rolls = ", ".join(f"{n(r['player'])} {r['value']}" for r in e["rolls"])
    if e["tied"]:
        return _("Seat rolls: {rolls}. Tied high: roll again.", rolls=rolls)
    return _("Seat rolls: {rolls}.", rolls=rolls)


def _mirror(e: dict[str, Any], n: Name) -> str:
    """The Mirror die and the large Sin dice it was rolled with, so a "no match" can be checked."""
    large = " ".join(f"{sin_mark(SIN_OF_DIE[d['die']])}{face(d['die'], d['value'])}" for d in e["dice"])
    player, mirror = n(e["player"]), face("Mirror", e["mirror"])
    if e["matches"]:
        sins = _and([sin_tag(s) for s in e["matches"]])
        return _(
            "{player} rolls the Mirror {mirror} against {large}: matches {sins}.",
            player=player,
            mirror=mirror,
            large=large,
            sins=sins,
        )
    return _(
        "{player} rolls the Mirror {mirror} against {large}: no match, roll again.",
        player=player,
        mirror=mirror,
        large=large,
    )


def _either(sins: list[str]) -> str:
    """``🟥Wrath``, ``🟥Wrath or 🟦Sloth``, ``🟥Wrath, 🟦Sloth or 🟪Pride``."""
    tags = [sin_tag(s) for s in sins]
    return _("{first} or {last}", first=", ".join(tags[:-1]), last=tags[-1]) if len(tags) > 1 else "".join(tags)


def _game_ended(e: dict[str, Any], n: Name) -> str:
    why = _("Too few players are left, so the game ends.") + " " if e.get("reason") == "too_few_players" else ""
    who = _and([n(p) for p in e["candidates"]])
    if len(e["candidates"]) > 1:  # not over yet: the tie-break follows
        tie = (
            _("{who} tie on exactly 70.", who=who)
            if e["exact_target"]
            else _("{who} tie on the lowest total.", who=who)
        )
        return why + tie
    if e["exact_target"]:
        return why + _("Game over: {who} is on exactly 70.", who=who)
    return why + _("Game over: {who} has the lowest total.", who=who)


def _end_triggered(e: dict[str, Any], n: Name) -> str:
    players = ", ".join(n(p) for p in e["players"])
    if e["last_turns"]:
        last = ", ".join(n(p) for p in e["last_turns"])
        return _("{players} reached 70: last turns for {last}.", players=players, last=last)
    return _("{players} reached 70: the game ends.", players=players)


def _nemesis_removed(e: dict[str, Any], n: Name) -> str:
    if e["reason"] == "sloth":
        return _("{owner}'s d20 leaves play (Sloth).", owner=n(e["owner"]))
    return _("{owner}'s d20 leaves play.", owner=n(e["owner"]))


def _effect_none(e: dict[str, Any], n: Name) -> str:
    reason = e["reason"]
    why = _(_NONE_REASONS[reason]) if reason in _NONE_REASONS else reason
    return _("{sin} does nothing: {why}.", sin=e["sin"], why=why)


_NARRATORS: dict[str, Callable[[dict[str, Any], Name], str | None]] = {
    "game_started": lambda e, n: _("Seat order: {players}.", players=", ".join(n(p) for p in e["players"])),
    "seat_rolls": _seat_rolls,
    "mirror_roll": _mirror,
    "claim_needed": lambda e, n: _("{player} may claim {sins}.", player=n(e["player"]), sins=_either(e["sins"])),
    "sin_claimed": lambda e, n: _("{player} claims {sin}.", player=n(e["player"]), sin=sin_tag(e["sin"])),
    "setup_done": lambda e, n: _("Reserves: {sins}.", sins=sins_text(e["reserves"])),
    "turn_started": lambda e, n: _n(
        "Round {round} · {player} defends with {n} die.",
        "Round {round} · {player} defends with {n} dice.",
        len(e["pool"]),
        round=e["round"],
        player=n(e["player"]),
    ),
    "rolled": lambda e, n: None,
    "matches": _matches,
    "penalty": _penalty,
    "choice_needed": lambda e, n: _(
        "{player} chooses for {sin}.", player=n(e["player"]), sin=e["decision"].capitalize()
    ),
    "sin_taken": _taken,
    "sin_destroyed": lambda e, n: _(
        "{player}'s Wrath destroys {owner}'s {sin}: out of play.",
        player=n(e["player"]),
        owner=_from(e["source"], n),
        sin=sin_tag(e["sin"]),
    ),
    "sins_swapped": lambda e, n: _(
        "{player}'s Envy gives {gave} to {other} for {took}.",
        player=n(e["player"]),
        gave=sin_tag(e["gave"]),
        other=_from(e["other"], n),
        took=sin_tag(e["took"]),
    ),
    "envy_declined": lambda e, n: _("{player} keeps their Sins (Envy declined).", player=n(e["player"])),
    "effect_none": _effect_none,
    "absorbed": lambda e, n: _(
        "{owner}'s d20 ({value}) joins {defender}'s pool.",
        owner=n(e["owner"]),
        value=e["value"],
        defender=n(e["defender"]),
    ),
    "not_absorbed": lambda e, n: _("{owner}'s d20 is out of play and does not join.", owner=n(e["owner"])),
    "nemesis_removed": _nemesis_removed,
    "removed": _removed,
    "nemesis_returned": lambda e, n: _("d20s go back to {players}.", players=", ".join(n(d["to"]) for d in e["dice"])),
    "turn_ended": _turn_ended,
    "end_triggered": _end_triggered,
    "game_ended": _game_ended,
    "tiebreak_started": lambda e, n: _(
        "Tie-break: {players} each pick a pair.", players=", ".join(n(p) for p in e["contenders"])
    ),
    "pair_chosen": lambda e, n: _("{player} has picked a pair.", player=n(e["player"])),
    "tiebreak_rolled": _tiebreak_rolled,
    "game_over": lambda e, n: _("🏆 {player} wins with {total}!", player=n(e["winner"]), total=e["total"]),
    "player_left": lambda e, n: _("{player} left the table; their Sins go to the reserves.", player=n(e["player"])),
}


def narrate(session: Session, events: Iterable[dict[str, Any]]) -> list[str]:
    """One plain sentence per event worth telling."""

    def name(player: str | None) -> str:
        return f"**{escape_name(session.name_of(player))}**" if player else _("nobody")

    lines = []
    for event in events:
        line = _NARRATORS.get(event["type"], lambda e, n: None)(event, name)
        if line:
            lines.append(line)
    return lines


RETIRED_EVENTS = ("removed", "penalty", "sin_taken", "sin_destroyed", "sins_swapped", "sin_claimed", "pair_chosen")
ENDINGS = ("game_over", "tiebreak_rolled", "turn_ended")


def retired_line(session: Session, events: list[dict[str, Any]]) -> str:
    """What happened on a board, in one line: the round, the last decision and how the turn ended."""
    last: list[int] = []
    for kinds in (RETIRED_EVENTS, ENDINGS):
        last += [i for i, e in enumerate(events) if e["type"] in kinds][-1:]
    picked = [events[i] for i in sorted(last)]  # in the order they happened: a turn's end, then the next turn's news
    lines = narrate(session, picked) or narrate(session, events)[-1:]
    turn = next((e for e in reversed(events) if e["type"] == "turn_started"), None)
    text = " ".join(lines) if lines else _("the game moved on.")
    return _("Round {round} · {text}", round=turn["round"], text=text) if turn else text


def tiebreak_hint(wild_face: int | None) -> str:
    """What a contender is choosing: how the pairs they pick are scored."""
    if wild_face:
        return _(
            "Pick a pair; the bot rolls it and the lowest score wins (a matching pair scores 0; "
            "Silver Bullet's {face} matches any Werewolf).",
            face=wild_face,
        )
    return _("Pick a pair; the bot rolls it and the lowest score wins (a matching pair scores 0).")


def sin_table() -> str:
    """The seven Sins in precedence order with their effects."""
    return "\n".join(f"{s.precedence}. {sin_tag(s.sin)} — {_(s.effect)}" for s in SIN_SPECS)
