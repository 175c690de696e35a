"""Who may take an action (the ``WHO`` of each action class); GMs and co-GMs may take them all.

Only permission is decided here: an id that names nothing passes, and ``apply`` refuses it as illegal.
"""

from __future__ import annotations

from collections.abc import Callable

from rules.engine import GM_ROLES, NotPermitted
from rules.said import said
from rules.viciousness.actions import Action, GMControl, Pick, Replace
from rules.viciousness.catalogue import find_trait
from rules.viciousness.state import CampaignState, KnaveryPool, owner_of


def authorize(state: CampaignState, actor: str, roles: frozenset[str], action: Action) -> None:
    """Raise NotPermitted if ``actor`` with ``roles`` may not take ``action``."""
    if roles & GM_ROLES:
        return
    if getattr(action, "exception", False):
        raise NotPermitted(said("Only the GM can let a character act twice in one turn."))
    _CHECKS[type(action).WHO](state, actor, action)


def _gm(state: CampaignState, actor: str, action: Action) -> None:
    raise NotPermitted(said("Only the GM can {doing}.", doing=action.DOING))


def _self(state: CampaignState, actor: str, action: Action) -> None:
    if getattr(action, "owner", None) not in (None, actor):
        _gm(state, actor, action)


def _owner(state: CampaignState, actor: str, action: Action) -> None:
    if getattr(action, "owner", None) != actor:
        raise NotPermitted(said("That troupe isn't yours: only its player and the GM can change it."))


def _own_pc(state: CampaignState, actor: str, pc_id: str, handing_over: bool = False) -> None:
    if owner_of(pc_id) != actor:
        raise NotPermitted(said("That character isn't yours: only their player and the GM can do that."))
    pc = state.find_pc(pc_id)
    if pc is not None and pc.gm_controlled and not handing_over:
        raise NotPermitted(said("{name} is portrayed by the GM: only the GM can do that.", name=pc.name))


def _pc(state: CampaignState, actor: str, action: Action) -> None:
    if isinstance(action, Replace):
        pc_id: str | None = action.old
    else:
        pc_id = getattr(action, "pc", None)
    if pc_id is None:  # a purchase made for no character
        _gm(state, actor, action)
        return
    _own_pc(state, actor, pc_id, handing_over=isinstance(action, GMControl) and action.on)


def _member(state: CampaignState, actor: str, action: Action) -> None:
    pool = state.pools.get(getattr(action, "pool", ""))
    c = next((x for x in pool.combatants if x.id == getattr(action, "who", None)), None) if pool else None
    if c is None:
        return
    if not c.pc:
        raise NotPermitted(said("NPCs are the GM's to play."))
    _own_pc(state, actor, c.id)
    if isinstance(action, Pick):
        for p in action.picks:
            t = find_trait(state, p.trait)
            if t is not None and t.name in c.vetoed:
                raise NotPermitted(said("The GM ruled that {trait} doesn't apply here.", trait=t.name))


def side_players(state: CampaignState, pool_id: str, side: str) -> set[str]:
    """Players who speak for ``side``: the owners of its PCs that the GM doesn't portray."""
    pool = state.pools.get(pool_id)
    if pool is None:
        return set()
    owners = set()
    for c in pool.combatants:
        pc = state.find_pc(c.id) if c.pc and c.side == side else None
        if pc is not None and not pc.gm_controlled:
            owners.add(owner_of(pc.id))
    return owners


def _side(state: CampaignState, actor: str, action: Action) -> None:
    pool_id, side = getattr(action, "pool", ""), getattr(action, "side", "")
    if pool_id in state.pools and actor not in side_players(state, pool_id, side):
        raise NotPermitted(said("Only the players of that side's PCs, or the GM, decide where its hits go."))


def _group(state: CampaignState, actor: str, action: Action) -> None:
    pool = state.pools.get(getattr(action, "pool", ""))
    if not isinstance(pool, KnaveryPool):
        return
    if not pool.prepared:
        raise NotPermitted(said("The group wasn't prepared: the GM decides which challenges were thwarted."))
    if actor not in {owner_of(c.id) for c in pool.combatants if c.pc}:
        raise NotPermitted(said("Only the players in the scheme, or the GM, choose the thwarted challenges."))


_CHECKS: dict[str, Callable[[CampaignState, str, Action], None]] = {
    "gm": _gm,
    "self": _self,
    "owner": _owner,
    "pc": _pc,
    "member": _member,
    "side": _side,
    "group": _group,
}
