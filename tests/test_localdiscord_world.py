"""The local server's world file: everything a restart needs comes back with the same ids (so the bot's own
database still points at the right channels and messages), and a long-running server keeps only the files some
message still shows."""

from __future__ import annotations

from pathlib import Path

from localdiscord import ChannelType, LocalDiscord
from localdiscord.guild import Channel
from localdiscord.world import WorldFile


def opened(path: Path) -> tuple[LocalDiscord, WorldFile, bool]:
    fake = LocalDiscord(member_names=())
    world = WorldFile(path)
    return fake, world, world.attach(fake)


def test_the_world_comes_back_as_it_was(tmp_path: Path) -> None:
    path = tmp_path / "var" / "localdiscord.sqlite3"
    fake, world, restored = opened(path)
    assert not restored
    alice, bob = fake.add_member("Alice"), fake.add_member("Bob")
    world.set_owner(bob.id, 7)
    channel = fake.channels[1]
    picture = fake.store_upload(channel, "sheet.png", b"PNG bytes", "image/png")
    shown = fake.create_message(channel, {"content": f"hello {bob.mention}"}, attachments=[picture])
    edited = fake.create_message(channel, {"content": "first"})
    fake.edit_message(edited, {"content": "second"})
    fake.remove_message(fake.create_message(channel, {"content": "deleted"}))
    thread = Channel(fake.ids.next(), "a game", ChannelType.PUBLIC_THREAD, fake.guild_id, parent_id=channel.id)
    fake.threads.append(thread)
    fake.channel_changed(thread)
    fake.create_message(thread, {"content": "in the thread"})
    fake.global_commands = [{"id": "1", "name": "ping", "type": 1, "description": "Ping"}]
    fake.world_changed()
    world.close()

    again, world, restored = opened(path)
    assert restored
    assert (again.application_id, again.bot_user_id, again.guild_id) == (
        fake.application_id,
        fake.bot_user_id,
        fake.guild_id,
    )
    assert [c.id for c in again.channels] == [c.id for c in fake.channels]
    assert [(m.id, m.name, again.guild.is_manager(m)) for m in again.members] == [
        (alice.id, "Alice", True),
        (bob.id, "Bob", False),
    ]
    assert again.guild.owner_id == alice.id
    assert world.members_of(7) == {bob.id}
    messages = again.messages(again.channels[1])
    assert [(m.id, m.content, m.edits) for m in messages] == [(shown.id, shown.content, 0), (edited.id, "second", 1)]
    assert messages[0].mentions == [bob.id]
    assert again.attachment_bytes(messages[0].attachments[0]) == b"PNG bytes"
    restored_thread = again.channel(thread.id)
    assert restored_thread is not None and restored_thread.parent_id == channel.id
    assert [m.content for m in again.messages(restored_thread)] == ["in the thread"]
    assert [c["name"] for c in again.global_commands] == ["ping"]
    world.close()


def test_a_long_running_server_forgets_files_no_message_shows(tmp_path: Path) -> None:
    fake, world, _ = opened(tmp_path / "localdiscord.sqlite3")
    fake.long_running = True
    channel = fake.channels[0]
    first = fake.store_upload(channel, "v1.png", b"one")
    message = fake.create_message(channel, {"content": "sheet"}, attachments=[first])
    second = fake.store_upload(channel, "v2.png", b"two")
    fake.edit_message(message, {"attachments": []}, [second])  # the picture is redrawn
    assert list(fake.uploads) == [int(second["id"])]
    fake.remove_message(message)
    assert len(fake.uploads) == 0
    world.close()
