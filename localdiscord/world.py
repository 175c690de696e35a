"""The local server's world kept in a SQLite file of its own: guild, members, channels, threads, messages, uploads and
synced commands, so a restart continues every game and conversation where it was.

Writes are synchronous and committed before the bot (or a browser) is answered, as Discord has stored a message
before it answers: a kill at any moment loses nothing the bot was told exists. They are small single-row writes on a
WAL database (tens of microseconds), so the event loop is not held up in any way a person could notice.
"""

from __future__ import annotations

import hashlib
import json
import secrets
import sqlite3
from collections.abc import Iterator, MutableMapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from localdiscord.guild import Channel, Guild, Member
from localdiscord.messages import Message

if TYPE_CHECKING:
    from localdiscord.server import LocalDiscord

SCHEMA = """
CREATE TABLE IF NOT EXISTS world (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS channels (id INTEGER PRIMARY KEY, data TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS messages (
    id INTEGER PRIMARY KEY,
    channel_id INTEGER NOT NULL,
    data TEXT NOT NULL,
    viewer_id INTEGER,
    interaction_id INTEGER,
    allowed_mentions TEXT,
    edits INTEGER NOT NULL DEFAULT 0,
    invoked TEXT
);
CREATE TABLE IF NOT EXISTS uploads (id INTEGER PRIMARY KEY, content BLOB NOT NULL);
CREATE TABLE IF NOT EXISTS clients (secret_hash TEXT PRIMARY KEY, id INTEGER NOT NULL UNIQUE);
CREATE TABLE IF NOT EXISTS member_owners (member_id INTEGER PRIMARY KEY, client_id INTEGER NOT NULL);
"""


def _hash(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()


class FileUploads(MutableMapping[int, bytes]):
    """Uploaded files by attachment id, read from and written to the world file (not kept in memory)."""

    def __init__(self, db: sqlite3.Connection) -> None:
        self._db = db

    def __getitem__(self, key: int) -> bytes:
        row = self._db.execute("SELECT content FROM uploads WHERE id = ?", (key,)).fetchone()
        if row is None:
            raise KeyError(key)
        return bytes(row[0])

    def __setitem__(self, key: int, value: bytes) -> None:
        self._db.execute("INSERT OR REPLACE INTO uploads (id, content) VALUES (?, ?)", (key, value))

    def __delitem__(self, key: int) -> None:
        if self._db.execute("DELETE FROM uploads WHERE id = ?", (key,)).rowcount == 0:
            raise KeyError(key)

    def __iter__(self) -> Iterator[int]:
        return (row[0] for row in self._db.execute("SELECT id FROM uploads").fetchall())

    def __len__(self) -> int:
        return int(self._db.execute("SELECT count(*) FROM uploads").fetchone()[0])


class WorldFile:
    """Keeps a LocalDiscord's world in ``path`` (an Observer of it) and restores it at the next start."""

    def __init__(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        # Autocommit: every statement is its own transaction, durable once it returns.
        self._db = sqlite3.connect(path, isolation_level=None)
        self._db.execute("PRAGMA journal_mode = WAL")
        self._db.execute("PRAGMA synchronous = NORMAL")
        self._db.executescript(SCHEMA)
        self._fake: LocalDiscord | None = None

    def close(self) -> None:
        """Close the file (the write-ahead log is folded back in)."""
        self._db.close()

    # -- attaching to a server --------------------------------------------------------------------------------

    def attach(self, fake: LocalDiscord) -> bool:
        """Restore the saved world into ``fake`` (True) or save its new one (False); then keep it saved."""
        self._fake = fake
        fake.uploads = FileUploads(self._db)
        fake.cdn.secret = self._cdn_secret()
        restored = self._restore(fake)
        if not restored:
            self.world_changed()
            for guild in fake.guilds:
                for channel in guild.channels:
                    self.channel_changed(channel)
        fake.observers.append(self)
        return restored

    def _cdn_secret(self) -> bytes:
        """The key the server signs file URLs with: made once, kept here, so a URL outlives a restart."""
        row = self._db.execute("SELECT value FROM world WHERE key = 'cdn_secret'").fetchone()
        if row is not None:
            return bytes.fromhex(json.loads(row[0]))
        secret = secrets.token_bytes(32)
        self._db.execute("INSERT INTO world (key, value) VALUES ('cdn_secret', ?)", (json.dumps(secret.hex()),))
        return secret

    def _restore(self, fake: LocalDiscord) -> bool:
        rows = dict(self._db.execute("SELECT key, value FROM world").fetchall())
        if "guild" not in rows:
            return False
        meta = json.loads(rows["application"])
        fake.application_id = meta["id"]
        fake.bot_user = Member(meta["id"], meta["username"], meta["name"], bot=True)
        channels = [self._channel(json.loads(d)) for (d,) in self._db.execute("SELECT data FROM channels ORDER BY id")]
        saved_guild = json.loads(rows["guild"])
        text = [c for c in channels if c.guild_id == saved_guild["id"] and c.type == 0]
        text.sort(key=lambda c: c.position)
        fake.guild = Guild.restored(saved_guild, fake.bot_user, text)
        fake.guilds = [fake.guild]
        users = {m.id: m for m in fake.guild.members}
        fake.threads = [c for c in channels if c.type in (11, 12)]
        fake.dm_channels = {}
        for channel in channels:
            if channel.type == 1 and channel.recipient is None:
                continue
            if channel.type == 1:
                assert channel.recipient is not None
                channel.recipient = users.get(channel.recipient.id, channel.recipient)
                fake.dm_channels[channel.recipient.id] = channel
        commands = json.loads(rows["commands"])
        fake.global_commands = commands["global"]
        fake.guild_commands = {int(k): v for k, v in commands["guilds"].items()}
        by_id = {c.id: c for c in fake.guild.channels} | {c.id: c for c in fake.threads}
        by_id |= {c.id: c for c in fake.dm_channels.values()}
        query = "SELECT data, channel_id, viewer_id, interaction_id, allowed_mentions, edits, invoked FROM messages"
        for data, channel_id, viewer_id, interaction_id, allowed, edits, invoked in self._db.execute(
            query + " ORDER BY id"
        ):
            where = by_id.get(channel_id)
            if where is None:
                continue
            message = Message(json.loads(data), where, interaction_id, viewer_id, edits=edits, invoked=invoked)
            message.allowed_mentions = json.loads(allowed) if allowed else None
            fake.adopt_message(message)
        return True

    def _channel(self, data: dict[str, Any]) -> Channel:
        recipient = data.pop("recipient", None)
        channel = Channel(**data)
        if recipient is not None:
            channel.recipient = Member(*recipient)
        return channel

    # -- Observer ---------------------------------------------------------------------------------------------

    def message_changed(self, message: Message) -> None:
        """Save the message as it is now; a deleted one is forgotten."""
        if message.deleted:
            self._db.execute("DELETE FROM messages WHERE id = ?", (message.id,))
            return
        self._db.execute(
            "INSERT OR REPLACE INTO messages"
            " (id, channel_id, data, viewer_id, interaction_id, allowed_mentions, edits, invoked)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            (
                message.id,
                message.channel.id,
                json.dumps(message.data),
                message.viewer_id,
                message.interaction_id,
                None if message.allowed_mentions is None else json.dumps(message.allowed_mentions),
                message.edits,
                message.invoked,
            ),
        )

    def channel_changed(self, channel: Channel) -> None:
        """Save the channel as it is now."""
        data: dict[str, Any] = {
            "id": channel.id,
            "name": channel.name,
            "type": channel.type,
            "guild_id": channel.guild_id,
            "position": channel.position,
            "parent_id": channel.parent_id,
            "owner_id": channel.owner_id,
            "bot_allow": channel.bot_allow,
            "bot_deny": channel.bot_deny,
            "bot_user_id": channel.bot_user_id,
            "archived": channel.archived,
            "locked": channel.locked,
        }
        if channel.recipient is not None:
            r = channel.recipient
            data["recipient"] = [r.id, r.username, r.name]
        self._db.execute("INSERT OR REPLACE INTO channels (id, data) VALUES (?, ?)", (channel.id, json.dumps(data)))

    def member_added(self, member: Member) -> None:
        """Save the guild with its new member."""
        self.world_changed()

    def world_changed(self) -> None:
        """Save the application, the guild with its members and roles, and the synced commands."""
        fake = self._fake
        assert fake is not None
        bot = fake.bot_user
        values = {
            "application": {"id": fake.application_id, "username": bot.username, "name": bot.name},
            "guild": fake.guild.snapshot(),
            "commands": {"global": fake.global_commands, "guilds": {str(k): v for k, v in fake.guild_commands.items()}},
        }
        self._db.executemany(
            "INSERT OR REPLACE INTO world (key, value) VALUES (?, ?)", [(k, json.dumps(v)) for k, v in values.items()]
        )

    # -- browsers and the members they made ---------------------------------------------------------------------

    def new_client(self) -> tuple[int, str]:
        """A new browser identity: its id and the secret the browser keeps (only its hash is stored)."""
        secret = secrets.token_urlsafe(32)
        client_id = secrets.randbits(52)
        self._db.execute("INSERT INTO clients (secret_hash, id) VALUES (?, ?)", (_hash(secret), client_id))
        return client_id, secret

    def client_of(self, secret: str | None) -> int | None:
        """The browser this secret belongs to, if any."""
        if not secret:
            return None
        row = self._db.execute("SELECT id FROM clients WHERE secret_hash = ?", (_hash(secret),)).fetchone()
        return None if row is None else int(row[0])

    def set_owner(self, member_id: int, client_id: int) -> None:
        """Record that ``client_id`` made (and may play as) this member."""
        self._db.execute("INSERT OR REPLACE INTO member_owners VALUES (?, ?)", (member_id, client_id))

    def members_of(self, client_id: int) -> set[int]:
        """The members this browser made."""
        rows = self._db.execute("SELECT member_id FROM member_owners WHERE client_id = ?", (client_id,))
        return {int(r[0]) for r in rows}
