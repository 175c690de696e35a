"""Who may do what to a table, beyond taking their own turn."""

from __future__ import annotations

from bot.i18n import N_
from bot.models import Actor, Session

# /settings end_by: who may end a game early (marked: said where it is shown, in the reader's language).
END_RULES = {
    "host": N_("the host or members with Manage Server"),
    "players": N_("any player, the host or members with Manage Server"),
    "managers": N_("members with Manage Server"),
}


def may_end(session: Session, actor: Actor, rule: str) -> bool:
    """Whether ``actor`` may end ``session`` under the server's ``rule``."""
    if actor.manager:
        return True
    if rule == "managers":
        return False
    if rule == "players" and session.seat_of_user(actor.user_id) is not None:
        return True
    return actor.user_id == session.host_id


def may_moderate(session: Session, actor: Actor) -> bool:
    """Kicking players: the host or a member with Manage Server."""
    return actor.user_id == session.host_id or actor.manager
