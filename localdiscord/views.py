"""What a web-client tab is told: Discord's JSON for a message, its markdown rendered to safe HTML, its files as
this server's signed paths (with a picture's size, so the page keeps its room before it loads), a member, a channel.
"""

from __future__ import annotations

from typing import Any

from localdiscord.cdn import WEB
from localdiscord.guild import Channel, Member
from localdiscord.markdown import render
from localdiscord.messages import Message
from localdiscord.server import LocalDiscord

PICTURE_NAMES = (".png", ".jpg", ".jpeg", ".gif", ".webp")


class Views:
    """Draws ``fake``'s messages, members and channels as the page takes them."""

    def __init__(self, fake: LocalDiscord) -> None:
        self.fake = fake
        self._names: dict[str, dict[str, str]] | None = None

    def forget_names(self) -> None:
        """Members or channels changed: the names are looked up again."""
        self._names = None

    def names(self) -> dict[str, dict[str, str]]:
        """Display names by id, for mentions in rendered markdown (rebuilt when members or channels change)."""
        if self._names is None:
            fake = self.fake
            users = {str(u.id): u.name for u in fake.users.values()}
            roles = {str(r.id): r.name for g in fake.guilds for r in g.roles}
            channels = {str(c.id): c.name for c in (*fake.channels, *fake.threads)}
            self._names = {"users": users, "roles": roles, "channels": channels}
        return self._names

    def member(self, member: Member) -> dict[str, Any]:
        """A member as the member list shows them."""
        guild = self.fake.guild
        return {
            "id": str(member.id),
            "name": member.name,
            "manager": guild.is_manager(member),
            "owner": member.id == guild.owner_id,
        }

    def channel(self, channel: Channel) -> dict[str, Any]:
        """A channel as the sidebar shows it (a DM is named after the bot)."""
        return {
            "id": str(channel.id),
            "name": self.fake.bot_user.name if channel.is_dm else channel.name,
            "type": channel.type,
            "parent_id": None if channel.parent_id is None else str(channel.parent_id),
            "archived": channel.archived,
            "locked": channel.locked,
        }

    def message(self, message: Message) -> dict[str, Any]:
        """A message as the page draws it: Discord's JSON, its markdown rendered, files as this server's paths."""
        data = message.data
        base = {"id": data["id"], "channel_id": str(message.channel.id)}
        if message.deleted:
            return base | {"deleted": True}
        names = self.names()
        files = {a["filename"]: self.attachment(message.channel, a) for a in data.get("attachments", [])}
        embeds = [self._embed(e, files, names) for e in data.get("embeds", [])]
        shown_in_embeds = {e["image"]["filename"] for e in embeds if e.get("image") and "filename" in e["image"]}
        interaction = data.get("interaction_metadata")
        return base | {
            "author": {"id": data["author"]["id"], "name": self.fake.bot_user.name, "bot": True},
            "timestamp": data["timestamp"],
            "edited": data.get("edited_timestamp") is not None,
            "ephemeral": message.ephemeral,
            "loading": message.loading,
            "html": render(data.get("content", ""), names),
            "embeds": embeds,
            "attachments": [a for name, a in files.items() if name not in shown_in_embeds],
            "components": data.get("components", []),
            "mentions": [u["id"] for u in data.get("mentions", [])],
            "invoked": message.invoked,
            "invoker": None if interaction is None else self.name_of(interaction["user"]["id"]),
            "thread": None if "thread" not in data else {"id": data["thread"]["id"], "name": data["thread"]["name"]},
        }

    def name_of(self, user_id: str) -> str:
        """A user's display name."""
        return self.names()["users"].get(str(user_id), "Someone")

    def attachment(self, channel: Channel, attachment: dict[str, Any]) -> dict[str, Any]:
        """A file of a message in ``channel``: a URL for the page, and for a picture its size."""
        url = self.fake.cdn.url(channel.id, int(attachment["id"]), attachment["filename"], WEB)
        kind = attachment.get("content_type") or ""
        image = kind.startswith("image/") or attachment["filename"].lower().endswith(PICTURE_NAMES)
        return {
            "url": url,
            "filename": attachment["filename"],
            "size": attachment.get("size", 0),
            "image": image,
            "width": attachment.get("width"),
            "height": attachment.get("height"),
            "alt": attachment.get("description"),
        }

    def _embed(
        self, embed: dict[str, Any], files: dict[str, dict[str, Any]], names: dict[str, dict[str, str]]
    ) -> dict[str, Any]:
        def picture(key: str) -> dict[str, Any] | None:
            found = embed.get(key) or {}
            url = found.get("url") or ""
            if url.startswith("attachment://"):
                return files.get(url.removeprefix("attachment://"))
            if not url.startswith(("http://", "https://")):
                return None
            return {"url": url, "alt": None, "width": found.get("width"), "height": found.get("height")}

        author = embed.get("author") or {}
        footer = embed.get("footer") or {}
        return {
            "color": embed.get("color"),
            "title": render(embed["title"], names) if embed.get("title") else None,
            "url": embed.get("url"),
            "author": author.get("name"),
            "description": render(embed.get("description") or "", names),
            "fields": [
                {
                    "name": render(f.get("name", ""), names),
                    "value": render(f.get("value", ""), names),
                    "inline": bool(f.get("inline")),
                }
                for f in embed.get("fields") or []
            ],
            "image": picture("image"),
            "thumbnail": picture("thumbnail"),
            "footer": footer.get("text"),
            "timestamp": embed.get("timestamp"),
        }
