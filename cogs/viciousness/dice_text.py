"""Dice as faces, and a pool's dice as text: pure functions over the engine's state, shared by the pool boards.

A d6 shows its pips (⚀…⚅), a d4 its keycap number (1️⃣…4️⃣), a die not rolled yet its size. A rattled
character's die is rolled twice and the lower kept: the kept face comes first, the other in brackets.
"""

from __future__ import annotations

from bot.i18n import N_, _, _n
from rules.viciousness.catalogue import find_trait
from rules.viciousness.dicepool import FREE_PUSH_FACE, HIT_FACE, SUCCESS_AT, dice_plan, is_rattled
from rules.viciousness.state import CampaignState, Combatant, KnaveryPool, Pool, PoolDie, TraitPick, ViolencePool

D6_FACES = "⚀⚁⚂⚃⚄⚅"
KEYCAPS = ("1️⃣", "2️⃣", "3️⃣", "4️⃣", "5️⃣", "6️⃣")
RATTLED = "😵"
HIT_LEGEND = N_("a hit is a die showing exactly 4")
SUCCESS_LEGEND = N_("a success is 4 or more; each 6 is a free push")
RATTLED_LEGEND = N_("😵 rattled: each die rolled twice, the lower kept (the other in brackets)")
"""Said with ``_()`` where it is shown (a module's constant is only marked)."""


def face(sides: int, value: int) -> str:
    """One rolled die as a face: pips for a d6, a keycap number for a d4."""
    if sides == 6:
        return D6_FACES[value - 1]
    return KEYCAPS[value - 1] if 1 <= value <= len(KEYCAPS) else str(value)


def die_face(die: PoolDie) -> str:
    """A pool die: its kept face, and for a rattled pair the other roll in brackets."""
    kept = face(die.sides, die.value)
    if len(die.rolls) == 2:
        other = die.rolls[1] if die.rolls[0] == die.value else die.rolls[0]
        return f"{kept}({face(die.sides, other)})"
    return kept


def counts(pool: Pool, value: int) -> bool:
    """Whether a kept value counts: exactly 4 in a fight, 4 or more in a scheme."""
    return value == HIT_FACE if isinstance(pool, ViolencePool) else value >= SUCCESS_AT


def tally(pool: Pool, dice: tuple[PoolDie, ...]) -> str:
    """``2 hits`` / ``1 success, 1 free push`` for some rolled dice."""
    n = sum(1 for d in dice if counts(pool, d.value))
    if isinstance(pool, ViolencePool):
        return _n("{n} hit", "{n} hits", n)
    text = _n("{n} success", "{n} successes", n)
    sixes = sum(1 for d in dice if d.value == FREE_PUSH_FACE)
    return text + (", " + _n("{n} free push", "{n} free pushes", sixes) if sixes else "")


def planned(state: CampaignState, pool: Pool, c: Combatant) -> str:
    """The dice a combatant will roll, grouped by where they come from: ``d4 · d6 Acrobat · 2d4 extra``."""
    groups: list[list[object]] = []
    for sides, source in dice_plan(state, pool, c):
        if groups and groups[-1][1:] == [sides, source]:
            groups[-1][0] = int(str(groups[-1][0])) + 1
        else:
            groups.append([1, sides, source])
    return " · ".join(
        f"{n if n != 1 else ''}d{sides}{'' if source == 'base' else f' {_source(str(source))}'}"
        for n, sides, source in groups
    )


def _source(source: str) -> str:
    """Where planned dice come from, as shown: a trait's name as it is, the GM's and a push's in words."""
    return {"extra": _("extra"), "push": _("push")}.get(source, source)


def combatant_line(state: CampaignState, pool: Pool, c: Combatant, name: str) -> str:
    """One combatant: name, state, and their dice (planned before the roll, faces after)."""
    marks = (f" {RATTLED}" if is_rattled(state, c) else "") + (" 💢" if c.berserk else "")
    status = {"wounded": _(" 🩸 wounded"), "dead": _(" 💀 dead"), "fled": _(" 🏃 fled")}.get(c.status, "")
    if c.dice:
        faces = " ".join(die_face(d) for d in c.dice)
        pushed = _(" · pushed") if c.pushed else ""
        return f"**{name}**{marks}{status}: {faces} → {tally(pool, c.dice)}{pushed}"
    if c.status != "in":
        return f"**{name}**{marks}{status}"
    return f"**{name}**{marks}: {planned(state, pool, c)}"


def clause_label(state: CampaignState, pick: TraitPick) -> str:
    """A trait's dice clause for a select: ``Berzerker +1d4 (add)``."""
    trait = find_trait(state, pick.trait)
    assert trait is not None
    clause = trait.dice[pick.clause]
    n = f"{clause.n}" if clause.n > 1 else "1"
    return f"{trait.name} +{n}{clause.die}" + (_(" (add: needs the gain)") if clause.when == "add" else "")


def trait_clauses(state: CampaignState, c: Combatant) -> list[tuple[TraitPick, str, str]]:
    """Every dice clause a PC combatant may pick: (pick, label, its condition), vetoed traits left out."""
    pc = state.find_pc(c.id) if c.pc else None
    if pc is None:
        return []
    out = []
    for t in pc.traits:
        trait = find_trait(state, t.name)
        if trait is None or t.name in c.vetoed:
            continue
        for i, clause in enumerate(trait.dice):
            pick = TraitPick(trait=trait.name, clause=i)
            out.append((pick, clause_label(state, pick), clause.condition))
    return out


def legend(pool: Pool) -> str:
    """What counts in this pool."""
    return _(HIT_LEGEND) if isinstance(pool, ViolencePool) else _(SUCCESS_LEGEND)


def is_scheme(pool: Pool) -> bool:
    """Whether the pool is a knavery scheme."""
    return isinstance(pool, KnaveryPool)
