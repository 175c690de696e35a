"""Secret rolls through the local Discord: committed, hidden from the channel and from members not entitled,
shown to the roller (and the GM for a GM roll), revealed once, verified, and a tampered reveal refused."""

from __future__ import annotations

import hashlib
import re

from localdiscord.guild import Channel, Member
from localdiscord.messages import Message
from localdiscord.server import LocalDiscord
from tests.conftest import MakeBot

EXTENSIONS = ("cogs.dice", "cogs.viciousness")
CANARY = "CANARY-7Q"


async def say(fake: LocalDiscord, channel: Channel, member: Member, command: str, **options: object) -> Message:
    return await (await fake.slash(channel, member, command, options=options)).message()


def seen_by(fake: LocalDiscord, channel: Channel, member: Member) -> str:
    """Everything ``member`` can read: the channel's messages and their own private replies."""
    texts = [m.content for m in fake.messages(channel)] + [m.content for m in fake.ephemerals(member)]
    return "\n".join(texts)


async def test_a_secret_roll_is_committed_hidden_revealed_and_verified(fake: LocalDiscord, make_bot: MakeBot) -> None:
    await make_bot(extensions=EXTENSIONS)
    channel, bob, carol = fake.channels[0], fake.members[1], fake.members[2]
    res = await fake.slash(channel, bob, "dice secret", options={"expression": "1d20+5", "label": CANARY})
    committed = await res.message()
    (private,) = await res.followups(1)
    assert not committed.ephemeral and private.ephemeral and CANARY in private.content
    hash_ = re.search(r"commitment `([0-9a-f]{64})`", committed.content)
    assert hash_ is not None and "secret" in committed.content
    assert CANARY not in seen_by(fake, channel, carol)
    refused = await (await fake.click(committed, "Show me", carol)).message()
    assert refused.ephemeral and "Only the roller" in refused.content
    assert CANARY not in seen_by(fake, channel, carol)
    peek = await (await fake.click(committed, "Show me", bob)).message()
    assert peek.ephemeral and CANARY in peek.content
    assert CANARY not in seen_by(fake, channel, carol)
    nope = await (await fake.click(committed, "Reveal", carol)).message()
    assert "Only the roller" in nope.content
    res = await fake.click(committed, "Reveal", bob)
    (revealed,) = await res.followups(1)
    assert CANARY in revealed.content and not revealed.ephemeral
    result = re.search(r"Result: `([^`]+)`", revealed.content)
    salt = re.search(r"Salt: `([0-9a-f]+)`", revealed.content)
    assert result and salt
    # The formula in docs/roll.md, computed here without the bot.
    assert hashlib.sha256(f"{result[1]}\n{salt[1]}".encode()).hexdigest() == hash_[1]
    assert "revealed below" in fake.message(committed.id).content  # type: ignore[union-attr]
    assert not fake.message(committed.id).components  # type: ignore[union-attr]
    ok = await say(fake, channel, carol, "dice verify", commitment=hash_[1], result=result[1], salt=salt[1])
    assert ok.content.startswith("✅")
    total = int(result[1].rsplit("= ", 1)[1])
    tampered = result[1].rsplit("= ", 1)[0] + f"= {total + 1}"
    bad = await say(fake, channel, carol, "dice verify", commitment=hash_[1], result=tampered, salt=salt[1])
    assert bad.content.startswith("❌")


async def test_a_gm_roll_is_seen_by_the_gm_and_revealed_by_them(fake: LocalDiscord, make_bot: MakeBot) -> None:
    await make_bot(extensions=EXTENSIONS)
    channel, bob, carol, dave = fake.channels[0], fake.members[1], fake.members[2], fake.members[4]
    refused = await say(fake, channel, bob, "dice secret", expression="1d20", **{"for": "gm"})
    assert refused.ephemeral and "needs a campaign" in refused.content
    await (await fake.slash(channel, carol, "vic-gm campaign new", options={"company": "Knives"})).message()
    res = await fake.slash(channel, bob, "dice secret", options={"expression": "2d6", "for": "gm", "label": CANARY})
    committed = await res.message()
    assert "for the GM" in committed.content and CANARY not in committed.content
    gm_sees = await (await fake.click(committed, "Show me", carol)).message()
    assert CANARY in gm_sees.content
    assert (
        "Only the roller and the campaign's GM"
        in (await (await fake.click(committed, "Show me", dave)).message()).content
    )
    assert CANARY not in seen_by(fake, channel, dave)
    (revealed,) = await (await fake.click(committed, "Reveal", carol)).followups(1)
    assert CANARY in revealed.content and "revealed by **Carol**" in revealed.content
    again = await (await fake.click(revealed, "Reveal", bob)).message() if revealed.components else None
    assert again is None  # the reveal has no buttons; the commitment lost its own
