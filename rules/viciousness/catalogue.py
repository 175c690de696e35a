"""Which traits exist in a campaign: the seed's 27 plus the custom ones the GM approved."""

from __future__ import annotations

from rules.engine import IllegalAction
from rules.said import said
from rules.text import echo
from rules.viciousness.data import TRAITS, TraitDef
from rules.viciousness.state import CampaignState


def find_trait(state: CampaignState, name: str) -> TraitDef | None:
    """The trait called ``name`` or one of its aliases (``Honeypot`` is Honeytrap, 3.6 #42), any case."""
    wanted = name.strip().casefold()
    for trait in (*TRAITS.values(), *state.traits):
        if trait.name.casefold() == wanted or any(a.casefold() == wanted for a in trait.aliases):
            return trait
    return None


def trait(state: CampaignState, name: str) -> TraitDef:
    """The trait called ``name``; an unknown one is refused with a reason."""
    found = find_trait(state, name)
    if found is None:
        raise IllegalAction(
            said("There is no trait called {name}: pick one of the 27, or ask the GM to approve it.", name=echo(name))
        )
    return found


def trait_names(state: CampaignState, names: tuple[str, ...]) -> tuple[str, ...]:
    """Canonical names of ``names``, each a known trait and none twice."""
    canonical = tuple(trait(state, n).name for n in names)
    for name in canonical:
        if canonical.count(name) > 1:
            raise IllegalAction(said("A character can't take {trait} twice.", trait=name))
    return canonical
