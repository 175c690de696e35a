"""Who comes into the playground: a browser admitted once (a cookie holding a secret of its own; with ``--host``
only after the join code), the members it makes (names that show, and show as nobody else's; a table's worth a
browser, at a table's pace), and who a request for a file comes from."""

from __future__ import annotations

import asyncio
import hmac
from typing import Any

from aiohttp import web

from localdiscord.guild import Member
from localdiscord.limits import RateLimit, foreign_origin, parse_json, read_limited
from localdiscord.names import refusal, tidy
from localdiscord.responses import DiscordError
from localdiscord.server import LocalDiscord
from localdiscord.world import WorldFile

COOKIE = "localdiscord_client"
WRONG_CODE_DELAY = 1.0
JOIN_BODY_LIMIT = 4096
# One browser plays a whole table by itself ("Play as"), not a crowd; and people arrive at a table's pace.
MEMBERS_PER_BROWSER = 12
JOINS_PER_MINUTE_PER_BROWSER = 6
JOINS_PER_MINUTE = 30
ADMISSIONS_PER_MINUTE = 30


class Refused(Exception):
    """What a tab asked can't be done; the text says why, for the person."""


class Door:
    """Admits browsers, makes their members, and tells the file server who is asking."""

    def __init__(self, fake: LocalDiscord, world: WorldFile, join_code: str | None) -> None:
        self.fake = fake
        self.world = world
        self.join_code = join_code
        self._guessing = asyncio.Lock()
        self.joins = RateLimit(JOINS_PER_MINUTE_PER_BROWSER, 60.0)
        self.all_joins = RateLimit(JOINS_PER_MINUTE, 60.0)
        self.admissions = RateLimit(ADMISSIONS_PER_MINUTE, 60.0)

    def viewer(self, request: web.Request) -> tuple[Any, list[Member]]:
        """Who fetches a file: the browser its cookie names (else its address) and the members that browser plays."""
        client_id = self.world.client_of(request.cookies.get(COOKIE))
        if client_id is None:
            return request.remote, []
        mine = self.world.members_of(client_id)
        return client_id, [m for m in self.fake.members if m.id in mine]

    def same_origin(self, request: web.Request) -> bool:
        # Another web site open in the same browser must not act through this server (cross-site requests), nor
        # reach it under a name of its own that points here (DNS rebinding) while only this machine may join.
        return not foreign_origin(request, hosting=self.join_code is not None)

    async def admit(self, request: web.Request) -> web.Response:
        """Admit this browser (with the join code when others can connect); sets its cookie."""
        if not self.same_origin(request):
            raise web.HTTPForbidden(text="Cross-site request refused.")
        if self.world.client_of(request.cookies.get(COOKIE)) is not None:
            return web.json_response({"ok": True})
        try:
            raw = await read_limited(request, JOIN_BODY_LIMIT) if request.can_read_body else b""
            body = parse_json(raw) if raw else {}
        except DiscordError as exc:
            return web.json_response({"ok": False, "error": "That request could not be read."}, status=exc.status)
        if not isinstance(body, dict):
            return web.json_response({"ok": False, "error": "That request could not be read."}, status=400)
        if self.join_code is not None:
            code = str(body.get("code") or "").strip().upper().replace(" ", "")
            if not hmac.compare_digest(code.encode(), self.join_code.replace("-", "").encode()) and not (
                hmac.compare_digest(code.encode(), self.join_code.encode())
            ):
                async with self._guessing:  # one wrong guess a second, however many are sent at once
                    await asyncio.sleep(WRONG_CODE_DELAY)
                return web.json_response({"ok": False, "error": "That join code is not right."}, status=403)
        if not self.admissions.take(None):
            return web.json_response(
                {"ok": False, "error": "Too many people at once: try again in a minute."}, status=429
            )
        _, secret = self.world.new_client()
        response = web.json_response({"ok": True})
        response.set_cookie(COOKIE, secret, httponly=True, samesite="Strict", max_age=10 * 365 * 24 * 3600)
        return response

    def new_member(self, client_id: int, name: str) -> Member:
        """A new member called ``name`` (tidied) that this browser plays; Refused if it may not be."""
        name = tidy(name)
        problem = refusal(name, (m.name for m in self.fake.members))
        if problem is not None:
            raise Refused(problem)
        if len(self.world.members_of(client_id)) >= MEMBERS_PER_BROWSER:
            raise Refused(f"A browser can make {MEMBERS_PER_BROWSER} members; play as one of yours.")
        if not self.joins.take(client_id) or not self.all_joins.take(None):
            raise Refused("Too many new members at once: try again in a minute.")
        member = self.fake.add_member(name)
        self.world.set_owner(member.id, client_id)
        return member
