"""Dice boards: ``/dice board`` posts up to 25 buttons for saved rolls (a member's, or the channel's); a click
rolls for whoever clicked. ``/dice board-edit`` changes a board's buttons (add, remove, order, label) or privacy.

A button's custom_id is ``dice:b:<board>:<index>``: the board is read back from the database on each click, so
buttons work after a restart and an edited saved roll rolls as it is now. A click's answer goes through the
same Reply as any other (deferred when it would be late), so a burst of clicks is answered every time.

A board's message is what its commits show: posting a board and changing it each write its drawing in the outbox
with the commit (``bot.outbox``), so the message always comes to show the buttons stored, after a crash too (a
stale message would roll another saved roll than its label says). ``BoardDrawer`` draws it from the stored board.
"""

from __future__ import annotations

import dataclasses
import re
from typing import Any

import discord
from discord import app_commands

from bot.board import static_view
from bot.errors import UserError
from bot.i18n import _, _n
from bot.names import escape_name
from bot.outbox import Drawing
from bot.replies import PUBLIC_ANSWER, Reply
from bot.storage import Store
from bot.storage.dice import BoardButton, DiceBoard, SavedScope
from cogs.dice.access import (
    bot_is_here,
    bot_of,
    channel_id_of,
    is_manager,
    not_here,
    now,
    speak_to_clicker,
    store_of,
)
from cogs.dice.roll import dice_cog

MAX_BUTTONS = 25
PER_ROW = 5
LABEL_MAX = 80
SOURCE_CHOICES = [
    app_commands.Choice(name="Mine", value="member"),
    app_commands.Choice(name="This channel's", value="channel"),
]


class BoardButtonItem(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"dice:b:(?P<board>\d+):(?P<index>\d+)"):
    """One button of a dice board."""

    def __init__(self, board_id: int, index: int, label: str = "🎲") -> None:
        super().__init__(
            discord.ui.Button(
                label=label[:LABEL_MAX], style=discord.ButtonStyle.primary, custom_id=f"dice:b:{board_id}:{index}"
            )
        )
        self.board_id = board_id
        self.index = index

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> BoardButtonItem:
        return cls(int(match["board"]), int(match["index"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        """Roll the button's saved roll for whoever clicked, as a new message (or privately)."""
        await speak_to_clicker(interaction)
        reply = Reply.of(interaction, private=True)
        board = await store_of(interaction).dice_board(self.board_id)
        if board is None or self.index >= len(board.buttons):
            await reply.refuse(_("This board was taken down; ask for a new one with `/dice board`."))
            return
        button = board.buttons[self.index]
        saved = await store_of(interaction).saved_roll(board.source, board.source_id, button.name)
        if saved is None:
            await reply.refuse(
                _("`{name}` isn't saved any more; the board's owner can change it.", name=escape_name(button.name))
            )
            return
        reply.private = board.hidden
        header = _(
            "🎲 **{name}** rolled **{roll}**",
            name=escape_name(interaction.user.display_name),
            roll=escape_name(button.label),
        )
        await dice_cog(interaction).roll_and_reply(
            interaction, saved.expression, private=board.hidden, label=None, header=header
        )


def board_view(board: DiceBoard) -> discord.ui.View | None:
    """The board's buttons, five to a row."""
    items: list[discord.ui.Item[Any]] = [BoardButtonItem(board.id, i, b.label) for i, b in enumerate(board.buttons)]
    return static_view([items[start : start + PER_ROW] for start in range(0, len(items), PER_ROW)])


def board_text(board: DiceBoard) -> str:
    """The line above the buttons: whose rolls, and where answers go."""
    if board.source == "channel":
        whose = _("this channel's saved rolls")
    else:
        owner = f"<@{board.owner_id}>"
        whose = _("{member}'s saved rolls", member=owner)
    where = _("answers are private to whoever clicks") if board.hidden else _("click to roll")
    return _("🎲 **Dice board** · {whose} · {where}", whose=whose, where=where)


class BoardDrawer:
    """Draws a dice board's message from the stored board (``bot.outbox.Drawer``)."""

    def __init__(self, store: Store) -> None:
        self.store = store

    async def drawing(self, ref: int) -> Drawing | None:
        """The board's message as the board is now."""
        board = await self.store.dice_board(ref)
        if board is None:
            return None
        return Drawing(board_text(board), board_view(board), board.message_id)

    async def shown(self, ref: int, message_id: int) -> None:
        """Remember the board's message (clicks and edits find the board by it)."""
        await self.store.dice_board_shown(ref, message_id)

    async def gone(self, ref: int) -> None:
        """The board's message was deleted: the board goes with it."""
        await self.store.delete_dice_board(ref)


def parse_buttons(text: str) -> list[tuple[str, str | None]]:
    """``attack=Sword ⚔️, heal`` → ``[("attack", "Sword ⚔️"), ("heal", None)]``, in order."""
    entries = []
    for piece in text.split(","):
        if not piece.strip():
            continue
        name, _equals, label = piece.partition("=")
        entries.append((name.strip(), label.strip()[:LABEL_MAX] or None))
    if not entries:
        raise UserError(_("List the saved rolls for the buttons, like `attack=Sword, heal, fireball`."))
    if len(entries) > MAX_BUTTONS:
        raise UserError(_("A board holds {most} buttons; that's {count}.", most=MAX_BUTTONS, count=len(entries)))
    return entries


async def choose_buttons(
    interaction: discord.Interaction, source: SavedScope, source_id: int, text: str | None
) -> tuple[tuple[BoardButton, ...], int]:
    """The buttons a board gets, and how many saved rolls didn't fit: the rolls named (checked to exist), or the
    source's first 25 by name."""
    saved = {r.key: r for r in await store_of(interaction).saved_rolls(source, source_id)}
    if text is None:
        if not saved:
            if source == "channel":
                raise UserError(_("No saved rolls yet (this channel has none): save some with `/dice save` first."))
            raise UserError(_("No saved rolls yet (you have none): save some with `/dice save` first."))
        shown = tuple(BoardButton(r.name, r.name) for r in list(saved.values())[:MAX_BUTTONS])
        return shown, len(saved) - len(shown)
    buttons = []
    for name, label in parse_buttons(text):
        found = saved.get(name.casefold())
        if found is None:
            raise UserError(_("There's no saved roll `{name}` to put on the board.", name=escape_name(name)))
        buttons.append(BoardButton(found.name, label or found.name))
    return tuple(buttons), 0


@app_commands.command(
    name="board",
    description="Post buttons for saved rolls: a click rolls for whoever clicks.",
    extras=PUBLIC_ANSWER,
)
@app_commands.describe(
    rolls="Whose saved rolls (default: mine)",
    buttons="Which, in order, with labels: attack=Sword, heal (default: all, up to 25)",
    private="Answers go privately to whoever clicks",
)
@app_commands.choices(rolls=SOURCE_CHOICES)
async def board(
    interaction: discord.Interaction,
    rolls: str = "member",
    buttons: app_commands.Range[str, 1, 1000] | None = None,
    private: bool = False,
) -> None:
    """Post a dice board in the channel."""
    source: SavedScope = "channel" if rolls == "channel" else "member"
    if source == "channel" and not bot_is_here(interaction):
        raise UserError(not_here(interaction, _("A board of this channel's saved rolls")))
    source_id = channel_id_of(interaction) if source == "channel" else interaction.user.id
    chosen, left_out = await choose_buttons(interaction, source, source_id, buttons)
    _board, outgoing = await store_of(interaction).create_dice_board(
        DiceBoard(
            0,
            channel_id_of(interaction),
            interaction.guild_id,
            interaction.user.id,
            source,
            source_id,
            private,
            chosen,
            created_at=now(interaction),
        )
    )
    reply = Reply.of(interaction, private=False)
    await bot_of(interaction).outbox.tell(outgoing, reply)
    if left_out:  # a board holds 25: say which didn't fit rather than leave them off without a word
        if source == "channel":
            shown = _(
                "📋 The board shows the first {shown} of this channel's {count} saved rolls, by name "
                "(a board holds {most}). Choose which with `buttons:` (like `attack, heal=Potion`) "
                "in `/dice board-edit`.",
                shown=len(chosen),
                count=len(chosen) + left_out,
                most=MAX_BUTTONS,
            )
        else:
            shown = _(
                "📋 The board shows the first {shown} of your {count} saved rolls, by name "
                "(a board holds {most}). Choose which with `buttons:` (like `attack, heal=Potion`) "
                "in `/dice board-edit`.",
                shown=len(chosen),
                count=len(chosen) + left_out,
                most=MAX_BUTTONS,
            )
        await reply.send(shown, ephemeral=True)


@app_commands.command(
    name="board-edit", description="Change a dice board's buttons or privacy (its owner or a manager)."
)
@app_commands.describe(
    buttons="The buttons, in order, with labels: attack=Sword, heal",
    private="Answers go privately to whoever clicks",
    board="Which board (default: your newest here)",
)
async def board_edit(
    interaction: discord.Interaction,
    buttons: app_commands.Range[str, 1, 1000] | None = None,
    private: bool | None = None,
    board: int | None = None,
) -> None:
    """Rewrite a board and redraw its message."""
    if not bot_is_here(interaction):  # its message can't be edited but through the interaction that posted it
        refused = not_here(interaction, _("Changing a board (its message)"))
        again = _("Post a new one with `/dice board`.")
        raise UserError(f"{refused} {again}")
    store = store_of(interaction)
    boards = await store.dice_boards_in(channel_id_of(interaction))
    if board is not None:
        target = next((b for b in boards if b.id == board), None)
    else:  # the newest board of one's own here; a manager's default is the newest of anyone's
        own = [b for b in boards if b.owner_id == interaction.user.id]
        target = own[0] if own else boards[0] if boards and is_manager(interaction) else None
        if target is None and boards:
            raise UserError(_("You have no dice board here; only the board's owner or a manager can change one."))
    if target is None:
        raise UserError(_("There's no dice board here; post one with `/dice board`."))
    if interaction.user.id != target.owner_id and not is_manager(interaction):
        raise UserError(_("Only the board's owner or members with Manage Server can change it."))
    chosen = (
        target.buttons
        if buttons is None
        else (await choose_buttons(interaction, target.source, target.source_id, buttons))[0]
    )
    changed = dataclasses.replace(target, buttons=chosen, hidden=target.hidden if private is None else private)
    # The board's message is redrawn from the outbox, written with the change: it never shows other buttons
    # than the board has, even if the bot stops now.
    await bot_of(interaction).outbox.tell(await store.update_dice_board(changed, now(interaction)))
    reply = Reply.of(interaction, private=True)
    if await store.dice_board(changed.id) is None:  # its message was deleted, and the board with it
        await reply.send(_("That board's message was deleted; post a new one with `/dice board`."), ephemeral=True)
        return
    await reply.send(
        _n("✅ The board has {n} button now.", "✅ The board has {n} buttons now.", len(chosen)), ephemeral=True
    )


@board_edit.autocomplete("board")
async def _board_choices(interaction: discord.Interaction, current: str) -> list[app_commands.Choice[int]]:
    boards = await store_of(interaction).dice_boards_in(channel_id_of(interaction))
    choices = []
    for found in boards[:25]:
        labels = ", ".join(b.label for b in found.buttons)
        choices.append(app_commands.Choice(name=f"#{found.id}: {labels}"[:100], value=found.id))
    return choices


COMMANDS: tuple[app_commands.Command[Any, Any, None], ...] = (board, board_edit)
