"""Helpers for driving a V&V scoresheet through the local Discord (``tests/test_e2e_vv_sheet*.py``)."""

from __future__ import annotations

import io
from typing import Any

from PIL import Image

from bot.app import TabletopBot
from localdiscord.guild import Channel, Member
from localdiscord.interactions import InteractionResult
from localdiscord.messages import Message
from localdiscord.server import LocalDiscord
from rules.vices.sheet_state import SheetState
from tests.conftest import MakeBot

SHEET_EXTENSIONS = ("cogs.meta", "cogs.game", "cogs.vices")
VV14 = "Jordan: Wrath, Bob: Sloth, Casey: Greed, Carol: Pride"
"""RULES.md VV-14's seats, with two of the fake's members (Bob and Carol) among the typed names."""


async def sheet_bot(make_bot: MakeBot, **options: Any) -> TabletopBot:
    """A bot with the V&V cog (and the shared commands)."""
    return await make_bot(extensions=SHEET_EXTENSIONS, **options)


async def new_sheet(fake: LocalDiscord, channel: Channel, keeper: Member, **options: Any) -> Message:
    """``/vv sheet`` with these options (VV-14's players by default); the sheet's message."""
    options.setdefault("players", VV14)
    res = await fake.slash(channel, keeper, "vv sheet", options=options)
    message = await res.message()
    assert not message.ephemeral, message.content
    return message


def the_sheet(fake: LocalDiscord, channel: Channel) -> Message:
    """The channel's live sheet message: the newest one with controls."""
    return [m for m in fake.messages(channel) if m.custom_ids][-1]


async def state_of(bot: TabletopBot, channel: Channel) -> SheetState:
    """The sheet's state as stored, once the bot has finished drawing."""
    await bot.settled()
    session = await bot.service.live_table(channel.id)
    assert session is not None and session.state_json is not None
    return SheetState.model_validate_json(session.state_json)


async def version_of(bot: TabletopBot, channel: Channel) -> int:
    """The sheet's version (every write adds one)."""
    await bot.settled()
    session = await bot.service.live_table(channel.id)
    assert session is not None
    return session.version


def just_now(message: Message) -> list[str]:
    """The sheet's "Just now" lines (what happened last)."""
    fields = message.embeds[0].get("fields", [])
    return next((f["value"].splitlines() for f in fields if f["name"] == "Just now"), [])


def score_label(message: Message) -> str:
    """The label of the sheet's score button (``Score for Jordan``)."""
    return next(b["label"] for b in message.buttons if str(b.get("label", "")).startswith("Score for"))


async def open_score(fake: LocalDiscord, channel: Channel, member: Member) -> InteractionResult:
    """``member`` clicks the score button of the live sheet."""
    sheet = the_sheet(fake, channel)
    return await fake.click(sheet, score_label(sheet), member)


async def enter(
    bot: TabletopBot, fake: LocalDiscord, channel: Channel, member: Member, value: object
) -> InteractionResult:
    """``member`` clicks the score button and submits ``value`` in its form; waits until the sheet is redrawn."""
    await bot.settled()
    click = await open_score(fake, channel, member)
    submit = await fake.submit_modal(click, {"value": str(value)})
    await submit.response()
    await bot.settled()
    return submit


async def enter_all(bot: TabletopBot, fake: LocalDiscord, channel: Channel, member: Member, *values: int) -> None:
    """The keeper enters these turn scores in turn."""
    for value in values:
        submit = await enter(bot, fake, channel, member, value)
        assert submit.response_type == 6, submit  # a deferred update: the sheet itself changed, nothing else


def select_of(message: Message, placeholder: str) -> dict[str, Any]:
    """The select menu whose placeholder starts with ``placeholder``."""
    for menu in message.selects:
        if str(menu.get("placeholder", "")).startswith(placeholder):
            return menu
    raise LookupError(f"no select {placeholder!r}; placeholders: {[m.get('placeholder') for m in message.selects]}")


def option_value(menu: dict[str, Any], label: str) -> str:
    """The value of the option labelled ``label``."""
    for option in menu["options"]:
        if option["label"] == label:
            return str(option["value"])
    raise LookupError(f"no option {label!r}; options: {[o['label'] for o in menu['options']]}")


async def pick(fake: LocalDiscord, message: Message, placeholder: str, label: str, member: Member) -> InteractionResult:
    """``member`` picks the option ``label`` in the select ``placeholder`` of ``message``."""
    menu = select_of(message, placeholder)
    return await fake.select(message, menu["custom_id"], [option_value(menu, label)], member)


def picture(fake: LocalDiscord, message: Message) -> tuple[bytes, Image.Image]:
    """The one PNG attached to ``message``, as uploaded and decoded."""
    assert len(message.attachments) == 1, message.attachments
    data = fake.attachment_bytes(message.attachments[0])
    image = Image.open(io.BytesIO(data))
    image.load()
    assert image.format == "PNG"
    return data, image
