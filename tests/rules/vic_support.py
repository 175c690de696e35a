"""Helpers for the Viciousness tests: a campaign under test, acting through the engine with scripted dice."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

import pytest

from rules.dice import RecordingDice, Roll, ScriptedDice
from rules.engine import GM as GM_ROLE
from rules.engine import IllegalAction, NotPermitted
from rules.viciousness import ENGINE, Action, CampaignState, VicOptions
from rules.viciousness.state import PC, Troupe

GM = "100000000000000001"
P1 = "200000000000000001"
P2 = "200000000000000002"
P3 = "200000000000000003"

KESTREL = ("Kestrel", ("Daggertwist", "Lurker", "Acrobat"))
MOTT = ("Mott", ("Strongman", "Medic"))
PIP = ("Pip", ("Machinist", "Alchemist", "Streetsmart"))


class Campaign:
    """A campaign under test: keeps the latest state, every event and every die rolled."""

    def __init__(self, **options: Any) -> None:
        self.state: CampaignState = ENGINE.start(VicOptions(**options), [], ScriptedDice([])).state
        self.events: list[dict[str, Any]] = []
        self.rolls: list[Roll] = []

    def roles(self, actor: str) -> frozenset[str]:
        return frozenset({GM_ROLE}) if actor == GM else frozenset()

    def act(self, actor: str, action: Action | dict[str, Any], dice: Iterable[int] = ()) -> list[dict[str, Any]]:
        """Authorize and apply; every scripted die must be used, and the input state must not change."""
        if isinstance(action, dict):
            action = ENGINE.parse_action(action)
        ENGINE.authorize(self.state, actor, self.roles(actor), action)
        source = ScriptedDice(list(dice))
        recorder = RecordingDice(source)
        before = self.state.model_dump_json()
        out = ENGINE.apply(self.state, actor, action, recorder)
        assert self.state.model_dump_json() == before, "apply changed its input"
        assert source.remaining == 0, "scripted dice left over"
        self.state = out.state
        self.events += out.events
        self.rolls += recorder.rolls
        return out.events

    def gm(self, action: Action | dict[str, Any], dice: Iterable[int] = ()) -> list[dict[str, Any]]:
        """Act as the GM."""
        return self.act(GM, action, dice)

    def reject(self, actor: str, action: Action | dict[str, Any], reason: str, dice: Iterable[int] = ()) -> str:
        """The action is refused as illegal with a reason containing ``reason``; nothing changes."""
        before = self.state.model_dump_json()
        with pytest.raises(IllegalAction) as info:
            self.act(actor, action, dice)
        assert not isinstance(info.value, NotPermitted), info.value.reason
        assert reason in info.value.reason, info.value.reason
        assert self.state.model_dump_json() == before
        return info.value.reason

    def forbid(self, actor: str, action: Action | dict[str, Any], reason: str = "") -> None:
        """``actor`` is not permitted to take the action."""
        if isinstance(action, dict):
            action = ENGINE.parse_action(action)
        with pytest.raises(NotPermitted) as info:
            ENGINE.authorize(self.state, actor, self.roles(actor), action)
        assert reason in info.value.reason, info.value.reason

    # -- reading ---------------------------------------------------------------------------------

    def pc(self, pc_id: str) -> PC:
        pc = self.state.find_pc(pc_id)
        assert pc is not None
        return pc

    def troupe(self, owner: str) -> Troupe:
        return self.state.troupes[owner]

    def kinds(self, events: Sequence[dict[str, Any]] | None = None) -> list[str]:
        return [e["type"] for e in (self.events if events is None else events)]

    def event(self, kind: str, events: Sequence[dict[str, Any]] | None = None) -> dict[str, Any]:
        """The last event of ``kind``."""
        return [e for e in (self.events if events is None else events) if e["type"] == kind][-1]

    def die_ids(self) -> list[str]:
        return [r.die for r in self.rolls]

    # -- set-up ----------------------------------------------------------------------------------

    def join(
        self,
        owner: str,
        captain: tuple[str, Sequence[str]] = KESTREL,
        minions: Sequence[tuple[str, Sequence[str]]] = (),
        asset: str = "headquarters",
        name: str | None = None,
    ) -> list[str]:
        """``owner`` creates a troupe (captain and minions); returns the PC ids, captain first."""
        self.act(
            owner,
            {
                "type": "create_troupe",
                "name": name or f"Troupe of {captain[0]}",
                "captain": {"name": captain[0], "traits": list(captain[1])},
                "asset": asset,
            },
        )
        if len(minions) > 1:
            self.gm({"type": "minion_places", "owner": owner, "n": len(minions)})
        for m in minions:
            self.act(owner, {"type": "add_pc", "owner": owner, "pc": {"name": m[0], "traits": list(m[1])}})
        return [p.id for p in self.troupe(owner).pcs]
