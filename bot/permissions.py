"""Who may do what to a table, beyond taking their own turn."""

from __future__ import annotations

from bot.models import Actor, Session

# /settings end_by: who may end a game early.
END_RULES = {
    "host": "the host or members with Manage Server",
    "players": "any player, the host or members with Manage Server",
    "managers": "members with Manage Server",
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
