"""The turn procedure of RULES.md 2.4 (S1–S10), run on a working copy of the state.

Each action handler changes a :class:`Table` and then calls the next step; steps run on by
themselves until someone must decide something (a prompt) or the game ends. The working copy is
a shallow copy of the input state whose tuples of frozen models are replaced, never changed.
"""

from __future__ import annotations

from typing import Any, Literal

from rules.crowns.data import (
    ANY_DIE_REROLL_COST,
    BIRTHRIGHT_CLAIMS,
    CROWNS_FOR_CLAIM,
    DAGGERS_END_TURN,
    DIE_IDS,
    FACE_BY_VALUE,
    FEAST_LOSS,
    LEGENDARY_NAMES,
    OVERKILL_MAX,
    PAIR_CLAIM,
    PAIR_CROWNS,
    PAIR_FATE,
    PAIR_SKULLS,
    SELF_REROLL_COST,
    SIX_SKULLS,
    SIX_SKULLS_FATE,
    SKULLS_FOR_CLAIM,
    TWISTS_STEAL,
)
from rules.crowns.scoring import (
    can_settle,
    dagger_default,
    dagger_recipients,
    fate_eligible,
    overkill_targets,
    own_daggers,
    pending_scrolls,
    reroll_groups,
    set_reachable,
    seven_of_a_kind,
    steal_victims,
)
from rules.crowns.state import (
    Counts,
    CrownsState,
    Dice,
    Die,
    DieState,
    Face,
    Phase,
    Players,
    die_value,
    scroll_roll,
)
from rules.dice import DiceSource

_LOCKS = {Face.CROWN: DieState.LOCKED, Face.DAGGER: DieState.LOCKED}
_OWN_ROLL_STATE = {**_LOCKS, Face.SKULL: DieState.FREE_SKULL, Face.SCROLL: DieState.PENDING_SCROLL}
_RETURNED_STATE = {**_LOCKS, Face.SKULL: DieState.FREE_SKULL, Face.SCROLL: DieState.RETURNED_SCROLL}
_FACES = tuple(Face(f) for f in FACE_BY_VALUE)
_INDEX = {die_id: index for index, die_id in enumerate(DIE_IDS)}

# Enum members tested in per-die loops, as module names (see rules.crowns.state for why).
_HANDED = DieState.HANDED
_PENDING_SCROLL = DieState.PENDING_SCROLL
_IN_TRANSIT = DieState.IN_TRANSIT
LAST_STAND_CLAIMS = 4
"""Under Last Stand a Claim that would be the 5th is the Crown instead (S8)."""


class Table:
    """A working copy of one state plus the events of the action being applied."""

    def __init__(self, state: CrownsState, dice: DiceSource) -> None:
        self.s = state.model_copy()
        self.dice = dice
        self.events: list[dict[str, Any]] = []

    # -- low-level changes -------------------------------------------------------------------

    def emit(self, event: str, /, **fields: Any) -> None:
        """Record an event for the narrator."""
        self.events.append({"type": event, **fields})

    def put(self, **fields: Any) -> None:
        """Set fields of the working copy.

        The copy is ours alone (``model_copy`` made it) and gets only values of the declared types,
        so its field values are written as they are: pydantic's per-attribute ``__setattr__`` costs
        more than the rest of a typical action, for checks this private copy doesn't need.
        """
        self.s.__dict__.update(fields)

    def set_die(self, die_id: str, **update: Any) -> None:
        """Replace die ``die_id`` with a copy changed by ``update`` (face, holder, state, by_fate)."""
        dice = self.s.dice
        index = _INDEX[die_id]
        old = dice[index]
        new = die_value(
            die_id,
            update.get("face", old.face),
            update.get("holder", old.holder),
            update.get("state", old.state),
            update.get("by_fate", old.by_fate),
        )
        self.put(dice=Dice((*dice[:index], new, *dice[index + 1 :])))

    def set_seat(self, player: str, **update: Any) -> None:
        """Replace ``player``'s seat with an updated copy."""
        self.put(players=Players(p.model_copy(update=update) if p.id == player else p for p in self.s.players))

    def roll_face(self, die_id: str) -> Face:
        """Roll one die through the dice source."""
        return _FACES[self.dice.roll(die_id, 6) - 1]

    # -- S1/S2: turn start and the active player's rolls ----------------------------------------

    def start_turn(self) -> None:
        """S1: the active player's turn begins; roll if anything was handed, else go straight on."""
        s = self.s
        active = s.active
        self.put(crown_turn=s.options.last_stand and s.crown_holder == active, seven_roll=None)
        handed = [d.id for d in s.dice if d.holder == active and d.state is _HANDED]
        held = [d.id for d in s.dice if d.holder == active and d.state is not _HANDED]
        self.emit(
            "turn_started",
            player=active,
            turn=s.turn_no,
            round=s.round_no,
            handed=handed,
            held=held,
            crown_turn=s.crown_turn,
        )
        if handed:
            self.put(phase=Phase.TURN_START)
        else:
            self.emit("no_roll", player=active)
            self.after_resolution()

    def own_roll(self, die_ids: list[str], reason: Literal["turn_roll", "reroll"], group: str | None = None) -> None:
        """The active player rolls ``die_ids`` (ascending); ends their Messenger immunity, then S3–S5."""
        s = self.s
        active = s.active
        if s.seat(active).messenger:
            self.set_seat(active, messenger=False)
            self.emit("messenger_ended", player=active)
        faces = {die_id: self.roll_face(die_id) for die_id in sorted(die_ids, key=int)}
        # One new dice tuple for the whole roll, rather than one per die.
        dice = list(s.dice)
        for die_id, face in faces.items():
            index = _INDEX[die_id]
            dice[index] = die_value(die_id, face, dice[index].holder, _OWN_ROLL_STATE[face], False)
        self.put(dice=Dice(dice))
        self.emit(
            "rolled",
            player=active,
            reason=reason,
            group=group,
            dice=[{"die": i, "face": str(f)} for i, f in faces.items()],
        )
        distinct = set(faces.values())
        self.put(seven_roll=distinct.pop() if len(faces) == len(s.dice) and len(distinct) == 1 else None)
        if s.options.legendary and seven_of_a_kind(s, Face.SCROLL):
            self.set_seat(active, messenger=True)
            self.emit("legendary", player=active, face=str(Face.SCROLL), name=LEGENDARY_NAMES["SCROLL"])
        self.resolve_scrolls()

    # -- S5: scroll resolution ---------------------------------------------------------------

    def resolve_scrolls(self) -> None:
        """S5: hand out new scrolls (by choice, or at once when only one rival is left), else go on."""
        pending = pending_scrolls(self.s)
        if not pending:
            self.after_resolution()
            return
        rivals = self.s.rivals(self.s.active)
        if len(rivals) == 1:
            for die_id in pending:
                self.assign_scroll(die_id, rivals[0])
        else:
            self.put(phase=Phase.SCROLL_ASSIGN)

    def assign_scroll(self, die_id: str, rival: str) -> None:
        """C1: one scroll die goes to ``rival``; rolling starts once every new scroll is out."""
        s = self.s
        self.set_die(die_id, holder=rival, state=DieState.AT_RIVAL)
        self.put(scroll_queue=(*s.scroll_queue, scroll_roll(die_id, rival)))
        self.emit("scroll_assigned", player=s.active, die=die_id, rival=rival)
        if any(d.state is _PENDING_SCROLL for d in s.dice):
            return
        order = {r: i for i, r in enumerate(s.rivals(s.active))}
        # Stable sort: rivals clockwise from the active player, each in assignment order (S5b).
        self.put(scroll_queue=tuple(sorted(s.scroll_queue, key=lambda r: order.get(r.rival, len(order)))))
        self.roll_scrolls()

    def roll_scrolls(self) -> None:
        """S5b: rivals roll their scroll dice one by one; each outcome applies before the next roll."""
        s = self.s
        while s.scroll_queue:
            item = s.scroll_queue[0]
            self.put(scroll_queue=s.scroll_queue[1:], rolling=item)
            face = self.roll_face(item.die)
            self.set_die(item.die, face=face, by_fate=False)
            self.scroll_rolled(item.rival, item.die, face)
            if s.options.fate and s.options.fate_windows == "also_pre_scroll" and self.open_window("pre_scroll"):
                return
            if not self.scroll_outcome():
                return
        self.resolve_scrolls()

    def scroll_rolled(self, rival: str, die_id: str, face: Face) -> None:
        """Tell of a rival's scroll roll; one rolled for a rival who has left is marked ``absent`` (nobody's roll:
        the luck statistics don't count it for them)."""
        absent = {"absent": True} if self.s.seat(rival).left else {}
        self.emit("scroll_rolled", player=rival, active=self.s.active, die=die_id, face=str(face), **absent)

    def scroll_outcome(self) -> bool:
        """Apply the rolled scroll die's face; False when its dagger waits for the rival's choice."""
        s = self.s
        item = s.rolling
        assert item is not None
        die = s.die(item.die)
        rival_left = s.seat(item.rival).left
        if die.face is Face.CROWN:
            if rival_left:
                self.set_die(die.id, holder=None, state=DieState.IN_TRANSIT)
            else:
                self.set_die(die.id, state=DieState.LOCKED)
            self.emit("die_kept", player=item.rival, die=die.id, face=str(die.face), in_transit=rival_left)
        elif die.face is Face.DAGGER:
            choices = dagger_recipients(s)
            if len(choices) > 1 and not rival_left and not s.seat(s.active).left:
                self.put(phase=Phase.DAGGER_ASSIGN)
                return False
            self.give_dagger(self.default_dagger_recipient(), "only_choice" if len(choices) <= 1 else "default")
            return True
        else:
            assert die.face is not None  # it was just rolled
            self.set_die(die.id, holder=s.active, state=_RETURNED_STATE[die.face])
            self.emit("die_returned", player=item.rival, to=s.active, die=die.id, face=str(die.face))
        self.put(rolling=None)
        return True

    def default_dagger_recipient(self) -> str | None:
        """The dagger's default recipient; under ``random`` the dice pick among the allowed players."""
        choices = dagger_recipients(self.s)
        if self.s.options.dagger_timeout_default == "random" and choices:
            return choices[self.dice.roll("dagger_recipient", len(choices)) - 1]
        return dagger_default(self.s)

    def give_dagger(self, to: str | None, how: str) -> None:
        """C2: the rolled dagger goes to ``to`` (None: the roller left, so it goes into transit)."""
        s = self.s
        item = s.rolling
        assert item is not None
        if to is None:
            self.set_die(item.die, holder=None, state=DieState.IN_TRANSIT)
        else:
            self.set_die(item.die, holder=to, state=DieState.LOCKED)
        self.emit("dagger_given", player=item.rival, to=to, die=item.die, how=how)
        self.put(rolling=None)

    # -- S6: fate windows ----------------------------------------------------------------------

    def after_resolution(self) -> None:
        """After scrolls are resolved: the fate window (if anyone can spend), then evaluation."""
        if self.s.options.fate and self.open_window("post_resolution"):
            return
        self.evaluate()

    def open_window(self, kind: Literal["post_resolution", "pre_scroll"]) -> bool:
        """Open a fate window if someone can afford a spend in it (2.6 #19)."""
        s = self.s
        self.put(window=kind, fate_passed=())
        eligible = fate_eligible(s)
        if not eligible:
            self.put(window=None)
            return False
        self.put(phase=Phase.FATE_WINDOW)
        self.emit("fate_window_opened", kind=kind, players=eligible)
        return True

    def pass_fate(self, player: str) -> None:
        """``player`` is done with this window; it closes when everyone who could act has passed."""
        self.put(fate_passed=(*self.s.fate_passed, player))
        self.emit("fate_passed", player=player)
        if not fate_eligible(self.s):
            self.close_window()

    def close_window(self) -> None:
        """Close the fate window and carry on from where it opened."""
        s = self.s
        kind = s.window
        self.put(window=None, fate_passed=())
        self.emit("fate_window_closed", kind=kind)
        if kind == "pre_scroll":
            if self.scroll_outcome():
                self.roll_scrolls()
        else:
            self.evaluate()

    def fate_reroll(self, player: str, die_id: str, kind: Literal["own", "meddle"]) -> None:
        """C6/C7: spend Fate and reroll one die where it is (2.6 #27, #28)."""
        s = self.s
        cost = SELF_REROLL_COST if kind == "own" else ANY_DIE_REROLL_COST
        self.set_seat(player, fate=s.seat(player).fate - cost)
        before = s.die(die_id)
        face = self.roll_face(die_id)
        update: dict[str, Any] = {"face": face, "by_fate": True}
        moved_to = None
        if before.state is DieState.AT_RIVAL:
            pass  # the rival's fresh scroll roll: its outcome applies with the new face when the window closes
        elif before.holder == s.active:
            update["state"] = _OWN_ROLL_STATE[face]
        elif face in _LOCKS or s.options.meddle_held_die == "stays":
            update["state"] = DieState.LOCKED
        else:
            moved_to = s.active
            update.update(holder=s.active, state=_RETURNED_STATE[face])
        self.set_die(die_id, **update)
        self.emit(
            "fate_reroll",
            player=player,
            kind=kind,
            cost=cost,
            die=die_id,
            holder=before.holder,
            old_face=str(before.face),
            face=str(face),
            moved_to=moved_to,
        )
        self.put(fate_passed=())
        if s.window == "post_resolution" and pending_scrolls(self.s):
            self.put(window=None)
            self.emit("fate_window_closed", kind="post_resolution")
            self.resolve_scrolls()
        elif not fate_eligible(s):
            self.close_window()

    # -- S7: evaluation ------------------------------------------------------------------------

    def evaluate(self) -> None:
        """S7 (and S10 for the Crown holder), in RULES.md order."""
        s = self.s
        opts = s.options
        if s.crown_turn:
            counts = s.counts()
            if opts.legendary and seven_of_a_kind(s, Face.DAGGER):
                self.crimson_feast()
            elif counts.daggers >= DAGGERS_END_TURN:
                self.betrayal(counts.daggers)
            else:
                self.game_over(s.active, "crown")
            return
        if (
            opts.last_stand
            and s.crown_holder not in (None, s.active)
            and (seven_of_a_kind(s, Face.CROWN) or seven_of_a_kind(s, Face.SKULL))
        ):
            self.put(phase=Phase.LAST_STAND)
            return
        self.score_sets()

    def score_sets(self) -> None:
        """S7b–h: legendary results, Betrayal, Rightful Heir, Fickle Fate, then settle/reroll/end."""
        s = self.s
        opts = s.options
        active = s.active
        if opts.legendary:
            if seven_of_a_kind(s, Face.CROWN):
                self.emit("legendary", player=active, face=str(Face.CROWN), name=LEGENDARY_NAMES["CROWN"])
                self.gain_claims(active, BIRTHRIGHT_CLAIMS, "birthright")
                self.end_turn("token")
                return
            if seven_of_a_kind(s, Face.SKULL):
                self.emit("legendary", player=active, face=str(Face.SKULL), name=LEGENDARY_NAMES["SKULL"])
                self.twists_of_fate()
                return
            if seven_of_a_kind(s, Face.DAGGER):
                self.crimson_feast()
                return
        counts = s.counts()
        if counts.daggers >= DAGGERS_END_TURN:
            self.betrayal(counts.daggers)
            return
        if counts.crowns >= CROWNS_FOR_CLAIM:
            pair = opts.fate and counts.crowns >= PAIR_CROWNS and counts.skulls >= PAIR_SKULLS
            self.gain_claims(active, PAIR_CLAIM if pair else 1, "rightful_heir")
            if pair:
                self.gain_fate(active, PAIR_FATE, "pictured_pair")
            self.end_turn("token")
            return
        if counts.skulls >= SKULLS_FOR_CLAIM:
            six = opts.fate and counts.skulls >= SIX_SKULLS
            supply = s.fate_in_supply()
            if six and opts.six_skulls == "choose" and (supply is None or supply > 0):
                self.put(phase=Phase.SIX_SKULLS)
                return
            self.six_skulls("fate" if six and opts.six_skulls == "fate" else "claim")
            return
        self.decide(counts)

    def decide(self, counts: Counts) -> None:
        """S7f–h: offer Settle and the reroll groups, or end the turn when nothing is left to roll."""
        s = self.s
        groups = reroll_groups(counts)
        settle = can_settle(s, counts)
        if not groups and not settle:
            self.end_turn("no_dice")
        elif s.options.auto_end_unreachable and not settle and not set_reachable(counts):
            self.end_turn("unreachable")
        else:
            self.put(phase=Phase.DECIDE)

    def six_skulls(self, choice: Literal["claim", "fate"]) -> None:
        """C5 (or Fickle Fate without a choice): 1 Claim or 2 Fate, then the turn ends."""
        if choice == "fate":
            self.gain_fate(self.s.active, SIX_SKULLS_FATE, "six_skulls")
        else:
            self.gain_claims(self.s.active, 1, "fickle_fate")
        self.end_turn("token")

    def twists_of_fate(self) -> None:
        """7 skulls: steal a Claim from a rival, chosen when several have one (2.6 #21)."""
        s = self.s
        victims = steal_victims(s)
        if len(victims) == 1:
            self.steal_claim(victims[0])
        elif victims:
            self.put(phase=Phase.STEAL)
        else:
            if s.options.twists_fallback == "supply_claim":
                self.gain_claims(s.active, TWISTS_STEAL, "twists_fallback")
            else:
                self.emit("nothing_to_steal", player=s.active)
            self.end_turn("legendary")

    def steal_claim(self, rival: str) -> None:
        """C9: take a Claim from ``rival``; under Last Stand it may become the Crown."""
        victim = self.s.seat(rival)
        self.set_seat(rival, claims=victim.claims - TWISTS_STEAL)
        self.emit("claim_stolen", player=self.s.active, rival=rival, rival_total=victim.claims - TWISTS_STEAL)
        self.gain_claims(self.s.active, TWISTS_STEAL, "twists_of_fate")
        self.end_turn("token")

    def crimson_feast(self) -> None:
        """7 daggers: lose a Claim (never below 0) and pass all the dice on, no overkill (2.6 #24)."""
        s = self.s
        active = s.active
        self.emit("legendary", player=active, face=str(Face.DAGGER), name=LEGENDARY_NAMES["DAGGER"])
        claims = s.seat(active).claims
        lost = min(claims, FEAST_LOSS)
        if lost:
            self.set_seat(active, claims=claims - lost)
            self.emit("claim_lost", player=active, count=lost, total=claims - lost, reason="crimson_feast")
        self.end_turn("crimson_feast")

    def betrayal(self, daggers: int) -> None:
        """S7c: 3+ daggers end the turn with no token; overkill extras go out first (2.6 #25, #26)."""
        s = self.s
        self.emit("betrayal", player=s.active, daggers=daggers, crown_kept=s.crown_turn)
        extras = min(daggers - DAGGERS_END_TURN, OVERKILL_MAX) if s.options.overkill else 0
        if extras:
            targets = overkill_targets(s)
            if len(targets) > 1:
                self.put(overkill_left=extras)
                self.put(phase=Phase.OVERKILL_ASSIGN)
                return
            if targets:
                for die_id in own_daggers(self.s)[:extras]:
                    self.give_overkill(die_id, targets[0])
            else:
                self.emit("overkill_kept", player=s.active, count=extras)
        self.end_turn("betrayal")

    def give_overkill(self, die_id: str, rival: str) -> None:
        """C8: an extra dagger goes to ``rival``, locked until their turn."""
        self.set_die(die_id, holder=rival, state=DieState.LOCKED)
        self.emit("overkill", player=self.s.active, die=die_id, rival=rival)
        self.put(overkill_given=self.s.overkill_given + 1)

    def chosen_overkill(self, die_id: str, rival: str) -> None:
        """One chosen extra dagger is out; the turn ends once all are."""
        self.give_overkill(die_id, rival)
        self.put(overkill_left=self.s.overkill_left - 1)
        if not self.s.overkill_left:
            self.end_turn("betrayal")

    # -- S8: tokens and winning ----------------------------------------------------------------

    def gain_claims(self, player: str, count: int, reason: str) -> None:
        """S8: add Claims; under Last Stand a would-be 5th Claim takes the Crown instead."""
        s = self.s
        counted = 0
        for _ in range(count):
            seat = s.seat(player)
            if s.options.last_stand and s.crown_holder != player and seat.claims >= LAST_STAND_CLAIMS:
                self.take_crown(player, "fifth_claim")
            else:
                self.set_seat(player, claims=seat.claims + 1)
                counted += 1
        if counted:
            self.emit("claim_gained", player=player, count=counted, total=s.seat(player).claims, reason=reason)
        if not s.options.last_stand and s.seat(player).claims >= s.options.claim_target:
            self.game_over(player, "claims")

    def take_crown(self, player: str, reason: str) -> None:
        """The Crown moves to ``player`` (from its holder, or from the box)."""
        self.emit("crown_taken", player=player, rival=self.s.crown_holder, reason=reason)
        self.put(crown_holder=player)

    def gain_fate(self, player: str, count: int, reason: str) -> None:
        """Add Fate tokens, as many as the supply allows when it is limited."""
        supply = self.s.fate_in_supply()
        if supply is not None:
            count = min(count, supply)
        if count:
            total = self.s.seat(player).fate + count
            self.set_seat(player, fate=total)
            self.emit("fate_gained", player=player, count=count, total=total, reason=reason)

    def game_over(self, winner: str, reason: str) -> None:
        """The game ends with ``winner``; standings list everyone still seated."""
        s = self.s
        self.put(winner=winner, phase=Phase.GAME_OVER, window=None, fate_passed=())
        standings = [
            {"player": p.id, "claims": p.claims, "fate": p.fate, "crown": s.crown_holder == p.id, "left": p.left}
            for p in sorted(s.players, key=lambda p: (p.id != winner, p.left, -p.claims, -p.fate))
        ]
        self.emit("game_over", winner=winner, reason=reason, standings=standings)

    # -- S9: end of turn -----------------------------------------------------------------------

    def end_turn(self, reason: str) -> None:
        """S9: pass every die the active player holds, and dice in transit, to the next player."""
        s = self.s
        if s.phase is Phase.GAME_OVER:
            return
        active = s.active
        nxt = s.next_seat(active)
        dice = s.dice
        moving = [d.id for d in dice if d.holder == active or d.state is _IN_TRANSIT]
        passed = (die_value(d.id, d.face, nxt, DieState.HANDED, False) if d.id in moving else d for d in dice)
        self.put(dice=Dice(passed))
        self.emit("turn_ended", player=active, reason=reason)
        self.emit("dice_passed", player=active, to=nxt, dice=moving)
        ids = [p.id for p in s.players]
        self.put(
            round_no=s.round_no + (ids.index(nxt) <= ids.index(active)),
            active=nxt,
            turn_no=s.turn_no + 1,
            overkill_left=0,
            overkill_given=0,
            window=None,
            fate_passed=(),
        )
        self.start_turn()

    # -- 2.6 #34: players leaving --------------------------------------------------------------

    def remove(self, player: str) -> None:
        """``player`` leaves: defaults settle their decisions, their dice go on, their tokens are gone."""
        s = self.s
        was_active = s.active == player
        deciding_dagger = s.phase is Phase.DAGGER_ASSIGN and s.rolling is not None and s.rolling.rival == player
        if deciding_dagger:
            self.give_dagger(self.default_dagger_recipient(), "default")
        self.set_seat(player, left=True, claims=0, fate=0, messenger=False)
        self.put(fate_passed=tuple(p for p in s.fate_passed if p != player))
        self.emit("player_left", player=player)
        if s.crown_holder == player:
            self.put(crown_holder=None)
            self.emit("crown_returned", player=player)
        present = s.present()
        if len(present) < 2:
            self.game_over(present[0], "forfeit")
        elif was_active:
            self.abandon_turn()
        else:
            for die in s.held(player):
                self.set_die(die.id, holder=None, state=DieState.IN_TRANSIT)
            if deciding_dagger:
                self.roll_scrolls()
            else:
                self.resume_after_leave()

    def abandon_turn(self) -> None:
        """The active player left: dice at rivals resolve by the defaults, then the turn ends with no token."""
        s = self.s
        if s.rolling is not None:
            self.put(window=None)
            if s.phase is Phase.DAGGER_ASSIGN or s.die(s.rolling.die).face is Face.DAGGER:
                self.give_dagger(self.default_dagger_recipient(), "default")
            else:
                self.scroll_outcome()
        self.put(window=None)
        while s.scroll_queue:
            item = s.scroll_queue[0]
            self.put(scroll_queue=s.scroll_queue[1:])
            face = self.roll_face(item.die)
            self.set_die(item.die, face=face, by_fate=False)
            self.put(rolling=item)
            self.scroll_rolled(item.rival, item.die, face)
            self.scroll_outcome()
        self.end_turn("left")

    def resume_after_leave(self) -> None:
        """A rival left: pick the game up where it stood without them."""
        s = self.s
        if s.phase is Phase.SCROLL_ASSIGN and len(s.rivals(s.active)) == 1:
            self.resolve_scrolls_with_one_rival()
        elif s.phase is Phase.DAGGER_ASSIGN and len(dagger_recipients(s)) <= 1:
            self.give_dagger(self.default_dagger_recipient(), "only_choice")
            self.roll_scrolls()
        elif s.phase is Phase.FATE_WINDOW and not fate_eligible(s):
            self.close_window()
        elif s.phase is Phase.OVERKILL_ASSIGN and len(overkill_targets(s)) <= 1:
            self.finish_overkill()
        elif s.phase is Phase.STEAL and not steal_victims(s):
            self.twists_of_fate()

    def resolve_scrolls_with_one_rival(self) -> None:
        """Only one rival is left: the remaining new scrolls all go to them."""
        rival = self.s.rivals(self.s.active)[0]
        for die_id in pending_scrolls(self.s):
            self.assign_scroll(die_id, rival)

    def finish_overkill(self) -> None:
        """Hand the remaining overkill extras to the only allowed rival (or keep them), then end the turn."""
        s = self.s
        targets = overkill_targets(s)
        if targets:
            for die_id in own_daggers(self.s)[: s.overkill_left]:
                self.give_overkill(die_id, targets[0])
        self.put(overkill_left=0)
        self.end_turn("betrayal")


def new_dice(first: str, count: int) -> tuple[Die, ...]:
    """All dice handed to the first player (S0)."""
    return Dice(die_value(str(i), None, first, DieState.HANDED, False) for i in range(1, count + 1))
