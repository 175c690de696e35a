"""The GM's rival dice committed in the channel (issue on dice, part 3): with the campaign's setting on, each rival
die is shown as a SHA-256 commitment naming no rival or design; the GM reveals it later from the GM screen, and
anyone checks the reveal with ``/dice verify`` — a tampered result fails."""

from __future__ import annotations

import re

from localdiscord.server import LocalDiscord
from tests.conftest import MakeBot
from tests.core.clock import FakeClock
from tests.test_e2e_vic_table import Dice, pick, setup_troupes

CANARY = "CANARY-dice-3f1"


async def test_rival_dice_are_committed_then_revealed_and_verified(fake: LocalDiscord, make_bot: MakeBot) -> None:
    bot = await make_bot(extensions=("cogs.meta", "cogs.game", "cogs.dice", "cogs.viciousness"), clock=FakeClock())
    channel, gm, bea = fake.channels[0], fake.members[0], fake.members[1]
    await (await fake.slash(channel, gm, "vic-gm campaign new", options={"company": "Knives"})).message()
    await setup_troupes(bot, fake, channel)
    panel = await (await fake.slash(channel, gm, "vic-gm rules")).message()
    await pick(fake, panel, "Change a house rule", ["The GM's rival dice: are committed"], gm)
    await fake.wait_for_message(channel, lambda m: "📏 House rule: The GM's rival dice: are committed" in m.content)
    await (await fake.slash(channel, gm, "vic-rival add", options={"name": f"Baron {CANARY}", "rank": 3})).message()
    design = {"rival": "r1", "text": f"Ruin them {CANARY}"}
    await (await fake.slash(channel, gm, "vic-rival design", options=design)).message()
    bot.service.dice = Dice({"rival.r1.t1.d20": [17]})
    await (await fake.slash(channel, gm, "vic-gm turn start")).message()
    ended = await (await fake.slash(channel, gm, "vic-gm turn end")).message()
    found = re.search(r"🔒 The GM rolled a d20 in secret · commitment `([0-9a-f]{64})`", ended.content)
    assert found is not None, ended.content
    commitment = found[1]
    public = "\n".join(m.content for m in fake.messages(channel))
    assert CANARY not in public and "[17]" not in public and "Baron" not in public

    refused = await (await fake.slash(channel, bea, "vic-gm screen")).message()
    assert refused.ephemeral and "reveal" not in str(refused.selects).casefold()
    screen = await (await fake.slash(channel, gm, "vic-gm screen")).message()
    await pick(fake, screen, "Reveal a rival die", [f"Baron {CANARY}: d20 of turn 1"], gm)
    revealed = await fake.wait_for_message(channel, lambda m: m.content.startswith("🔓"))
    assert "`1d20 [17] = 17`" in revealed.content and commitment in revealed.content and CANARY not in revealed.content
    salt = re.search(r"salt `([0-9a-f]+)`", revealed.content)
    assert salt is not None
    good = {"commitment": commitment, "result": "1d20 [17] = 17", "salt": salt[1]}
    checked = await (await fake.slash(channel, bea, "dice verify", options=good)).message()
    assert "✅" in checked.content
    tampered = await (
        await fake.slash(channel, bea, "dice verify", options=good | {"result": "1d20 [3] = 3"})
    ).message()
    assert "❌" in tampered.content
    # Nothing waits any more; the recap at the next turn's end tells the reveal too.
    screen = await (await fake.slash(channel, gm, "vic-gm screen")).message()
    assert "Reveal a rival die" not in str(screen.selects)
