"""Messages as the fake stores them: Discord's JSON plus who may see them, with test-friendly accessors."""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from localdiscord.guild import Channel, Member, Role

EPHEMERAL = 1 << 6
LOADING = 1 << 7
# Flags a bot may set on a message; Discord ignores the rest.
SETTABLE_FLAGS = (1 << 2) | EPHEMERAL | (1 << 12) | (1 << 15)

USER_MENTION = re.compile(r"<@!?(\d{15,21})>")
ROLE_MENTION = re.compile(r"<@&(\d{15,21})>")
EVERYONE_MENTION = re.compile(r"@(everyone|here)\b")


@dataclass(eq=False)
class Message:
    """A message in the fake, live: edits and deletions show up on the same object.

    ``data`` is the message object exactly as the API returns it; the properties are conveniences for tests.
    """

    data: dict[str, Any]
    channel: Channel
    interaction_id: int | None = None
    # For an ephemeral message: the one user who can see it.
    viewer_id: int | None = None
    deleted: bool = False
    edits: int = 0
    # The allowed_mentions the bot sent, re-applied when an edit changes the content.
    allowed_mentions: dict[str, Any] | None = None
    # For the response to a slash command: the command as the member typed it ("/crowns new"), shown above it.
    invoked: str | None = None

    @property
    def id(self) -> int:
        """The message id."""
        return int(self.data["id"])

    @property
    def channel_id(self) -> int:
        """The channel (or thread, or DM) the message is in."""
        return self.channel.id

    @property
    def author_id(self) -> int:
        """Who sent it (the bot, for everything the fake stores)."""
        return int(self.data["author"]["id"])

    @property
    def content(self) -> str:
        """The text content."""
        return self.data.get("content", "")

    @property
    def embeds(self) -> list[dict[str, Any]]:
        """The embeds, raw."""
        return self.data.get("embeds", [])

    @property
    def components(self) -> list[dict[str, Any]]:
        """The component tree, raw."""
        return self.data.get("components", [])

    @property
    def attachments(self) -> list[dict[str, Any]]:
        """The attachments, raw."""
        return self.data.get("attachments", [])

    @property
    def flags(self) -> int:
        """Message flags."""
        return self.data.get("flags", 0)

    @property
    def ephemeral(self) -> bool:
        """Only the invoking user sees it."""
        return bool(self.flags & EPHEMERAL)

    @property
    def loading(self) -> bool:
        """A deferred response still showing "Bot is thinking…"."""
        return bool(self.flags & LOADING)

    @property
    def mentions(self) -> list[int]:
        """Ids of the users this message actually pinged (after allowed_mentions)."""
        return [int(u["id"]) for u in self.data.get("mentions", [])]

    @property
    def mention_roles(self) -> list[int]:
        """Ids of the roles this message actually pinged."""
        return [int(r) for r in self.data.get("mention_roles", [])]

    @property
    def mention_everyone(self) -> bool:
        """True if it pinged @everyone/@here."""
        return bool(self.data.get("mention_everyone"))

    @property
    def edited(self) -> bool:
        """True once the bot has edited it (a deferred response's first edit does not count)."""
        return self.data.get("edited_timestamp") is not None

    def walk_components(self) -> Iterator[dict[str, Any]]:
        """Every component, depth first (rows, sections, containers and what they hold)."""
        stack = list(reversed(self.components))
        while stack:
            component = stack.pop()
            yield component
            children = list(component.get("components", []))
            for key in ("accessory", "component"):
                if key in component:
                    children.append(component[key])
            stack.extend(reversed(children))

    @property
    def buttons(self) -> list[dict[str, Any]]:
        """All buttons, in reading order."""
        return [c for c in self.walk_components() if c.get("type") == 2]

    @property
    def selects(self) -> list[dict[str, Any]]:
        """All select menus (string, user, role, mentionable, channel)."""
        return [c for c in self.walk_components() if c.get("type") in (3, 5, 6, 7, 8)]

    @property
    def custom_ids(self) -> list[str]:
        """custom_ids of every interactive component, in reading order."""
        return [c["custom_id"] for c in self.walk_components() if "custom_id" in c]

    def button(self, custom_id_or_label: str) -> dict[str, Any]:
        """The button with this custom_id, else the one with this label (LookupError if none)."""
        for key in ("custom_id", "label"):
            for button in self.buttons:
                if button.get(key) == custom_id_or_label:
                    return button
        raise LookupError(f"no button {custom_id_or_label!r} on message {self.id}; it has {self.describe_buttons()}")

    def describe_buttons(self) -> str:
        """The buttons as ``label (custom_id)``, for error messages."""
        return ", ".join(f"{b.get('label')!r} ({b.get('custom_id')})" for b in self.buttons) or "no buttons"

    def __repr__(self) -> str:
        state = " deleted" if self.deleted else ""
        return f"<Message {self.id} in {self.channel.name}{state} {self.content[:60]!r} {self.describe_buttons()}>"


def compute_mentions(
    content: str, allowed: dict[str, Any] | None, users: dict[int, Member], roles: dict[int, Role]
) -> dict[str, Any]:
    """``mentions``, ``mention_roles`` and ``mention_everyone`` as Discord computes them.

    Without ``allowed_mentions`` everything in the content pings; with it, a user or role pings only when
    its kind is in ``parse`` or its id is listed, and @everyone/@here only when ``parse`` has "everyone".
    """
    parse = {"users", "roles", "everyone"} if allowed is None else set(allowed.get("parse", []))
    allowed_users = {int(u) for u in (allowed or {}).get("users", [])}
    allowed_roles = {int(r) for r in (allowed or {}).get("roles", [])}
    mentioned_users: list[Member] = []
    for match in USER_MENTION.finditer(content):
        user = users.get(int(match.group(1)))
        if user and user not in mentioned_users and ("users" in parse or user.id in allowed_users):
            mentioned_users.append(user)
    mentioned_roles: list[str] = []
    for match in ROLE_MENTION.finditer(content):
        role_id = int(match.group(1))
        if role_id in roles and str(role_id) not in mentioned_roles and ("roles" in parse or role_id in allowed_roles):
            mentioned_roles.append(str(role_id))
    return {
        "mentions": [u.user_json() for u in mentioned_users],
        "mention_roles": mentioned_roles,
        "mention_everyone": "everyone" in parse and EVERYONE_MENTION.search(content) is not None,
    }
