"""The company and its wealth (RULES.md P1, P10; 3.6 #29–38): names, rank and IP, coins, rewards, buying."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from pydantic import ValidationError

from rules.engine import IllegalAction
from rules.said import Said, said
from rules.viciousness.actions import (
    Action,
    AdjustLiquid,
    AmbitionDone,
    Archive,
    Buy,
    ClearLockout,
    DefineTrait,
    Divest,
    Invest,
    Notes,
    Pay,
    Restore,
    Reveal,
    Reward,
    SetCompany,
    SetIP,
    SetOptions,
    SetRank,
)
from rules.viciousness.catalogue import find_trait
from rules.viciousness.characters import take_action
from rules.viciousness.data import ECONOMY, MIN_IP
from rules.viciousness.economy import Quote, covers, quote, reward, unobtainable
from rules.viciousness.options import VicOptions
from rules.viciousness.state import Coins, owner_of
from rules.viciousness.work import GM_ONLY, Work


def _company(w: Work, a: SetCompany) -> None:
    changes: dict[str, Any] = {k: v for k, v in (("name", a.name), ("ambition", a.ambition)) if v is not None}
    if changes:
        w.company(**changes)
    if a.turn_length is not None:
        w.put(turn=w.s.turn.model_copy(update={"length": a.turn_length}))
        changes["turn_length"] = a.turn_length
    if not changes:
        raise IllegalAction(said("Nothing to change: give a name, an ambition or a turn length."))
    w.emit("company_changed", **changes)


def _set_rank(w: Work, a: SetRank) -> None:
    w.set_ip(MIN_IP[a.rank], "rank_set")


def _set_ip(w: Work, a: SetIP) -> None:
    w.set_ip(a.ip, "ip_set")


def _liquid(w: Work, a: AdjustLiquid) -> None:
    have = w.s.company.liquid_at(a.rank)
    if have + a.delta < 0:
        raise IllegalAction(said("The company has only {have} liquid coins of rank {rank}.", have=have, rank=a.rank))
    w.add_liquid(a.rank, a.delta)
    w.emit("liquid_changed", rank=a.rank, delta=a.delta, count=have + a.delta, reason="gm")


def _ambition_done(w: Work, a: AmbitionDone) -> None:
    company = w.s.company
    w.company(advancements=company.advancements + 1, ambition=a.next)
    for troupe in w.s.troupes.values():
        if not troupe.dissolved:
            w.put_troupe(troupe.model_copy(update={"pending_advancements": troupe.pending_advancements + 1}))
    w.emit("ambition_completed", completed=company.ambition, next=a.next, advancements=company.advancements + 1)


def _reward(w: Work, a: Reward) -> None:
    rank = w.s.company.rank
    coins = reward(a.method, a.npc_rank, rank)
    if coins:
        w.add_liquid(rank, coins)
    w.emit("reward", method=a.method, npc_rank=a.npc_rank, company_rank=rank, coins=coins, rank=rank)
    if a.invest and coins:
        _invest(w, Invest(rank=rank, n=coins))


def _invest(w: Work, a: Invest) -> None:
    company = w.s.company
    if w.s.options.invest_rank_rule == "current_rank_only" and a.rank != company.rank:
        raise IllegalAction(
            said("Only liquid coins of the company's rank ({rank}) can be invested.", rank=company.rank)
        )
    have = company.liquid_at(a.rank)
    if have < a.n:
        raise IllegalAction(
            said("The company has {have} liquid coins of rank {rank}, not {n}.", have=have, rank=a.rank, n=a.n)
        )
    w.add_liquid(a.rank, -a.n)
    w.emit("invested", coins=a.n, rank=a.rank)
    w.set_ip(company.ip + a.n * ECONOMY.liquid_coin_to_ip, "invest")


def _divest(w: Work, a: Divest) -> None:
    company = w.s.company
    cost = a.n * ECONOMY.ip_to_liquid_coin
    if company.ip < cost:
        raise IllegalAction(
            said("Divesting {n} coin takes {cost} IP; the company has {ip}.", n=a.n, cost=cost, ip=company.ip)
            if a.n == 1
            else said("Divesting {n} coins takes {cost} IP; the company has {ip}.", n=a.n, cost=cost, ip=company.ip)
        )
    # The coin is worth the rank the company has before any demotion the divestment causes (3.6 #36).
    w.add_liquid(company.rank, a.n)
    w.emit("divested", coins=a.n, rank=company.rank, ip=cost)
    w.set_ip(company.ip - cost, "divest")


def _available(w: Work, pay: Pay) -> tuple[int, int]:
    """The rank and number of the coins ``pay`` names."""
    company = w.s.company
    if pay.coins == "turn":
        if company.turn_coins is None:
            raise IllegalAction(said("There are no turn coins left this turn."))
        return company.turn_coins.rank, company.turn_coins.count
    if pay.rank is None:
        raise IllegalAction(said("Say which rank of liquid coins pays."))
    return pay.rank, company.liquid_at(pay.rank)


def _spend(w: Work, pay: Pay, rank: int, n: int) -> None:
    if pay.coins == "liquid":
        w.add_liquid(rank, -n)
        return
    coins = w.s.company.turn_coins
    assert coins is not None
    w.company(turn_coins=Coins(rank=rank, count=coins.count - n) if coins.count > n else None)


def _buy(w: Work, a: Buy) -> None:
    if len(a.pay) > 1 and not w.s.options.mixed_rank_payment:
        raise IllegalAction(said("One purchase is paid with coins of a single rank."))
    if len({(p.coins, p.rank) for p in a.pay}) != len(a.pay):
        raise IllegalAction(said("Name each kind of coin once."))
    offers = [(p, *_available(w, p)) for p in a.pay]
    quotes = [(p, rank, have, quote(a.rank, rank, a.mods)) for p, rank, have in offers]
    pc = w.acting_pc(a.pc) if a.pc is not None else None
    spent: list[dict[str, Any]] = []
    if not any(q.verdict == "free" for *_, q in quotes):
        if len(quotes) == 1:
            p, rank, have, q = quotes[0]
            if q.verdict == "unobtainable":
                raise unobtainable(q)
            if p.n is not None and p.n != q.coins:
                raise IllegalAction(
                    said(
                        "That costs {coins} coins ({arithmetic}), not {n}.",
                        coins=q.coins,
                        arithmetic=q.arithmetic,
                        n=p.n,
                    )
                )
            plan = [(p, rank, have, q, q.coins)]
        else:
            plan = [(p, rank, have, q, p.n) for p, rank, have, q in quotes if p.n is not None]
            if len(plan) != len(quotes):
                raise IllegalAction(said("Combining coins of several ranks, say how many of each."))
            for *_, q, _n in plan:
                if q.verdict == "unobtainable":
                    raise unobtainable(q)
            if not covers([(n, q) for *_, q, n in plan]):
                raise IllegalAction(
                    said("Those coins don't pay for it exactly (a coin of rank r pays 1/price at rank r).")
                )
        for p, rank, have, q, n in plan:
            if have < n:
                raise IllegalAction(_short(p, rank, n, have, q))
        for p, rank, _, q, n in plan:
            _spend(w, p, rank, n)
            spent.append({"coins": p.coins, "rank": rank, "n": n, "arithmetic": q.arithmetic})
    if pc is not None:
        take_action(w, pc, "acquire", a.item, exception=a.exception)
        troupe = w.troupe(owner_of(pc.id))
        w.put_troupe(troupe.model_copy(update={"assets": (*troupe.assets, a.item)}))
    w.emit(
        "bought",
        item=a.item,
        rank=a.rank,
        pc=a.pc,
        name=pc.name if pc is not None else None,  # the recap credits who made the purchase
        free=not spent,
        spent=spent,
        quotes=[_describe(q) for *_, q in quotes],
    )


def _short(p: Pay, rank: int, n: int, have: int, q: Quote) -> Said:
    """The refusal for coins too few to pay ``n`` of them."""
    if p.coins == "turn":
        return said(
            "That costs {n} turn coins ({arithmetic}) and the company has {have}.",
            n=n,
            arithmetic=q.arithmetic,
            have=have,
        )
    return said(
        "That costs {n} liquid coins of rank {rank} ({arithmetic}) and the company has {have}.",
        n=n,
        rank=rank,
        arithmetic=q.arithmetic,
        have=have,
    )


def _describe(q: Quote) -> dict[str, Any]:
    return {"coin_rank": q.coin_rank, "total": q.total, "verdict": q.verdict, "arithmetic": q.arithmetic}


def _reveal(w: Work, a: Reveal) -> None:
    if a.to:  # a handout: for its players and the GMs only
        w.emit("revealed", text=a.text, to=list(a.to), only=[*GM_ONLY, *a.to])
    else:
        w.emit("revealed", text=a.text)


def _notes(w: Work, a: Notes) -> None:
    w.put(notes=a.text)
    w.emit("notes_changed", gm_only=True)


def _define_trait(w: Work, a: DefineTrait) -> None:
    existing = find_trait(w.s, a.trait.name)
    if existing is not None and existing not in w.s.traits:
        raise IllegalAction(said("{trait} is one of the seed's traits already.", trait=existing.name))
    w.put(traits=(*(t for t in w.s.traits if t is not existing), a.trait))
    w.emit("trait_defined", name=a.trait.name, kind=a.trait.kind)


def _options(w: Work, a: SetOptions) -> None:
    current = w.s.options
    unknown = sorted(set(a.changes) - set(VicOptions.model_fields))
    if unknown:
        raise IllegalAction(said("There is no house rule called {name}.", name=repr(unknown[0])))
    try:
        options = VicOptions.model_validate({**current.model_dump(), **a.changes})
    except ValidationError as exc:
        raise IllegalAction(said("{option}: that isn't one of its values.", option=exc.errors()[0]["loc"][0])) from None
    changed = {k: v for k, v in options.model_dump().items() if getattr(current, k) != v}
    if not changed:
        raise IllegalAction(said("Those house rules are in force already."))
    w.put(options=options)
    w.emit("options_changed", changes=changed)


def _archive(w: Work, a: Archive) -> None:
    w.put(archived=True)
    w.emit("archived")


def _restore(w: Work, a: Restore) -> None:
    if not w.s.archived:
        raise IllegalAction(said("The campaign isn't archived: it is in play."))
    w.put(archived=False)
    w.emit("restored")


def _clear_lockout(w: Work, a: ClearLockout) -> None:
    lockout = w.s.company.lockout
    if lockout is None:
        raise IllegalAction(said("Group rolls aren't locked."))
    w.company(lockout=None)
    w.emit("lockout_cleared", lapsed_free_pushes=lockout.free_pushes)


HANDLERS: dict[type[Action], Callable[[Work, Any], None]] = {
    SetCompany: _company,
    SetRank: _set_rank,
    SetIP: _set_ip,
    AdjustLiquid: _liquid,
    AmbitionDone: _ambition_done,
    Reward: _reward,
    Invest: _invest,
    Divest: _divest,
    Buy: _buy,
    Reveal: _reveal,
    Notes: _notes,
    DefineTrait: _define_trait,
    ClearLockout: _clear_lockout,
    SetOptions: _options,
    Archive: _archive,
    Restore: _restore,
}
