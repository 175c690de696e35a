"""``/stats luck``, ``/stats top`` and ``/stats forget``: luck from the counts kept as dice are rolled, and each
game's ratings (``bot.ratings``).

Every ``/roll`` and every die a member rolls in a game is counted (``bot/storage/luck.py``), so an answer is a sum
over a few thousand rows, never a walk through the logs; logs written before counting began are counted once in
the background when the cog starts. A member's private rolls and GM rolls count for them alone: anyone else
sees their public dice only, and only from the server they ask in.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import functools
import io
import logging
import re
from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.errors import UserError
from bot.i18n import N_, _, _n, localize
from bot.models import Session
from bot.names import escape_name
from bot.pictures import PictureWorker
from bot.ratings import PROVISIONAL_GAMES, RatedGame, rated_game
from bot.registry import GameKind, Registry
from bot.replies import PUBLIC_ANSWER, Reply
from bot.spec import FaceLuck, GameSpec
from bot.storage import Store
from bot.storage.dice import LuckCount, LuckFilter, MemberTotals, Streak, TurnTotals
from bot.storage.luck import DAY_S, ROLL_KIND, bin_width
from cogs.dice.access import EVERYWHERE, INSTALLABLE_BY_ANYONE, NO_MENTIONS, bot_is_here, bot_of, not_here, now
from cogs.dice.chart import Panel, draw_chart
from rules.luck import fairness, fairness_words, luck, luck_words, points_luck, top_share
from rules.text import echo

log = logging.getLogger(__name__)

PERIODS = {"all": None, "7": 7, "30": 30, "365": 365}
PERIOD_CHOICES = [
    app_commands.Choice(name="All time", value="all"),
    app_commands.Choice(name="Last 7 days", value="7"),
    app_commands.Choice(name="Last 30 days", value="30"),
    app_commands.Choice(name="Last year", value="365"),
]
PLACES = {"everywhere": N_("everywhere"), "server": N_("in this server"), "channel": N_("in this channel")}
PERIOD_WORDS = {"all": N_("all time"), "7": N_("last 7 days"), "30": N_("last 30 days"), "365": N_("last year")}
"""Each period inside a sentence ("… · last 7 days · …")."""
PLACE_CHOICES = [
    app_commands.Choice(name="Everywhere (someone else's: this server)", value="everywhere"),
    app_commands.Choice(name="This server", value="server"),
    app_commands.Choice(name="This channel", value="channel"),
]
ROLLS = "/roll"
ALL_GAMES = "all"
CAMPAIGN = "campaign"
CHART_SIZES = 4
"""Die sizes drawn in the chart: the most rolled."""
LEADERBOARD = 10
FOLD_EVERY_S = 2.0
"""How often the bot folds the luck statistics' journal (a reader folds what is left first)."""
MIN_FOR_RANK = 20
"""Dice of one size a member needs before they are ranked by luck with it."""
MIN_TURNS_FOR_RANK = 3
"""Turns a member needs before they are ranked by their dice's luck in a game's points (a V&V game gives each
player three or four)."""
RANKED = re.compile(r"(\d+)\. ")
"""An entry of a leaderboard: its rank."""
RATINGS_IN_SUMMARY = 5
"""Members shown per game's ratings in the summary (``/stats top game:`` shows ``LEADERBOARD``)."""
RATINGS_SLACK = 20
"""Extra rated members read, in case some left the leaderboards."""
RATINGS_NOTE = N_(
    "-# Ratings: 1500 + 20 × (μ − 3σ), OpenSkill's Plackett–Luce; provisional for the first {games} games."
)
"""Said under a game's ratings, with ``games=PROVISIONAL_GAMES``."""


@dataclass(frozen=True, slots=True)
class SizeLuck:
    """One die size's figures."""

    sides: int
    count: int
    total: int
    luck: float
    fairness: str
    bins: tuple[LuckCount, ...]

    @property
    def mean(self) -> float:
        return self.total / self.count

    @property
    def fair_mean(self) -> float:
        return (self.sides + 1) / 2


def per_size(counts: list[LuckCount]) -> list[SizeLuck]:
    """Counts grouped by die size, most rolled first, with luck and fairness."""
    grouped: dict[int, list[LuckCount]] = defaultdict(list)
    for count in counts:
        grouped[count.sides].append(count)
    sizes = []
    for sides, bins in grouped.items():
        n = sum(b.count for b in bins)
        total = sum(b.total for b in bins)
        by_bin = {b.bin: b.count for b in bins}
        keys = range(1, sides + 1) if sides <= 100 else range(20)
        observed = [by_bin.get(k, 0) for k in keys]
        weights = [bin_width(sides, k) for k in keys]
        sizes.append(
            SizeLuck(sides, n, total, luck(n, total, sides), fairness_words(fairness(observed, weights)), tuple(bins))
        )
    return sorted(sizes, key=lambda s: (-s.count, s.sides))


def luck_table(sizes: list[SizeLuck]) -> str:
    """A code block: each die size's rolls, mean against a fair die's, and luck in words."""
    # Each column as wide as its heading in the reader's language needs (English: 6, 8, 8, 7).
    die, rolls, mean, fair, luck_heading = _("die"), _("rolls"), _("mean"), _("fair"), _("luck")
    a, b, c, d = max(6, len(die) + 1), max(8, len(rolls) + 1), max(8, len(mean) + 1), max(7, len(fair) + 1)
    lines = [f"{die:<{a}}{rolls:>{b}}{mean:>{c}}{fair:>{d}}  {luck_heading}"]
    for size in sizes[:12]:
        name, words = f"d{size.sides}", localize(luck_words(size.luck))
        lines.append(f"{name:<{a}}{size.count:>{b},}{size.mean:>{c}.2f}{size.fair_mean:>{d}.2f}  {words}")
    return "\n".join(["```", *lines, "```"])


def game_luck(sizes: list[SizeLuck], faces: Sequence[FaceLuck]) -> list[str]:
    """The game's own luck where it declares faces that matter (a crown, a hit): each face's share of the rolls,
    beside what fair dice give."""
    lines = []
    for face in faces:
        dice = [s for s in sizes if (s.sides == face.sides if face.sides is not None else s.sides >= face.face)]
        rolled = sum(s.count for s in dice)
        if rolled:
            shown = sum(next((b.count for b in s.bins if b.bin == face.face), 0) for s in dice)
            fair = sum(s.count / s.sides for s in dice)
            lines.append(
                _(
                    "{face} per die {share} (fair dice: {fair})",
                    face=_(face.words),
                    share=format(shown / rolled, ".3f"),
                    fair=format(fair / rolled, ".3f"),
                )
            )
    return lines


def turn_effect(turns: TurnTotals) -> str:
    """What the dice did to a member's points a turn: ``saved 1.8 points a turn`` (points are against the player:
    lowest wins), ``cost …``, or ``as fair dice``."""
    luck = turns.luck / turns.turns
    if round(luck, 1) == 0:
        return _("as fair dice")
    if luck > 0:
        return _("saved {points} points a turn", points=format(abs(luck), ".1f"))
    return _("cost {points} points a turn", points=format(abs(luck), ".1f"))


def turns_line(title: str, turns: TurnTotals, own: bool) -> str:
    """A game's luck in points: points a turn, what fair dice give with the same choices, and the difference."""
    per_turn = turns.points / turns.turns
    fair = per_turn + turns.luck / turns.turns
    facts = {
        "game": title,
        "turns": f"{turns.turns:,}",
        "points": f"{per_turn:.1f}",
        "fair": f"{fair:.1f}",
        "effect": turn_effect(turns),
        "luck": localize(luck_words(points_luck(turns.luck, turns.variance))),
    }
    if own:
        return _n(
            "🎲 {game}: {turns} turn, {points} points a turn; fair dice with the same choices: {fair}. "
            "Your dice: {effect} ({luck}).",
            "🎲 {game}: {turns} turns, {points} points a turn; fair dice with the same choices: {fair}. "
            "Your dice: {effect} ({luck}).",
            turns.turns,
            **facts,
        )
    return _n(
        "🎲 {game}: {turns} turn, {points} points a turn; fair dice with the same choices: {fair}. "
        "Their dice: {effect} ({luck}).",
        "🎲 {game}: {turns} turns, {points} points a turn; fair dice with the same choices: {fair}. "
        "Their dice: {effect} ({luck}).",
        turns.turns,
        **facts,
    )


def streak_line(streaks: list[Streak], sizes: list[SizeLuck]) -> str | None:
    """The longest runs above and below the mean, for the most rolled die size that has any."""
    by_size = {s.sides: s for s in streaks}
    for size in sizes:
        streak = by_size.get(size.sides)
        if streak is not None and (streak.best_hot or streak.best_cold):
            return _(
                "🔥 d{sides} streaks: {hot} in a row above average, {cold} in a row below",
                sides=size.sides,
                hot=streak.best_hot,
                cold=streak.best_cold,
            )
    return None


def server_rank(members: list[MemberTotals], user_id: int, sides: int) -> tuple[int, int] | None:
    """``(rank, of)`` of a member's luck with a die size among the server's members who rolled it enough."""
    ranked = [m for m in members if m.sides == sides and m.count >= MIN_FOR_RANK]
    if not any(m.user_id == user_id for m in ranked) or len(ranked) < 2:
        return None
    ordered = sorted(ranked, key=lambda m: -luck(m.count, m.total, sides, exact=False))
    return next(i for i, m in enumerate(ordered, 1) if m.user_id == user_id), len(ranked)


def fit(lines: list[str], limit: int = 2000) -> str:
    """The leaderboards in one message of at most ``limit`` characters: while too long, the lowest-ranked entry of
    the longest board goes (``N. …`` lines), so every board keeps its heading and its best."""
    kept = list(lines)
    while len(text := "\n".join(kept)) > limit:
        ranks = [(int(m[1]), i) for i, line in enumerate(kept) if (m := RANKED.match(line))]
        if not ranks:
            return text[:limit]
        del kept[max(ranks)[1]]
    return text


def chart_panels(sizes: list[SizeLuck]) -> tuple[Panel, ...]:
    """The chart's panels: each of the most rolled sizes, face by face (or in twenty ranges for big dice)."""
    panels = []
    for size in sizes[:CHART_SIZES]:
        by_bin = {b.bin: b.count for b in size.bins}
        if size.sides <= 100:
            keys = list(range(1, size.sides + 1))
            labels = [str(k) for k in keys]
        else:
            keys = list(range(20))
            labels = [f"{k * size.sides // 20 + 1}" for k in keys]
        bars = tuple(
            (label, by_bin.get(k, 0) / size.count, bin_width(size.sides, k) / size.sides)
            for k, label in zip(keys, labels, strict=True)
        )
        title = _n(
            "d{sides}: {count} roll, mean {mean} (fair {fair})",
            "d{sides}: {count} rolls, mean {mean} (fair {fair})",
            size.count,
            sides=size.sides,
            count=format(size.count, ","),
            mean=format(size.mean, ".2f"),
            fair=format(size.fair_mean, ".2f"),
        )
        panels.append(Panel(title, bars))
    return tuple(panels)


def alt_text(name: str, sizes: list[SizeLuck]) -> str:
    """The chart's facts for screen readers (an attachment description holds 1,024 characters)."""
    parts = [_("Bar chart of {name}'s dice against fair dice.", name=name)]
    for size in sizes[:CHART_SIZES]:
        by_bin = {b.bin: b.count for b in size.bins}
        common = max(by_bin, key=lambda k: by_bin[k])
        shown = common if size.sides <= 100 else f"{common * size.sides // 20 + 1}+"
        parts.append(
            _n(
                "d{sides}: {count} roll, mean {mean} against {fair}, most often {face}; {luck}; {fairness}.",
                "d{sides}: {count} rolls, mean {mean} against {fair}, most often {face}; {luck}; {fairness}.",
                size.count,
                sides=size.sides,
                count=format(size.count, ","),
                mean=format(size.mean, ".2f"),
                fair=format(size.fair_mean, ".2f"),
                face=shown,
                luck=localize(luck_words(size.luck)),
                fairness=localize(size.fairness),
            )
        )
    text = " ".join(parts)
    return text if len(text) <= 1024 else text[:1023] + "…"


class Stats(commands.Cog):
    """``/stats``: luck and leaderboards from the dice every game and ``/roll`` recorded."""

    stats = app_commands.Group(
        name="stats",
        description="Luck statistics and leaderboards",
        allowed_contexts=EVERYWHERE,
        allowed_installs=INSTALLABLE_BY_ANYONE,
    )

    def __init__(self, bot: commands.Bot, store: Store) -> None:
        self.bot = bot
        self.store = store
        self.pictures = PictureWorker()
        self._backfill: asyncio.Task[None] | None = None
        self._fold: asyncio.Task[None] | None = None

    async def cog_load(self) -> None:
        loop = asyncio.get_running_loop()
        self._backfill = loop.create_task(self.backfill(), name="luck backfill")
        self._fold = loop.create_task(self.fold(), name="luck fold")

    async def cog_unload(self) -> None:
        for task in (self._backfill, self._fold):
            if task is not None:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await task
        await asyncio.to_thread(self.pictures.close)

    async def backfill(self) -> None:
        """Count the dice of logs written before counting began, a batch at a time, yielding in between (once every
        game's cog has registered its game, so each die is counted for whoever rolled it)."""
        try:
            await self.bot.wait_until_ready()
            rated = await self.store.recompute_ratings(self._rated)
            if rated is not None:
                log.info("Ratings recomputed from %d finished games", rated)
            counted = 1
            while counted:  # each batch is its own transaction: other work goes on between batches
                counted = await self.store.backfill_luck(self.store.session, self.store.log_entries, self._kind)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("Counting older logs for the luck statistics failed; it resumes at the next start")

    async def fold(self) -> None:
        """Fold the statistics' journal every ``FOLD_EVERY_S`` (``bot.storage.luck_journal``): readers fold what is
        left, so this only keeps the journal short, many clicks in a few statements."""
        while True:
            await asyncio.sleep(FOLD_EVERY_S)
            try:
                await self.store.fold_luck()
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("Folding the luck statistics' journal failed; tried again in %s s", FOLD_EVERY_S)

    def _kind(self, name: str) -> GameKind | None:
        """A game kind this bot runs, by name (None for one it no longer loads)."""
        registry = self._registry()
        return registry.get(name) if registry is not None and name in registry else None

    def _registry(self) -> Registry | None:
        registry: Registry | None = getattr(getattr(self.bot, "service", None), "registry", None)
        return registry

    def _rated_kinds(self) -> list[GameKind]:
        """The games this bot runs whose finished tables are rated."""
        registry = self._registry()
        return [kind for kind in registry or () if kind.rated]

    def _rated(self, session: Session) -> RatedGame | None:
        """How a finished session counts in the ratings (None: it doesn't, or its game is no longer run)."""
        kind = self._kind(session.kind)
        if kind is None or session.state_json is None:
            return None
        # Only a game that ranks every seat needs its final state read (a game's state is the bulk of its row).
        state = kind.engine.state_model.model_validate_json(session.state_json) if kind.places is not None else None
        return rated_game(session, kind, state)

    def _specs(self) -> Mapping[str, GameSpec[Any]]:
        """The games this bot runs, as their cogs registered them."""
        specs: Mapping[str, GameSpec[Any]] = getattr(self.bot, "specs", {})
        return specs

    def games(self) -> dict[str, str]:
        """Whose dice ``/stats luck`` can tell apart, by kind: ``/roll`` and every game whose dice count (it says
        who rolled them, ``Rollers``, or measures them in points, ``ScoreLuck``)."""
        counted = {k: s.kind.title for k, s in self._specs().items() if s.kind.rollers or s.kind.score_luck}
        return {ROLL_KIND: ROLLS, **counted}

    def turn_games(self) -> dict[str, str]:
        """Games that measure their dice's luck in points a turn (``rules.engine.ScoreLuck``), by kind."""
        return {kind: spec.kind.title for kind, spec in self._specs().items() if spec.kind.score_luck}

    def _faces(self, game: str) -> Sequence[FaceLuck]:
        spec = self._specs().get(game)
        return spec.luck_faces if spec is not None else ()

    @stats.command(name="luck", description="How lucky someone's dice have been: per die size, with a chart.")
    @app_commands.describe(
        member="Whose luck (default: yours)", game="Which dice", period="Over what time", where="Rolled where"
    )
    @app_commands.choices(period=PERIOD_CHOICES, where=PLACE_CHOICES)
    async def luck_command(
        self,
        interaction: discord.Interaction,
        member: discord.User | None = None,
        game: app_commands.Range[str, 1, 40] = ALL_GAMES,
        period: str = "all",
        where: str = "everywhere",
    ) -> None:
        """The member's luck; someone else's from their public dice in this server only."""
        target = member or interaction.user
        own = target.id == interaction.user.id
        if not own and interaction.guild_id is None:
            raise UserError(_("Someone else's luck can be seen in a server you share, from their public rolls there."))
        place = where if where in PLACES else "everywhere"
        if place != "everywhere" and interaction.guild_id is None:
            place = "channel" if place == "channel" else "everywhere"  # a DM is its own channel, in no server
        filtered = await self._filter(interaction, own=own, game=game, period=period, place=place)
        counts = await self.store.luck_counts(target.id, filtered)
        name = escape_name(target.display_name)
        if not counts:
            if own:
                raise UserError(_("You have no recorded dice here yet."))
            raise UserError(_("**{name}** has no recorded dice here yet.", name=name))
        sizes = per_size(counts)
        heading = _("🍀 **{name}**'s luck · {scope}", name=name, scope=self._scope_words(game, period, own, place))
        lines = [heading, luck_table(sizes)]
        for size in sizes[:3]:
            lines.append(f"d{size.sides}: {localize(size.fairness)}")
        if interaction.guild_id is not None:
            rank = server_rank(await self.store.luck_in_guild(interaction.guild_id), target.id, sizes[0].sides)
            if rank is not None:
                facts = {"sides": sizes[0].sides, "share": top_share(*rank), "rank": rank[0], "of": rank[1]}
                if own:
                    lines.append(
                        _("🏅 Your d{sides}s are in the luckiest {share} % of this server ({rank} of {of}).", **facts)
                    )
                else:
                    lines.append(
                        _("🏅 Their d{sides}s are in the luckiest {share} % of this server ({rank} of {of}).", **facts)
                    )
        streak = streak_line(await self.store.luck_streaks(target.id, public_only=not own), sizes)
        if streak:
            lines.append(streak)
        lines += game_luck(sizes, self._faces(game))
        for kind, title in self.turn_games().items():
            if game in (kind, ALL_GAMES):
                turns = await self.store.luck_turns(target.id, dataclasses.replace(filtered, kind=kind))
                if turns is not None:
                    lines.append(turns_line(title, turns, own))
        if own:
            lines.append(_("-# Your private and GM rolls count here; others see your public ones only."))
        reply = Reply.of(interaction, private=True)
        reply.arm()
        title = _("{name}'s dice", name=target.display_name)
        legend = (_("rolled"), _("fair dice"))
        png = await self.pictures.draw(functools.partial(draw_chart, title, chart_panels(sizes), legend))
        file = discord.File(io.BytesIO(png), filename="luck.png", description=alt_text(target.display_name, sizes))
        await reply.send("\n".join(lines)[:2000], ephemeral=True, file=file, allowed_mentions=NO_MENTIONS)

    async def _filter(
        self, interaction: discord.Interaction, *, own: bool, game: str, period: str, place: str
    ) -> LuckFilter:
        days = PERIODS.get(period)
        since = None if days is None else int(now(interaction) // DAY_S) - days + 1
        campaign_id = None
        if game not in (*self.games(), ALL_GAMES, CAMPAIGN):
            raise UserError(_("No game called {game} here: pick one from the list.", game=echo(game, code=True)))
        kind = game if game not in (ALL_GAMES, CAMPAIGN) else None
        if game == CAMPAIGN:
            campaign = await bot_of(interaction).service.campaign(interaction.channel_id or 0, interaction.guild_id)
            if campaign is None:
                raise UserError(_("There's no campaign in this channel."))
            campaign_id = campaign.id
        guild = None if own and place == "everywhere" else interaction.guild_id
        channel = interaction.channel_id if place == "channel" else None
        return LuckFilter(
            since_day=since,
            guild_id=guild,
            channel_id=channel,
            kind=kind,
            campaign_id=campaign_id,
            public_only=not own,
        )

    @luck_command.autocomplete("game")
    async def _game_choices(self, interaction: discord.Interaction, typed: str) -> list[app_commands.Choice[str]]:
        """Every game and /roll, /roll, each game whose dice count, and the channel's campaign."""
        offered = {ALL_GAMES: _("Every game and /roll"), **self.games(), CAMPAIGN: _("This channel's campaign")}
        found = [app_commands.Choice(name=title, value=kind) for kind, title in offered.items()]
        return [c for c in found if typed.casefold() in c.name.casefold()][:25]

    def _scope_words(self, game: str, period: str, own: bool, place: str) -> str:
        what = self.games().get(game) or (_("this campaign") if game == CAMPAIGN else _("every game and /roll"))
        when = _(PERIOD_WORDS[period])
        where = _(PLACES["server" if not own and place == "everywhere" else place])
        if own:
            return _("{what} · {when} · {where}", what=what, when=when, where=where)
        return _("{what} · {when} · {where}, public rolls", what=what, when=when, where=where)

    @stats.command(
        name="top",
        description="This server's leaderboards: wins, the luckiest d20s and the luckiest game dice.",
        extras=PUBLIC_ANSWER,
    )
    @app_commands.describe(
        me="Leave or join the leaderboards (kept until you change it)", game="One game's ratings, in full"
    )
    @app_commands.choices(
        me=[
            app_commands.Choice(name="Leave the leaderboards", value="leave"),
            app_commands.Choice(name="Join the leaderboards", value="join"),
        ]
    )
    async def top(self, interaction: discord.Interaction, me: str | None = None, game: str | None = None) -> None:
        """Ratings, most wins in finished table games, the luckiest d20s, and the luckiest dice in each game that
        measures its dice's luck in points (members who left the leaderboards are not shown); or one game's ratings."""
        if interaction.guild_id is None:  # /stats works in DMs (your own luck); its leaderboards belong to a server
            raise UserError(_("Leaderboards belong to a server: use `/stats top` in one."))
        reply = Reply.of(interaction, private=True)
        if me is not None:
            await self.store.set_leaderboard(interaction.user.id, shown=me == "join")
            answer = _("✅ You're back on the leaderboards.") if me == "join" else _("✅ You're off the leaderboards.")
            await reply.send(answer, ephemeral=True)
            return
        if not bot_is_here(interaction):  # a server's leaderboards count what the bot saw there
            raise UserError(not_here(interaction, _("This server's leaderboards")))
        if game is not None:
            chosen = self._kind(game)
            if chosen is None or not chosen.rated:
                raise UserError(_("That game has no ratings: pick one from the list."))
            lines = await self._ratings(interaction.guild_id, chosen, LEADERBOARD)
            lines = lines or [_("📈 Nobody has a {game} rating in this server yet: finish a game!", game=chosen.title)]
            lines.append(_(RATINGS_NOTE, games=PROVISIONAL_GAMES))
            await reply.send("\n".join(lines), ephemeral=False, allowed_mentions=NO_MENTIONS)
            return
        lines = []
        for rated in self._rated_kinds():
            lines += await self._ratings(interaction.guild_id, rated, RATINGS_IN_SUMMARY)
        wins = await self.store.wins_in_guild(interaction.guild_id)
        totals = await self.store.luck_in_guild(interaction.guild_id)
        turn_games = self.turn_games()
        turns = {kind: await self.store.turns_in_guild(interaction.guild_id, kind) for kind in turn_games}
        members = {w.user_id for w in wins} | {t.user_id for t in totals} | {m for t in turns.values() for m in t}
        hidden = await self.store.leaderboard_hidden(sorted(members))
        lines.append(_("🏆 **Most wins**"))
        shown_wins = sorted((w for w in wins if w.user_id not in hidden), key=lambda w: (-w.wins, w.games))
        # The rank stays in front, as typed: `fit` shortens the boards by it.
        lines += [
            f"{i}. <@{w.user_id}> · " + _n("{n} win in {games}", "{n} wins in {games}", w.wins, games=w.games)
            for i, w in enumerate(shown_wins[:LEADERBOARD], 1)
        ] or [_("No finished games yet.")]
        d20s = [t for t in totals if t.sides == 20 and t.count >= MIN_FOR_RANK and t.user_id not in hidden]
        d20s.sort(key=lambda t: -luck(t.count, t.total, 20, exact=False))
        lines.append(_("🍀 **Luckiest d20s** (at least {most} rolled)", most=MIN_FOR_RANK))
        lines += [
            f"{i}. <@{t.user_id}> · "
            + _("mean {mean} over {count}", mean=format(t.total / t.count, ".2f"), count=format(t.count, ","))
            for i, t in enumerate(d20s[:LEADERBOARD], 1)
        ] or [_("Nobody has rolled enough d20s yet.")]
        for kind, title in turn_games.items():
            ranked = [(m, t) for m, t in turns[kind].items() if t.turns >= MIN_TURNS_FOR_RANK and m not in hidden]
            if not ranked:
                continue
            ranked.sort(key=lambda mt: -points_luck(mt[1].luck, mt[1].variance))
            lines.append(_("🎲 **Luckiest {game} dice** (at least {most} turns)", game=title, most=MIN_TURNS_FOR_RANK))
            lines += [
                f"{i}. <@{m}> · "
                + _n(
                    "{effect} over {turns} turn",
                    "{effect} over {turns} turns",
                    t.turns,
                    effect=turn_effect(t),
                    turns=format(t.turns, ","),
                )
                for i, (m, t) in enumerate(ranked[:LEADERBOARD], 1)
            ]
        lines.append(_("-# Leave with `/stats top me: Leave`; one game's ratings with `/stats top game:`."))
        await reply.send(fit(lines), ephemeral=False, allowed_mentions=NO_MENTIONS)

    @top.autocomplete("game")
    async def _rated_games(self, interaction: discord.Interaction, typed: str) -> list[app_commands.Choice[str]]:
        """The rated games whose name has what was typed."""
        wanted = typed.casefold()
        return [
            app_commands.Choice(name=kind.title[:100], value=kind.kind)
            for kind in self._rated_kinds()
            if wanted in kind.title.casefold()
        ][:25]

    async def _ratings(self, guild_id: int, kind: GameKind, limit: int) -> list[str]:
        """A game's rating leaderboard in a server (members who left the leaderboards skipped), or nothing if nobody
        shown is rated."""
        rows = await self.store.rating_top(guild_id, kind.kind, limit + RATINGS_SLACK)
        hidden = await self.store.leaderboard_hidden([user for user, _ in rows])
        shown = [(user, rating) for user, rating in rows if user not in hidden][:limit]
        if not shown:
            return []
        lines = [_("📈 **{game} ratings**", game=kind.title)]
        lines += [
            f"{i}. <@{user}> · {_rating(rating.shown, rating.provisional, rating.games)}"
            for i, (user, rating) in enumerate(shown, 1)
        ]
        return lines

    @stats.command(name="forget", description="Delete your luck statistics and ratings (logs keep their dice).")
    @app_commands.describe(confirm="Type: forget")
    async def forget(self, interaction: discord.Interaction, confirm: str) -> None:
        """Delete the member's statistics everywhere; their dice in games' logs stay (replays need them)."""
        if confirm.strip().casefold() != "forget":
            raise UserError(_("Nothing deleted: type `forget` in `confirm` to delete your statistics."))
        await self.store.forget_luck(interaction.user.id, now(interaction))
        await Reply.of(interaction, private=True).send(
            _(
                "🧹 Your luck statistics and ratings are deleted. Rolls and games from now on count again; games' logs "
                "keep their dice."
            ),
            ephemeral=True,
        )


def _rating(shown: int, provisional: bool, games: int) -> str:
    """``1,612 (provisional) · 3 games``: a member's rating on a leaderboard."""
    if provisional:
        return _n(
            "{rating} (provisional) · {n} game", "{rating} (provisional) · {n} games", games, rating=format(shown, ",")
        )
    return _n("{rating} · {n} game", "{rating} · {n} games", games, rating=format(shown, ","))


def stats_cog(bot: commands.Bot) -> Stats:
    """The cog, on the bot's store."""
    store: Any = getattr(bot, "store")  # noqa: B009 (the TabletopBot's, typed loosely for test bots)
    return Stats(bot, store)
