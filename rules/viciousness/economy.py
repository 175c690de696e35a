"""Wealth arithmetic (RULES.md P10): prices, payments, rewards and replacement costs, as pure functions."""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from typing import Literal

from pydantic import BaseModel, ConfigDict, SkipValidation

from rules.engine import IllegalAction
from rules.said import Said, said
from rules.text import echo
from rules.viciousness.data import ECONOMY, MIN_IP, PRICES, REWARDS, told
from rules.viciousness.state import rank_for_ip

MODIFIERS = {m.key: m for m in PRICES.modifiers}


class Quote(BaseModel):
    """What an item costs in coins of one rank, with the arithmetic for display."""

    model_config = ConfigDict(frozen=True)

    item_rank: int
    coin_rank: int
    parts: tuple[tuple[SkipValidation[str], int], ...]
    """Each term of the sum: ("Base price", 1), ("2 ranks above the coins' rank", 4), ("Custom-built", 1)… Each
    term's text is a ``Said`` (kept as it is, unvalidated): ``localize`` it."""
    total: int
    verdict: Literal["free", "coins", "unobtainable"]

    @property
    def coins(self) -> int:
        """Coins to pay: 0 when free (a price of 0 or less, 3.6 #30)."""
        return self.total if self.verdict == "coins" else 0

    @property
    def arithmetic(self) -> str:
        """``1 + 2 + 1 = 4``."""
        terms = [str(self.parts[0][1])] + [f"{'+' if d >= 0 else '−'} {abs(d)}" for _, d in self.parts[1:]]
        return f"{' '.join(terms)} = {self.total}"


def quote(item_rank: int, coin_rank: int, mods: Sequence[str] = ()) -> Quote:
    """Price an item of ``item_rank`` paid with coins of ``coin_rank`` (RULES.md P10, 3.6 #29–31)."""
    groups: dict[str, str] = {}
    for key in mods:
        mod = MODIFIERS.get(key)
        if mod is None:
            raise IllegalAction(said("There is no price modifier called {name}.", name=echo(key)))
        if mods.count(key) > 1:
            raise IllegalAction(said("{modifier} counts only once.", modifier=told(mod.label)))
        if mod.exclusive_group:
            other = groups.setdefault(mod.exclusive_group, key)
            if other != key:
                raise IllegalAction(
                    said(
                        "{first} and {second} don't add up: an item is one or the other.",
                        first=told(MODIFIERS[other].label),
                        second=told(mod.label),
                    )
                )
    parts: list[tuple[str, int]] = [(said("Base price"), PRICES.base_price)]
    gap = item_rank - coin_rank
    if gap:
        per = PRICES.per_rank_above if gap > 0 else PRICES.per_rank_below
        parts.append((_rank_gap(gap), per * abs(gap)))
    parts += [(told(MODIFIERS[key].label), MODIFIERS[key].delta) for key in mods]
    total = sum(d for _, d in parts)
    if total <= PRICES.free_at_or_below:
        verdict: Literal["free", "coins", "unobtainable"] = "free"
    elif total > PRICES.max_purchasable:
        verdict = "unobtainable"
    else:
        verdict = "coins"
    return Quote(item_rank=item_rank, coin_rank=coin_rank, parts=tuple(parts), total=total, verdict=verdict)


def _rank_gap(gap: int) -> Said:
    """The price term for an item ``gap`` ranks above (or, negative, below) the coins paying for it."""
    if gap == 1:
        return said("1 rank above the coins' rank")
    if gap == -1:
        return said("1 rank below the coins' rank")
    if gap > 0:
        return said("{n} ranks above the coins' rank", n=gap)
    return said("{n} ranks below the coins' rank", n=-gap)


def unobtainable(q: Quote) -> IllegalAction:
    """The refusal for an item money can't buy."""
    return IllegalAction(
        said(
            "That costs {total} coins ({arithmetic}): it can't be bought with money.",
            total=q.total,
            arithmetic=q.arithmetic,
        )
    )


def covers(groups: Sequence[tuple[int, Quote]]) -> bool:
    """Whether coins of several ranks pay for an item: ``n`` coins of a rank pay ``n / price`` of it.

    With vic.mixed_rank_payment each coin's share is measured against its own rank, like a single-rank
    purchase (3.6 #29); no coin may be superfluous.
    """
    share = sum((Fraction(n, q.total) for n, q in groups), Fraction(0))
    if share < 1:
        return False
    return all(share - Fraction(1, q.total) < 1 for _, q in groups)


def reward(method: str, npc_rank: int, company_rank: int) -> int:
    """Liquid coins for extracting from an NPC (seed L160-164): base + rank difference, at least 0."""
    m = next(m for m in REWARDS.methods if m.key == method)
    if m.unavailable_at_rank_gte is not None and company_rank >= m.unavailable_at_rank_gte:
        raise IllegalAction(
            said(
                "{method} isn't available from wealth rank {rank}.",
                method=told(m.label),
                rank=m.unavailable_at_rank_gte,
            )
        )
    return max(REWARDS.minimum, m.base + REWARDS.per_rank_difference * (npc_rank - company_rank))


def replacement_cost(traits: int) -> int:
    """IP to replace a minion whose replacement has ``traits`` traits (seed L61, 3.6 #39)."""
    return ECONOMY.minion_replacement_ip + ECONOMY.replacement_extra_trait_ip * max(0, traits - 2)


def lower_ranks(ip: int, n: int) -> int:
    """IP after the wealth track lowers by ``n`` ranks (vic.wealth_track=rank), keeping the progress
    made within the rank as far as the lower rank allows; below rank 1 the company has 0 IP."""
    rank = rank_for_ip(ip)
    target = rank - n
    if target < 1:
        return 0
    ceiling = MIN_IP[target + 1] - 1
    return min(MIN_IP[target] + ip - MIN_IP[rank], ceiling)
