"""A dice pool's board (the view ``pool:<id>``) and the sentences its rolls are told in.

The board is drawn for the channel from the engine's state: each side (or the schemers) with every
die as a face and its owner, what counts, the clash, and controls for exactly what the pool waits
for. Controls are the game's own (``u:`` custom ids, handled by :mod:`cogs.viciousness.pools`), each
carrying the engine action it takes, so the answer to a click can be the roll's result.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from itertools import product
from typing import Any

import discord

from bot.controls import SELECTED_ALL, ControlTooLong, encode_action, ui_id
from bot.i18n import N_, _, _n, localize
from bot.models import VIEW_RECORDS_JOIN
from bot.names import escape_name
from bot.spec import View, ViewContext
from cogs.viciousness.dice_text import RATTLED_LEGEND, combatant_line, die_face, face, legend, tally
from cogs.viciousness.narrate import NARRATORS, Event
from cogs.viciousness.odds import odds_now
from cogs.viciousness.rules_text import FIGHT_RULES, SCHEME_RULES, house_rules_line
from cogs.viciousness.text import cut
from rules.viciousness.catalogue import find_trait
from rules.viciousness.dicepool import is_rattled
from rules.viciousness.knavery import free_push_left, label, scheme_pushers
from rules.viciousness.permissions import side_players
from rules.viciousness.pools import joinable
from rules.viciousness.state import PC, CampaignState, KnaveryPool, Landed, Pool, ViolencePool
from rules.viciousness.violence import Need, clash, fighters, fighting_sides, free_rerolls, pushers

POOL_VIEW = "pool:"
ROSTER = "roster"
"""The engine's record of who may take part in a pool now."""
ACT = "act"
"""The ``on_ui`` key of a control that takes the engine action in its arg (``*``: the option picked)."""
SETTLE = "settle"
"""Like ``act``, for a clash decision drawn before the hits are worked out: they are worked out first."""
ANY = "*"
FIELD_MAX = 1024
FIELD_NAME = 256
EMBED_BUDGET = 5600
"""What a board's embed may hold, under Discord's 6,000 with room for the title and footer."""
MAX_OPTIONS = 25
OPTION_VALUE_MAX = 100
COLOUR_FIGHT = discord.Colour.dark_red()
COLOUR_SCHEME = discord.Colour.dark_purple()

Ctx = ViewContext[CampaignState]
Item = discord.ui.Item[Any]


def view_key(pool_id: str) -> str:
    """The record of a pool (its controls are drawn against it)."""
    return f"{POOL_VIEW}{pool_id}"


def board_key(pool_id: str) -> str:
    """The view of a pool's board: it follows the pool and who may join it (a rest elsewhere redraws its list)."""
    return f"{POOL_VIEW}{pool_id}{VIEW_RECORDS_JOIN}{ROSTER}"


# -- controls -----------------------------------------------------------------------------------------------------


def drawn_on(ctx: Ctx, action: Mapping[str, Any]) -> int | None:
    """The version of the pool an action is about, as a control taking it is drawn (``Reply.drawn``): a click is
    expected of that pool, so a double-click applies once (``pools.commit``). None for an action on no pool."""
    pool = action.get("pool")
    return ctx.expect(view_key(str(pool))).version if pool is not None else None


def act_button(
    ctx: Ctx,
    label_text: str,
    action: Mapping[str, Any],
    *,
    style: discord.ButtonStyle = discord.ButtonStyle.secondary,
    key: str = ACT,
) -> discord.ui.Button[Any]:
    """A button that takes ``action`` through the game's own handler ``key`` (which answers with the result)."""
    return discord.ui.Button(
        label=label_text[:80],
        style=style,
        custom_id=ui_id(ctx.session.kind, ctx.session.id, key, encode_action(action), drawn=drawn_on(ctx, action)),
    )


def ui_button(ctx: Ctx, label_text: str, key: str, arg: str, *, emoji: str | None = None) -> discord.ui.Button[Any]:
    """A button for a private follow-up (join, pick dice, push…) on the pool ``arg``."""
    return ctx.ui_button(label_text, key, arg, emoji=emoji, style=discord.ButtonStyle.primary, record=view_key(arg))


def option_value(action: Mapping[str, Any]) -> str:
    """An action as a select option's value (at most 100 characters: a longer one is a bug to fix here)."""
    value = encode_action(action)
    if len(value) > OPTION_VALUE_MAX:
        raise ControlTooLong(f"select option value over {OPTION_VALUE_MAX} characters: {value!r}")
    return value


def act_select(
    ctx: Ctx, options: Sequence[tuple[str, Mapping[str, Any]]], placeholder: str, tag: str, *, key: str = ACT
) -> discord.ui.Select[Any]:
    """A select whose every option is an engine action (``tag`` tells two selects of one message apart)."""
    drawn = drawn_on(ctx, options[0][1]) if options else None
    return discord.ui.Select(
        custom_id=ui_id(ctx.session.kind, ctx.session.id, key, f"{ANY}{tag}", drawn=drawn),
        options=[
            discord.SelectOption(label=cut(text, 100), value=option_value(a)) for text, a in options[:MAX_OPTIONS]
        ],
        placeholder=placeholder[:150],
    )


def act_multi(
    ctx: Ctx,
    action: Mapping[str, Any],
    field: str,
    options: Sequence[tuple[str, str]],
    n: int,
    placeholder: str,
    *,
    key: str = ACT,
) -> discord.ui.Select[Any]:
    """A select of exactly ``n`` values, which become ``action[field]``."""
    template = encode_action({**action, field: SELECTED_ALL})
    return discord.ui.Select(
        custom_id=ui_id(ctx.session.kind, ctx.session.id, key, template, drawn=drawn_on(ctx, action)),
        options=[discord.SelectOption(label=cut(text, 100), value=value) for text, value in options[:MAX_OPTIONS]],
        placeholder=placeholder[:150],
        min_values=min(n, len(options)),
        max_values=min(n, len(options)),
    )


def splits(amount: int, caps: Mapping[str, int | None], exact: bool) -> list[dict[str, int]]:
    """Every way to share ``amount`` hits among the keys of ``caps`` (each at most its cap), or up to it."""
    keys = list(caps)
    ranges = [range(0, min(amount, caps[k] or amount) + 1) for k in keys]
    out = []
    for counts in product(*ranges):
        total = sum(counts)
        if total == amount or (not exact and total < amount):
            out.append(dict(zip(keys, counts, strict=True)))
        if len(out) > MAX_OPTIONS:
            break
    return out


def _side_name(pool: ViolencePool, side: str) -> str:
    found = next((s for s in pool.sides if s.id == side), None)
    return escape_name(found.name) if found is not None else side


def _event_side(s: CampaignState, e: Event, side: str) -> str:
    """A side an event names: by the pool's name for it, or its opening's once the pool is over."""
    pool = s.pools.get(e["pool"])
    if isinstance(pool, ViolencePool):
        return _side_name(pool, side)
    names = {o["side"]: o["name"] for o in e.get("opened", {}).get("sides", [])}
    return escape_name(names[side]) if side in names else side.upper()


def _pool_kind(s: CampaignState, e: Event) -> str:
    """The kind of pool an event is about (``violence``, ``knavery``; empty if nothing says which)."""
    pool = s.pools.get(e["pool"])
    kind = pool.kind if pool is not None else e.get("kind") or e.get("opened", {}).get("kind")
    return str(kind) if kind in ("violence", "knavery") else ""


def _about_pool(s: CampaignState, e: Event, sentences: Mapping[str, str], **params: Any) -> str:
    """One of ``sentences`` (a whole sentence for a fight, a scheme and a pool of no known kind: each language says
    *the fight* its own way in each place) said for the pool the event is about."""
    return _(sentences[_pool_kind(s, e)], **params)


def _need_control(ctx: Ctx, pool: ViolencePool, need: Need, *, settle: bool = False) -> Item | None:
    """The select of the clash decision ``need``; with ``settle``, picking it also closes the rolls (the GM's
    *Work out the hits* and the first decision in one pick)."""
    base: dict[str, Any] = {"pool": pool.id, "side": need.side}
    who = _side_name(pool, need.side)
    key, head = (SETTLE, _("GM, work out the hits: ")) if settle else (ACT, "")
    if need.kind == "aim":
        names = {c.id: c.name for c in pool.combatants}
        targets = [(names.get(c, c), c) for c in need.choices]
        action = {"type": "aim", **base, "target": need.target}
        question = _n("who does the hit wound?", "who do the {n} hits wound?", need.amount)
        return act_multi(ctx, action, "at", targets, need.amount, f"{head}{who}: {question}", key=key)
    caps: dict[str, int | None] = dict(need.options) if need.kind == "cancel" else dict.fromkeys(need.options)
    ways = [w for w in splits(need.amount, caps, need.exact) if need.kind != "cancel" or any(w.values())]
    if not ways or len(ways) > MAX_OPTIONS:
        return None
    cancel = need.kind == "cancel"
    field = "cancels" if cancel else "to"
    share = N_("{n} of {side}") if cancel else N_("{n} at {side}")
    options: list[tuple[str, Mapping[str, Any]]] = []
    for way in ways:
        parts = ", ".join(_(share, n=n, side=_side_name(pool, s)) for s, n in way.items() if n)
        text = (
            _("{who} cancels {parts}", who=who, parts=parts)
            if cancel
            else _("{who} sends {parts}", who=who, parts=parts)
        )
        options.append((text, {"type": need.kind, **base, field: way}))
    question = _("cancel whose hits?") if cancel else _("send hits where?")
    placeholder = f"{head}{who}: {question}"
    return act_select(ctx, options, placeholder, "clash", key=key)


def _settle_control(ctx: Ctx, pool: ViolencePool) -> Item | None:
    """When the clash will first ask a side only the GM speaks for (NPCs), that choice right away: working out the
    hits and taking it are then one pick of the GM's."""
    need = clash(pool, ctx.state.options).need
    if need is None or side_players(ctx.state, pool.id, need.side):
        return None
    return _need_control(ctx, pool, need, settle=True)


def _death_rows(ctx: Ctx, pool: ViolencePool) -> list[list[Item]]:
    """The death tests waiting: all of them in one click (each rolled and told on its own, without care), or, when
    the fight would go on to its flight phase, rolled and the fight ended in the same click; the care of each in a
    select when the GM chooses otherwise."""
    if not any(c.death for c in pool.combatants):
        return []
    base = {"type": "death_test", "pool": pool.id}
    buttons: list[Item] = [act_button(ctx, _("Roll the death tests"), base, style=discord.ButtonStyle.success)]
    if pool.stage == "wounds" and not pool.ending and len(fighting_sides(pool)) > 1:
        end = {**base, "end": True}
        buttons.append(act_button(ctx, _("Roll them and end the fight"), end, style=discord.ButtonStyle.danger))
    care = _death_select(ctx, pool)
    return [buttons, [care]] if care is not None else [buttons]


def _death_select(ctx: Ctx, pool: ViolencePool) -> Item | None:
    state = ctx.state
    options: list[tuple[str, Mapping[str, Any]]] = []
    medics = [
        c
        for c in pool.combatants
        if c.pc and (pc := state.find_pc(c.id)) is not None and pc.has_trait("Medic") and not pc.wounded
    ]
    for c in pool.combatants:
        if not c.death:
            continue
        base = {"type": "death_test", "pool": pool.id, "who": c.id}
        options.append((_("{name}: death test (d4, dies on 1–2)", name=c.name), {**base, "care": "none"}))
        options.append((_("{name}: with medical attention (dies on 1)", name=c.name), {**base, "care": "attention"}))
        for m in medics:
            if m.id != c.id:
                text = _("{name}: {medic} the Medic attends (no roll)", name=c.name, medic=m.name)
                options.append((text, {**base, "care": "medic", "medic": m.id}))
    return act_select(ctx, options, _("GM: death tests, choosing the care"), "death") if options else None


def join_options(state: CampaignState, pool: Pool, pcs: Sequence[PC]) -> list[tuple[str, str]]:
    """(label, ``<pc>|<side>``) for each character, and each side of a fight."""
    if isinstance(pool, ViolencePool):
        return [(f"{pc.name} → {s.name}", f"{pc.id}|{s.id}") for pc in pcs for s in pool.sides]
    return [(pc.name, pc.id) for pc in pcs]


def _join_select(ctx: Ctx, pool: Pool) -> Item | None:
    """Everyone's characters who may join, in one select: joining is one pick (None when they don't fit one)."""
    options = join_options(ctx.state, pool, joinable(ctx.state, pool))
    if not options or len(options) > MAX_OPTIONS:
        return None
    owners = {pc.id: t.name for t in ctx.state.troupes.values() for pc in t.pcs}
    return discord.ui.Select(
        custom_id=ui_id(ctx.session.kind, ctx.session.id, "join", pool.id, drawn=ctx.expect(view_key(pool.id)).version),
        options=[
            discord.SelectOption(
                label=cut(text, 100), value=value, description=cut(owners[value.partition("|")[0]], 100)
            )
            for text, value in options
        ],
        placeholder=_("Join with… (takes the character's action this turn)"),
    )


def _gather_rows(ctx: Ctx, pool: Pool, closing: str) -> list[list[Item]]:
    join = _join_select(ctx, pool)
    buttons: list[Item] = [] if join is not None else [ui_button(ctx, _("Join"), "join", pool.id, emoji="➕")]
    buttons += [
        ui_button(ctx, _("My dice"), "pick", pool.id, emoji="🎲"),
        ctx.ui_button(_("Leave"), "leave", pool.id, record=view_key(pool.id)),
        act_button(ctx, _("Roll"), {"type": "roll", "pool": pool.id}, style=discord.ButtonStyle.success),
        ctx.ui_button(_("GM: dice…"), "gmdice", pool.id),
    ]
    closer = act_button(ctx, closing, {"type": "close", "pool": pool.id}, style=discord.ButtonStyle.danger)
    if join is None:
        return [buttons[:3], [*buttons[3:], closer]]
    return [[join], [*buttons, closer]]


def _push_buttons(ctx: Ctx, pool: Pool) -> list[Item]:
    """*Push* naming who may still push (none: no button), and a free push when one may be spent."""
    state = ctx.state
    if isinstance(pool, ViolencePool):
        names, free = [c.name for c in pushers(state, pool)], free_rerolls(state, pool)
    else:
        names, free = [c.name for c in scheme_pushers(state, pool)], free_push_left(state, pool)
    buttons: list[Item] = []
    if names:
        text = _("Push: reroll ({names})", names=", ".join(names))
        text = text if len(text) <= 80 else _("Push: reroll my dice")
        buttons.append(ui_button(ctx, text, "reroll", pool.id, emoji="💥"))
    if free:
        buttons.append(ui_button(ctx, _("Free push: reroll"), "freeroll", pool.id, emoji="🆓"))
    return buttons


def _end_after_round(ctx: Ctx, pool: ViolencePool) -> list[Item]:
    """*End after this round* (the GM), until the GM has."""
    if pool.ending:
        return []
    end = {"type": "close", "pool": pool.id, "after_round": True}
    return [act_button(ctx, _("End after this round"), end, style=discord.ButtonStyle.danger)]


def _violence_rows(ctx: Ctx, pool: ViolencePool) -> list[list[Item]]:
    if pool.stage == "gather":
        return _gather_rows(ctx, pool, _("End the fight"))
    rows: list[list[Item]] = []
    if pool.stage == "rolled":
        buttons = _push_buttons(ctx, pool)
        settle = _settle_control(ctx, pool)
        if settle is None:
            resolve = {"type": "resolve", "pool": pool.id}
            buttons.append(act_button(ctx, _("Work out the hits"), resolve, style=discord.ButtonStyle.success))
        rows.append([*buttons, *_end_after_round(ctx, pool)])
        if settle is not None:
            rows.append([settle])
    elif pool.stage == "clash":
        need = clash(pool, ctx.state.options).need
        control = _need_control(ctx, pool, need) if need is not None else None
        if control is not None:
            rows.append([control])
        elif need is not None:
            rows.append([ctx.ui_button(_("Share the hits…"), "share", pool.id)])
        if end := _end_after_round(ctx, pool):
            rows.append(end)
    elif pool.stage == "flight":
        next_round, close = {"type": "next_round", "pool": pool.id}, {"type": "close", "pool": pool.id}
        rows.append(
            [
                ui_button(ctx, _("Flee"), "flee", pool.id, emoji="🏃"),
                act_button(ctx, _("Next round"), next_round, style=discord.ButtonStyle.success),
                act_button(ctx, _("End the fight"), close, style=discord.ButtonStyle.danger),
            ]
        )
    return rows + _death_rows(ctx, pool)


def _knavery_rows(ctx: Ctx, pool: KnaveryPool) -> list[list[Item]]:
    if pool.stage == "gather":
        return _gather_rows(ctx, pool, _("Abandon"))
    rows: list[list[Item]] = []
    n = pool.successes
    if n:
        options = [(localize(label(pool, i)), str(i)) for i in range(len(pool.challenges))]
        action = {"type": "thwart", "pool": pool.id}
        # English says "the 1 thwarted challenges" too; the plural forms let other languages say one their way.
        question = (
            _n("the group: the {n} thwarted challenges", "the group: the {n} thwarted challenges", n)
            if pool.prepared
            else _n("GM: the {n} thwarted challenges", "GM: the {n} thwarted challenges", n)
        )
        rows.append([act_multi(ctx, action, "picks", options, n, question)])
    else:
        rows.append([act_button(ctx, _("Accept the failure"), {"type": "thwart", "pool": pool.id, "picks": []})])
    if buttons := _push_buttons(ctx, pool):
        rows.append(buttons)
    return rows


# -- the board ----------------------------------------------------------------------------------------------------


def _clip(lines: Sequence[str], limit: int = FIELD_MAX) -> str:
    out: list[str] = []
    used = 0
    for i, line in enumerate(lines):
        more = _("… and {n} more", n=len(lines) - i)
        if (used + len(line) + 1 > limit - len(more) - 1 and i < len(lines) - 1) or used + len(line) > limit:
            out.append(more)
            break
        out.append(line)
        used += len(line) + 1
    return "\n".join(out) or "—"


NO_CHALLENGES = N_("No challenges: the scheme succeeds without a roll. Anyone may join; the GM rolls to settle it.")
STAGES = {
    "gather": N_("Join with a character: they bring their usual trait dice (change them with My dice). The GM rolls."),
    "rolled": N_("Rolled. Those named may push to reroll their dice (once); then the GM works out the hits."),
    "clash": N_("The clash: sides with more hits act first; equal sides can't hit each other."),
    "wounds": N_("Wounds: the GM makes the death tests (d4: dies on 1–2)."),
    "flight": N_("Flight: flee now, or fight on in the next round."),
    "ended": N_("The fight is over: death tests are waiting."),
    "failed": N_("The scheme fails. Push or spend free pushes to reroll, or choose the thwarted challenges."),
}
"""What a pool waits for at each stage (said with ``_()`` as the board is drawn)."""


def _fight_embed(ctx: Ctx, pool: ViolencePool) -> discord.Embed:
    state = ctx.state
    title = _("⚔️ {title} · round {round}", title=escape_name(pool.title) or _("Fight"), round=pool.round)
    lines = [_(STAGES[pool.stage]), f"-# {legend(pool)}"]
    if pool.ending:
        lines.insert(1, _("🏁 The GM ends the fight with this round."))
    if rules := house_rules_line(state.options, FIGHT_RULES):
        lines.append(f"-# 📏 {rules}")
    if pool.stage == "gather" and (line := odds_now(state, pool)):
        lines.append(f"📊 {escape_name(line)}")
    lines += _rolls_by_itself(pool)
    embed = discord.Embed(title=title[:256], description="\n".join(lines), colour=COLOUR_FIGHT)
    # While the clash is decided, its hits so far; once they have landed, as they landed (the wounds since
    # change who is standing, so working the clash out again would tell another story).
    hits = _clash_lines(pool, state) if pool.stage == "clash" else list(pool.landed)
    # Every side gets an equal share of what an embed may hold (a hits field comes last).
    budget = min(FIELD_MAX, (EMBED_BUDGET - len(embed.description or "")) // (len(pool.sides) + 1) - FIELD_NAME)
    for side in pool.sides:
        members = [c for c in pool.combatants if c.side == side.id]
        head = f"{side.id.upper()}. {escape_name(side.name)}"
        if pool.stage != "gather" and fighters(pool, side.id):
            n = sum(1 for c in fighters(pool, side.id) for d in c.dice if d.value == 4)
            n += sum(1 for d in side.equipment_dice if d.value == 4)
            head += " · " + _n("{n} hit", "{n} hits", n)
        rows = [combatant_line(state, pool, c, escape_name(c.name)) for c in members] or [_("nobody yet")]
        if side.equipment:
            faces = " ".join(die_face(d) for d in side.equipment_dice)
            planned = f"{side.equipment}d4"
            rows.append(_("🛡️ equipment: {dice}", dice=faces or planned))
        embed.add_field(name=head[:FIELD_NAME], value=_clip(rows, budget), inline=False)
    if hits:
        lines = [
            _hits_line(_side_name(pool, h.side), _side_name(pool, h.target), h.sent, h.cancelled, h.landed)
            for h in hits
        ]
        embed.add_field(name=_("Hits"), value=_clip(lines, budget), inline=False)
    if any(is_rattled(state, c) for c in pool.combatants):
        embed.set_footer(text=_(RATTLED_LEGEND))
    return embed


def _hits_line(side: str, target: str, sent: int, cancelled: int, landed: int) -> str:
    """``Knives → Guards: 3 sent, 1 cancelled, **2 land**``."""
    if cancelled:
        return _(
            "{side} → {target}: {sent} sent, {cancelled} cancelled, **{landed} land**",
            side=side,
            target=target,
            sent=sent,
            cancelled=cancelled,
            landed=landed,
        )
    return _("{side} → {target}: {sent} sent, **{landed} land**", side=side, target=target, sent=sent, landed=landed)


def _rolls_by_itself(pool: Pool) -> list[str]:
    """While a pool the GM set to roll by itself gathers its first roll: when it rolls, and how to change one's dice
    before then."""
    if pool.roll_at is None or pool.stage != "gather" or (isinstance(pool, ViolencePool) and pool.round > 1):
        return []
    return [
        _n(
            "🎲 Rolls by itself once {n} character is in, each with their trait dice: "
            "whoever joins last with their usual dice makes it roll.",
            "🎲 Rolls by itself once {n} characters are in, each with their trait dice: "
            "whoever joins last with their usual dice makes it roll.",
            pool.roll_at,
        )
    ]


def _clash_lines(pool: ViolencePool, state: CampaignState) -> list[Landed]:
    """The hits sent so far in a clash still being decided."""
    result = clash(pool, state.options)
    return [
        Landed(side=s, target=t, sent=n, cancelled=result.cancelled.get((s, t), 0)) for (s, t), n in result.sent.items()
    ]


def _scheme_embed(ctx: Ctx, pool: KnaveryPool) -> discord.Embed:
    state = ctx.state
    title = "🗝️ " + (escape_name(pool.title) or _("Scheme"))
    lines = [_(STAGES[pool.stage]) if pool.challenges or pool.stage != "gather" else _(NO_CHALLENGES)]
    lines.append(f"-# {legend(pool)}")
    if rules := house_rules_line(state.options, SCHEME_RULES):
        lines.append(f"-# 📏 {rules}")
    if pool.stage == "gather" and (line := odds_now(state, pool)):
        lines.append(f"📊 {escape_name(line)}")
    lines += _rolls_by_itself(pool)
    lockout = state.company.lockout
    if lockout is not None:
        lines.append(
            _n(
                "🔒 Group rolls are locked until the GM clears the fallout ({n} free pushes kept).",
                "🔒 Group rolls are locked until the GM clears the fallout ({n} free pushes kept).",
                lockout.free_pushes,
            )
        )
    embed = discord.Embed(title=title[:256], description="\n".join(lines), colour=COLOUR_SCHEME)
    known = [f"• {escape_name(c.label)}" for c in pool.challenges if c.known]
    unknown = sum(1 for c in pool.challenges if not c.known)
    if unknown:
        known.append(_n("• {n} the group doesn't know", "• {n} the group doesn't know", unknown))
    total = len(pool.challenges)
    name = (
        _("Challenges: {total} (prepared)", total=total)
        if pool.prepared
        else _("Challenges: {total} (not prepared)", total=total)
    )
    embed.add_field(name=name, value=_clip(known or [_("none")]), inline=False)
    rows = [combatant_line(state, pool, c, escape_name(c.name)) for c in pool.combatants] or [_("nobody yet")]
    embed.add_field(name=_("Schemers"), value=_clip(rows), inline=False)
    if pool.stage == "failed":
        embed.add_field(name=_("Failed"), value=_failed_field(pool), inline=False)
    if any(is_rattled(state, c) for c in pool.combatants):
        embed.set_footer(text=_(RATTLED_LEGEND))
    return embed


def _failed_field(pool: KnaveryPool) -> str:
    """A failed scheme's roll against its challenges, who picks the thwarted ones, and its free pushes."""
    dice = tuple(d for c in pool.combatants for d in c.dice)
    n = pool.successes
    if not n:
        which = _("none is thwarted")
    elif pool.prepared:
        which = _n("the group picks {n} thwarted challenge", "the group picks {n} thwarted challenges", n)
    else:
        which = _n("the GM picks {n} thwarted challenge", "the GM picks {n} thwarted challenges", n)
    against = _n(
        "{tally} against {n} challenges: {which}.",
        "{tally} against {n} challenges: {which}.",
        len(pool.challenges),
        tally=tally(pool, dice),
        which=which,
    )
    return against + "\n" + _("🆓 Free pushes: {n}", n=pool.free_pushes)


ROLLED = frozenset({"violence_rolled", "knavery_rolled", "scheme_succeeded"})


def _how_it_ended(state: CampaignState, pool_id: str) -> str:
    """Where a closed pool's story is: its results, told as messages below its board once it rolled (news, shown
    after a crash too); a pool called off before its roll has none. The recap since it closed says which."""
    told = {str(i["type"]) for i in state.recap.items if i.get("pool") == pool_id}
    if told & ROLLED:
        return _("Its results are in the messages below it.")
    if told:
        return _("It was called off before its roll.")
    return _("`/vic log` tells what happened in it.")


def render_pool(ctx: Ctx, pool_id: str) -> View:
    """The board of pool ``pool_id``: its dice and the controls for what it waits for; a closed pool says so."""
    pool = ctx.state.pools.get(pool_id)
    if pool is None:
        lockout = ctx.state.company.lockout
        text = _how_it_ended(ctx.state, pool_id)
        over = _("🎲 This pool is over")
        if lockout is not None:
            text += "\n" + _n(
                "🔒 Group rolls stay locked until the GM clears the fallout ({n} free push kept).",
                "🔒 Group rolls stay locked until the GM clears the fallout ({n} free pushes kept).",
                lockout.free_pushes,
            )
            rows: list[list[Item]] = [[act_button(ctx, _("GM: clear the fallout"), {"type": "clear_lockout"})]]
            return View(embeds=[discord.Embed(title=over, description=text)], rows=rows)
        return View(embeds=[discord.Embed(title=over, description=text)])
    if isinstance(pool, ViolencePool):
        embed, rows = _fight_embed(ctx, pool), _violence_rows(ctx, pool)
    else:
        embed, rows = _scheme_embed(ctx, pool), _knavery_rows(ctx, pool)
    return View(embeds=[embed], rows=[] if ctx.state.archived else rows)


# -- what happened ------------------------------------------------------------------------------------------------


def _dice_lines(report: Mapping[str, Any], free_push: bool) -> str:
    faces = []
    for d in report["dice"]:
        rolls = d["rolls"]
        kept = d["value"]
        text = f"{face(d['sides'], kept)}"
        if len(rolls) == 2:
            other = rolls[1] if rolls[0] == kept else rolls[0]
            text += f"({face(d['sides'], other)})"
        faces.append(text)
    n = sum(1 for d in report["dice"] if d["counts"])
    counted = _n("{n} success", "{n} successes", n) if free_push else _n("{n} hit", "{n} hits", n)
    sixes = sum(1 for d in report["dice"] if d.get("free_push"))
    extra = ", " + _n("{n} free push", "{n} free pushes", sixes) if free_push and sixes else ""
    mark = " 😵" if report.get("rattled") else ""
    return f"**{escape_name(report['name'])}**{mark}: {' '.join(faces)} → {counted}{extra}"


def _sides_text(sides: Sequence[Mapping[str, Any]]) -> list[str]:
    lines = []
    for s in sides:
        lines.append(f"__{escape_name(s['name'])}__ · " + _n("{n} hit", "{n} hits", s["hits"]))
        lines += [_dice_lines(c, False) for c in s["combatants"]]
        if s["equipment"]:
            lines.append(_("🛡️ equipment: {dice}", dice=" ".join(face(4, d["value"]) for d in s["equipment"])))
    return lines


def _rolled(s: CampaignState, e: Event) -> str:
    # The rule is the engine's English sentence, kept in the log: said from the catalogs, where it is marked.
    head = _("🎲 **Round {round}** ({rule})", round=e["round"], rule=escape_name(_(str(e["rule"]))))
    return "\n".join([head, *_sides_text(e["sides"])])


def _against(e: Event) -> str:
    """``2 successes against 3 challenges``."""
    challenges = _n("{n} challenge", "{n} challenges", e["challenges"])
    return _n(
        "{n} success against {challenges}", "{n} successes against {challenges}", e["successes"], challenges=challenges
    )


def _scheme_rolled(s: CampaignState, e: Event) -> str:
    head = _("🎲 **The scheme is rolled**: {against}", against=_against(e))
    return "\n".join([head, *(_dice_lines(c, True) for c in e["combatants"])])


def _rerolled(s: CampaignState, e: Event) -> str:
    name = escape_name(e["name"])
    how = (
        _("💥 {name} spends a free push and rerolls:", name=name)
        if e["free"]
        else _("💥 {name} pushes and rerolls:", name=name)
    )
    scheme = any("free_push" in d for d in e["after"])
    return f"{how} " + _dice_lines({"name": e["name"], "dice": e["after"]}, scheme)


def _pc_name(s: CampaignState, pc_id: str) -> str:
    pc = s.find_pc(pc_id)
    return pc.name if pc is not None else pc_id


def _who(s: CampaignState, e: Event) -> str:
    """The combatant an event names, by its name in the pool (an NPC's too)."""
    pool = s.pools.get(e["pool"])
    found = next((c.name for c in pool.combatants if c.id == e["who"]), None) if pool is not None else None
    return escape_name(found or _pc_name(s, e["who"]))


def _hits(s: CampaignState, e: Event) -> str:
    names = {c.id: c.name for p in s.pools.values() if p.id == e["pool"] for c in p.combatants}
    names |= dict(zip(e["wounded"], e.get("names", []), strict=False))  # as the fight named them
    wounded = ", ".join(escape_name(names.get(w) or _pc_name(s, w)) for w in e["wounded"])
    side, target = _event_side(s, e, e["side"]), _event_side(s, e, e["target"])
    line = "🗡️ " + _hits_line(side, target, e["sent"], e["cancelled"], e["landed"])
    return _("{hits}: {names} wounded", hits=line, names=wounded) if wounded else line


def _death(s: CampaignState, e: Event) -> str:
    name = escape_name(e["name"])
    if e["roll"] is None:
        return _("🩺 A Medic attends {name}: no death test.", name=name)
    roll = face(4, e["roll"])
    if e["care"] == "attention":
        if e["died"]:
            return _("🎲 Death test for {name} (with medical attention): {roll} → 💀 dies.", name=name, roll=roll)
        return _("🎲 Death test for {name} (with medical attention): {roll} → survives.", name=name, roll=roll)
    if e["died"]:
        return _("🎲 Death test for {name}: {roll} → 💀 dies.", name=name, roll=roll)
    return _("🎲 Death test for {name}: {roll} → survives.", name=name, roll=roll)


def _failing(s: CampaignState, e: Event) -> str:
    if not e["successes"]:
        which = _("no challenge is thwarted")
    elif e["chooser"] == "group":
        which = _("the group chooses the thwarted challenges")
    else:
        which = _("the GM chooses the thwarted challenges")
    return _n(
        "❌ **The scheme fails** ({against}): {which}; {n} free push.",
        "❌ **The scheme fails** ({against}): {which}; {n} free pushes.",
        e["free_pushes"],
        against=_against(e),
        which=which,
    )


def _failed(s: CampaignState, e: Event) -> str:
    thwarted = ", ".join(escape_name(t) for t in e["thwarted"]) or _("none")
    active = ", ".join(escape_name(t) for t in e["active"]) or _("none")
    return _n(
        "Thwarted: {thwarted}. Still in play: {active}. 🔒 Group rolls are locked until the GM clears the fallout; "
        "{n} free push kept for it.",
        "Thwarted: {thwarted}. Still in play: {active}. 🔒 Group rolls are locked until the GM clears the fallout; "
        "{n} free pushes kept for it.",
        e["free_pushes"],
        thwarted=thwarted,
        active=active,
    )


def _pushed(s: CampaignState, e: Event) -> str:
    name, trait = escape_name(e["name"]), escape_name(e["trait"])
    # What the push does is the trait's text (the catalogue's, said from the catalogs) or the member's note.
    text = escape_name(_(e["text"]) if e["text"] else "")
    if e["free"]:
        return _("💥 {name} spends a free push: **{trait}**. {text}", name=name, trait=trait, text=text)
    return _("💥 {name} pushes (and is rattled): **{trait}**. {text}", name=name, trait=trait, text=text)


KNOWLEDGE_RESULTS = {
    "answer": N_("knows the answer"),
    "where": N_("knows where to find it"),
    "nothing": N_("knows nothing"),
}
"""What a knowledge d6 told (said with ``_()``)."""


def _knowledge(s: CampaignState, e: Event) -> str:
    rolls = " ".join(face(6, r) for r in e["rolls"])
    question = f" “{escape_name(e['question'])}”" if e.get("question") else ""
    who = f"{escape_name(e['name'])} ({escape_name(e['trait'])}){question}"
    return _("💡 {who}: {rolls} → {result}.", who=who, rolls=rolls, result=_(KNOWLEDGE_RESULTS[e["result"]]))


def _discovery(s: CampaignState, e: Event) -> str:
    roll, value = e["roll"], e["value"]
    if roll is None:
        how = _("value {value}, no roll", value=value)
    else:
        how = _("{roll} against {value}", roll=face(6, roll), value=value)
    if e["found"]:
        return _("🔎 Discovery ({how}): found!", how=how)
    return _("🔎 Discovery ({how}): not found.", how=how)


def _and(names: Sequence[str]) -> str:
    """``Ana``, ``Ana and Bo``, ``Ana, Bo and Cy`` (each escaped)."""
    escaped = [escape_name(str(n)) for n in names]
    if len(escaped) == 1:
        return escaped[0]
    return _("{names} and {last}", names=", ".join(escaped[:-1]), last=escaped[-1])


def _clause(s: CampaignState, pick: Mapping[str, Any]) -> str:
    """A trait dice clause picked: ``Lurker d6``."""
    trait = find_trait(s, str(pick["trait"]))
    clause = int(pick["clause"])
    die = trait.dice[clause].die if trait is not None and clause < len(trait.dice) else "?"
    return f"{escape_name(str(pick['trait']))} {die}"


def _opened(s: CampaignState, e: Event) -> str:
    title = escape_name(e["title"]) if e.get("title") else ""
    fight = e["kind"] == "violence"
    if title:
        text = _("⚔️ A fight begins: {title}.", title=title) if fight else _("🗝️ A scheme begins: {title}.", title=title)
    else:
        text = _("⚔️ A fight begins.") if fight else _("🗝️ A scheme begins.")
    return f"{text}{_rolls_at(e.get('roll_at'))}"


def _rolls_at(n: object) -> str:
    """`` It rolls by itself once 2 characters are in.`` for a pool the GM set to, else nothing."""
    if not n:
        return ""
    count = int(str(n))
    return " " + _n(
        "It rolls by itself once {n} character are in.", "It rolls by itself once {n} characters are in.", count
    )


JOINED = {
    "violence": N_("{name} joins the fight."),
    "knavery": N_("{name} joins the scheme."),
    "": N_("{name} joins the pool."),
}
LEFT = {
    "violence": N_("{name} leaves the fight."),
    "knavery": N_("{name} leaves the scheme."),
    "": N_("{name} leaves the pool."),
}
NPCS_JOINED = {
    "violence": (N_("{names} joins the fight."), N_("{names} join the fight.")),
    "knavery": (N_("{names} joins the scheme."), N_("{names} join the scheme.")),
    "": (N_("{names} joins the pool."), N_("{names} join the pool.")),
}
ENDS_AFTER_ROUND = {
    "violence": N_("🏁 The GM ends the fight with this round: its hits land, its wounded are tested, then it ends."),
    "knavery": N_("🏁 The GM ends the scheme with this round: its hits land, its wounded are tested, then it ends."),
    "": N_("🏁 The GM ends the pool with this round: its hits land, its wounded are tested, then it ends."),
}
CALLED_OFF = {
    "violence": (
        N_("The fight was called off before its roll."),
        N_("The fight was called off before its roll: {names} took no part in it."),
    ),
    "knavery": (
        N_("The scheme was called off before its roll."),
        N_("The scheme was called off before its roll: {names} took no part in it."),
    ),
    "": (
        N_("The pool was called off before its roll."),
        N_("The pool was called off before its roll: {names} took no part in it."),
    ),
}
"""Sentences about a pool, one for each kind (``_about_pool``): a fight, a scheme, and one of no known kind."""


def _npcs_joined(s: CampaignState, e: Event) -> str:
    one, many = NPCS_JOINED[_pool_kind(s, e)]
    names = ", ".join(escape_name(n["name"]) for n in e["npcs"])
    # English says "join" for several NPCs, whatever a language's plural rules: the list decides, not a count.
    return _(one if len(e["npcs"]) == 1 else many, names=names)


def _rolls_by_itself_now(s: CampaignState, e: Event) -> str:
    kind, n = _pool_kind(s, e), e["n"]
    if kind == "violence":
        return _n(
            "🎲 The fight rolls by itself: {n} character is in, as the GM said.",
            "🎲 The fight rolls by itself: {n} characters are in, as the GM said.",
            n,
        )
    if kind == "knavery":
        return _n(
            "🎲 The scheme rolls by itself: {n} character is in, as the GM said.",
            "🎲 The scheme rolls by itself: {n} characters are in, as the GM said.",
            n,
        )
    return _n(
        "🎲 The pool rolls by itself: {n} character is in, as the GM said.",
        "🎲 The pool rolls by itself: {n} characters are in, as the GM said.",
        n,
    )


def _called_off(s: CampaignState, e: Event) -> str:
    bare, naming = CALLED_OFF[_pool_kind(s, e)]
    return _(naming, names=_and(e["names"])) if e.get("names") else _(bare)


def _picked(s: CampaignState, e: Event) -> str:
    clauses = ", ".join(_clause(s, p) for p in e["picks"]) or _("none")
    return _("{name}'s trait dice: {clauses}.", name=_who(s, e), clauses=clauses)


def _challenges(s: CampaignState, e: Event) -> str:
    if e["known"]:
        known = ", ".join(escape_name(k) for k in e["known"])
        return _("The scheme's challenges: {total} (known: {known}).", total=e["total"], known=known)
    return _("The scheme's challenges: {total}.", total=e["total"])


def _granted(s: CampaignState, e: Event) -> str:
    dice = " ".join(f"d{n}" for n in e["dice"]) or _("no extra dice")
    return _("The GM granted {name} {dice}.", name=_who(s, e), dice=dice)


def _fight_ended(s: CampaignState, e: Event) -> str:
    if e["rounds"]:
        return _n("The fight is over after {n} round.", "The fight is over after {n} rounds.", e["rounds"])
    return _("The fight was called off before its roll.")


NARRATORS.update(
    {
        "pool_opened": _opened,
        "joined": lambda s, e: _about_pool(s, e, JOINED, name=escape_name(e["name"])),
        "left_pool": lambda s, e: _about_pool(s, e, LEFT, name=escape_name(e["name"])),
        "npcs_added": _npcs_joined,
        "picked": _picked,
        "challenges": _challenges,
        "vetoed": lambda s, e: _("The GM vetoed {trait} for {name}.", trait=escape_name(e["trait"]), name=_who(s, e)),
        "granted": _granted,
        "equipment": lambda s, e: _n(
            "{side} gets {n} equipment d4.", "{side} gets {n} equipment d4.", e["n"], side=_event_side(s, e, e["side"])
        ),
        "rolls_by_itself": _rolls_by_itself_now,
        "violence_rolled": _rolled,
        "violence_rerolled": lambda s, e: None,
        "knavery_rolled": _scheme_rolled,
        "rerolled": _rerolled,
        "hits": _hits,
        "hits_wasted": lambda s, e: _n(
            "{n} hit found nobody left to wound.", "{n} hits found nobody left to wound.", e["n"]
        ),
        "npc_wounded": lambda s, e: _("🩸 {name} is wounded.", name=escape_name(e["name"])),
        "death_test": _death,
        "fled": lambda s, e: _("🏃 {name} flees.", name=escape_name(e["name"])),
        "flight": lambda s, e: _("Flight: flee now, or fight on."),
        "round_started": lambda s, e: _("⚔️ Round {round} begins.", round=e["round"]),
        "fight_ending": lambda s, e: _("The fight is over; death tests are waiting."),
        "fight_ends_after_round": lambda s, e: _about_pool(s, e, ENDS_AFTER_ROUND),
        "fight_ended": _fight_ended,
        "scheme_succeeded": lambda s, e: _(
            "✅ **The scheme succeeds** ({successes} successes, {challenges} challenges).",
            successes=e["successes"],
            challenges=e["challenges"],
        ),
        "scheme_failing": _failing,
        "scheme_failed": _failed,
        "pool_closed": _called_off,
        "pushed": _pushed,
        "knowledge": _knowledge,
        "discovery": _discovery,
        "lockout_cleared": lambda s, e: _("🔓 The fallout is over: group rolls are allowed again."),
    }
)
