"""``/vic-gm session schedule|reschedule|cancel``: the campaign's next session as a Discord Scheduled Event (an
external one, located at the campaign's channel), told in the channel with ``<t:…>`` timestamps every member sees
in their own time zone, and the players reminded at the times the GM set (24 h and 1 h before, unless told
otherwise) — by a ping or a direct message, as each chose (``/vic calls``).

The plan is the campaign's (``PlanSession``: logged, shown on the company sheet); the event is Discord's picture
of it. Without the Create Events permission the plan and its reminders still work, and the GM is told why there
is no event.
"""

from __future__ import annotations

import logging
import math
import re
from datetime import UTC, datetime, timedelta
from functools import cache
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError, available_timezones

import discord
from discord import app_commands

from bot.errors import InvalidInput, NotPermitted
from bot.i18n import _, _n
from bot.models import Deadline, News, Session
from bot.names import escape_name
from bot.replies import PUBLIC_ANSWER, Reply
from cogs.viciousness.calls import calling
from cogs.viciousness.common import VicBase, after_news
from cogs.viciousness.narrate import NARRATORS, Event
from cogs.viciousness.text import cut
from rules.text import echo
from rules.viciousness.actions import CancelSession, PlanSession
from rules.viciousness.sessions import reminder_key
from rules.viciousness.state import MAX_REMINDER_MINUTES, MAX_SESSION_REMINDERS, CampaignState, Planned

log = logging.getLogger(__name__)

DEFAULT_REMINDERS = "24h, 1h"
UNITS = {"m": 1, "min": 1, "h": 60, "d": 24 * 60}
REMINDER = re.compile(r"^(\d+(?:\.\d+)?)\s*(m|min|h|d)$")
TIMESTAMP = re.compile(r"^<t:(\d{1,12})(?::[tTdDfFR])?>$|^(\d{9,12})$")
EVENT_NAME_MAX, EVENT_TEXT_MAX, LOCATION_MAX = 100, 1000, 100
SOON_S = 60
"""A session must start at least this far ahead."""
AHEAD_MAX_S = 366 * 86400
"""And at most this far (a year)."""


def minutes_text(minutes: int) -> str:
    """``24 h``, ``1 h 30 min``, ``2 days``."""
    if minutes % (24 * 60) == 0 and minutes >= 2 * 24 * 60:
        return _n("{n} day", "{n} days", minutes // (24 * 60))
    hours, rest = divmod(minutes, 60)
    return " ".join(p for p in (_("{n} h", n=hours) if hours else "", _("{n} min", n=rest) if rest else "") if p)


def parse_reminders(text: str) -> tuple[int, ...]:
    """``24h, 1h`` (or ``2d``, ``30m``; ``none``) as minutes before the start, largest first."""
    if text.strip().casefold() in ("", "none", "no", "0"):
        return ()
    out = set()
    for part in re.split(r"[,;]|\band\b", text.casefold()):
        part = part.strip()
        if not part:
            continue
        found = REMINDER.match(part)
        minutes = round(float(found[1]) * UNITS[found[2]]) if found else 0
        if not 1 <= minutes <= MAX_REMINDER_MINUTES:
            raise InvalidInput(
                _("Reminders: write them like `24h, 1h` (or `2d`, `30m`), up to 14 days: {typed}.", typed=echo(part))
            )
        out.add(minutes)
    if len(out) > MAX_SESSION_REMINDERS:
        raise InvalidInput(_("Reminders: {n} at most.", n=MAX_SESSION_REMINDERS))
    return tuple(sorted(out, reverse=True))


def zone(name: str) -> ZoneInfo:
    """The time zone called ``name`` (``Europe/Paris``, ``utc``: any case)."""
    key = name.strip().casefold()
    found = next((z for z in zone_names() if z.casefold() == key), None)
    try:
        return ZoneInfo(found or name.strip())
    except (ZoneInfoNotFoundError, ValueError):
        raise InvalidInput(
            _("Time zone: {typed} isn't one; pick one from the list as you type.", typed=echo(name))
        ) from None


def parse_start(text: str, tz: ZoneInfo) -> float:
    """When the session starts: ``2030-03-01 19:30`` in ``tz``, or a Discord timestamp (``<t:1900000000:F>``)."""
    text = text.strip()
    stamp = TIMESTAMP.match(text)
    if stamp:
        return float(stamp[1] or stamp[2])
    try:
        when = datetime.fromisoformat(text.replace("/", "-"))
        return (when if when.tzinfo is not None else when.replace(tzinfo=tz)).timestamp()
    except (ValueError, OverflowError):
        raise InvalidInput(
            _(
                "Start: {typed} isn't a date: write it like `2030-03-01 19:30` (in the time zone you give), "
                "or paste a `<t:…>` timestamp.",
                typed=echo(text),
            )
        ) from None


@cache
def zone_names() -> tuple[str, ...]:
    """Every time zone name, sorted (read once)."""
    return tuple(sorted(available_timezones()))


def when_text(start: float) -> str:
    """``<t:…:F> (<t:…:R>)``: the date in each reader's own time zone, and how far off it is."""
    return f"<t:{int(start)}:F> (<t:{int(start)}:R>)"


def hours_text(minutes: int) -> str:
    """A session's length: ``1 hour``, ``2.5 hours`` (one hour is the only singular: fractions read as plural)."""
    hours = f"{minutes / 60:g}"
    return _n("{hours} hour", "{hours} hours", 1 if minutes == 60 else 2, hours=hours)


def _planned(s: CampaignState, e: Event) -> str:
    when = when_text(float(e["start"]))
    hours = hours_text(int(e["minutes"]))
    if e.get("moved"):
        lines = [_("📅 **The session moved** to {when}, for {hours}.", when=when, hours=hours)]
    else:
        lines = [_("📅 **Next session**: {when}, for {hours}.", when=when, hours=hours)]
    if e.get("reminders"):
        times = [minutes_text(m) for m in e["reminders"]]
        said = times[0] if len(times) == 1 else _("{items} and {last}", items=", ".join(times[:-1]), last=times[-1])
        lines.append(_("⏰ The players are reminded {times} before.", times=said))
    if e.get("description"):
        lines.append(f"> {cut(escape_name(str(e['description'])), 500)}")
    if e.get("event"):
        lines.append(str(e["event"]))
    return "\n".join(lines)


NARRATORS.update(
    {
        "session_planned": _planned,
        "session_cancelled": lambda s, e: _(
            "📅 The session of {when} is called off.", when=when_text(float(e["start"]))
        ),
    }
)


def players(state: CampaignState) -> list[int]:
    """The campaign's players: the owners of its troupes."""
    return [int(owner) for owner in state.troupes if owner.isdigit()]


def session_reminder(state: CampaignState, deadline: Deadline, now: float) -> News | None:
    """A reminder of the planned session, at one of the times the GM set; only the closest one when several came
    due at once (a session planned late), none once it has begun or if it moved."""
    planned = state.planned
    if planned is None or now >= planned.start:
        return None
    mine = next((m for m in planned.reminders if reminder_key(planned.start, m) == deadline.decision), None)
    if mine is None or any(m < mine and planned.start - m * 60 <= now for m in planned.reminders):
        return None
    pings, dms = calling(state, players(state))
    who = ", ".join(f"<@{u}>" for u in players(state))
    when = when_text(planned.start)
    if who:
        text = _("📅 {who}: the session starts {when}.", who=who, when=when)
    else:
        text = _("📅 the session starts {when}.", when=when)
    if planned.description:
        text += f"\n> {cut(escape_name(planned.description), 300)}"
    if planned.event:
        text += f"\n{planned.event}"
    return News(text=text, pings=pings, dms=dms)


class SessionCommands(VicBase):
    """``/vic-gm session schedule|reschedule|cancel``."""

    session = app_commands.Group(name="session", description="Plan the next session: a Scheduled Event (GM)")

    def _gm(self, session: Session, interaction: discord.Interaction) -> CampaignState:
        if not self.typer(session, interaction)[1]:
            raise NotPermitted(_("Only the GM plans sessions."))
        return self.state(session)

    def _event_fields(self, session: Session, state: CampaignState, plan: Planned) -> dict[str, Any]:
        """What the Scheduled Event says: the company's session, at the campaign's channel."""
        start = datetime.fromtimestamp(plan.start, UTC)
        name = _("{company}: next session", company=state.company.name or "Viciousness")
        text = plan.description or _("The next session of {company}.", company=state.company.name or _("the campaign"))
        return {
            "name": cut(name, EVENT_NAME_MAX),
            "description": cut(text, EVENT_TEXT_MAX),
            "start_time": start,
            "end_time": start + timedelta(minutes=plan.minutes),
            "location": cut(f"https://discord.com/channels/{session.guild_id}/{session.channel_id}", LOCATION_MAX),
        }

    async def _make_event(
        self, interaction: discord.Interaction, session: Session, state: CampaignState, plan: Planned, *, move: bool
    ) -> tuple[str | None, str]:
        """Create the Scheduled Event (or ``move`` the planned one): its link, and what went wrong (for the GM) if
        Discord wouldn't."""
        guild = interaction.guild
        if guild is None:
            return None, _("Discord didn't tell me about this server, so there is no Scheduled Event.")
        fields = self._event_fields(session, state, plan)
        try:
            old = _event_id(state.planned.event) if move and state.planned is not None else None
            if old is not None:
                try:
                    event = await guild.fetch_scheduled_event(old)
                    event = await event.edit(**fields, entity_type=discord.EntityType.external)
                    return event.url, ""
                except discord.NotFound:
                    pass  # someone deleted it: a new one
            event = await guild.create_scheduled_event(
                **fields, entity_type=discord.EntityType.external, privacy_level=discord.PrivacyLevel.guild_only
            )
        except discord.Forbidden:
            return None, _("I may not create events here: give me **Create Events** to show it as a Scheduled Event.")
        except discord.HTTPException as exc:
            log.warning("Could not make the Scheduled Event of session %s: %s", session.id, exc)
            return None, _("Discord refused the Scheduled Event; the plan and its reminders stand.")
        return event.url, ""

    async def _finish_event(self, interaction: discord.Interaction, session: Session, past: Planned) -> None:
        """A past session's Scheduled Event is over: marked completed (started first, as Discord asks), so the
        server's events list shows only the next one."""
        event_id = _event_id(past.event)
        if event_id is None or interaction.guild is None:
            return
        try:
            event = await interaction.guild.fetch_scheduled_event(event_id)
            if event.status is discord.EventStatus.scheduled:
                event = await event.start()
            if event.status is discord.EventStatus.active:
                await event.end()
        except discord.NotFound:
            pass  # someone deleted it
        except discord.HTTPException as exc:
            log.warning("Could not complete the past Scheduled Event of session %s: %s", session.id, exc)

    async def _plan(self, interaction: discord.Interaction, session: Session, plan: Planned, *, move: bool) -> None:
        reply = Reply.of(interaction)
        state = self.state(session)
        now = self.bot.service.clock.now()
        if plan.start < now + SOON_S:
            raise InvalidInput(_("That start is past (or about to be): {when}.", when=when_text(plan.start)))
        if plan.start > now + AHEAD_MAX_S:
            raise InvalidInput(_("That start is more than a year away: plan the next session closer to it."))
        if not move and state.planned is not None:
            await self._finish_event(interaction, session, state.planned)
        link, problem = await self._make_event(interaction, session, state, plan, move=move)
        await self.act_and_tell(interaction, PlanSession(session=plan.model_copy(update={"event": link}), move=move))
        if problem:
            await after_news(reply)
            await reply.send(f"⚠️ {problem}", ephemeral=True)

    @session.command(name="schedule", description="Plan the next session (GM)", extras=PUBLIC_ANSWER)
    @app_commands.describe(
        start="2030-03-01 19:30 in your time zone, or a <t:…> timestamp",
        timezone="Your time zone (as you type: Europe/Paris, America/New_York…)",
        hours="How long it lasts",
        description="What it is about",
        reminders="When to remind the players: 24h, 1h (none: no reminders)",
    )
    async def session_schedule(
        self,
        interaction: discord.Interaction,
        start: app_commands.Range[str, 1, 60],
        timezone: app_commands.Range[str, 1, 64] = "UTC",
        hours: app_commands.Range[float, 0.25, 24.0] = 3.0,
        description: app_commands.Range[str, 1, 1000] | None = None,
        reminders: app_commands.Range[str, 1, 100] = DEFAULT_REMINDERS,
    ) -> None:
        """A Scheduled Event for the campaign, and reminders at the times given."""
        session = await self.campaign_here(interaction)
        state = self._gm(session, interaction)
        if state.planned is not None and state.planned.start > self.bot.service.clock.now():
            raise InvalidInput(
                _(
                    "A session is planned for {when}: `/vic-gm session reschedule` moves it, "
                    "`/vic-gm session cancel` calls it off.",
                    when=when_text(state.planned.start),
                )
            )
        tz = zone(timezone)
        plan = Planned(
            start=parse_start(start, tz),
            minutes=_minutes(hours),
            description=(description or "").strip(),
            reminders=parse_reminders(reminders),
            timezone=tz.key,
        )
        await self._plan(interaction, session, plan, move=False)

    @session.command(name="reschedule", description="Move or change the planned session (GM)", extras=PUBLIC_ANSWER)
    @app_commands.describe(
        start="The new start (in its time zone), or a <t:…> timestamp",
        timezone="The time zone of the start (default: as planned)",
        hours="How long it lasts",
        description="What it is about",
        reminders="When to remind the players: 24h, 1h (none: no reminders)",
    )
    async def session_reschedule(
        self,
        interaction: discord.Interaction,
        start: app_commands.Range[str, 1, 60] | None = None,
        timezone: app_commands.Range[str, 1, 64] | None = None,
        hours: app_commands.Range[float, 0.25, 24.0] | None = None,
        description: app_commands.Range[str, 1, 1000] | None = None,
        reminders: app_commands.Range[str, 1, 100] | None = None,
    ) -> None:
        """Only what is given changes; the Scheduled Event follows."""
        session = await self.campaign_here(interaction)
        state = self._gm(session, interaction)
        old = state.planned
        if old is None:
            raise InvalidInput(_("No session is planned: `/vic-gm session schedule` plans one."))
        if old.start <= self.bot.service.clock.now():
            raise InvalidInput(
                _(
                    "The session of {when} has begun: `/vic-gm session schedule` plans the next one.",
                    when=when_text(old.start),
                )
            )
        tz = zone(timezone or old.timezone)
        plan = old.model_copy(
            update={
                "start": parse_start(start, tz) if start else old.start,
                "minutes": _minutes(hours) if hours else old.minutes,
                "description": description.strip() if description else old.description,
                "reminders": parse_reminders(reminders) if reminders is not None else old.reminders,
                "timezone": tz.key,
            }
        )
        await self._plan(interaction, session, Planned.model_validate(plan.model_dump()), move=True)

    @session.command(name="cancel", description="Call off the planned session (GM)", extras=PUBLIC_ANSWER)
    async def session_cancel(self, interaction: discord.Interaction) -> None:
        """Its Scheduled Event is deleted; the players are told."""
        session = await self.campaign_here(interaction)
        state = self._gm(session, interaction)
        if state.planned is None:
            raise InvalidInput(_("No session is planned."))
        event_id = _event_id(state.planned.event)
        if event_id is not None and interaction.guild is not None:
            try:
                await (await interaction.guild.fetch_scheduled_event(event_id)).delete()
            except discord.NotFound:
                pass  # already gone
            except discord.HTTPException as exc:
                log.warning("Could not delete the Scheduled Event of session %s: %s", session.id, exc)
        await self.act_and_tell(interaction, CancelSession(), session=session)

    @session_schedule.autocomplete("timezone")
    @session_reschedule.autocomplete("timezone")
    async def _zones(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        key = current.strip().casefold().replace(" ", "_")
        return [app_commands.Choice(name=z, value=z) for z in zone_names() if key in z.casefold()][:25]


def _minutes(hours: float) -> int:
    """A session's length in minutes (a quarter of an hour to a day)."""
    if not math.isfinite(hours) or not 0.25 <= hours <= 24:
        raise InvalidInput(_("Hours: from 0.25 to 24."))
    return round(hours * 60)


def _event_id(link: str | None) -> int | None:
    """The Scheduled Event's id, from its link (``https://discord.com/events/<guild>/<event>``)."""
    tail = (link or "").rstrip("/").rpartition("/")[2]
    return int(tail) if tail.isdigit() else None
