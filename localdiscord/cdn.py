"""Uploaded files served as Discord's CDN serves them: at the channel and filename they were posted under, under a
signed URL that expires (``?ex=…&is=…&hm=…``, the issue and expiry times in hex and an HMAC of the server's secret),
and, for the web client, only to a browser whose member can see the message the file belongs to.

Two kinds of signature. The bot's URLs (in every message and interaction the API gives it) are Discord's: whoever
holds one may fetch the file until it expires, as the bot's ``Attachment.read()`` does, without any login. The web
client's URLs are signed for the page and also need the browser's cookie: the file is served only if a member that
browser plays can see its message (an ephemeral one: its member alone; a file attached to a command: whoever
attached it). Anything else (a guessed id, another channel or filename, an expired or altered signature) is a 404,
and every client's fetches are rate-limited.
"""

from __future__ import annotations

import hashlib
import hmac
import io
import secrets
import time
import warnings
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any
from urllib.parse import quote

from aiohttp import web
from PIL import Image

from localdiscord.guild import Member
from localdiscord.limits import RateLimit
from localdiscord.messages import Message

if TYPE_CHECKING:
    from localdiscord.state import World

URL_LIFETIME = 24 * 3600.0
"""Discord's attachment URLs last about a day; it refreshes them whenever it hands a message out."""
FETCHES_PER_MINUTE = 120
BOT, WEB = "bot", "web"


@dataclass
class Place:
    """Where a file was posted and so who may see it."""

    channel_id: int
    filename: str
    message: Message | None = None
    """The message showing it; None while it is a file a member attached to a command."""
    uploader_id: int | None = None
    """For a file attached to a command: the member who attached it."""

    def seen_by(self, member: Member) -> bool:
        """Whether ``member`` can see the message this file belongs to (or attached it)."""
        message = self.message
        if message is None:
            return member.id == self.uploader_id
        channel = message.channel
        if message.deleted or (channel.is_dm and (channel.recipient is None or channel.recipient.id != member.id)):
            return False
        return not message.ephemeral or message.viewer_id == member.id


PICTURE_TYPES = {"PNG": "image/png", "JPEG": "image/jpeg", "GIF": "image/gif", "WEBP": "image/webp"}


def picture_of(content: bytes) -> tuple[str, int, int] | None:
    """A picture's type, width and height, read from its header alone (nothing is decoded); None if it is none."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", Image.DecompressionBombWarning)
            with Image.open(io.BytesIO(content)) as image:
                kind = PICTURE_TYPES.get(image.format or "")
                return None if kind is None else (kind, image.width, image.height)
    except Exception:  # any bytes at all: a reader of pictures' headers may fail on them in many ways
        return None


Viewer = Callable[[web.Request], tuple[Any, list[Member]]]
"""For a request: who is asking (the key its fetches are counted under) and the members it may act as."""


def anonymous(request: web.Request) -> tuple[Any, list[Member]]:
    """Without a web client nobody is logged in: fetches are counted by address."""
    return request.remote, []


class Cdn:
    """Signs attachment URLs, remembers where each file was posted, and serves the files to who may have them."""

    def __init__(self, world: World, *, lifetime: float = URL_LIFETIME) -> None:
        self.world = world
        self.secret = secrets.token_bytes(32)
        """Signs every URL; a server keeps it in its world file, so its URLs outlive a restart as Discord's do."""
        self.lifetime = lifetime
        self.clock: Callable[[], float] = time.time
        self.places: dict[int, Place] = {}
        self.viewer: Viewer = anonymous
        self.fetches = RateLimit(FETCHES_PER_MINUTE, 60.0)

    # -- signing ----------------------------------------------------------------------------------------------

    def _signature(self, channel_id: int, attachment_id: int, filename: str, times: str, audience: str) -> str:
        text = f"{audience}\n{channel_id}\n{attachment_id}\n{filename}\n{times}"
        return hmac.new(self.secret, text.encode(), hashlib.sha256).hexdigest()

    def url(self, channel_id: int, attachment_id: int, filename: str, audience: str = BOT) -> str:
        """A signed URL for the file: absolute for the bot, a path for the web page."""
        # Issued on the hour: a file keeps one URL for an hour, so a page drawn again takes it from its cache.
        issued = int(self.clock()) // 3600 * 3600
        times = f"ex={issued + int(self.lifetime):x}&is={issued:x}"
        signature = self._signature(channel_id, attachment_id, filename, times, audience)
        path = f"/attachments/{channel_id}/{attachment_id}/{quote(filename, safe='')}?{times}&hm={signature}&"
        return self.world.base_url + path if audience == BOT else path

    def _audience(self, channel_id: int, attachment_id: int, filename: str, query: Any) -> str | None:
        """Whose URL this is (``BOT`` or ``WEB``), if its signature is right and it has not expired."""
        expires, issued, signature = query.get("ex", ""), query.get("is", ""), query.get("hm", "")
        try:
            if int(expires, 16) < self.clock():
                return None
        except ValueError:
            return None
        times = f"ex={expires}&is={issued}"
        for audience in (BOT, WEB):
            expected = self._signature(channel_id, attachment_id, filename, times, audience)
            if hmac.compare_digest(expected.encode(), signature.encode()):
                return audience
        return None

    # -- where files are ----------------------------------------------------------------------------------------

    def uploaded(
        self,
        attachment_id: int,
        channel_id: int,
        filename: str,
        content: bytes,
        content_type: str | None,
        description: str | None,
    ) -> dict[str, Any]:
        """A file was uploaded (by the bot, or by a member for a command's option): its attachment object, which
        for a picture carries its type and size as Discord's does (clients reserve its room before it loads)."""
        self.places[attachment_id] = Place(channel_id, filename)
        url = self.url(channel_id, attachment_id, filename)
        attachment: dict[str, Any] = {
            "id": str(attachment_id),
            "filename": filename,
            "size": len(content),
            "content_type": content_type,
            "url": url,
            "proxy_url": url,
        }
        picture = picture_of(content)
        if picture is not None:
            attachment["content_type"], attachment["width"], attachment["height"] = picture
        if description is not None:
            attachment["description"] = description  # the alt text, as Discord keeps it
        return attachment

    def attached_by(self, attachment_id: int, member: Member) -> None:
        """The file is one ``member`` attached to a command."""
        place = self.places.get(attachment_id)
        if place is not None:
            place.uploader_id = member.id

    def shown(self, message: Message) -> None:
        """``message`` shows its attachments: who can see it can see them."""
        for attachment in message.attachments:
            attachment_id = int(attachment["id"])
            place = self.places.setdefault(attachment_id, Place(message.channel.id, attachment["filename"]))
            place.message = message

    def forget(self, attachment_id: int) -> None:
        """The file is no longer kept."""
        self.places.pop(attachment_id, None)

    def for_bot(self, data: dict[str, Any]) -> dict[str, Any]:
        """A message object as the API hands it out: its attachments' URLs signed afresh, as Discord's are."""
        attachments = data.get("attachments")
        if not attachments:
            return data
        channel_id = int(data["channel_id"])
        fresh = []
        for attachment in attachments:
            url = self.url(channel_id, int(attachment["id"]), attachment["filename"])
            fresh.append(attachment | {"url": url, "proxy_url": url})
        return data | {"attachments": fresh}

    # -- serving ------------------------------------------------------------------------------------------------

    async def download(self, request: web.Request) -> web.Response:
        """``GET /attachments/{channel}/{attachment}/{filename}?ex&is&hm``: the file, to who may have it."""
        channel, attachment, filename = (request.match_info[k] for k in ("channel", "attachment", "filename"))
        if not (channel.isdigit() and attachment.isdigit()):
            raise web.HTTPNotFound()
        channel_id, attachment_id = int(channel), int(attachment)
        audience = self._audience(channel_id, attachment_id, filename, request.query)
        who, members = (BOT, []) if audience == BOT else self.viewer(request)
        if not self.fetches.take(who):
            raise web.HTTPTooManyRequests(headers={"Retry-After": "1"})
        place = self.places.get(attachment_id)
        if (
            audience is None
            or place is None
            or (place.channel_id, place.filename) != (channel_id, filename)
            or (audience == WEB and not any(place.seen_by(m) for m in members))
        ):
            raise web.HTTPNotFound()
        content = self.world.uploads.get(attachment_id)
        if content is None:
            raise web.HTTPNotFound()
        return web.Response(body=content, headers={"Cache-Control": "private, max-age=3600"})
