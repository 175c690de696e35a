"""``/vic price``, ``/vic-gm reward``, ``/vic-gm invest``, ``/vic-gm divest``: the company's wealth (RULES.md P10).

``/vic price`` answers privately with the item's price in every kind of coin the company holds, the
arithmetic shown; modifiers are picked in a select, and a button pays (turn coins, or a liquid coin
priced at its own rank). What the controls need is in their custom_ids, so they work after a restart.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands

from bot.board import static_view
from bot.controls import CUSTOM_ID_MAX, ui_id
from bot.errors import InvalidInput
from bot.i18n import N_, _, _n, localize
from bot.lobby import actor_of
from bot.models import Session
from bot.names import escape_name
from bot.replies import PUBLIC_ANSWER, Reply
from cogs.viciousness.common import KIND, Autocomplete, VicBase, campaign_state, choice_name, viewer_of
from cogs.viciousness.controls import Controls
from cogs.viciousness.narrate import narrate
from cogs.viciousness.text import cut
from cogs.viciousness.turns import start_or_end
from rules.engine import PUBLIC, IllegalAction, visible
from rules.said import Said
from rules.text import echo
from rules.viciousness.actions import Buy, Divest, Invest, Pay, Reward
from rules.viciousness.data import PRICES, RANKS, REWARDS
from rules.viciousness.economy import Quote, quote
from rules.viciousness.state import CampaignState

if TYPE_CHECKING:
    from bot.app import TabletopBot

MODIFIERS = [m.key for m in PRICES.modifiers]
LABELS = {m.key: m.label for m in PRICES.modifiers}
SHORT = {m.key: m.label.split(" (")[0] for m in PRICES.modifiers}
"""A modifier as typed in ``modifiers:`` (its label without the examples in brackets, which hold commas): in
English, which is always understood, or as ``short`` says it."""
METHOD_CHOICES = [app_commands.Choice(name=m.label, value=m.key) for m in REWARDS.methods]
TAKE_FREE = N_("Take it free")
ITEM_MAX = 40
"""An item's name travels in the custom_ids of the price's controls."""


@dataclass(frozen=True)
class Draft:
    """A purchase being priced: the item, its rank, its modifiers, and the character acquiring it."""

    rank: int
    mods: tuple[str, ...]
    pc: str
    item: str


def draft_arg(draft: Draft) -> str:
    """The draft in a custom_id: ``<rank>.<modifier bits>.<pc or ->.<item>``."""
    bits = sum(1 << MODIFIERS.index(m) for m in draft.mods)
    return f"{draft.rank}.{bits}.{draft.pc or '-'}.{draft.item}"


def parse_draft(arg: str) -> Draft:
    """The draft a control carries."""
    rank, bits, rest = arg.split(".", 2)
    if rest.startswith("-."):
        pc, item = "", rest[2:]
    else:
        owner, number, item = rest.split(".", 2)
        pc = f"{owner}.{number}"
    mods = tuple(m for i, m in enumerate(MODIFIERS) if int(bits) >> i & 1)
    return Draft(int(rank), mods, pc, item)


def offers(state: CampaignState) -> list[tuple[Pay, int, int]]:
    """Each kind of coin the company holds: (how it pays, the coins' rank, how many)."""
    company = state.company
    out = []
    if company.turn_coins is not None:
        out.append((Pay(coins="turn"), company.turn_coins.rank, company.turn_coins.count))
    out += [(Pay(coins="liquid", rank=c.rank), c.rank, c.count) for c in company.liquid]
    return out


def short(key: str) -> str:
    """A modifier's short label in the language being spoken (its label without the examples in brackets)."""
    return _(LABELS[key]).split(" (")[0]


def why_text(why: str) -> str:
    """What a term of a price is for, in the language being spoken: the engine's words (a ``Said``) or a
    modifier's label (the seed's data)."""
    return localize(why) if isinstance(why, Said) else _(why)


def sums(q: Quote) -> str:
    """The arithmetic with what each term is for: ``1 + 2 (1 rank above the coins' rank) = 3``; a bare ``1``."""
    if len(q.parts) == 1:
        return str(q.total)
    terms = [str(q.parts[0][1])] + [f"{'+' if d >= 0 else '−'} {abs(d)} ({why_text(why)})" for why, d in q.parts[1:]]
    return f"{' '.join(terms)} = {q.total}"


def verdict(q: Quote) -> str:
    """``1 + 2 (why) = 3 → 3 coins`` / ``… → free`` / ``… → not obtainable with money``."""
    if q.verdict == "free":
        return _("{sums} → **free**", sums=sums(q))
    if q.verdict == "unobtainable":
        return _("{sums} → **not obtainable** with money", sums=sums(q))
    return _n("{sums} → **{n} coin**", "{sums} → **{n} coins**", q.coins, sums=sums(q))


def unnamed(rank: int) -> str:
    """What an item priced without a name is called."""
    return _("An item of rank {rank}", rank=rank)


def ways_to_pay(state: CampaignState, draft: Draft, *, gm: bool) -> tuple[list[str], list[tuple[str, str]], str]:
    """The price's lines (each way to pay with its arithmetic), the ways it can be paid now as (button label, pay
    code: ``t`` or ``l<rank>``), and the problem that stops it, if any."""
    lines: list[str] = []
    ways: list[tuple[str, str]] = []
    try:
        quotes = [(pay, rank, have, quote(draft.rank, rank, draft.mods)) for pay, rank, have in offers(state)]
        problem = ""
    except IllegalAction as exc:
        quotes, problem = [], localize(exc.reason)
    if not quotes and not problem:
        q = quote(draft.rank, state.company.rank, draft.mods)
        lines.append(
            _(
                "With coins of rank {rank}: {verdict}\n*The company holds no coins now.*",
                rank=state.company.rank,
                verdict=verdict(q),
            )
        )
    free = _(TAKE_FREE)
    for pay, rank, have, q in quotes:
        lines.append(offer_line(pay, rank, have, q))
        if q.verdict == "unobtainable" or have < q.coins or not (gm or draft.pc):
            continue
        if q.verdict == "free" and any(label == free for label, _code in ways):
            continue  # free is free, whichever coins are held: one button for it
        label = free if q.verdict == "free" else pay_label(pay, rank, q.coins)
        ways.append((label[:80], "t" if pay.coins == "turn" else f"l{rank}"))
    return lines, ways, problem


def offer_line(pay: Pay, rank: int, have: int, q: Quote) -> str:
    """``**Turn coins** of rank 2 (the company has 3): 1 → 1 coin``."""
    if pay.coins == "turn":
        return _(
            "**Turn coins** of rank {rank} (the company has {have}): {verdict}",
            rank=rank,
            have=have,
            verdict=verdict(q),
        )
    return _(
        "**Liquid coins** of rank {rank} (the company has {have}): {verdict}", rank=rank, have=have, verdict=verdict(q)
    )


def pay_label(pay: Pay, rank: int, coins: int) -> str:
    """A pay button's label: ``Pay 2 turn coins``, ``Pay 1 liquid coin (rank 3)``."""
    if pay.coins == "turn":
        return _n("Pay {n} turn coin", "Pay {n} turn coins", coins)
    return _n("Pay {n} liquid coin (rank {rank})", "Pay {n} liquid coins (rank {rank})", coins, rank=rank)


def price_message(session: Session, state: CampaignState, draft: Draft, *, gm: bool) -> dict[str, Any]:
    """The private price: each way to pay with its arithmetic, the modifiers' select and the pay buttons
    (a player buys for one of their characters: it is that character's turn action)."""
    named = draft.item != unnamed(draft.rank)
    title = cut(_("{item} (rank {rank})", item=escape_name(draft.item), rank=draft.rank) if named else draft.item, 256)
    lines, ways, problem = ways_to_pay(state, draft, gm=gm)
    buttons: list[discord.ui.Item[Any]] = [
        discord.ui.Button(
            label=label,
            style=discord.ButtonStyle.primary,
            custom_id=ui_id(KIND, session.id, "pay", f"{code}.{draft_arg(draft)}"),
        )
        for label, code in ways
    ]
    if problem:
        lines.append(f"⚠️ {problem}")
    if not (gm or draft.pc):
        lines.append(_("*To buy it, say who acquires it (`pc:`): it is their action this turn.*"))
    if draft.mods:
        lines.insert(0, _("Modifiers: {modifiers}", modifiers=", ".join(_(LABELS[m]) for m in draft.mods)))
    embed = discord.Embed(title=title, description="\n".join(lines))
    select: discord.ui.Select[Any] = discord.ui.Select(
        custom_id=ui_id(KIND, session.id, "mods", draft_arg(draft)),
        placeholder=_("Modifiers…"),
        min_values=0,
        max_values=len(MODIFIERS),
        options=[
            discord.SelectOption(
                label=cut(_(m.label), 100), value=m.key, description=f"{m.delta:+d}", default=m.key in draft.mods
            )
            for m in PRICES.modifiers
        ],
    )
    rows: list[list[discord.ui.Item[Any]]] = [[select]]
    if buttons:
        rows.append(buttons[:5])
    return {"embed": embed, "view": static_view(rows)}


async def _modifiers(bot: TabletopBot, reply: Reply, session: Session, arg: str, values: list[str]) -> None:
    """Modifiers picked: the price again."""
    old = parse_draft(arg)
    draft = Draft(old.rank, tuple(m for m in MODIFIERS if m in values), old.pc, old.item)
    gm = viewer_of(session, reply.interaction).is_gm
    await reply.update(**price_message(session, campaign_state(bot, session), draft, gm=gm))


async def _pay(bot: TabletopBot, reply: Reply, session: Session, arg: str, values: list[str]) -> None:
    """A pay button: the purchase is made, the channel told, the price message says what happened."""
    code, _sep, rest = arg.partition(".")
    text = await make_purchase(bot, reply, session, code, parse_draft(rest))
    await reply.update(content=text, embed=None, view=None, ephemeral=True)


async def make_purchase(bot: TabletopBot, reply: Reply, session: Session, code: str, draft: Draft) -> str:
    """The purchase ``draft`` paid as ``code`` says (``t``: turn coins, ``l<rank>``: liquid coins of that rank):
    made, the channel told (its news); what to tell the buyer privately."""
    pay = Pay(coins="turn") if code == "t" else Pay(coins="liquid", rank=int(code[1:]))
    action = Buy(pc=draft.pc or None, item=draft.item, rank=draft.rank, mods=draft.mods, pay=(pay,))
    applied = await bot.service.act(session.id, actor_of(reply.interaction), action)  # the channel: its news
    lines = narrate(campaign_state(bot, applied.session), [e for e in applied.events if visible(e, PUBLIC)])
    return cut("\n".join(lines), 2000) or _("✅ Bought.")


def modifiers_typed(text: str | None) -> tuple[str, ...]:
    """``illegal, custom`` (keys or the start of labels, split by commas) → the modifiers' keys, in the seed's
    order; an unknown one is refused with the list."""
    picked = set()
    for word in (w.strip().casefold() for w in (text or "").split(",")):
        if not word:
            continue
        names = {m.key: (SHORT[m.key].casefold(), short(m.key).casefold()) for m in PRICES.modifiers}
        exact = [key for key, said in names.items() if word == key or word in said]
        found = exact or [key for key, said in names.items() if any(s.startswith(word) for s in said)]
        if len(found) != 1:
            known = ", ".join(short(key) for key in MODIFIERS)
            raise InvalidInput(
                _("{typed} is not one modifier: pick from {known}.", typed=echo(word, 40, code=True), known=known)
            )
        picked.add(found[0])
    return tuple(m for m in MODIFIERS if m in picked)


def register(controls: Controls) -> None:
    """A price's modifiers and its pay buttons."""
    controls.control("mods", _modifiers)
    controls.control("pay", _pay)


def rank_examples(rank: int) -> str:
    """``3 — a beautiful gown, a sword/handgun…``: what an item of that rank is like (the seed's table)."""
    row = next((r for r in RANKS if r.rank == rank), None)
    items = ", ".join(_(item) for item in row.items) if row else ""
    return choice_name(f"{rank}: {items}" if items else str(rank))


class PriceCommands(Autocomplete):
    """``/vic price``."""

    @app_commands.command(name="price", description="Price an item, buy it")
    @app_commands.describe(
        rank="The item's wealth rank (examples as you type)",
        item="What it is",
        pc="Who acquires it (their action this turn)",
        modifiers="Custom-built, illegal…: split by commas (or pick them in the menu)",
        buy="Buy it at once when there is one way to pay (else the price shows every way)",
    )
    async def price(
        self,
        interaction: discord.Interaction,
        rank: app_commands.Range[int, 1, 7],
        item: app_commands.Range[str, 1, ITEM_MAX] | None = None,
        pc: str | None = None,
        modifiers: app_commands.Range[str, 1, 200] | None = None,
        buy: bool = False,
    ) -> None:
        """Free, N coins or not obtainable, with the arithmetic; modifiers in the menu; with ``buy``, bought at once
        when only one way to pay is left (choosing between coins is the buyer's)."""
        reply = Reply.of(interaction)
        session = await self.campaign_here(interaction)
        state = self.state(session)
        if pc is not None:
            pc = self.pc_typed(session, interaction, pc)
        draft = Draft(rank, modifiers_typed(modifiers), pc or "", item or unnamed(rank))
        if len(ui_id(KIND, session.id, "pay", f"l7.{draft_arg(draft)}")) > CUSTOM_ID_MAX:
            raise InvalidInput(_("That item's name is too long: shorten it a little."))
        gm = viewer_of(session, interaction).is_gm
        ways = ways_to_pay(state, draft, gm=gm)[1] if buy else []
        if len(ways) == 1:
            await reply.send(await make_purchase(self.bot, reply, session, ways[0][1], draft), ephemeral=True)
            return
        await reply.send(ephemeral=True, **price_message(session, state, draft, gm=gm))

    @price.autocomplete("modifiers")
    async def _modifiers_typed(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        typed, _comma, last = current.rpartition(",")
        head = [w.strip() for w in typed.split(",") if w.strip()]
        return [
            app_commands.Choice(name=choice_name(text), value=text[:100])
            for key in MODIFIERS
            if short(key) not in head and short(key).casefold().startswith(last.strip().casefold())
            for text in [", ".join([*head, short(key)])]
        ][:25]

    @price.autocomplete("rank")
    async def _ranks(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[int]]:
        return [app_commands.Choice(name=rank_examples(r.rank), value=r.rank) for r in RANKS if current in str(r.rank)]

    @price.autocomplete("pc")
    async def _pcs(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        return await self.pc_choices(interaction, current)


class RewardCommands(VicBase):
    """``/vic-gm reward``, ``/vic-gm invest``, ``/vic-gm divest``."""

    @app_commands.command(name="reward", description="Pay a reward in liquid coins (GM)", extras=PUBLIC_ANSWER)
    @app_commands.describe(
        method="How the company earned it: the base reward",
        npc_rank="The wealth rank of whoever it came from",
        invest="Turn the coins into investment points at once (1 IP each)",
        next_turn="Then end this turn and start the next, as Next: turn on the sheet",
    )
    @app_commands.choices(method=METHOD_CHOICES)
    async def reward(
        self,
        interaction: discord.Interaction,
        method: str,
        npc_rank: app_commands.Range[int, 1, 7],
        invest: bool = False,
        next_turn: bool = False,
    ) -> None:
        """Coins at the company's rank: the method's base plus the ranks the NPC is above it, at least 0; with
        ``next_turn``, the turn moves on in the same step (each change its own entry and news)."""
        action = Reward(method=method, npc_rank=npc_rank, invest=invest)
        if not next_turn:
            await self.act_and_tell(interaction, action)
            return
        session = await self.campaign_here(interaction)
        which = "next" if self.state(session).turn.running else "start"
        await start_or_end(self.bot, Reply.of(interaction), session, which, first=action)

    @app_commands.command(name="invest", description="Coins → IP, 1 each", extras=PUBLIC_ANSWER)
    @app_commands.describe(
        coins="How many liquid coins",
        rank="Their rank (default: the company's)",
    )
    async def invest(
        self,
        interaction: discord.Interaction,
        coins: app_commands.Range[int, 1, 100] = 1,
        rank: app_commands.Range[int, 1, 7] | None = None,
    ) -> None:
        """A new wealth rank is announced the moment it is reached."""
        session = await self.campaign_here(interaction)
        company = self.state(session).company
        if rank is None:
            held = [c.rank for c in company.liquid]
            rank = company.rank if company.rank in held or len(held) != 1 else held[0]
        await self.act_and_tell(interaction, Invest(rank=rank, n=coins), session=session)

    @app_commands.command(name="divest", description="2 IP → 1 coin", extras=PUBLIC_ANSWER)
    @app_commands.describe(
        coins="Liquid coins wanted, 2 IP each",
    )
    async def divest(self, interaction: discord.Interaction, coins: app_commands.Range[int, 1, 100] = 1) -> None:
        """The coins have the rank the company had before; a lower rank is announced."""
        await self.act_and_tell(interaction, Divest(n=coins))
