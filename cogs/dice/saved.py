"""Saved rolls: ``/dice save``, ``edit``, ``delete``, ``list``, ``export``, ``import``, and their names in ``/roll``.

Three scopes: a member's own rolls (everywhere, DMs included), a channel's (its managers or its campaign's GMs
edit them) and a server's (Manage Server). ``/roll attack +2`` rolls the first ``attack`` found in that order,
with ``+2`` added; the autocomplete lists names in the same order.
"""

from __future__ import annotations

import asyncio
import io
import json
import re
from dataclasses import dataclass
from typing import Any

import discord
from discord import app_commands

from bot.errors import UserError
from bot.i18n import N_, _, _n, localize
from bot.names import escape_name
from bot.replies import Reply
from bot.storage.dice import SAVED_SCOPES, SavedRoll, SavedScope, name_key
from cogs.dice.access import bot_is_here, channel_gms, channel_id_of, is_manager, not_here, now, store_of
from rules.roll import RollError, check_roll, leading_flags, shadows_notation, split_label, split_rolls

NAME_MAX = 32
MEMBER_LIMIT = 50
"""Saved rolls one member may keep (their own scope)."""
SERVER_LIMIT = 200
"""Channel and server rolls one server may keep, together."""
IMPORT_MAX_BYTES = 64_000
SCOPE_NAMES: dict[SavedScope, str] = {
    "member": N_("yours"),
    "channel": N_("this channel's"),
    "server": N_("this server's"),
}
"""Whose a saved roll is, standing alone: "(yours)" (said with ``_``)."""
SCOPE_HEADINGS: dict[SavedScope, str] = {
    "member": N_("Yours"),
    "channel": N_("This channel's"),
    "server": N_("This server's"),
}
WHOSE_ROLLS: dict[SavedScope, str] = {
    "member": N_("your rolls"),
    "channel": N_("this channel's rolls"),
    "server": N_("this server's rolls"),
}
_NAME = re.compile(r"[^\s#;!`@<>\[\]()*_~|\\]+")
"""What ``/roll`` looks up as a name (names saved before ``, = :`` were refused included)."""
_REPEATED_NAME = re.compile(r"^\s*(\d+)\s*(?:x\s*|\s+)(?=[^\s\d])", re.IGNORECASE)
"""A repeat count before what may be a saved name: ``6x attack``, ``6 attack``."""
_GLUED_ARGUMENT = re.compile(r"^(.+?)[+-]\s*\d")
"""``attack+2``, ``attack-1``: a name with its argument written against it (tried when the whole isn't a name)."""
_NEW_NAME = re.compile(r"[^\s#;!`@<>\[\]()*_~|\\,=:]+")
"""A name saved now: no ``,`` or ``=`` (a board's ``attack=Sword, heal``), no ``:`` (an import's ``name: roll``)."""
_EXPRESSION_MAX = 500

ScopeChoice = app_commands.Choice[str]
SCOPE_CHOICES = [
    app_commands.Choice(name="Mine (everywhere)", value="member"),
    app_commands.Choice(name="This channel", value="channel"),
    app_commands.Choice(name="This server (Manage Server)", value="server"),
]


@dataclass(frozen=True, slots=True)
class Owner:
    """Whose rolls: a scope and the id it is keyed by."""

    scope: SavedScope
    owner_id: int


def owners(interaction: discord.Interaction) -> list[Owner]:
    """Where ``/roll`` looks for a name, in order: the member's own, the channel's, the server's."""
    found = [Owner("member", interaction.user.id)]
    if interaction.guild_id is not None and interaction.channel_id is not None:
        found += [Owner("channel", interaction.channel_id), Owner("server", interaction.guild_id)]
    return found


def owner_of(interaction: discord.Interaction, scope: str) -> Owner:
    """The owner of ``scope`` for this interaction; channel and server rolls need a server."""
    if scope == "member":
        return Owner("member", interaction.user.id)
    if interaction.guild_id is None:
        raise UserError(_("Channel and server rolls live in a server; in a DM, save them as yours."))
    if not bot_is_here(interaction):
        raise UserError(not_here(interaction, _("A channel's or server's saved roll")))
    if scope == "channel":
        return Owner("channel", channel_id_of(interaction))
    return Owner("server", interaction.guild_id)


async def check_may_edit(interaction: discord.Interaction, owner: Owner) -> None:
    """Anyone edits their own; a channel's rolls need a manager or the channel's campaign GM; a server's, a manager."""
    if owner.scope == "member" or is_manager(interaction):
        return
    if owner.scope == "channel" and interaction.user.id in await channel_gms(interaction):
        return
    if owner.scope == "channel":
        raise UserError(
            _("Only members with Manage Server or this channel's campaign GM can change this channel's saved rolls.")
        )
    raise UserError(_("Only members with Manage Server can change this server's saved rolls."))


def check_name(name: str) -> str:
    """A valid name, trimmed; UserError saying why not (too long, spaces, shadows notation)."""
    name = name.strip()
    if not name or len(name) > NAME_MAX:
        raise UserError(_("A name is 1 to {most} characters.", most=NAME_MAX))
    if not _NEW_NAME.fullmatch(name):
        raise UserError(
            _("A name is one word, without `# ; ! @ < > [ ] ( ) , = :` or markdown, like `attack` or `fire-bolt`.")
        )
    if shadows_notation(name):
        raise UserError(_("`{name}` reads as dice notation; choose another name.", name=escape_name(name)))
    return name


def check_expression(expression: str) -> str:
    """A saved roll must parse and fit the limits now, not when it is first rolled (each of ``2d6 ; 1d20``)."""
    try:
        for piece in split_rolls(expression):
            check_roll(piece)
    except RollError as error:
        raise UserError(_("⚠️ That roll can't be saved: {reason}", reason=localize(error.message))) from None
    return expression.strip()


async def expand_saved(interaction: discord.Interaction, text: str) -> str:
    """``attack +2 adv`` → the saved ``attack`` with ``+2 adv`` added before its label; notation is unchanged.
    Each roll of ``attack ; damage`` is looked up on its own."""
    try:
        pieces = split_rolls(text)
    except RollError:
        return text  # too long, or too many rolls: rolling it says so
    if len(pieces) > 1:
        return " ; ".join([await _expand_one(interaction, piece) for piece in pieces])
    return await _expand_one(interaction, text)


async def _expand_one(interaction: discord.Interaction, text: str) -> str:
    flags, named = leading_flags(text)
    if flags:  # `p hit`: Dice Maiden's private word before a name, as after it (`hit p`)
        expanded = await _expand_one(interaction, named)
        return text if expanded == named else flags + expanded
    repeat = _REPEATED_NAME.match(text)
    if repeat is not None:  # `6x attack`, `6 attack`: sets of a saved roll (notation such as `6 4d6` is left alone)
        named = text[repeat.end() :]
        expanded = await _expand_one(interaction, named)
        if expanded == named:
            return text
        if len(split_rolls(expanded)) > 1:
            raise RollError(
                _("`{name}` holds several rolls (`;`): it can't be repeated.", name=escape_name(named.strip()))
            )
        return f"{repeat[1]}x {expanded}"
    first, _space, rest = text.strip().partition(" ")
    # Notation wins: a name saved before it was refused as notation (`4d6k3`) no longer hides the notation.
    if not first or shadows_notation(first) or not _NAME.fullmatch(first):
        return text
    saved = await _saved_named(interaction, first)
    if saved is None and (glued := _GLUED_ARGUMENT.match(first)):  # `attack+2`: the name, then its argument
        saved = await _saved_named(interaction, glued[1])
        rest = f"{first[glued.end(1) :]} {rest}"
    if saved is None:
        return text
    if rest.strip() and len(split_rolls(saved.expression)) > 1:
        raise RollError(
            _(
                "`{name}` holds several rolls (`;`): roll it as it is, without `{more}`.",
                name=escape_name(saved.name),
                more=escape_name(rest.strip()),
            )
        )
    return with_arguments(saved.expression, rest)


async def _saved_named(interaction: discord.Interaction, name: str) -> SavedRoll | None:
    """The saved roll ``/roll`` means by ``name``: the member's, else the channel's, else the server's."""
    store = store_of(interaction)
    for owner in owners(interaction):
        saved = await store.saved_roll(owner.scope, owner.owner_id, name)
        if saved is not None:
            return saved
    return None


def with_arguments(expression: str, arguments: str) -> str:
    """A saved expression with more after it (``+2``, ``adv``, ``# label``), its own label kept last."""
    body, label = split_label(expression)
    extra, extra_label = split_label(arguments)
    parts = [body.strip(), extra.strip()]
    label = extra_label or label
    return " ".join(p for p in parts if p) + (f" # {label}" if label else "")


async def saved_choices(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
    """Saved names starting with what was typed: the member's, then the channel's, then the server's."""
    typed = name_key(current.strip().split(" ", 1)[0]) if current.strip() else ""
    if " " in current.strip():
        return []  # typing arguments after a name: leave the text alone
    store = store_of(interaction)
    choices: list[app_commands.Choice[str]] = []
    seen: set[str] = set()
    for owner in owners(interaction):
        for saved in await store.saved_rolls(owner.scope, owner.owner_id):
            # A name saved before it was refused as notation (`4d6k3`) would roll the notation, not the saved roll.
            if saved.key.startswith(typed) and saved.key not in seen and not shadows_notation(saved.name):
                seen.add(saved.key)
                shown = _(
                    "{name} · {roll} ({whose})",
                    name=saved.name,
                    roll=saved.expression,
                    whose=_(SCOPE_NAMES[owner.scope]),
                )
                choices.append(app_commands.Choice(name=_cut(shown, 100), value=saved.name))
    return choices[:25]


def _cut(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


async def _check_limits(interaction: discord.Interaction, owner: Owner) -> None:
    store = store_of(interaction)
    if owner.scope == "member":
        if len(await store.saved_rolls("member", owner.owner_id)) >= MEMBER_LIMIT:
            raise UserError(
                _("You have {most} saved rolls, the most one member can keep; delete one first.", most=MEMBER_LIMIT)
            )
    elif interaction.guild_id is not None and await store.saved_in_guild(interaction.guild_id) >= SERVER_LIMIT:
        raise UserError(
            _(
                "This server has {most} channel and server rolls, the most it can keep; delete one first.",
                most=SERVER_LIMIT,
            )
        )


async def save_roll(interaction: discord.Interaction, owner: Owner, name: str, expression: str, *, new: bool) -> str:
    """Add (``new``) or replace a saved roll after every check; the confirmation to show."""
    name = check_name(name)
    expression = check_expression(expression)
    await check_may_edit(interaction, owner)
    store = store_of(interaction)
    if new:
        await _check_limits(interaction, owner)
    roll = SavedRoll(
        owner.scope,
        owner.owner_id,
        name,
        expression,
        guild_id=interaction.guild_id,
        created_by=interaction.user.id,
        updated_at=now(interaction),
    )
    if not await store.put_saved_roll(roll, new=new):
        if new:
            raise UserError(
                _(
                    "`{name}` is already one of {rolls}: use `/dice edit`.",
                    name=escape_name(name),
                    rolls=_(WHOSE_ROLLS[owner.scope]),
                )
            )
        raise UserError(_not_among(name, owner))
    facts = {"name": escape_name(name), "roll": escape_name(expression), "whose": _(SCOPE_NAMES[owner.scope])}
    if new:
        return _("✅ Saved `{name}` = `{roll}` ({whose}). Roll it with `/roll {name}`.", **facts)
    return _("✅ Changed `{name}` = `{roll}` ({whose}). Roll it with `/roll {name}`.", **facts)


def _not_among(name: str, owner: Owner) -> str:
    return _("There is no `{name}` among {rolls}.", name=escape_name(name), rolls=_(WHOSE_ROLLS[owner.scope]))


# -- commands (added to the /dice group by the package) -------------------------------------------------


@app_commands.command(name="save", description="Save a roll under a name, for /roll and dice boards.")
@app_commands.describe(
    name="One word, e.g. attack", expression="What to roll, e.g. 1d20+5 # Attack", scope="Whose roll (default: mine)"
)
@app_commands.choices(scope=SCOPE_CHOICES)
async def save(
    interaction: discord.Interaction,
    name: app_commands.Range[str, 1, NAME_MAX],
    expression: app_commands.Range[str, 1, _EXPRESSION_MAX],
    scope: str = "member",
) -> None:
    """Save a new roll."""
    text = await save_roll(interaction, owner_of(interaction, scope), name, expression, new=True)
    await Reply.of(interaction, private=True).send(text, ephemeral=True)


@app_commands.command(name="edit", description="Change what a saved roll rolls.")
@app_commands.describe(name="The saved roll", expression="What it rolls now", scope="Whose roll (default: mine)")
@app_commands.choices(scope=SCOPE_CHOICES)
async def edit(
    interaction: discord.Interaction,
    name: app_commands.Range[str, 1, NAME_MAX],
    expression: app_commands.Range[str, 1, _EXPRESSION_MAX],
    scope: str = "member",
) -> None:
    """Replace a saved roll's expression."""
    text = await save_roll(interaction, owner_of(interaction, scope), name, expression, new=False)
    await Reply.of(interaction, private=True).send(text, ephemeral=True)


@app_commands.command(name="delete", description="Delete a saved roll.")
@app_commands.describe(name="The saved roll", scope="Whose roll (default: mine)")
@app_commands.choices(scope=SCOPE_CHOICES)
async def delete(
    interaction: discord.Interaction, name: app_commands.Range[str, 1, NAME_MAX], scope: str = "member"
) -> None:
    """Delete a saved roll."""
    owner = owner_of(interaction, scope)
    await check_may_edit(interaction, owner)
    if not await store_of(interaction).delete_saved_roll(owner.scope, owner.owner_id, name):
        raise UserError(_not_among(name, owner))
    await Reply.of(interaction, private=True).send(_("🗑️ Deleted `{name}`.", name=escape_name(name)), ephemeral=True)


@app_commands.command(name="list", description="Your saved rolls, and this channel's and server's.")
async def list_saved(interaction: discord.Interaction) -> None:
    """Every saved roll ``/roll`` can use here, in the order it looks."""
    store = store_of(interaction)
    lines: list[str] = []
    for owner in owners(interaction):
        rolls = await store.saved_rolls(owner.scope, owner.owner_id)
        if rolls:
            lines.append(f"**{_(SCOPE_HEADINGS[owner.scope])}**")
            lines += [f"`{escape_name(r.name)}` · `{escape_name(r.expression)}`{_shadow_note(r)}" for r in rolls]
    text = "\n".join(lines) or _("No saved rolls yet. Save one with `/dice save name:attack expression:1d20+5`.")
    await Reply.of(interaction, private=True).send(_cut(text, 2000), ephemeral=True)


def _shadow_note(saved: SavedRoll) -> str:
    """For a name saved before names that read as notation were refused: why ``/roll`` doesn't find it."""
    if not shadows_notation(saved.name):
        return ""
    return _(" · ⚠️ reads as dice notation: `/roll` rolls the notation; save it under another name to roll it by name")


@app_commands.command(name="export", description="Your saved rolls as a file (JSON) to keep or import elsewhere.")
async def export(interaction: discord.Interaction) -> None:
    """A small JSON file of the member's own rolls."""
    rolls = await store_of(interaction).saved_rolls("member", interaction.user.id)
    data = {"saved_rolls": [{"name": r.name, "expression": r.expression} for r in rolls]}
    payload = json.dumps(data, ensure_ascii=False, indent=2).encode()
    file = discord.File(io.BytesIO(payload), filename="saved-rolls.json", description=_("Your saved rolls (JSON)"))
    await Reply.of(interaction, private=True).send(
        _n("📦 {n} saved roll.", "📦 {n} saved rolls.", len(rolls)), ephemeral=True, file=file
    )


@app_commands.command(
    name="import", description="Add saved rolls from a file (JSON from /dice export, or name = roll lines)."
)
@app_commands.describe(file="saved-rolls.json, or a text file with one `name = expression` per line")
async def import_saved(interaction: discord.Interaction, file: discord.Attachment) -> None:
    """Import into the member's own rolls: every entry is checked first; nothing is saved if one is wrong."""
    if file.size > IMPORT_MAX_BYTES:
        raise UserError(
            _(
                "That file is {size} bytes; saved rolls fit in {most}.",
                size=format(file.size, ","),
                most=format(IMPORT_MAX_BYTES, ","),
            )
        )
    try:
        text = (await file.read()).decode("utf-8-sig")
    except UnicodeDecodeError:
        raise UserError(_("That file isn't UTF-8 text; save it as UTF-8 (what `/dice export` writes).")) from None
    entries = parse_import(text)
    owner = Owner("member", interaction.user.id)
    store = store_of(interaction)
    existing = {r.key for r in await store.saved_rolls("member", owner.owner_id)}
    # The count first: checking an entry parses it (up to ~5 ms), so only a file that fits is checked.
    keys = [name_key(name.strip()) for name, _ in entries]
    new = set(keys) - existing
    if len(existing) + len(new) > MEMBER_LIMIT:
        raise UserError(
            _(
                "That would make {count} saved rolls; one member keeps {most}.",
                count=len(existing) + len(new),
                most=MEMBER_LIMIT,
            )
        )
    checked = []
    for number, ((name, expression), key) in enumerate(zip(entries, keys, strict=True), 1):
        try:
            if key in keys[: number - 1]:
                raise UserError(_("that name comes earlier in the file too; keep one."))
            checked.append((check_name(name), check_expression(expression)))
        except UserError as error:
            raise UserError(
                _(
                    "Entry {number} (`{name}`): {reason}",
                    number=number,
                    name=escape_name(_cut(name, 40)),
                    reason=error.text,
                )
            ) from None
        await asyncio.sleep(0)  # let other interactions in between entries
    for name, expression in checked:
        roll = SavedRoll(
            "member", owner.owner_id, name, expression, created_by=owner.owner_id, updated_at=now(interaction)
        )
        await store.put_saved_roll(roll, new=name_key(name) not in existing)
    replaced = len(checked) - len(new)
    if replaced:
        text = _n(
            "📥 Imported {n} saved roll ({replaced} replaced).",
            "📥 Imported {n} saved rolls ({replaced} replaced).",
            len(checked),
            replaced=replaced,
        )
    else:
        text = _n("📥 Imported {n} saved roll.", "📥 Imported {n} saved rolls.", len(checked))
    await Reply.of(interaction, private=True).send(text, ephemeral=True)


def parse_import(text: str) -> list[tuple[str, str]]:
    """``{"saved_rolls": [{"name", "expression"}]}``, or ``name = expression`` lines (``#`` lines are comments).
    Reading stops past ``MEMBER_LIMIT`` entries: no file can add more."""
    stripped = text.strip()
    if stripped.startswith("{"):
        return _parse_json_import(stripped)
    entries = []
    for number, line in enumerate(stripped.splitlines(), 1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        # Split at the first `=` or `:` (names have neither; `1d20+5 >= 15` may hold an `=` later).
        cut = min((i for i in (line.find("="), line.find(":")) if i >= 0), default=-1)
        name, sep, expression = (line[:cut], line[cut], line[cut + 1 :]) if cut >= 0 else (line, "", "")
        if not sep or not name.strip() or not expression.strip():
            raise UserError(_("Line {number} isn't `name = expression`.", number=number))
        entries.append((name.strip(), expression.strip()))
        _check_count(len(entries))
    if not entries:
        raise UserError(_("That file has no saved rolls in it."))
    return entries


def _parse_json_import(text: str) -> list[tuple[str, str]]:
    refused = UserError(_('That JSON isn\'t a saved-rolls file: `{"saved_rolls": [{"name": …, "expression": …}]}`.'))
    try:
        listed = json.loads(text)["saved_rolls"]
        _check_count(len(listed))
        entries = [(e["name"], e["expression"]) for e in listed]
    except (ValueError, KeyError, TypeError, RecursionError):  # RecursionError: nested far too deep
        raise refused from None
    for number, (name, expression) in enumerate(entries, 1):
        if not isinstance(name, str) or not isinstance(expression, str):  # `"name": null` saved a roll `None`
            raise UserError(_("Entry {number}: its name and expression must be text, in quotes.", number=number))
    return entries


def _check_count(entries: int) -> None:
    if entries > MEMBER_LIMIT:
        raise UserError(_("That file holds more than {most} saved rolls; one member keeps {most}.", most=MEMBER_LIMIT))


COMMANDS: tuple[app_commands.Command[Any, Any, None], ...] = (save, edit, delete, list_saved, export, import_saved)
__all__ = ["COMMANDS", "SAVED_SCOPES", "expand_saved", "saved_choices"]
