"""What a demanding first session found, end to end through the local Discord: names typed without picking
from the list, refusals that say what is wrong, wording that matches what is on screen."""

from __future__ import annotations

from tests.conftest import MakeBot
from tests.fakediscord.server import FakeDiscord
from tests.vic_e2e_support import campaign_state, new_troupe, vic_bot


async def test_a_character_typed_by_name_is_found_and_a_wrong_name_is_said_so(
    fake: FakeDiscord, make_bot: MakeBot
) -> None:
    bot = await vic_bot(make_bot)
    channel = fake.channels[0]
    gm, bea, cal = fake.members[0], fake.members[1], fake.members[2]
    await (await fake.slash(channel, gm, "vic campaign new")).message()
    await new_troupe(fake, channel, bea, "Knives", "Ana", ["Lurker", "Acrobat", "Historian"])
    await new_troupe(fake, channel, cal, "Crows", "Bo", ["Duelist", "Engineer", "Marksman"])
    await (await fake.slash(channel, gm, "vic turn start")).message()
    # Typed on a phone without picking from the list: her own character by name is found.
    rested = await (await fake.slash(channel, bea, "vic pc act", options={"pc": "ana", "action": "rest"})).message()
    assert "Ana" in rested.content and "rest" in rested.content, rested.content
    knew = await (
        await fake.slash(channel, bea, "vic knowledge", options={"pc": "Ana", "trait": "Historian"})
    ).message()
    assert "Ana" in knew.content and not knew.ephemeral
    # A name that isn't hers is not "someone else's": it is said plainly, privately.
    for typed in ("Zorro", "Bo"):
        refused = await (
            await fake.slash(channel, bea, "vic pc act", options={"pc": typed, "action": "rest"})
        ).message()
        assert refused.ephemeral and f"No character of yours is called {typed}" in refused.content, refused.content
    pushed = await (await fake.slash(channel, bea, "vic push", options={"pc": "Zorro", "trait": "Lurker"})).message()
    assert pushed.ephemeral and "No character of yours is called Zorro" in pushed.content
    # The GM may name anyone's.
    await (await fake.slash(channel, gm, "vic pc condition", options={"pc": "bo", "change": "rattle"})).message()
    state = await campaign_state(bot, channel)
    assert state.find_pc(f"{cal.id}.1").rattled  # type: ignore[union-attr]
