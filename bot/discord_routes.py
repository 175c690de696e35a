"""Every request the bot sends Discord, counted by route template and status (``tabletop_discord_requests_total``).

Counted on discord.py's aiohttp session (``http_trace``), so every try is seen, whatever sent it: the REST
client, the interaction callbacks and follow-ups (discord.py's webhook adapter, which bypasses the REST client),
each try a 429 made discord.py repeat. A URL becomes a template whose parts are all bounded: a word of Discord's
routes stays, a number becomes ``{<word>_id}`` after its word, an interaction's or webhook's token ``{token}``,
anything else ``{value}`` (an emoji, a code): ``/channels/{channel_id}/messages/{message_id}``. No id, token or
text a member wrote is ever a label.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from types import SimpleNamespace

import aiohttp

API_PREFIX = re.compile(r"^.*?/api/v\d+(?=/|$)")
NOT_API = "other"
"""The route of a request outside Discord's API: the Gateway's websocket, a CDN download."""
ERROR = "error"
"""The status of a request that got no answer (the connection failed)."""
MAX_PARTS = 8
"""Parts of a path kept (Discord's longest routes have 7): a longer path is cut, so the templates stay few."""
WORDS = frozenset(
    {
        "@me",
        "@original",
        "active",
        "answers",
        "applications",
        "archived",
        "attachments",
        "audit-logs",
        "auto-moderation",
        "bans",
        "bot",
        "bulk-ban",
        "bulk-delete",
        "callback",
        "channels",
        "commands",
        "crosspost",
        "emojis",
        "entitlements",
        "expire",
        "followers",
        "gateway",
        "guilds",
        "integrations",
        "interactions",
        "invites",
        "members",
        "messages",
        "oauth2",
        "permissions",
        "pins",
        "polls",
        "preview",
        "private",
        "public",
        "reactions",
        "roles",
        "rules",
        "scheduled-events",
        "search",
        "skus",
        "soundboard-sounds",
        "stage-instances",
        "stickers",
        "thread-members",
        "threads",
        "typing",
        "users",
        "voice-states",
        "webhooks",
    }
)
"""The fixed words of Discord's API routes (those discord.py sends); any other part is a placeholder."""
TOKEN_AFTER = frozenset({"{interaction_id}", "{webhook_id}"})

Count = Callable[[str, str, str], None]
"""Count one request: its method, route template and status."""


def route_of(path: str) -> str:
    """The route template of a request's URL path (``/api/v10/channels/123/messages`` →
    ``/channels/{channel_id}/messages``); ``NOT_API`` for a path outside Discord's API."""
    prefix = API_PREFIX.match(path)
    if prefix is None:
        return NOT_API
    template: list[str] = []
    previous = ""
    for part in path[prefix.end() :].strip("/").split("/")[:MAX_PARTS]:
        if part in WORDS:
            template.append(part)
        elif part.isdigit() and previous in WORDS:
            template.append("{" + previous.removesuffix("s").replace("-", "_") + "_id}")
        elif part.isdigit():
            template.append("{id}")
        elif template and template[-1] in TOKEN_AFTER:
            template.append("{token}")
        else:
            template.append("{value}")
        previous = part
    return "/" + "/".join(template)


def request_trace(count: Count) -> aiohttp.TraceConfig:
    """A trace for discord.py's session (``Client(http_trace=…)``) that counts every request when it ends."""
    trace = aiohttp.TraceConfig()

    async def ended(_: aiohttp.ClientSession, __: SimpleNamespace, params: aiohttp.TraceRequestEndParams) -> None:
        count(params.method, route_of(params.url.path), str(params.response.status))

    async def failed(
        _: aiohttp.ClientSession, __: SimpleNamespace, params: aiohttp.TraceRequestExceptionParams
    ) -> None:
        count(params.method, route_of(params.url.path), ERROR)

    trace.on_request_end.append(ended)
    trace.on_request_exception.append(failed)
    return trace
