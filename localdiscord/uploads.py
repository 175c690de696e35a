"""Files a member attaches to a command's option. As Discord's client uploads an attachment before it sends the
command that names it, the page posts the file on its own (``POST /client/upload``), streamed and refused as soon as
it passes Discord's file limit; the server keeps it a few minutes for the browser that sent it, and the command takes
it once by its id. So a tab's own frames stay small, and a file never travels as base64 inside one."""

from __future__ import annotations

import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass

from aiohttp import web

from localdiscord.door import COOKIE, Door
from localdiscord.limits import FILE_LIMIT, MAX_FILES, read_limited
from localdiscord.responses import DiscordError

LIFETIME = 600.0
"""Seconds an attached file waits for its command (a person picks a file, then fills in the rest)."""
PER_BROWSER = MAX_FILES
ALL_BROWSERS_BYTES = 4 * FILE_LIMIT
AT_ONCE = 2
FILENAME_LIMIT = 255


@dataclass
class Upload:
    """A file one browser attached, waiting for its command."""

    client_id: int
    filename: str
    content: bytes
    expires: float


class Uploads:
    """The files attached and not yet sent with a command, within limits per browser and for all of them."""

    def __init__(self, door: Door, *, clock: Callable[[], float] = time.monotonic) -> None:
        self.door = door
        self.clock = clock
        self.pending: dict[str, Upload] = {}
        self._receiving = 0

    async def receive(self, request: web.Request) -> web.Response:
        """``POST /client/upload?filename=NAME``, the file as the body: its id, ``{"ok": true, "id": …}``."""
        if not self.door.same_origin(request):
            raise web.HTTPForbidden(text="Cross-site request refused.")
        client_id = self.door.world.client_of(request.cookies.get(COOKIE))
        if client_id is None:
            return refusal(403, "Join first.")
        filename = request.query.get("filename", "").replace("\\", "/").rsplit("/", 1)[-1].strip()
        if not filename or len(filename) > FILENAME_LIMIT:
            return refusal(400, "That file has no usable name.")
        self._expire()
        if sum(u.client_id == client_id for u in self.pending.values()) >= PER_BROWSER or self._receiving >= AT_ONCE:
            return refusal(429, "Too many files at once: send the command, or try again in a moment.")
        self._receiving += 1
        try:
            content = await read_limited(request, FILE_LIMIT)
        except DiscordError:
            return refusal(413, f"A file can be at most {FILE_LIMIT // 1024 // 1024} MiB.")
        finally:
            self._receiving -= 1
        if sum(len(u.content) for u in self.pending.values()) + len(content) > ALL_BROWSERS_BYTES:
            return refusal(429, "Too many files at once: send the command, or try again in a moment.")
        upload_id = secrets.token_urlsafe(16)
        self.pending[upload_id] = Upload(client_id, filename, content, self.clock() + LIFETIME)
        return web.json_response({"ok": True, "id": upload_id})

    def take(self, client_id: int, upload_id: str) -> tuple[str, bytes]:
        """The file ``upload_id`` this browser attached, as ``(filename, bytes)``, once; LookupError otherwise."""
        self._expire()
        upload = self.pending.get(upload_id)
        if upload is None or upload.client_id != client_id:
            raise LookupError("attach the file again")
        del self.pending[upload_id]
        return upload.filename, upload.content

    def _expire(self) -> None:
        now = self.clock()
        for upload_id, upload in list(self.pending.items()):
            if upload.expires < now:
                del self.pending[upload_id]


def refusal(status: int, text: str) -> web.Response:
    """A refusal the page shows as it is."""
    return web.json_response({"ok": False, "error": text}, status=status)
