"""An interaction's first answer never waits on drawing: with Discord slow for a few seconds (a 429's wait, a slow
picture upload), each click is answered or deferred within 3 s and applied once."""

from __future__ import annotations

from localdiscord.server import LocalDiscord
from tests.conftest import MakeBot
from tests.test_e2e_vv_sheet_support import enter_all, new_sheet, picture, sheet_bot, state_of, the_sheet

DEADLINE_S = 3.0
CHANNEL_WRITES = r"^(POST|PATCH|PUT|DELETE) /api/v10/channels/"
EVERYTHING = r"."


async def test_an_undo_whose_picture_uploads_slowly_is_answered_in_time_and_applied_once(
    fake: LocalDiscord, make_bot: MakeBot
) -> None:
    bot = await sheet_bot(make_bot)
    channel = fake.channels[0]
    alice = fake.members[0]
    await new_sheet(fake, channel, alice)
    await enter_all(bot, fake, channel, alice, 14, 9)
    before, _ = picture(fake, the_sheet(fake, channel))
    fake.slow_down(EVERYTHING, 5.0, uploads_only=True)  # the redrawn sheet's picture takes 5 s to upload
    sheet = the_sheet(fake, channel)
    first = await fake.click(sheet, "Undo", alice)
    second = await fake.click(sheet, "Undo", alice)  # a double-click: the same board, the same version
    for res in (first, second):
        await res.response(timeout=DEADLINE_S + 1)
        assert res.latency is not None and res.latency < DEADLINE_S, res
    await bot.settled(timeout=15)
    fake.clear_weather()
    state = await state_of(bot, channel)
    assert [r.scores for r in state.rows[:2]] == [(14,), ()]  # one entry taken back, not two
    after, _ = picture(fake, the_sheet(fake, channel))
    assert after != before  # the sheet shows it once the upload is through


async def test_a_click_behind_a_slow_redraw_is_answered_in_time(fake: LocalDiscord, make_bot: MakeBot) -> None:
    bot = await sheet_bot(make_bot)
    channel = fake.channels[0]
    alice = fake.members[0]
    sheet = await new_sheet(fake, channel, alice)
    await enter_all(bot, fake, channel, alice, 14)
    fake.slow_down(CHANNEL_WRITES, 5.0)
    # The keeper writes Bob's score with a command: the sheet's redraw (a channel edit) takes 5 s. Meanwhile
    # she asks for the sheet again, and clicks Undo on the sheet that doesn't show Bob's score yet.
    score = await fake.slash(channel, alice, "vv score", options={"points": 9})
    await score.response(timeout=DEADLINE_S + 1)
    await bot.service.idle(5)
    status = await fake.slash(channel, alice, "game status")
    stale = await fake.click(the_sheet(fake, channel), "Undo", alice)
    for res in (score, status, stale):
        await res.response(timeout=DEADLINE_S + 1)
        assert res.latency is not None and res.latency < DEADLINE_S, res
    refused = await stale.message(timeout=10)
    assert refused.ephemeral and "out of date" in refused.content  # it would take back what she hasn't seen
    reposted = await status.message(timeout=15)
    assert reposted.id != sheet.id and reposted.button("Undo")
    fake.clear_weather()
    state = await state_of(bot, channel)
    assert [r.scores for r in state.rows[:2]] == [(14,), (9,)]
