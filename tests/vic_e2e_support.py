"""Helpers of the Viciousness campaign tests through the local Discord."""

from __future__ import annotations

from typing import Any

from bot.app import TabletopBot
from bot.models import Scope
from localdiscord.guild import Channel, Member
from localdiscord.interactions import InteractionResult
from localdiscord.messages import Message
from localdiscord.server import LocalDiscord
from rules.viciousness.state import CampaignState
from tests.conftest import MakeBot
from tests.core.clock import FakeClock

EXTENSIONS = ("cogs.meta", "cogs.game", "cogs.viciousness")


async def vic_bot(make_bot: MakeBot, **options: object) -> TabletopBot:
    """A bot with the campaign's commands (and /game), on a fake clock."""
    return await make_bot(extensions=EXTENSIONS, clock=FakeClock(), **options)


async def campaign_state(bot: TabletopBot, channel: Channel) -> CampaignState:
    """The channel's campaign as stored, once nothing is being changed or drawn."""
    await bot.settled()
    session = await bot.store.live_session(channel.id, Scope.CAMPAIGN)
    assert session is not None and session.state is not None
    return CampaignState.model_validate(session.state)


def split_traits(modal: dict[str, Any], traits: list[str]) -> dict[str, list[str]]:
    """The character form's select values for ``traits``: each trait goes to the select that offers it."""
    values: dict[str, list[str]] = {}
    for row in modal["components"]:
        child = row.get("component") or {}
        if child.get("type") != 3:
            continue
        offered = {o["value"] for o in child["options"]}
        values[child["custom_id"]] = [t for t in traits if t in offered]
    assert sum(len(v) for v in values.values()) == len(traits), f"not all of {traits} are offered"
    return values


def typed_into(modal: dict[str, Any], troupe: str | None = None, **texts: str) -> dict[str, str]:
    """The character form's text inputs for the ``troupe``'s name and the character's ``name`` and ``concept``
    (each input's custom_id is the field of the action it fills in: ``name``, ``captain.name``, ``pc.concept``…)."""
    ids = [c["custom_id"] for row in modal["components"] if (c := row.get("component") or {}).get("type") == 4]
    values = {"name": troupe} if troupe is not None else {}
    for field, text in texts.items():
        values[next(i for i in ids if i.endswith(f".{field}"))] = text
    return {k: v for k, v in values.items() if v is not None}


async def fill_form(
    fake: LocalDiscord,
    opened: InteractionResult,
    name: str,
    traits: list[str],
    timeout: float = 5.0,
    troupe: str | None = None,
    concept: str | None = None,
) -> InteractionResult:
    """Fill in and send the character form ``opened`` answered with."""
    await opened.response(timeout)
    assert opened.modal is not None, opened.errors
    typed = typed_into(opened.modal, troupe, name=name, **({"concept": concept} if concept is not None else {}))
    return await fake.submit_modal(opened, {**typed, **split_traits(opened.modal, traits)})


async def new_troupe(
    fake: LocalDiscord,
    channel: Channel,
    member: Member,
    troupe: str,
    captain: str,
    traits: list[str],
    asset: str = "headquarters",
    concept: str = "",
    timeout: float = 5.0,
) -> Message:
    """``member`` makes a troupe through ``/vic troupe new`` and its form; the troupe's sheet posted."""
    opened = await fake.slash(channel, member, "vic troupe new", options={"asset": asset})
    sent = await fill_form(fake, opened, captain, traits, timeout, troupe=troupe, concept=concept)
    return await sent.message(timeout)


def option_value(message: Message, label: str) -> tuple[str, str]:
    """(select custom_id, option value) of the select option labelled ``label`` on ``message``."""
    for select in message.selects:
        for option in select.get("options", []):
            if option["label"] == label:
                return select["custom_id"], option["value"]
    raise LookupError(f"no option {label!r} on message {message.id}: {[s.get('options') for s in message.selects]}")


async def pick(fake: LocalDiscord, message: Message, label: str, member: Member) -> Message:
    """``member`` picks the option ``label`` in a select of ``message``; the answer."""
    custom_id, value = option_value(message, label)
    return await (await fake.select(message, custom_id, [value], member)).message()


async def join_with(fake: LocalDiscord, board: Message, label: str, member: Member) -> Message:
    """``member`` joins the pool of ``board`` by its *Join with…* select (``Ana``, or ``Ana → Knives`` in a fight),
    once the board offers ``label``; the private answer (the dice the character brings)."""

    def offered() -> bool:
        try:
            option_value(board, label)
        except LookupError:
            return False
        return True

    await fake.wait_for(offered, what=f"{label!r} in the board's Join select")
    return await pick(fake, board, label, member)
