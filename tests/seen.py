"""What each member sees, for a game's end-to-end tests: a message's whole text, a channel's, the live board.

A secret is checked by looking where it could show: ``channel_text`` must never hold it, a private answer
(``Message.ephemeral``, seen by its member alone) only its owner's; ``tests/contract/test_hidden_discord.py``
is the worked example.
"""

from __future__ import annotations

import json
from typing import Any

from localdiscord.guild import Channel
from localdiscord.messages import Message
from localdiscord.server import LocalDiscord


def text_of(message: Message) -> str:
    """Everything a message shows: its text, its embeds and the words on its controls (labels, placeholders,
    the options of a select, not their hidden ids and values)."""
    shown = [message.content, message.data.get("embeds", []), _words_on(message.data.get("components", []))]
    return json.dumps(shown, ensure_ascii=False)


def _words_on(components: list[dict[str, Any]]) -> list[str]:
    words: list[str] = []
    for component in components:
        words += [str(component[key]) for key in ("label", "placeholder") if key in component]
        for option in component.get("options", []):
            words += [str(option[key]) for key in ("label", "description") if key in option]
        words += _words_on(component.get("components", []))
    return words


def channel_text(fake: LocalDiscord, channel: Channel) -> str:
    """Everything the channel shows to anyone reading it (private answers are not in it)."""
    return "\n".join(text_of(m) for m in fake.messages(channel))


async def live_board(fake: LocalDiscord, channel: Channel) -> Message:
    """The channel's newest message with controls, once there is one."""
    await fake.wait_for(lambda: any(m.buttons for m in fake.messages(channel)), what="a board")
    return [m for m in fake.messages(channel) if m.buttons][-1]
