"""Who reads in which language, through the local Discord: a member in their Discord's language or the one they
chose (``/language``), a channel's boards in their server's (its Discord language, or ``/settings language``)."""

from __future__ import annotations

from bot.i18n import _, speaking
from localdiscord.server import LocalDiscord
from tests.conftest import MakeBot

EXTENSIONS = ("cogs.meta", "cogs.game", "cogs.crowns")


def said_in(language: str, message: str, **params: object) -> str:
    """What the catalogs make of ``message`` in ``language`` (checked to be a translation, not the English)."""
    with speaking(language):
        text = _(message, **params)
    assert text != message.format(**params) if params else text != message, (language, message)
    return text


async def test_a_member_is_answered_in_their_discord_language_or_the_one_they_chose(
    fake: LocalDiscord, make_bot: MakeBot
) -> None:
    await make_bot(extensions=("cogs.meta",))
    channel, alice = fake.channels[0], fake.members[0]
    alice.locale = "de"
    shown = await (await fake.slash(channel, alice, "language")).message()
    assert shown.content == said_in("de", "I answer you in **{name}**, your Discord language.", name="Deutsch")
    chosen = await (await fake.slash(channel, alice, "language", options={"language": "pt_BR"})).message()
    answer = said_in("pt_BR", "I answer you in **{name}**, as you chose.", name="Português (Brasil)")
    assert chosen.content == said_in("pt_BR", "Saved. {what}", what=answer)
    again = await (await fake.slash(channel, alice, "language", options={"language": "discord"})).message()
    assert again.content.endswith(said_in("de", "I answer you in **{name}**, your Discord language.", name="Deutsch"))


async def test_a_board_speaks_its_servers_language_and_a_refusal_the_members(
    fake: LocalDiscord, make_bot: MakeBot
) -> None:
    fake.guild.preferred_locale = "es-ES"
    await make_bot(extensions=EXTENSIONS)
    channel, (alice, bob) = fake.channels[1], fake.members[:2]
    bob.locale = "de"
    lobby = await (await fake.slash(channel, alice, "crowns new")).message()
    join = said_in("es", "Join")
    assert join in [button["label"] for button in lobby.buttons]
    await (await fake.click(lobby, join, bob)).message()
    refused = await (await fake.click(lobby, join, bob)).response()
    assert said_in("de", "You're already in this lobby.") in str(refused)

    # The server chooses German for its channels: the next board is drawn in it.
    saved = await (await fake.slash(channel, alice, "settings", options={"language": "de"})).message()
    assert "Deutsch" in saved.content
    await (await fake.click(lobby, join, fake.members[2])).message()
    board = fake.message(lobby.id)
    assert board is not None and said_in("de", "Cancel") in [button["label"] for button in board.buttons]
