"""A session's life: made (a lobby, or started at once), changed by the core (a seat, an option), started, left,
ended, and who holds its roles. Each step is committed by the ``Committer``, like any action."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from pydantic import BaseModel

from bot.commit import Committer, ForcedMove
from bot.errors import ChannelBusy, IllegalMove, NotPermitted, NotPlaying, SessionOver
from bot.i18n import N_, _, _n, localize
from bot.models import Actor, Applied, Deadline, How, LogEntry, Seat, Session, Status, roles_of
from bot.names import user_mention
from bot.refusals import engine_refusals
from bot.storage import Duplicate
from rules import engine as contract
from rules.dice import DiceSource, RecordingDice
from rules.said import Said

LOBBY_DECISION = "lobby"
LOBBY_SECONDS = 900
ENDED = N_("ended")
"""Why a game ended early, unless a reason is given."""


def logged_why(why: str) -> dict[str, Any]:
    """How an action's reason is logged: its English, and (said with values, as a ``Said``) its message and values,
    so it can be said again in another language."""
    if isinstance(why, Said) and why.params:
        return {"why": str(why), "why_said": [why.msgid, why.params]}
    return {"why": str(why)}


def told_why(action: Mapping[str, Any]) -> str | None:
    """The reason a logged action gives (``logged_why``), in the language being spoken; None if it gives none."""
    said_as = action.get("why_said")
    if said_as:
        return localize(Said(said_as[0], **said_as[1]))
    why = action.get("why")
    return _(why) if why else None  # a marked message without values, or English logged before there were others


class Lifecycle:
    """Makes, starts and ends sessions. Collaborators: the committer, the dice the service rolls with now, and how
    a forced move is applied (taken after a start or a departure, as after any action)."""

    def __init__(self, committer: Committer, dice: Callable[[], DiceSource], forced: ForcedMove) -> None:
        self.committer = committer
        self.dice = dice
        self.forced = forced

    async def create(
        self,
        kind_name: str,
        *,
        guild_id: int | None,
        channel_id: int,
        host: Actor,
        options: BaseModel,
        core_options: Mapping[str, Any] | None = None,
        seats: Sequence[Seat] = (),
        lobby_seconds: float | None = None,
        name: str | None = None,
        roles: Mapping[str, list[str]] | None = None,
        imported: BaseModel | None = None,
        origin: Any = None,
    ) -> Applied:
        """A new session: a lobby (for games with seats, expiring after ``lobby_seconds``), or one
        started at once (a scoresheet, a campaign), from the engine's ``start`` or from an
        ``imported`` state (a campaign moved from another channel). Raises ChannelBusy if the channel
        already has one."""
        committer = self.committer
        kind = committer.registry.get(kind_name)
        now = committer.clock.now()
        session = Session(
            guild_id=guild_id,
            channel_id=channel_id,
            kind=kind.kind,
            scope=kind.scope,
            name=name,
            status=Status.LOBBY,
            host_id=host.user_id,
            roles={k: list(v) for k, v in (roles or {}).items()},
            options={**options.model_dump(mode="json"), **(core_options or {})},
            seats=list(seats),
            created_at=now,
            updated_at=now,
        )
        if kind.seats is not None:
            seconds = lobby_seconds or LOBBY_SECONDS
            session.deadlines = [Deadline(player="", decision=LOBBY_DECISION, seconds=seconds, at=now + seconds)]
            applied = Applied(before=session, session=session, state=None, events=[], how="core")
            entry: LogEntry | None = None
        else:
            dice = RecordingDice(self.dice())
            logged: dict[str, Any]
            if imported is not None:
                state, events = imported, [{"type": "imported"}]
                logged = {"kind": "import", "how": "core", "state": imported.model_dump(mode="json")}
            else:
                with engine_refusals():
                    outcome = kind.engine.start(options, [], dice)
                state, events = outcome.state, outcome.events
                logged = {"kind": "start", "how": "core", "players": []}
            started = committer.advance(session.model_copy(update={"status": Status.ACTIVE}), None, state)
            applied, entry = committer.step(session, started, state, logged, dice=dice, events=events)
        applied.user_id, applied.origin = host.user_id, origin
        try:
            return await committer.create(applied, entry)
        except Duplicate:
            if name:
                busy = _("This server already has a campaign with that name. Use `/game status` to see it.")
            else:
                busy = _("This channel already has one. Use `/game status` to see it.")
            raise ChannelBusy(busy) from None

    async def update(
        self,
        session_id: int,
        edit: Callable[[Session], Session],
        *,
        actor: Actor | None = None,
        record: Mapping[str, Any] | Callable[[Session], Mapping[str, Any] | None] | None = None,
        origin: Any = None,
        statuses: tuple[Status, ...] = (Status.LOBBY, Status.ACTIVE),
    ) -> Applied:
        """A change the core makes itself (a lobby seat, an option, a role): ``edit`` returns the next
        version, or raises a UserError. ``record`` (or what it returns for the new version) is logged
        as the change's entry."""
        committer = self.committer

        async def change(session: Session) -> tuple[Applied, LogEntry | None]:
            if session.status not in statuses:
                raise SessionOver(_("That's already over."))
            new = edit(session)
            logged = record(new) if callable(record) else record
            state = committer.states.state_of(new) if new.state_json is not None else None
            applied, entry = committer.step(
                session, new, state, {"how": "core", **(logged or {})}, user=actor, origin=origin
            )
            return applied, entry if logged is not None else None

        return await committer.change(session_id, change)

    async def start(self, session_id: int, actor: Actor, *, origin: Any = None) -> Applied:
        """The host starts a lobby: seats are ordered (join order, or shuffled with logged dice) and the
        engine sets the game up."""
        committer = self.committer

        async def change(session: Session) -> tuple[Applied, LogEntry | None]:
            if session.status is not Status.LOBBY:
                raise SessionOver(_("This lobby is closed."))
            kind = committer.registry.get(session.kind)
            options = kind.parse_options(session.engine_options)
            low = kind.seat_limits(options)[0]
            if actor.user_id != session.host_id:
                raise NotPermitted(_("Only the host, {host}, can start the game.", host=user_mention(session.host_id)))
            if session.seat_of_user(actor.user_id) is None:
                raise NotPermitted(_("Join the table first: the host plays too."))
            if len(session.seats) < low:
                raise IllegalMove(
                    _n("{game} needs at least {n} player.", "{game} needs at least {n} players.", low, game=kind.title)
                )
            seating = RecordingDice(self.dice())
            seats = [s.model_copy() for s in session.seats]
            if session.options.get("_seating") == "random":
                # Fisher–Yates with named dice, so the shuffle is in the log like any other roll.
                for i in range(len(seats) - 1, 0, -1):
                    j = seating.roll(f"seat{i}", i + 1) - 1
                    seats[i], seats[j] = seats[j], seats[i]
            for number, seat in enumerate(seats, start=1):
                seat.player = f"P{number}"
            players = [s.player for s in seats]
            dice = RecordingDice(self.dice())
            with engine_refusals():
                outcome = kind.engine.start(options, players, dice)
            started = session.model_copy(update={"seats": seats, "status": Status.ACTIVE, "deadlines": []})
            new = committer.advance(started, None, outcome.state)
            seating_dice = [r.model_dump() for r in seating.rolls]
            logged = {"kind": "start", "how": "core", "players": players, "seating_dice": seating_dice}
            return committer.step(
                session, new, outcome.state, logged, dice=dice, events=outcome.events, user=actor, origin=origin
            )

        return await committer.change(session_id, change, forced=self.forced)

    async def remove_player(
        self,
        session_id: int,
        player: str,
        *,
        how: How = "core",
        actor: Actor | None = None,
        why: str | None = None,
        origin: Any = None,
    ) -> Applied:
        """A seat leaves mid-game (left, kicked, or removed after missed turns); the engine decides the rest.

        ``why``, if given, is logged (``logged_why``) and told in the channel after the player's name ("was removed
        from the game by the host"). The host role passes to the next member still seated. When no member is left
        at the table, the game ends as abandoned: computers don't play it out alone.
        """
        committer = self.committer
        left: dict[str, Any] = {"how": how, **(logged_why(why) if why else {})}

        async def change(session: Session) -> tuple[Applied, LogEntry | None]:
            if session.status is not Status.ACTIVE:
                raise SessionOver(_("This game is over."))
            seats = committer.registry.get(session.kind).seats
            assert seats is not None
            state = committer.states.state_of(session)
            if session.seat_of_player(player).left:
                raise NotPlaying(_("That player already left."))
            remaining = [s for s in session.humans if s.player != player]
            step = {"actor": player, "how": how, "user": actor, "origin": origin}
            if not remaining:
                new = session.ended(committer.clock.now())
                new.seat_of_player(player).left = True
                return committer.step(session, new, state, {"kind": "abandon", **left}, **step)
            dice = RecordingDice(self.dice())
            with engine_refusals():
                outcome = seats.remove_player(state, player, dice)
            new = committer.advance(session, state, outcome.state, actor=player)
            gone = new.seat_of_player(player)
            gone.left = True
            if new.host_id == gone.user_id:
                new.host_id = next(s.user_id for s in remaining if s.user_id is not None)
            new.deadlines = [d for d in new.deadlines if d.player != player]
            logged = {"kind": "leave", **left}
            return committer.step(session, new, outcome.state, logged, dice=dice, events=outcome.events, **step)

        return await committer.change(session_id, change, forced=self.forced)

    async def end(
        self, session_id: int, *, actor: Actor | None = None, why: str = ENDED, origin: Any = None
    ) -> Applied:
        """End a lobby or a session early: it is kept (abandoned) for history, with nothing pending; ``why`` is
        logged as ``logged_why`` keeps it."""

        def edit(session: Session) -> Session:
            return session.ended(self.committer.clock.now())

        record = {"kind": "abandon", **logged_why(why)}
        return await self.update(session_id, edit, actor=actor, record=record, origin=origin)

    async def set_role(
        self,
        session_id: int,
        actor: Actor,
        user_id: int,
        role: str,
        *,
        on: bool = True,
        old_gm_keeps: str | None = None,
        origin: Any = None,
    ) -> Applied:
        """Give or take a role (a co-GM), or hand the GM role over (``role=GM``: the old GM keeps none, or the
        role ``old_gm_keeps``, in the same change).

        Only the GM, or a member with Manage Server, may change roles; every change is logged.
        """

        record: dict[str, Any] = {"kind": "roles", "user": str(user_id), "role": role, "on": on}

        def edit(session: Session) -> Session:
            held = roles_of(session, actor)
            if contract.GM not in held and contract.MANAGER not in held:
                raise NotPermitted(_("Only the GM (or someone with Manage Server) can change who runs this."))
            # A server manager who doesn't run it: the game tells the GMs (never silent), so the entry says so.
            record["manager"] = contract.GM not in held
            new = session.successor(self.committer.clock.now())
            new.roles = _roles_after(new.roles, str(user_id), role, on=on, old_gm_keeps=old_gm_keeps)
            return new

        record |= {"by": str(actor.user_id), **({"old_gm_keeps": old_gm_keeps} if old_gm_keeps else {})}
        return await self.update(session_id, edit, actor=actor, record=record, origin=origin, statuses=(Status.ACTIVE,))


def _roles_after(
    roles: dict[str, list[str]], key: str, role: str, *, on: bool, old_gm_keeps: str | None
) -> dict[str, list[str]]:
    """Who holds which role after ``role`` is given to (``on``) or taken from the member ``key``."""
    roles = {k: list(v) for k, v in roles.items()}
    if role == contract.GM:
        if not on:
            raise IllegalMove(_("Hand the GM role to someone else instead."))
        for held in roles.values():
            if contract.GM in held:
                held.remove(contract.GM)
                if old_gm_keeps is not None and old_gm_keeps not in held:
                    held.append(old_gm_keeps)
        roles[key] = [r for r in roles.get(key, []) if r != contract.CO_GM] + [contract.GM]
    elif on:
        if role in roles.get(key, []):
            raise IllegalMove(_("They already have that role."))
        roles[key] = [*roles.get(key, []), role]
    else:
        if role not in roles.get(key, []):
            raise IllegalMove(_("They don't have that role."))
        roles[key] = [r for r in roles[key] if r != role]
    return {k: v for k, v in roles.items() if v}
