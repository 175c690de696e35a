"""The working copy an action is applied to: the latest state, the dice, the events so far.

Every change replaces a frozen model (``model_copy(update=...)``) and the top-level mapping that
holds it, so the state passed to ``apply`` is never touched and records the action does not change
keep their very objects.
"""

from __future__ import annotations

from typing import Any

from rules.dice import DiceSource
from rules.engine import IllegalAction
from rules.said import Said, said
from rules.viciousness.data import MIN_IP
from rules.viciousness.state import PC, CampaignState, Coins, Pool, Rival, Troupe, owner_of, rank_for_ip

GM_ONLY = ["gm"]
"""``only`` of events about rivals: the core shows them to the GM and co-GMs alone."""


class Work:
    """One action being applied."""

    def __init__(self, state: CampaignState, actor: str, dice: DiceSource, *, salt: str = "") -> None:
        self.s = state
        self.actor = actor
        self.dice = dice
        self.salt = salt
        """The action's salt for rival dice committed in the channel (``rules/viciousness/commitments.py``)."""
        self.events: list[dict[str, Any]] = []

    # -- events and dice -----------------------------------------------------------------------------

    def emit(self, event: str, /, *, gm_only: bool = False, **fields: Any) -> None:
        """Record an event; ``gm_only`` for anything about rivals."""
        self.events.append({"type": event, **fields, **({"only": GM_ONLY} if gm_only else {})})

    def roll(self, die_id: str, sides: int) -> int:
        """One die from the dice source."""
        return self.dice.roll(die_id, sides)

    # -- records -------------------------------------------------------------------------------------

    def put(self, **fields: Any) -> None:
        """Replace top-level fields of the state."""
        self.s = self.s.model_copy(update=fields)

    def troupe(self, owner: str) -> Troupe:
        """The troupe of ``owner``."""
        troupe = self.s.troupes.get(owner)
        if troupe is None:
            raise IllegalAction(said("That player has no troupe yet."))
        return troupe

    def put_troupe(self, troupe: Troupe) -> None:
        """Store ``troupe`` under its owner."""
        self.put(troupes={**self.s.troupes, troupe.owner: troupe})

    def pc(self, pc_id: str) -> PC:
        """The PC with ``pc_id``."""
        pc = self.s.find_pc(pc_id)
        if pc is None:
            raise IllegalAction(said("There is no such character."))
        return pc

    def active_pc(self, pc_id: str) -> PC:
        """The PC with ``pc_id``, who must be neither dead nor retired."""
        pc = self.pc(pc_id)
        if not pc.active:
            raise IllegalAction(gone(pc))
        return pc

    def acting_pc(self, pc_id: str) -> PC:
        """The PC with ``pc_id``, who must be active and in a troupe that hasn't dissolved (seed L61)."""
        pc = self.active_pc(pc_id)
        troupe = self.troupe(owner_of(pc_id))
        if troupe.dissolved:
            raise IllegalAction(
                said("{name}'s troupe has dissolved: its player makes a new one (`/vic troupe new`).", name=pc.name)
            )
        return pc

    def put_pc(self, pc: PC) -> None:
        """Store ``pc`` in its troupe."""
        troupe = self.troupe(owner_of(pc.id))
        self.put_troupe(troupe.model_copy(update={"pcs": tuple(pc if p.id == pc.id else p for p in troupe.pcs)}))

    def update_pc(self, pc_id: str, **changes: Any) -> PC:
        """Change fields of a PC; returns the new PC."""
        pc = self.pc(pc_id).model_copy(update=changes)
        self.put_pc(pc)
        return pc

    def rival(self, rival_id: str) -> Rival:
        """The rival with ``rival_id`` (dropped ones included)."""
        rival = self.s.rivals.get(rival_id)
        if rival is None:
            raise IllegalAction(said("There is no such rival."))
        return rival

    def put_rival(self, rival: Rival) -> None:
        """Store ``rival`` under its id."""
        self.put(rivals={**self.s.rivals, rival.id: rival})

    def pool(self, pool_id: str) -> Pool:
        """The open pool ``pool_id``."""
        pool = self.s.pools.get(pool_id)
        if pool is None:
            raise IllegalAction(said("That pool is closed, or was never opened."))
        return pool

    def put_pool(self, pool: Pool) -> None:
        """Store ``pool`` under its id."""
        self.put(pools={**self.s.pools, pool.id: pool})

    def drop_pool(self, pool_id: str) -> None:
        """Close pool ``pool_id``."""
        self.put(pools={k: v for k, v in self.s.pools.items() if k != pool_id})

    def company(self, **changes: Any) -> None:
        """Change fields of the company."""
        self.put(company=self.s.company.model_copy(update=changes))

    # -- wealth --------------------------------------------------------------------------------------

    def set_ip(self, ip: int, reason: str) -> None:
        """Set investment points (never below 0) and announce a rank change the moment it happens."""
        assert ip >= 0, "callers refuse or clamp changes that would take IP below 0"
        old = self.s.company
        if ip == old.ip:
            return
        self.company(ip=ip)
        self.emit("ip_changed", ip=ip, delta=ip - old.ip, reason=reason)
        new_rank = rank_for_ip(ip)
        if new_rank != old.rank:
            word = "promoted" if new_rank > old.rank else "demoted"
            self.emit("rank_changed", old=old.rank, new=new_rank, ip=ip, change=word, min_ip=MIN_IP[new_rank])

    def add_liquid(self, rank: int, n: int) -> None:
        """Add (or, with n < 0, take) liquid coins of ``rank``; callers check there are enough."""
        counts = {c.rank: c.count for c in self.s.company.liquid}
        counts[rank] = counts.get(rank, 0) + n
        assert counts[rank] >= 0, "callers check the coins are there"
        self.company(liquid=tuple(Coins(rank=r, count=c) for r, c in sorted(counts.items()) if c))


def gone(pc: PC) -> Said:
    """The refusal for acting with a PC who is dead or retired."""
    if pc.fate == "dead":
        return said("{name} is dead.", name=pc.name)
    return said("{name} is retired.", name=pc.name)
