"""Who rolled each Viciousness die, for the luck statistics (``Rollers``): a PC's pool dice are their player's, a
rattled die's second roll and a push's reroll too, whoever's click rolled them; NPCs' dice are nobody's."""

from __future__ import annotations

from collections import Counter

from rules.viciousness import ENGINE
from tests.rules.vic_support import KESTREL, P1, P2, PIP, Campaign


def test_a_pcs_dice_are_their_players_and_an_npcs_nobodys() -> None:
    c = Campaign()
    (kestrel,) = c.join(P1, KESTREL)
    (pip,) = c.join(P2, PIP)
    c.gm({"type": "turn_start"})
    c.gm({"type": "condition", "pc": pip, "change": "rattle"})
    fight = c.gm({"type": "open_violence", "sides": ["Us", "Them"], "npcs": [{"side": 1, "name": "Rat"}]})[0]["pool"]
    c.act(P1, {"type": "join", "pool": fight, "pc": kestrel, "side": "a"})
    c.act(P2, {"type": "join", "pool": fight, "pc": pip, "side": "a"})
    before = len(c.rolls)
    events = c.gm({"type": "roll", "pool": fight}, [2, 2, 2, 2])  # Kestrel's d6, Pip's pair, the Rat's d6
    rolled = [r.die for r in c.rolls[before:]]
    named = ENGINE.rollers(events)
    assert Counter(p for p, _ in named) == {P1: 1, P2: 2}  # Pip is rattled: both rolls of the pair are his
    assert {d for _, d in named} < set(rolled) and len(rolled) == 4  # the Rat's die is nobody's
    before = len(c.rolls)
    events = c.act(P1, {"type": "reroll", "pool": fight, "who": kestrel}, [3])
    assert ENGINE.rollers(events) == [(P1, r.die) for r in c.rolls[before:]]  # only the die rolled again
