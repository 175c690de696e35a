"""Dice pools built together in the channel (RULES.md P3–P5): ``/vic-gm violence``, ``knavery``, ``npc``,
and the controls of a pool's board (join, choose dice, push, clash decisions, death tests, flight, thwarting).

The GM opens a pool and its board is posted (the view ``pool:<id>``, redrawn after every change).
Characters join with a button and pick their trait dice from a private select of their own traits'
clauses. A click that rolls or resolves is answered with what happened, every die as a face, in a
message of its own (its news, written with the roll: told after a crash too), so the channel keeps the
whole fight; other clicks answer silently and the board is redrawn.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands

from bot.board import static_view
from bot.controls import decode_action, ui_id
from bot.errors import IllegalMove, NotPermitted, UserError
from bot.forms import INPUTS_MAX, Input, action_modal
from bot.i18n import N_, _, _n
from bot.lobby import actor_of
from bot.models import VIEW_RECORDS_JOIN, Applied, Session, roles_of
from bot.names import escape_name
from bot.replies import PUBLIC_ANSWER, Reply
from bot.service import Expect
from bot.spec import ViewContext
from cogs.viciousness.common import KIND, MAX_CONTENT, VicBase, parse, salted
from cogs.viciousness.controls import Controls, UIHandler
from cogs.viciousness.dice_text import planned, trait_clauses
from cogs.viciousness.narrate import narrate
from cogs.viciousness.pools_view import (
    ACT,
    ANY,
    MAX_OPTIONS,
    SETTLE,
    act_select,
    board_key,
    join_options,
    render_pool,
    view_key,
)
from cogs.viciousness.text import cut
from rules.engine import GM_ROLES, PUBLIC, visible
from rules.text import echo, whole_number
from rules.viciousness.actions import (
    AddNPC,
    AssignHits,
    CancelHits,
    NPCGroup,
    OpenKnavery,
    OpenViolence,
    SetChallenges,
)
from rules.viciousness.knavery import scheme_pushers
from rules.viciousness.pools import joinable
from rules.viciousness.state import (
    MAX_EXTRA_DICE,
    MAX_ROLL_AT,
    MAX_SIDES,
    PC,
    CampaignState,
    Combatant,
    KnaveryPool,
    Pool,
    ViolencePool,
)
from rules.viciousness.violence import clash, pushers

if TYPE_CHECKING:
    from bot.app import TabletopBot

MAX_DICE_SELECTS = 4
ROLL_AT_HELP = "Roll it by itself once this many characters are in, without your click"
"""An option's description: the command tree's own, translated as the commands are."""
MAX_NPCS = 20
"""NPCs alike added at once."""


def state_of(bot: TabletopBot, session: Session) -> CampaignState:
    """The campaign's state."""
    state = bot.service.state_of(session)
    assert isinstance(state, CampaignState)
    return state


def is_gm(session: Session, reply: Reply) -> bool:
    """Whether the member clicking is the GM or a co-GM."""
    return bool(roles_of(session, actor_of(reply.interaction)) & GM_ROLES)


def playable(state: CampaignState, session: Session, reply: Reply) -> list[PC]:
    """The active PCs the member clicking plays: their own troupe's, or every one for a GM."""
    uid = str(reply.interaction.user.id)
    gm = is_gm(session, reply)
    return [
        pc
        for owner, troupe in state.troupes.items()
        for pc in troupe.pcs
        if pc.active and (gm or (owner == uid and not pc.gm_controlled))
    ]


def pool_of(state: CampaignState, pool_id: str) -> Pool:
    """The open pool ``pool_id``, or a refusal saying it is over."""
    pool = state.pools.get(pool_id)
    if pool is None:
        raise IllegalMove(_("That pool is over."))
    return pool


def mine(
    state: CampaignState, session: Session, reply: Reply, pool: Pool, *, standing: bool = False
) -> list[Combatant]:
    """The combatants of ``pool`` the clicker plays: their own PCs (every combatant, for a GM)."""
    gm = is_gm(session, reply)
    ids = {pc.id for pc in playable(state, session, reply)}
    return [c for c in pool.combatants if (gm or c.id in ids) and (not standing or c.status == "in")]


async def tell(bot: TabletopBot, reply: Reply, session: Session, events: Iterable[Mapping[str, Any]]) -> None:
    """Answer a click whose news did not (nothing the channel is told): a private message it came from says what
    happened; otherwise the click is answered silently (the board is redrawn)."""
    if reply.took_news:
        return
    lines = narrate(state_of(bot, session), [dict(e) for e in events if visible(e, PUBLIC)])
    message = reply.interaction.message
    if message is not None and message.flags.ephemeral:
        await reply.update(
            content=cut("✅ " + "\n".join(lines), MAX_CONTENT) if lines else _("✅ Done."), ephemeral=True
        )
    else:
        await reply.ack()


async def commit(
    bot: TabletopBot, reply: Reply, session: Session, action: Mapping[str, Any], *, answer: bool = True
) -> Applied:
    """Take an engine action for the member of ``reply``. With ``answer``, the interaction is answered with the
    change's news (if it has any), before the boards are redrawn; without, the news is posted in the channel and
    the caller answers privately (a GM's screen or panel)."""
    actor, parsed = actor_of(reply.interaction), salted(parse(_may_roll(state_of(bot, session), action)))
    # A control on a pool says the pool's version it was drawn on: the clicker's own change to it since (their
    # earlier click) makes the click stale, so N clicks at once apply once; others' changes don't (players build
    # a pool together, and the engine checks the action again).
    pool = action.get("pool")
    drawn = reply.drawn
    expect = Expect(drawn, view_key(str(pool)), shared=True) if drawn is not None and pool is not None else None
    if not answer:
        return await bot.service.act(session.id, actor, parsed, expect=expect)
    reply.answers_first = True
    return await bot.service.act(session.id, actor, parsed, expect=expect, origin=reply)


def _may_roll(state: CampaignState, action: Mapping[str, Any]) -> Mapping[str, Any]:
    """A join or a pick in a pool the GM set to roll by itself says it may roll it (the engine rolls it when due)."""
    pool = state.pools.get(str(action.get("pool")))
    if action.get("type") in ("join", "pick") and pool is not None and pool.roll_at is not None:
        return {**action, "may_roll": True}
    return action


async def take(bot: TabletopBot, reply: Reply, session: Session, action: Mapping[str, Any]) -> None:
    """Take an engine action for the clicker, answered with what happened."""
    applied = await commit(bot, reply, session, action)
    await tell(bot, reply, applied.session, applied.events)


async def choose(
    reply: Reply,
    session: Session,
    key: str,
    arg: str,
    options: Sequence[tuple[str, str]],
    question: str,
    *,
    none: str = N_("None of your characters can do that here."),
) -> None:
    """Ask privately which one (a select that comes back to the same control with the value picked);
    ``question`` is said as it is given, ``none`` (marked, English) is the refusal when there is nobody to choose."""
    if not options:
        raise NotPermitted(_(none))
    menu: discord.ui.Select[Any] = discord.ui.Select(
        custom_id=ui_id(KIND, session.id, key, arg, drawn=reply.drawn),  # expected as the control that asked
        options=[discord.SelectOption(label=text[:100], value=value) for text, value in options[:25]],
        placeholder=question[:150],
    )
    await reply.send(question, ephemeral=True, view=static_view([[menu]]))


# -- the board's own controls ---------------------------------------------------------------------------------------


def chosen_action(arg: str, values: list[str]) -> dict[str, Any]:
    """The engine action of a game control: in its arg (with a select's values), or the option picked (``*``)."""
    if not arg.startswith(ANY):
        return decode_action(arg, values)
    if len(values) != 1:
        raise UserError(_("Pick one option."))
    return decode_action(values[0])


async def _act(bot: TabletopBot, reply: Reply, session: Session, arg: str, values: list[str]) -> None:
    await take(bot, reply, session, chosen_action(arg, values))


async def _settle(bot: TabletopBot, reply: Reply, session: Session, arg: str, values: list[str]) -> None:
    """The GM's clash decision picked right after the roll: the hits are worked out, then the decision taken."""
    action = chosen_action(arg, values)
    pool = state_of(bot, session).pools.get(str(action.get("pool")))
    if isinstance(pool, ViolencePool) and pool.stage == "rolled":
        session = (await commit(bot, reply, session, {"type": "resolve", "pool": pool.id})).session
        reply.drawn = session.records.get(view_key(pool.id))  # the decision follows the click's own resolve
    await take(bot, reply, session, action)


async def _join(bot: TabletopBot, reply: Reply, session: Session, arg: str, values: list[str]) -> None:
    """Join a pool: from the board's select (a character, and a side in a fight), or from *Join*, which asks the
    clicker privately which of their characters when there is a choice. The answer shows the dice they bring."""
    state = state_of(bot, session)
    pool_id, picked = arg.partition("|")[::2]
    pool = pool_of(state, pool_id)
    pc_id, side = (values[0] if values else picked).partition("|")[::2]
    fight = isinstance(pool, ViolencePool)
    if not pc_id or (fight and not side):
        mine_ = {pc.id for pc in playable(state, session, reply)}
        pcs = [pc for pc in joinable(state, pool) if pc.id in mine_ and (not pc_id or pc.id == pc_id)]
        options, question = (
            join_options(state, pool, pcs),
            _("Who joins, and on which side?") if fight else _("Who joins?"),
        )
        if len(options) > MAX_OPTIONS:  # too many pairs for one select: the character first, then the side
            options, question = [(pc.name, pc.id) for pc in pcs], _("Who joins? (the side comes next)")
        if len(options) != 1 or (fight and "|" not in options[0][1]):
            none = (
                N_("None of your characters can join: each has acted this turn, is in a pool already or is wounded.")
                if fight
                else N_("None of your characters can join: each has acted this turn, is in a pool already.")
            )
            await choose(reply, session, "join", pool_id, options, question, none=none)
            return
        pc_id, side = options[0][1].partition("|")[::2]
    action = {"type": "join", "pool": pool_id, "pc": pc_id, **({"side": side} if side else {})}
    applied = await commit(bot, reply, session, action, answer=False)
    await tell_dice(bot, reply, applied.session, pool_id, pc_id, joined=True)


async def tell_dice(
    bot: TabletopBot, reply: Reply, session: Session, pool_id: str, who: str, *, joined: bool = False
) -> None:
    """Privately: the dice a combatant brings, and a select of their trait dice to change them."""
    state = state_of(bot, session)
    pool = state.pools.get(pool_id)
    if pool is None or pool.stage != "gather":  # it rolled by itself with this change: nothing is left to pick
        pc = state.find_pc(who)
        name = escape_name(pc.name) if pc is not None else _("Your character")
        text = (
            _("✅ {name} joins, and the pool rolls by itself: see the channel.", name=name)
            if joined
            else _("✅ {name} has their dice, and the pool rolls by itself: see the channel.", name=name)
        )
        await _answer_privately(reply, text, static_view([]))
        return
    c = next(x for x in pool.combatants if x.id == who)
    ctx = ViewContext(session=session, state=state, prompts=[], events=[])
    menu = _dice_menu(ctx, pool, c)
    name, now = escape_name(c.name), planned(state, pool, c)
    if menu is None and joined:
        text = _("✅ {name} joins with {dice}: none of their traits gives dice.", name=name, dice=now)
    elif menu is None:
        text = _("✅ {name} rolls {dice}: none of their traits gives dice.", name=name, dice=now)
    elif joined and c.picks:
        text = _(
            "✅ {name} joins with {dice}, their usual dice. If they don't apply here, change them below.",
            name=name,
            dice=now,
        )
    elif joined:
        text = _(
            "✅ {name} joins with {dice}. Pick the trait dice that apply (an add needs its gain):", name=name, dice=now
        )
    else:
        text = _("✅ {name} rolls {dice}.", name=name, dice=now)
    await _answer_privately(reply, text, static_view([[menu]] if menu is not None else []))


async def _answer_privately(reply: Reply, text: str, view: discord.ui.View | None) -> None:
    """Answer in the private message the click came from (updated), or in a new private one."""
    message = reply.interaction.message
    if message is not None and message.flags.ephemeral:
        await reply.update(content=text, view=view, ephemeral=True)
    else:
        await reply.send(text, ephemeral=True, view=view)


def _dice_menu(ctx: ViewContext[CampaignState], pool: Pool, c: Combatant) -> discord.ui.Select[Any] | None:
    clauses = trait_clauses(ctx.state, c)
    if not clauses:
        return None
    chosen = set(c.picks)
    options = [
        discord.SelectOption(
            label=label[:100], value=f"{p.trait}|{p.clause}", description=_(condition)[:100], default=p in chosen
        )
        for p, label, condition in clauses[:25]
    ]
    return discord.ui.Select(
        custom_id=ui_id(
            KIND, ctx.session.id, "picks", f"{pool.id}|{c.id}", drawn=ctx.expect(view_key(pool.id)).version
        ),
        options=options,
        placeholder=_("{name}: the trait dice that apply", name=c.name)[:150],
        min_values=0,
        max_values=len(options),
    )


async def _pick(bot: TabletopBot, reply: Reply, session: Session, arg: str, values: list[str]) -> None:
    state = state_of(bot, session)
    pool = pool_of(state, arg)
    ctx = ViewContext(session=session, state=state, prompts=[], events=[])
    combatants = [c for c in mine(state, session, reply, pool) if c.pc][:MAX_DICE_SELECTS]
    if not combatants:
        raise NotPermitted(_("Join the pool first: then choose your dice."))
    lines: list[str] = []
    rows: list[list[discord.ui.Item[Any]]] = []
    for c in combatants:
        menu = _dice_menu(ctx, pool, c)
        now = planned(state, pool, c)
        name = escape_name(c.name)
        if menu is None:
            lines.append(_("**{name}** has no trait dice here: {dice}.", name=name, dice=now))
        else:
            lines.append(
                _(
                    "**{name}** rolls {dice}. Pick every clause that applies (an add needs its gain).",
                    name=name,
                    dice=now,
                )
            )
            rows.append([menu])
    await reply.send("\n".join(lines), ephemeral=True, view=static_view(rows))


async def _picks(bot: TabletopBot, reply: Reply, session: Session, arg: str, values: list[str]) -> None:
    pool_id, who = arg.partition("|")[::2]
    picks = []
    for value in values:
        trait, clause = value.rpartition("|")[::2]
        picks.append({"trait": trait, "clause": int(clause)})
    action = {"type": "pick", "pool": pool_id, "who": who, "picks": picks}
    applied = await commit(bot, reply, session, action, answer=False)
    await tell_dice(bot, reply, applied.session, pool_id, who)


def _may_push(state: CampaignState, pool: Pool) -> set[str]:
    """The combatants who may push to reroll now: those not rattled who haven't pushed (this roll, in a fight)."""
    found = pushers(state, pool) if isinstance(pool, ViolencePool) else scheme_pushers(state, pool)
    return {c.id for c in found}


def _for_one(
    key: str,
    build: Callable[[Pool, str], dict[str, Any]],
    *,
    standing: bool = True,
    question: str = N_("Which character?"),
    who_may: Callable[[CampaignState, Pool], set[str]] | None = None,
    none: str = N_("None of your characters in this pool can do that."),
) -> UIHandler:
    """A control that acts for one of the clicker's combatants (of those ``who_may``): asked privately when they have
    several; ``none`` is the refusal when they have none (both marked English, said when asked)."""

    async def handler(bot: TabletopBot, reply: Reply, session: Session, arg: str, values: list[str]) -> None:
        state = state_of(bot, session)
        pool = pool_of(state, arg)
        who = values[0] if values else None
        if who is None:
            allowed = who_may(state, pool) if who_may is not None else None
            options = [
                (c.name, c.id)
                for c in mine(state, session, reply, pool, standing=standing)
                if (c.pc or key == "flee") and (allowed is None or c.id in allowed)
            ]
            if len(options) != 1:
                await choose(reply, session, key, arg, options, _(question), none=none)
                return
            who = options[0][1]
        await take(bot, reply, session, build(pool, who))

    return handler


NO_PUSH = N_("None of your characters can push now: a rattled character can't, and each pushes once a roll.")


GM_PANEL = "gmpick"
"""The key of the GM's dice panel's picks (``_gm_pick``)."""
GM_PANEL_TEXT = N_(
    "GM: veto or grant dice, give the best-equipped side its d4s, let someone join again, change the challenges."
)


async def _gm_dice(bot: TabletopBot, reply: Reply, session: Session, arg: str, values: list[str]) -> None:
    if not is_gm(session, reply):
        raise NotPermitted(_("Only the GM can veto or grant dice."))
    rows = _gm_panel(session, state_of(bot, session), arg)
    if not rows:
        raise IllegalMove(_("Nobody has joined yet."))
    await reply.send(_(GM_PANEL_TEXT), ephemeral=True, view=static_view(rows))


async def _gm_pick(bot: TabletopBot, reply: Reply, session: Session, arg: str, values: list[str]) -> None:
    """A pick on the GM's dice panel: taken, then the panel drawn again on the pool as it is now, so the next pick
    is made on what this one changed (a second die granted adds to the first)."""
    action = chosen_action(arg, values)
    applied = await commit(bot, reply, session, action, answer=False)
    state = state_of(bot, applied.session)
    lines = narrate(state, [dict(e) for e in applied.events if visible(e, PUBLIC)]) or [_("Done.")]
    rows = _gm_panel(applied.session, state, str(action.get("pool"))) if action.get("pool") in state.pools else []
    await reply.update(content=cut("✅ " + "\n".join(lines), MAX_CONTENT), view=static_view(rows), ephemeral=True)


def _gm_panel(session: Session, state: CampaignState, pool_id: str) -> list[list[discord.ui.Item[Any]]]:
    """The GM's dice panel of a pool: vetoes, grants, equipment, a second action, the challenges (up to 5 rows)."""
    pool = pool_of(state, pool_id)
    ctx = ViewContext(session=session, state=state, prompts=[], events=[])
    rows: list[list[discord.ui.Item[Any]]] = []
    veto = [
        (
            _("Veto {name}'s {trait}", name=c.name, trait=p.trait),
            {"type": "veto", "pool": pool.id, "who": c.id, "trait": p.trait},
        )
        for c in pool.combatants
        for p in dict.fromkeys(c.picks)
    ]
    if veto:
        rows.append([act_select(ctx, veto, _("Veto a trait that doesn't apply"), "veto", key=GM_PANEL)])
    grant: list[tuple[str, Mapping[str, Any]]] = []
    for c in pool.combatants[:8]:
        base = {"type": "grant", "pool": pool.id, "who": c.id}
        grant += [(_("Grant {name} +d{sides}", name=c.name, sides=n), {**base, "dice": [*c.extra, n]}) for n in (4, 6)]
        if c.extra:
            grant.append((_("Take back {name}'s granted dice", name=c.name), {**base, "dice": []}))
    if grant:
        rows.append([act_select(ctx, grant, _("Grant a die"), "grant", key=GM_PANEL)])
    if isinstance(pool, ViolencePool):
        equip = [
            (
                _n("{side}: {n} equipment d4", "{side}: {n} equipment d4", n, side=s.name),
                {"type": "equip", "pool": pool.id, "side": s.id, "n": n},
            )
            for s in pool.sides
            for n in (0, 1, 2)
        ]
        rows.append([act_select(ctx, equip, _("Equipment dice (one side only)"), "equip", key=GM_PANEL)])
    # Someone who has acted this turn takes part only by the GM's leave (logged).
    again = join_options(state, pool, joinable(state, pool, acted=True))
    if pool.stage == "gather" and again:
        allowed = [
            (
                _("{name} (a second action)", name=text),
                {"type": "join", "pool": pool.id, **_pc_side(value), "exception": True},
            )
            for text, value in again
        ]
        rows.append([act_select(ctx, allowed, _("Let someone who has acted this turn join…"), "again", key=GM_PANEL)])
    if isinstance(pool, KnaveryPool) and pool.stage == "gather":
        rows.append([ctx.ui_button(_("Change the challenges…"), "challenges", pool.id, emoji="🧩")])
    return rows[:5]


def _pc_side(value: str) -> dict[str, str]:
    """``<pc>|<side>`` (a join option's value) as the fields of a join."""
    pc, side = value.partition("|")[::2]
    return {"pc": pc, **({"side": side} if side else {})}


async def _challenges(bot: TabletopBot, reply: Reply, session: Session, arg: str, values: list[str]) -> None:
    """*Change the challenges…*: a form with how many there are and the ones the group knows (a clever plan or a
    pushed trait can take one away); sent, it changes them."""
    if not is_gm(session, reply):
        raise NotPermitted(_("Only the GM can change a scheme's challenges."))
    pool = pool_of(state_of(bot, session), arg)
    if not isinstance(pool, KnaveryPool):
        raise IllegalMove(_("Only a scheme has challenges."))
    known = "\n".join(c.label for c in pool.challenges if c.known)
    inputs = [
        Input("total", label=_("How many challenges in all"), default=str(len(pool.challenges))),
        Input("known", label=_("Those the group knows, one a line"), lines=True, required=False, default=known),
    ]
    modal = action_modal(
        session, SetChallenges, inputs, title=_("The scheme's challenges"), fixed={"pool": pool.id}, game=True
    )
    await reply.modal(modal)


async def _share(bot: TabletopBot, reply: Reply, session: Session, arg: str, values: list[str]) -> None:
    """Cancelling or sending hits with more ways than a select holds: a form with a number per side."""
    state = state_of(bot, session)
    pool = pool_of(state, arg)
    need = clash(pool, state.options).need if isinstance(pool, ViolencePool) and pool.stage == "clash" else None
    if need is None or need.kind == "aim":
        raise IllegalMove(_("The fight isn't waiting for hits to be shared now."))
    assert isinstance(pool, ViolencePool)
    names = {s.id: s.name for s in pool.sides}
    cancel = need.kind == "cancel"
    model, field, to = (CancelHits, "cancels", N_("Of {side}")) if cancel else (AssignHits, "to", N_("At {side}"))
    inputs = [Input(f"{field}.{s}", label=_(to, side=names[s]), default="0") for s in list(need.options)[:INPUTS_MAX]]
    title = _share_title(cancel, need.exact, need.amount)
    fixed = {"pool": pool.id, "side": need.side}
    await reply.modal(action_modal(session, model, inputs, title=title, fixed=fixed, game=True))


def _share_title(cancel: bool, exact: bool, n: int) -> str:
    """The hits-sharing form's title (English says "hits" for one too)."""
    if cancel and exact:
        return _n("Cancel {n} hits", "Cancel {n} hits", n)
    if cancel:
        return _n("Cancel up to {n} hits", "Cancel up to {n} hits", n)
    if exact:
        return _n("Send {n} hits", "Send {n} hits", n)
    return _n("Send up to {n} hits", "Send up to {n} hits", n)


def register(controls: Controls) -> None:
    """A pool's board, its controls and its forms."""
    # ``pool:<id>`` (boards posted before they followed the roster) or ``pool:<id>+roster``.
    controls.view("pool", lambda ctx: render_pool(ctx, ctx.view.partition(":")[2].partition(VIEW_RECORDS_JOIN)[0]))
    for name, handler in (
        (ACT, _act),
        (SETTLE, _settle),
        ("share", _share),
        ("join", _join),
        ("pick", _pick),
        ("picks", _picks),
        ("leave", _for_one("leave", lambda pool, who: {"type": "leave", "pool": pool.id, "who": who}, standing=False)),
        (
            "reroll",
            _for_one(
                "reroll",
                lambda pool, who: {"type": "reroll", "pool": pool.id, "who": who},
                who_may=_may_push,
                none=NO_PUSH,
            ),
        ),
        (
            "freeroll",
            _for_one("freeroll", lambda pool, who: {"type": "reroll", "pool": pool.id, "who": who, "free": True}),
        ),
        ("flee", _for_one("flee", lambda pool, who: {"type": "flee", "pool": pool.id, "who": who})),
        ("gmdice", _gm_dice),
        (GM_PANEL, _gm_pick),
        ("challenges", _challenges),
    ):
        controls.control(name, handler)
    for model in (SetChallenges, CancelHits, AssignHits):
        controls.form(model, take)


# -- commands -------------------------------------------------------------------------------------------------------


def _sides(text: str) -> list[str]:
    """``Knives vs Guards (2) vs Rats`` (or split by commas or semicolons outside brackets) → the sides as typed."""
    if " vs " in text:
        return [p.strip() for p in text.split(" vs ") if p.strip()]
    parts, depth, current = [], 0, ""
    for char in text:
        depth += {"(": 1, ")": -1}.get(char, 0)
        if char in ",;" and depth == 0:
            parts.append(current)
            current = ""
        else:
            current += char
    return [p.strip() for p in [*parts, current] if p.strip()]


SIDE_WITH_NPCS = re.compile(r"^(?P<side>.*?)\s*\((?P<npcs>[^()]*)\)$")
DIE_WORD = re.compile(r"^\d*d\d+$", re.IGNORECASE)


def side_and_npcs(text: str, index: int) -> tuple[str, NPCGroup | None]:
    """A side as typed, with the NPCs on it in brackets: ``Guards (2)`` (two NPCs named after the side),
    ``Rats (Rat)``, ``Guards (3 Guard d6)`` (how many, their name, the dice each adds to its base die)."""
    found = SIDE_WITH_NPCS.match(text.strip())
    if found is None:
        return text.strip(), None
    side, words = found["side"].strip() or text.strip(), found["npcs"].split()
    count = int(words.pop(0)) if words and words[0].isdigit() else 1
    dice = [w for w in words if DIE_WORD.match(w)]
    name = " ".join(w for w in words if not DIE_WORD.match(w)) or side
    if not 1 <= count <= MAX_NPCS:
        raise IllegalMove(_("{side}: between 1 and {most} NPCs on a side.", side=escape_name(side), most=MAX_NPCS))
    return side, NPCGroup(side=index, name=name[:70], count=count, dice=tuple(_dice(" ".join(dice))))


def _dice(text: str | None) -> list[int]:
    out: list[int] = []
    for word in (text or "").replace(",", " ").split():
        n, sides = word.casefold().partition("d")[::2]
        count = whole_number(n) if n else 1
        if sides not in ("4", "6") or count is None:
            raise IllegalMove(_("{word}: NPC dice are d4s and d6s, like `d6 2d4`.", word=echo(word, 20, code=True)))
        if len(out) + count > MAX_EXTRA_DICE:
            raise IllegalMove(
                _(
                    "An NPC rolls {most} dice at most besides its base die: {typed}.",
                    most=MAX_EXTRA_DICE,
                    typed=echo(text or "", 60, code=True),
                )
            )
        out += [int(sides)] * count
    return out


class PoolCommands(VicBase):
    """``/vic-gm violence``, ``/vic-gm knavery``, ``/vic-gm npc``."""

    async def _open(self, interaction: discord.Interaction, action: OpenViolence | OpenKnavery) -> None:
        reply = Reply.of(interaction)
        session = await self.campaign_here(interaction)
        applied = await self.act(interaction, action, session)
        pool_id = next(e["pool"] for e in applied.events if e["type"] == "pool_opened")
        await self.bot.publisher.post_view(applied.session, board_key(pool_id), reply)

    @app_commands.command(name="violence", description="Open a fight (GM)", extras=PUBLIC_ANSWER)
    @app_commands.describe(
        sides="Knives vs Guards (2) vs Rats (3 Rat d6): NPCs in brackets",
        title="A name for the fight",
        roll_at=ROLL_AT_HELP,
    )
    async def violence(
        self,
        interaction: discord.Interaction,
        sides: app_commands.Range[str, 3, 400],
        title: app_commands.Range[str, 1, 200] | None = None,
        roll_at: app_commands.Range[int, 1, MAX_ROLL_AT] | None = None,
    ) -> None:
        """A fight with two or more sides."""
        typed = _sides(sides)
        if len(typed) < 2:
            raise IllegalMove(_("A fight needs two sides or more: `The company vs Guards`."))
        if len(typed) > MAX_SIDES:
            raise IllegalMove(
                _("A fight has {most} sides at most; that makes {n}: put some together.", most=MAX_SIDES, n=len(typed))
            )
        parsed = [side_and_npcs(text, i) for i, text in enumerate(typed)]
        names = tuple(name[:80] for name, _group in parsed)
        npcs = tuple(group for _name, group in parsed if group is not None)
        await self._open(interaction, OpenViolence(title=title or "", sides=names, npcs=npcs, roll_at=roll_at))

    @app_commands.command(name="knavery", description="Open a scheme (GM)", extras=PUBLIC_ANSWER)
    @app_commands.describe(
        challenges="How many challenges in all",
        known="Those the group knows, split by ;",
        title="A name for the scheme",
        roll_at=ROLL_AT_HELP,
    )
    async def knavery(
        self,
        interaction: discord.Interaction,
        challenges: app_commands.Range[int, 0, 30],
        known: app_commands.Range[str, 1, 1000] | None = None,
        title: app_commands.Range[str, 1, 200] | None = None,
        roll_at: app_commands.Range[int, 1, MAX_ROLL_AT] | None = None,
    ) -> None:
        """A scheme against ``challenges`` challenges."""
        labels = tuple(k.strip() for k in (known or "").split(";") if k.strip())
        await self._open(interaction, OpenKnavery(title=title or "", total=challenges, known=labels, roll_at=roll_at))

    @app_commands.command(name="npc", description="Add NPCs to the open pool (GM)")
    @app_commands.describe(
        name="Their name (numbered when several)",
        count="How many alike",
        dice="Besides the base die: d6 2d4",
        side="Their side in a fight",
    )
    async def npc(
        self,
        interaction: discord.Interaction,
        name: app_commands.Range[str, 1, 70],
        count: app_commands.Range[int, 1, 20] = 1,
        dice: app_commands.Range[str, 1, 60] | None = None,
        side: str | None = None,
    ) -> None:
        """NPCs join the newest pool still gathering."""
        session = await self.campaign_here(interaction)
        if not self.typer(session, interaction)[1]:
            raise NotPermitted(_("Only the GM can {doing}.", doing=AddNPC.DOING))
        state = self.state(session)
        gathering = [p for p in state.pools.values() if p.stage == "gather"]
        if not gathering:
            raise IllegalMove(_("No pool is gathering: open one with `/vic-gm violence` or `/vic-gm knavery`."))
        pool = gathering[-1]
        side_id = None
        if isinstance(pool, ViolencePool):
            key = (side or "").strip().casefold()
            found = [s for s in pool.sides if key in (s.id, s.name.casefold())]
            if not found:
                names = ", ".join(f"{s.id.upper()} ({s.name})" for s in pool.sides)
                raise IllegalMove(_("Which side? {sides}.", sides=escape_name(names)))
            side_id = found[0].id
        action = AddNPC(pool=pool.id, side=side_id, name=name, count=count, dice=tuple(_dice(dice)))
        done = _("Added to the fight.") if isinstance(pool, ViolencePool) else _("Added to the scheme.")
        await self.act_and_tell(interaction, action, done=done, session=session)

    @npc.autocomplete("side")
    async def _npc_sides(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        try:
            state = self.state(await self.campaign_here(interaction))
        except UserError:
            return []
        fights = [p for p in state.pools.values() if isinstance(p, ViolencePool) and p.stage == "gather"]
        if not fights:
            return []
        key = current.casefold()
        return [
            app_commands.Choice(name=f"{s.id.upper()}. {s.name}"[:100], value=s.id)
            for s in fights[-1].sides
            if key in s.name.casefold() or key == s.id
        ][:25]
