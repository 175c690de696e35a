"""``/vic odds``: exact odds of a fight or a scheme typed as dice, and "odds now" under a pool being built.

The arithmetic and the table are the engine's (``rules/viciousness/odds.py``, exact, by convolution);
this module reads the command's text and turns a pool being gathered into the odds' dice.
"""

from __future__ import annotations

import discord
from discord import app_commands

from bot.errors import InvalidInput
from bot.i18n import N_, _, localize
from bot.replies import Reply
from cogs.viciousness.common import VicBase
from rules.viciousness import odds as exact
from rules.viciousness.dicepool import dice_plan, is_rattled
from rules.viciousness.odds_parse import OddsInputError, parse_knavery, parse_violence
from rules.viciousness.state import CampaignState, KnaveryPool, Pool, ViolencePool
from rules.viciousness.violence import fighters

ODDS_HELP = N_(
    "A fight: `3d4 1d6 vs 2d4` (`r` before a group marks rattled dice: `r1d6`), up to 6 sides. "
    "A scheme: the dice and `challenges` (or `4d6 vs 3`)."
)


def _side_pool(state: CampaignState, pool: ViolencePool, side: str) -> exact.Pool:
    dice = [
        exact.Die(faces=sides, rattled=is_rattled(state, c))
        for c in fighters(pool, side)
        for sides, _source in dice_plan(state, pool, c)
    ]
    equipment = next(s.equipment for s in pool.sides if s.id == side)
    return exact.Pool(dice=(*dice, *[exact.Die(faces=4)] * equipment))


def pool_odds(state: CampaignState, pool: Pool) -> exact.ViolenceOdds | exact.KnaveryOdds | None:
    """The exact odds of a pool as it stands (None while it can't be rolled, or with more than 6 sides)."""
    if isinstance(pool, KnaveryPool):
        if not pool.combatants or not pool.challenges:
            return None
        dice = tuple(
            exact.Die(faces=sides, rattled=is_rattled(state, c))
            for c in pool.combatants
            for sides, _source in dice_plan(state, pool, c)
        )
        return exact.knavery_odds(exact.Pool(dice=dice), len(pool.challenges))
    sides = [s.id for s in pool.sides if fighters(pool, s.id)]
    if not 2 <= len(sides) <= exact.MAX_SIDES:
        return None
    return exact.violence_odds(*(_side_pool(state, pool, s) for s in sides))


def odds_now(state: CampaignState, pool: Pool) -> str | None:
    """``odds now: 58% to win, 20% to lose`` (from the first side's point of view), or None."""
    odds = pool_odds(state, pool)
    if odds is None:
        return None
    line = localize(exact.summary(odds))
    if isinstance(pool, ViolencePool) and isinstance(odds, exact.ViolenceOdds):
        first = next(s for s in pool.sides if fighters(pool, s.id))
        line = _("{odds} (for {side})", odds=line, side=first.name)
    return line


def odds_text(dice: str, challenges: int | None) -> str:
    """The reply to ``/vic odds``: the table and its one-line summary; InvalidInput for text it can't read."""
    try:
        if challenges is not None or _is_scheme(dice) or "vs" not in dice.casefold():
            pool, n = parse_knavery(dice, challenges)
            scheme = exact.knavery_odds(pool, n)
            result: exact.ViolenceOdds | exact.KnaveryOdds = scheme
            table = exact.render_knavery(scheme, say=localize)
        else:
            fight = exact.violence_odds(*parse_violence(dice))
            result = fight
            table = exact.render_violence(fight, say=localize)
    except OddsInputError as exc:
        # What was typed is echoed, inert, in the message (the engine's, said in the reader's language).
        raise InvalidInput(f"{localize(str(exc))} {_(ODDS_HELP)}") from None
    line = localize(exact.chances(result))
    return f"{table}\n" + _("{odds} · exact, not sampled", odds=line[:1].upper() + line[1:])


def _is_scheme(text: str) -> bool:
    """``4d6 vs 3``: the other side is a number of challenges."""
    tail = text.casefold().rsplit("vs", 1)[-1].strip()
    return tail.isdigit()


class OddsCommands(VicBase):
    """``/vic odds``: a mixin of the ``/vic`` group cog."""

    @app_commands.command(name="odds", description="Exact odds: 3d4 1d6 vs 2d4, or 4d6 vs 3")
    @app_commands.describe(
        dice="3d4 r1d6 vs 2d4 (r: rattled), or 4d6 vs 3",
        challenges="A scheme's challenges",
    )
    async def odds(
        self,
        interaction: discord.Interaction,
        dice: app_commands.Range[str, 1, 300],
        challenges: app_commands.Range[int, 0, 30] | None = None,
    ) -> None:
        """Exact odds, privately (share them with the button-free text if you like)."""
        reply = Reply.of(interaction)
        await reply.send(odds_text(dice, challenges), ephemeral=True)
