"""Who reads in which language (``bot.i18n`` says it): a member in the language they chose (``/language``) or
their Discord's; a channel (its boards, a game's news, reminders) in its server's setting (``/settings
language``) or the server's own Discord language.

The choices are read from the store once and kept, bounded: a member's until they change it here, a server's for
a minute (another process may hold the server's games). ``forced`` (tests: the pseudo-language) overrides both.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable
from typing import TypeVar

from bot.clock import Clock
from bot.i18n import ENGLISH, language_of
from bot.storage import Store

K = TypeVar("K")
V = TypeVar("V")
KEPT = 10_000
"""Members' and servers' languages kept in memory, each (the least recently used go first)."""
SERVER_TTL_S = 60.0
"""How long a server's language is trusted before it is read again."""


class Languages:
    """The language of each member and each server's channels."""

    def __init__(
        self, store: Store, clock: Clock, guild_locale: Callable[[int], str | None], forced: str | None = None
    ) -> None:
        self.store = store
        self.clock = clock
        self.guild_locale = guild_locale
        """The server's own Discord language (its preferred locale), if the bot knows the server."""
        self.forced = forced
        self._members: OrderedDict[int, str | None] = OrderedDict()
        self._servers: OrderedDict[int, tuple[float, str | None]] = OrderedDict()

    def __len__(self) -> int:
        return len(self._members) + len(self._servers)

    async def member(self, user_id: int, locale: object) -> str:
        """The language to answer a member in: their choice, else their Discord's (``locale``)."""
        if self.forced is not None:
            return self.forced
        return await self.chosen(user_id) or language_of(locale)

    async def chosen(self, user_id: int) -> str | None:
        """The language a member chose, or None if they answer in their Discord's."""
        if user_id in self._members:
            self._members.move_to_end(user_id)
            return self._members[user_id]
        chosen = await self.store.member_language(user_id)
        _keep(self._members, user_id, chosen)
        return chosen

    async def choose(self, user_id: int, language: str | None) -> None:
        """Keep a member's choice (None: their Discord's language again)."""
        await self.store.set_member_language(user_id, language)
        _keep(self._members, user_id, language)

    async def channel(self, guild_id: int | None, guild_locale: object = None) -> str:
        """The language of what a server's channels show (English outside servers)."""
        if self.forced is not None:
            return self.forced
        if guild_id is None:
            return ENGLISH
        kept = self._servers.get(guild_id)
        now = self.clock.now()
        if kept is not None and now - kept[0] < SERVER_TTL_S:
            setting = kept[1]
        else:
            setting = (await self.store.guild_settings(guild_id)).language
            _keep(self._servers, guild_id, (now, setting))
        return setting or language_of(guild_locale or self.guild_locale(guild_id))

    def server_changed(self, guild_id: int, language: str | None) -> None:
        """A server's setting was just changed here."""
        _keep(self._servers, guild_id, (self.clock.now(), language))


def _keep(kept: OrderedDict[K, V], key: K, value: V) -> None:
    kept[key] = value
    kept.move_to_end(key)
    while len(kept) > KEPT:
        kept.popitem(last=False)
