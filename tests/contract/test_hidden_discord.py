"""A hidden die reaches its owner only, through the real bot and the local Discord: "Your die" answers each player
privately with their own die and nothing of anyone else's, the channel never shows a die before the call, ``/game
log`` tells each member their own roll, a secret reroll counts in nobody's ``/stats luck`` (the game doesn't say
who rolled what: ``Rollers``), and all of it holds across a restart in the middle of the game."""

from __future__ import annotations

from pathlib import Path

from bot.app import TabletopBot
from localdiscord.guild import Channel, Member
from localdiscord.messages import Message
from localdiscord.server import LocalDiscord
from tests.conftest import MakeBot
from tests.secret.engine import SecretState
from tests.seen import channel_text, live_board, text_of

EXTENSIONS = ("cogs.meta", "cogs.game", "cogs.dice", "tests.secret.cog")
SECRET_LINE = "Your die shows"


async def dice_of(bot: TabletopBot, channel: Channel) -> tuple[SecretState, dict[int, int]]:
    """The stored state, and each member's die by their user id."""
    await bot.settled()
    session = await bot.service.live_table(channel.id)
    assert session is not None
    state = bot.service.state_of(session)
    assert isinstance(state, SecretState)
    return state, {
        session.seat_of_player(p).user_id or 0: value or 0 for p, value in state.dice.items() if value is not None
    }


async def peek(fake: LocalDiscord, channel: Channel, member: Member) -> Message:
    answer = await (await fake.click(await live_board(fake, channel), "Your die", member)).message()
    assert answer.ephemeral
    return answer


async def test_a_hidden_die_reaches_its_owner_only(fake: LocalDiscord, make_bot: MakeBot, tmp_path: Path) -> None:
    db = tmp_path / "secret.sqlite3"
    bot = await make_bot(db_path=db, extensions=EXTENSIONS)
    channel, alice, bob, carol = fake.channels[0], fake.members[1], fake.members[2], fake.members[3]
    lobby = await (await fake.slash(channel, alice, "secret new")).message()
    await (await fake.click(lobby, "Join", bob)).message()
    await (await fake.click(lobby, "Start", alice)).message()
    state, dice = await dice_of(bot, channel)
    assert state.players == ["P1", "P2"] and set(dice) == {alice.id, bob.id}

    for member, other in ((alice, bob), (bob, alice)):
        private = text_of(await peek(fake, channel, member))
        assert f"{SECRET_LINE} **{dice[member.id]}**" in private
        assert f"{other.name}: 🎲 hidden" in private  # the other player's die is not in the answer
    watcher = text_of(await peek(fake, channel, carol))  # not seated: nobody's die
    assert SECRET_LINE not in watcher and "🎲 hidden" in watcher
    assert SECRET_LINE not in channel_text(fake, channel) and "secret" not in channel_text(fake, channel)

    log = await (await fake.slash(channel, alice, "game log")).message()
    assert log.ephemeral and f"rolled a secret {dice[alice.id]}" in log.content and log.content.count("secret") == 1
    assert "secret" not in (await (await fake.slash(channel, carol, "game log")).message()).content

    # A restart in the middle: the same board still answers each player with their own die.
    await bot.close()
    bot = await make_bot(db_path=db, extensions=EXTENSIONS)
    assert f"{SECRET_LINE} **{dice[bob.id]}**" in text_of(await peek(fake, channel, bob))
    first = state.active
    opener = alice if first == "P1" else bob
    await (await fake.click(await live_board(fake, channel), "Reroll my die", opener)).message()
    state, dice = await dice_of(bot, channel)
    assert f"{SECRET_LINE} **{dice[opener.id]}**" in text_of(await peek(fake, channel, opener))
    for member in (carol, opener):  # the reroll was the opener's action, and still nobody's luck
        luck = await (await fake.slash(channel, member, "stats luck", options={"member": opener})).message()
        assert luck.ephemeral and "no recorded dice" in luck.content, luck.content
    current = await live_board(fake, channel)
    bid = current.selects[0]
    await (await fake.select(current, bid["custom_id"], [bid["options"][0]["value"]], opener)).message()
    caller = bob if opener is alice else alice
    await (await fake.click(await live_board(fake, channel), "Call", caller)).message()
    await bot.settled()
    revealed = channel_text(fake, channel)
    assert "calls!" in revealed and f"{alice.name} {dice[alice.id]}" in revealed and SECRET_LINE not in revealed
