"""How a Vices & Vengeance scoresheet looks in Discord: the sheet's message and the sentences it tells.

The message is the picture (``draw_sheet``, attached and drawn off the event loop by the publisher),
an embed with the same facts as text (``alt_text``) and what just happened, and the controls for
the moment: the score button for whoever is up, the Sins menu, corrections and names, the order
before the first score, the tie-break's pairs, a new game once someone has won.

Every control names the row it is for by its original Sin, which never changes, so a click means
the same thing whatever happened since; the engine refuses what no longer fits ("It is Casey's
turn, not Jordan's").
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from functools import partial
from typing import Any, cast

import discord

from bot.controls import ui_id
from bot.i18n import _, localize
from bot.names import clip, escape_name
from bot.spec import Choice, Picture, View, ViewContext
from cogs.vices.picture import alt_text, draw_sheet, end_rule, picture_description
from rules.vices.sheet_actions import NewGame, Reorder, TieBreak
from rules.vices.sheet_data import EXACT_TARGET, PAIR_TITLES, PAIRS, SIN_BY_NAME, SIN_NAMES, PairKey, SinName
from rules.vices.sheet_state import (
    OUT_OF_PLAY,
    RESERVES,
    Phase,
    Place,
    Progress,
    SheetState,
    progress,
    row_of,
    where,
)

FILENAME = "vv-sheet.png"
NEWS_LINES = 4
"""What just happened, at most this many sentences on the sheet (``/game log`` has the rest)."""
SLOTH_DIE = "sloth"
"""The Sins menu's value for the Sloth Nemesis die."""
DIE_NAMES = {"SilverBullet": "Silver Bullet"}

Ctx = ViewContext[SheetState]
Row = list[discord.ui.Item[Any]]


def die_name(die: str) -> str:
    """A Mythical die as players call it: ``Silver Bullet``, ``Medusa``."""
    return DIE_NAMES.get(die, die)


def player(state: SheetState, sin: str) -> str:
    """The name of the row headed by ``sin``, in bold and made inert (the Sin itself if nobody has it)."""
    row = next((r for r in state.rows if r.sin == sin), None)
    return f"**{escape_name(row.name)}**" if row is not None else sin


def place(state: SheetState, where_to: str) -> str:
    """Where a Sin is, in words: ``with **Casey**``, ``in the reserves``, ``out of play``."""
    if where_to in (RESERVES, OUT_OF_PLAY) or any(r.sin == where_to for r in state.rows):
        return localize(where(state, cast(Place, where_to), lambda name: f"**{escape_name(name)}**"))
    return where_to


def names(state: SheetState, sins: Iterable[str]) -> str:
    """``**Jordan**, **Taylor** and **Casey**``."""
    named = [player(state, s) for s in sins]
    if len(named) < 2:
        return named[0] if named else _("nobody")
    return _("{first} and {last}", first=", ".join(named[:-1]), last=named[-1])


# -- sentences ------------------------------------------------------------------------------------------------

Narrator = Callable[[SheetState, dict[str, Any]], str | None]


def _scored(s: SheetState, e: dict[str, Any]) -> str:
    return _(
        "✏️ {player} scores {value} in round {round} (total {total}).",
        player=player(s, e["row"]),
        value=e["value"],
        round=e["round"],
        total=e["total"],
    )


def _corrected(s: SheetState, e: dict[str, Any]) -> str:
    return _(
        "🩹 {player}'s round {round} corrected: {old} → {value} (total {total}).",
        player=player(s, e["row"]),
        round=e["round"],
        old=e["old"],
        value=e["value"],
        total=e["total"],
    )


def _finish(s: SheetState, e: dict[str, Any]) -> str:
    who, total = player(s, e["row"]), e["total"]
    if not e["to_play"]:  # the last seat of the round: nothing left to finish
        return _("🏁 {player} reached {total}, and the round is complete.", player=who, total=total)
    return _(
        "🏁 {player} reached {total}: {then}. Still to play: {rest}.",
        player=who,
        total=total,
        then=end_rule(s.settings.end_mode),
        rest=names(s, e["to_play"]),
    )


def _game_over(s: SheetState, e: dict[str, Any]) -> str:
    finalists = e["finalists"]
    total = e["totals"][finalists[0]]
    who = names(s, finalists)
    one = len(finalists) == 1
    if total == EXACT_TARGET:
        if one:
            return _("🔔 Game over: {who} is on exactly 70.", who=who)
        return _("🔔 Game over: {who} are on exactly 70.", who=who)
    if one:
        return _("🔔 Game over: {who} is lowest, on {total}.", who=who, total=total)
    return _("🔔 Game over: {who} are lowest, on {total}.", who=who, total=total)


def _tiebreak_roll(s: SheetState, e: dict[str, Any]) -> str:
    a, b = e["dice"]
    params = {"player": player(s, e["row"]), "pair": PAIR_TITLES[e["pair"]], "a": a, "b": b, "points": e["points"]}
    if e["rolled"]:
        return _("🎲 {player} rolls {pair}: {a} and {b} → {points}.", **params)
    return _("🎲 {player} rolled (entered) {pair}: {a} and {b} → {points}.", **params)


def _sin_moved(s: SheetState, e: dict[str, Any]) -> str:
    return _("🔀 {sin} is now {to} (was {was}).", sin=e["sin"], to=place(s, e["to"]), was=place(s, e["from"]))


def _sloth_die(s: SheetState, e: dict[str, Any]) -> str:
    if e["removed"]:
        return _("🦥 The Sloth Nemesis die is removed from play.")
    return _("🦥 The Sloth Nemesis die is back in play.")


_NARRATORS: dict[str, Narrator] = {
    "sheet_started": lambda s, e: _("📋 New sheet: {players}, in seat order.", players=names(s, e["order"])),
    "scored": _scored,
    "corrected": _corrected,
    "reordered": lambda s, e: _("↕️ Seat order: {players}.", players=names(s, e["order"])),
    "renamed": lambda s, e: _(
        "🏷️ {old} is now called **{name}**.", old=escape_name(e["old"]), name=escape_name(e["name"])
    ),
    "sin_moved": _sin_moved,
    "sloth_die": _sloth_die,
    "keeper": lambda s, e: _("🗝️ **{name}** keeps the sheet now.", name=escape_name(e["name"])),
    "finish_round": _finish,
    "end_cancelled": lambda s, e: _("↩️ Nobody is on 70 or more any more: play goes on."),
    "game_over": _game_over,
    "game_resumed": lambda s, e: (
        _("↩️ The game goes on: {player} to play.", player=player(s, e["up"])) if e.get("up") else None
    ),
    "tiebreak": lambda s, e: _(
        "⚔️ Tie-break {round}: {players} each pick a Mythical pair.",
        round=e["round"],
        players=names(s, e["contenders"]),
    ),
    "tiebreak_roll": _tiebreak_roll,
    "winner": lambda s, e: _("🏆 {player} wins with {total}!", player=player(s, e["row"]), total=e["total"]),
    "new_game": lambda s, e: _(
        "🔁 Game {game}: {players}; last game's winner sits last.", game=e["game"], players=names(s, e["order"])
    ),
}

# What an entry that undo can take back was, in a few words, by the event that starts it (a keeper hand-over
# and a tie-break roll can't be taken back; a round's end or a win follows from the score before it).
_ENTRIES: dict[str, Narrator] = {
    "scored": lambda s, e: _(
        "{player}'s {value} in round {round}", player=player(s, e["row"]), value=e["value"], round=e["round"]
    ),
    "corrected": lambda s, e: _(
        "the correction of {player}'s round {round} ({old} → {value})",
        player=player(s, e["row"]),
        round=e["round"],
        old=e["old"],
        value=e["value"],
    ),
    "reordered": lambda s, e: _("the change of seat order"),
    "renamed": lambda s, e: _("the new name **{name}**", name=escape_name(e["name"])),
    "sin_moved": lambda s, e: _("{sin}'s move to {place}", sin=e["sin"], place=place(s, e["to"])),
    "sloth_die": lambda s, e: _("the Sloth Nemesis die's change"),
    "new_game": lambda s, e: _("the start of game {game}", game=e["game"]),
}


def who(state: SheetState, user_id: str) -> str:
    """A member who wrote on the sheet, by the name the sheet knows them by (never a raw mention)."""
    if user_id == state.keeper:
        return f"**{escape_name(state.keeper_name)}**"
    row = next((r for r in state.rows if r.member == user_id), None)
    return f"**{escape_name(row.name)}**" if row is not None else _("A member")


def narrate(state: SheetState, events: Iterable[dict[str, Any]]) -> list[str]:
    """One sentence per event worth telling, names as the sheet has them now; an undo or redo says who
    did it and which entry it was (when the entry is among ``events``)."""
    lines = []
    done: list[str | None] = []
    """Entries that undo would take back, the latest last; then those a redo would put back."""
    undone: list[str | None] = []
    for event in events:
        kind = str(event.get("type"))
        if kind in ("undone", "redone"):
            source, target = (done, undone) if kind == "undone" else (undone, done)
            what = source.pop() if source else None
            target.append(what)
            params = {"who": who(state, str(event["by"])), "what": what or _("the last entry")}
            lines.append(
                _("↩️ {who} took back {what}.", **params)
                if kind == "undone"
                else _("↪️ {who} put back {what}.", **params)
            )
            continue
        if kind in _ENTRIES:
            done.append(_ENTRIES[kind](state, event))
            undone.clear()
        narrator = _NARRATORS.get(kind)
        line = narrator(state, event) if narrator is not None else None
        if line:
            lines.append(line)
    return lines


# -- the message ------------------------------------------------------------------------------------------------


def render_sheet(ctx: Ctx) -> View:
    """The sheet's message: picture, facts as text, what just happened, and the controls for now."""
    state = ctx.state
    p = progress(state)
    embed = discord.Embed(
        title=_("Vices & Vengeance · game {game} · round {round}", game=len(state.history) + 1, round=p.round),
        description=alt_text(state, escape_name)[:4096],
        colour=_colour(p),
    )
    news = narrate(state, ctx.events)[-NEWS_LINES:]
    if news:
        embed.add_field(name=_("Just now"), value=clip("\n".join(news))[:1024], inline=False)
    embed.set_image(url=f"attachment://{FILENAME}")
    keeper = state.keeper_name
    if state.settings.self_scoring:
        footer = _(
            "Keeper: {keeper} · everyone listed scores their own turn. /vv help for the commands.", keeper=keeper
        )
    else:
        footer = _("Keeper: {keeper} · only the keeper writes. /vv help for the commands.", keeper=keeper)
    embed.set_footer(text=footer)
    return View(
        embeds=[embed],
        rows=[] if ctx.over else controls(ctx, state, p),
        content=_headline(state, p),
        pictures=[Picture(FILENAME, partial(draw_sheet, state), picture_description(state))],
    )


def _colour(p: Progress) -> discord.Colour:
    if p.up is not None:
        return discord.Colour.from_rgb(*SIN_BY_NAME[p.up].rgb)
    return discord.Colour.gold() if p.winner is not None else discord.Colour.orange()


def _headline(state: SheetState, p: Progress) -> str:
    """The line under the status line: who is up (their mention, which never pings on an edited sheet)."""
    if p.up is not None:
        row = row_of(state, p.up)
        member = f" (<@{row.member}>)" if row.member is not None else ""
        params = {"player": player(state, p.up), "member": member, "round": p.round}
        if p.phase is Phase.FINISHING:
            return _("🎲 {player}{member} to play, round {round} · finish the round.", **params)
        return _("🎲 {player}{member} to play, round {round}.", **params)
    if p.roller is not None:
        return _(
            "⚔️ Tie-break {round}: {player} picks a Mythical pair.",
            round=p.tiebreak_round,
            player=player(state, p.roller),
        )
    assert p.winner is not None
    return _("🏆 {player} wins! A new game seats them last.", player=player(state, p.winner))


def controls(ctx: Ctx, state: SheetState, p: Progress) -> list[Row]:
    """At most five rows: the main action and undo/redo, then the menus that fit the moment."""
    undo: Row = [ctx.core_button(_("Undo"), "undo", emoji="↩️"), ctx.core_button(_("Redo"), "redo", emoji="↪️")]
    rows: list[Row] = []
    if p.up is not None:
        up = row_of(state, p.up)
        label = _("Score for {name}", name=up.name)[:80]
        score = ctx.ui_button(label, "score", up.sin, style=discord.ButtonStyle.primary, emoji="✏️")
        rows += [[score, *undo], [sins_menu(ctx, state)]]
    elif p.roller is not None:
        roller = row_of(state, p.roller)
        rolls: Row = [ctx.button(PAIR_TITLES[pair], TieBreak(row=roller.sin, pair=pair), emoji="🎲") for pair in PAIRS]
        entered = [
            discord.SelectOption(label=_("{pair}: enter the dice", pair=PAIR_TITLES[pair])[:100], value=pair)
            for pair in PAIRS
        ]
        placeholder = _("{name} rolled physical dice? Enter them", name=roller.name)
        rows += [rolls, [ui_select(ctx, "dice", entered, placeholder)], undo]
    else:
        assert p.winner is not None
        winner = row_of(state, p.winner)
        again = ctx.button(
            _("New game ({name} sits last)", name=winner.name)[:80],
            NewGame(),
            style=discord.ButtonStyle.success,
            emoji="🔁",
        )
        rows.append([again, *undo])
    rows.append([edit_menu(ctx, state)])
    if p.up is not None and not any(r.scores for r in state.rows):
        rows.append([order_menu(ctx, state)])
    return rows


def ui_select(ctx: Ctx, key: str, options: list[discord.SelectOption], placeholder: str) -> discord.ui.Select[Any]:
    """A select handled by the sheet's ``on_ui`` (``key``, the value picked)."""
    return discord.ui.Select(
        custom_id=ui_id(ctx.session.kind, ctx.session.id, key), options=options, placeholder=placeholder[:150]
    )


def sins_menu(ctx: Ctx, state: SheetState) -> discord.ui.Select[Any]:
    """Where each Sin is now, and the Sloth Nemesis die: picking one asks where it went (or turns the die)."""
    options = [
        discord.SelectOption(
            label=sin,
            value=sin,
            description=_("Now {place}", place=where(state, state.sins[sin]))[:100],
            emoji=SIN_EMOJI[sin],
        )
        for sin in SIN_NAMES
    ]
    if any(r.sin == "Sloth" for r in state.rows):
        if state.sloth_removed:
            label, now = _("Sloth Nemesis die: put back in play"), _("Now removed")
        else:
            label, now = _("Sloth Nemesis die: remove from play"), _("Now in play")
        # The option says which way it turns the die, so picking it twice turns it once.
        value = f"{SLOTH_DIE}:{'in' if state.sloth_removed else 'out'}"
        options.append(discord.SelectOption(label=label[:100], value=value, description=now[:100]))
    return ui_select(ctx, "sin", options, _("A Sin moved? Record where it is now"))


def edit_menu(ctx: Ctx, state: SheetState) -> discord.ui.Select[Any]:
    """Correct a past score (until a tie-break roll is in) or rename a player."""
    options = []
    for row in state.rows:
        if row.scores and not state.tiebreak:
            last = _(
                "Round {round}: {score}, total {total}",
                round=len(row.scores),
                score=row.scores[-1],
                total=sum(row.scores),
            )
            label = _("Correct {name}'s score", name=row.name)[:100]
            options.append(discord.SelectOption(label=label, value=f"fix:{row.sin}", description=last[:100]))
    options += [
        discord.SelectOption(label=_("Rename {name}", name=row.name)[:100], value=f"name:{row.sin}")
        for row in state.rows
    ]
    return ui_select(ctx, "edit", options, _("Correct a score or a name"))


def order_menu(ctx: Ctx, state: SheetState) -> discord.ui.Select[Any]:
    """Before the first score: move a player one seat up or down."""
    last = len(state.rows) - 1
    choices = []
    for seat, row in enumerate(state.rows):
        if seat > 0:
            choices.append(Choice(_("Move {name} up", name=row.name), Reorder(row=row.sin, dir="up"), emoji="⬆️"))
        if seat < last:
            choices.append(Choice(_("Move {name} down", name=row.name), Reorder(row=row.sin, dir="down"), emoji="⬇️"))
    return ctx.select(choices, placeholder=_("Change the seat order (until the first score)"))


def destinations(state: SheetState, sin: str) -> list[discord.SelectOption]:
    """Where ``sin`` can go from where it is: a player, the reserves, out of play."""
    options = [discord.SelectOption(label=_("With {name}", name=row.name)[:100], value=row.sin) for row in state.rows]
    options += [
        discord.SelectOption(label=_("In the reserves"), value=RESERVES),
        discord.SelectOption(label=_("Out of play (destroyed by Wrath)"), value=OUT_OF_PLAY),
    ]

    here = state.sins[cast(SinName, sin)]
    return [o for o in options if o.value != here]


def pair_dice(pair: PairKey) -> tuple[str, str]:
    """The two dice of a Mythical pair, as players call them."""
    first, second = PAIRS[pair]
    return die_name(first), die_name(second)


SIN_LETTERS = {"Wrath": "Wr", "Sloth": "Sl", "Pride": "Pr", "Lust": "Lu", "Greed": "Gr", "Gluttony": "Gl", "Envy": "En"}
"""Each Sin's first letters: where a die shows its Sin by a colour square, these say it too (🟦 Sloth and 🔵 Lust
are the same blue on Discord, and colour alone tells nothing to a colour-blind reader)."""
SIN_EMOJI = {
    "Wrath": "🟥",
    "Sloth": "🟦",
    "Pride": "🟪",
    "Lust": "🔵",
    "Greed": "🟨",
    "Gluttony": "🟧",
    "Envy": "🟩",
}
