"""Every Viciousness action: one small pydantic model each, discriminated by ``type``.

Each class says who may take it (``WHO``, checked by :mod:`rules.viciousness.permissions` before
``apply``) and whether it rolls dice (``ROLLS``, which keeps it out of undo):

=========  ==========================================================================================
WHO        who may take the action besides a GM or co-GM (they may take every action)
=========  ==========================================================================================
gm         nobody else
self       anyone, for themselves (``owner`` left out or equal to the actor)
owner      the owner of troupe ``owner``
pc         the owner of PC ``pc`` (``old`` for ``replace``), unless the PC is GM-controlled
member     the owner of the PC combatant ``who`` of pool ``pool`` (NPCs are the GM's)
side       the owner of a PC fighting on side ``side`` of pool ``pool``
group      the owner of a PC in a prepared scheme (an unprepared group's choices are the GM's)
=========  ==========================================================================================

Optional fields of the edit actions mean "keep what is there" when left out (None).
"""

from __future__ import annotations

import functools
import operator
from collections.abc import Iterable, Iterator, Mapping
from typing import Annotated, Any, ClassVar, Literal

from pydantic import BaseModel, ConfigDict, Field, StringConstraints, TypeAdapter

from rules.said import said
from rules.viciousness.data import Severity, Temperament, TraitDef
from rules.viciousness.state import (
    COMMITTED_KEPT,
    MAX_EXTRA_DICE,
    MAX_REMIND_HOURS,
    MAX_ROLL_AT,
    MAX_SIDES,
    ActorId,
    CallHow,
    Name,
    Planned,
    Rank,
    Sides,
    StartingAssetKey,
    Text,
    TraitPick,
)

Id = Annotated[str, StringConstraints(min_length=1, max_length=40)]
"""A PC, pool, rival, design, side or combatant id."""
Label = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=1000)]

Who = Literal["gm", "self", "owner", "pc", "member", "side", "group"]


class Action(BaseModel):
    """Base of every action."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    WHO: ClassVar[Who] = "gm"
    DOING: ClassVar[str] = said("do that")
    """Finishes "Only the GM can …" when someone else tries a GM action."""
    ROLLS: ClassVar[bool] = False

    def rolls(self) -> bool:
        """Whether applying this action may roll dice."""
        return self.ROLLS


class PCSpec(BaseModel):
    """A new character: name, concept and trait names (the seed's 27, or custom ones the GM defined)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    name: Name
    concept: Text = ""
    traits: tuple[Name, ...] = Field(min_length=1, max_length=4)


# -- company, wealth, turns (GM) -------------------------------------------------------------------


class SetCompany(Action):
    """Name the company, state its ambition, or set how long a turn lasts."""

    type: Literal["company"] = "company"
    DOING: ClassVar[str] = said("change the company")
    name: Name | None = None
    ambition: Text | None = None
    turn_length: Name | None = None


class SetRank(Action):
    """Set the wealth rank; investment points go to that rank's minimum (seed L8-9)."""

    type: Literal["set_rank"] = "set_rank"
    DOING: ClassVar[str] = said("set the wealth rank")
    rank: Rank


class SetIP(Action):
    """Set the investment points (the rank follows)."""

    type: Literal["set_ip"] = "set_ip"
    DOING: ClassVar[str] = said("set investment points")
    ip: int = Field(ge=0, le=10_000)


class AdjustLiquid(Action):
    """Correct the liquid coins of one rank by ``delta``."""

    type: Literal["liquid"] = "liquid"
    DOING: ClassVar[str] = said("change liquid coins")
    rank: Rank
    delta: int = Field(ge=-100, le=100)


class AmbitionDone(Action):
    """The company completed its ambition: it names the next one and every troupe gets an advancement."""

    type: Literal["ambition_done"] = "ambition_done"
    DOING: ClassVar[str] = said("complete the ambition")
    next: Text = ""


class Reward(Action):
    """Pay a reward in liquid coins at the company's rank (seed L160-164)."""

    type: Literal["reward"] = "reward"
    DOING: ClassVar[str] = said("pay rewards")
    method: Literal["work", "rare", "destroy"]
    npc_rank: Rank
    invest: bool = False
    """Turn the coins into investment points at once (one entry of the log, one message)."""


class Invest(Action):
    """Trade liquid coins of ``rank`` for investment points, 1 each."""

    type: Literal["invest"] = "invest"
    DOING: ClassVar[str] = said("invest")
    rank: Rank
    n: int = Field(default=1, ge=1, le=100)


class Divest(Action):
    """Trade 2 investment points for each liquid coin (at the current rank)."""

    type: Literal["divest"] = "divest"
    DOING: ClassVar[str] = said("divest")
    n: int = Field(default=1, ge=1, le=100)


Salt = Annotated[str, StringConstraints(pattern=r"^[0-9a-f]{0,64}$")]


class RivalDice(Action):
    """An action that may roll the GM's rival dice: with ``vic.rival_dice = committed`` each is committed in the
    channel with a salt derived from ``salt`` (drawn by the bot from the OS's secure random source, never shown)."""

    ROLLS: ClassVar[bool] = True
    salt: Salt = ""


class TurnStart(RivalDice):
    """Begin the next turn: coins, then the rivals' initiated designs move."""

    type: Literal["turn_start"] = "turn_start"
    DOING: ClassVar[str] = said("start a turn")


class TurnEnd(RivalDice):
    """End the turn: discard coins, rest, then the rivals' ambition points and rival dice."""

    type: Literal["turn_end"] = "turn_end"
    DOING: ClassVar[str] = said("end the turn")


class RevealDice(Action):
    """Reveal rival dice committed in the channel (by die id; none given: every one waiting)."""

    type: Literal["reveal_dice"] = "reveal_dice"
    DOING: ClassVar[str] = said("reveal the rival dice")
    dice: tuple[Id, ...] = Field(default=(), max_length=COMMITTED_KEPT)


class Pay(BaseModel):
    """Coins offered for a purchase: this turn's coins, or liquid coins of one rank."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    coins: Literal["turn", "liquid"]
    rank: Rank | None = None
    """The liquid coins' rank (turn coins have the rank they were issued at)."""
    n: int | None = Field(default=None, ge=1, le=4)
    """How many (needed only when several kinds of coin are combined)."""


Modifier = Literal[
    "custom_built", "low_quality", "trained_expert", "illegal", "very_illegal", "supernatural", "one_of_a_kind"
]


class Buy(Action):
    """Obtain an item with wealth (seed L148-158); with ``pc`` it is that character's turn action."""

    type: Literal["buy"] = "buy"
    WHO: ClassVar[Who] = "pc"
    DOING: ClassVar[str] = said("buy without a character")
    pc: Id | None = None
    item: Name
    rank: Rank
    mods: tuple[Modifier, ...] = Field(default=(), max_length=7)
    pay: tuple[Pay, ...] = Field(min_length=1, max_length=8)
    exception: bool = False
    """The GM lets ``pc`` act although they have acted this turn (logged)."""


class Reveal(Action):
    """Tell the channel something (what it learns about rivals is only what the GM reveals), or, ``to`` some
    players, a handout only they and the GMs see."""

    type: Literal["reveal"] = "reveal"
    DOING: ClassVar[str] = said("reveal things")
    text: Label
    to: tuple[ActorId, ...] = Field(default=(), max_length=10)


class Notes(Action):
    """Replace the GM's private notes."""

    type: Literal["notes"] = "notes"
    DOING: ClassVar[str] = said("write GM notes")
    text: Text


class SetCalls(Action):
    """How the table calls a member when it waits on them: a ping or a direct message, and a reminder after
    ``remind_after`` hours (None: none). Each member sets their own."""

    type: Literal["calls"] = "calls"
    WHO: ClassVar[Who] = "self"
    DOING: ClassVar[str] = said("change how someone else is called")
    owner: ActorId | None = None
    how: CallHow = "channel"
    remind_after: int | None = Field(default=None, ge=1, le=MAX_REMIND_HOURS)


class RecapNow(Action):
    """Tell what happened since the last recap, and start a new one (turn end does it by itself)."""

    type: Literal["recap"] = "recap"
    DOING: ClassVar[str] = said("post a recap")


class PlanSession(Action):
    """Plan the next session (or move the one planned): when, how long, what for, and when to remind the players.
    ``event``: the Scheduled Event's link, when Discord made one."""

    type: Literal["plan_session"] = "plan_session"
    DOING: ClassVar[str] = said("plan sessions")
    session: Planned
    move: bool = False
    """The session planned is moved (rescheduled); otherwise this is a new session."""


class CancelSession(Action):
    """Call off the session planned."""

    type: Literal["cancel_session"] = "cancel_session"
    DOING: ClassVar[str] = said("plan sessions")


class DefineTrait(Action):
    """Approve a custom trait, which PCs may then take like the seed's."""

    type: Literal["define_trait"] = "define_trait"
    DOING: ClassVar[str] = said("approve custom traits")
    trait: TraitDef


class ClearLockout(Action):
    """The fallout is dealt with: group rolls are allowed again; unused free pushes lapse."""

    type: Literal["clear_lockout"] = "clear_lockout"
    DOING: ClassVar[str] = said("clear the fallout")


class SetOptions(Action):
    """Change house rules (the ``vic.*`` flags of RULES.md PART 5): each field given takes its new value."""

    type: Literal["options"] = "options"
    DOING: ClassVar[str] = said("change the house rules")
    changes: dict[Annotated[str, StringConstraints(max_length=40)], bool | str] = Field(min_length=1, max_length=20)


class Archive(Action):
    """Put the campaign away: it stays readable (sheets, log, export) and nothing else changes until restored."""

    type: Literal["archive"] = "archive"
    DOING: ClassVar[str] = said("archive the campaign")


class Restore(Action):
    """Bring an archived campaign back into play."""

    type: Literal["restore"] = "restore"
    DOING: ClassVar[str] = said("restore the campaign")


class Discovery(Action):
    """A discovery roll: 1 per helpful trait + 1 per condition met; d6 ≤ value finds the NPC (seed L93-98)."""

    type: Literal["discovery"] = "discovery"
    DOING: ClassVar[str] = said("make discovery rolls")
    ROLLS: ClassVar[bool] = True
    pc: Id | None = None
    traits: int = Field(default=0, ge=0, le=4)
    conditions: tuple[Literal["reputation", "contact", "questions", "place", "asset"], ...] = Field(
        default=(), max_length=5
    )


# -- troupes and characters ------------------------------------------------------------------------


class CreateTroupe(Action):
    """Join the campaign: a troupe with its captain (3 traits) and one starting asset (seed L11-18)."""

    type: Literal["create_troupe"] = "create_troupe"
    WHO: ClassVar[Who] = "self"
    DOING: ClassVar[str] = said("create a troupe for someone else")
    owner: ActorId | None = None
    name: Name
    captain: PCSpec
    asset: StartingAssetKey
    asset_note: Text = ""
    """What the asset is: the headquarters, the luxury item, who owes the favor."""


class EditTroupe(Action):
    """Rename a troupe or replace its henchmen (free text)."""

    type: Literal["edit_troupe"] = "edit_troupe"
    WHO: ClassVar[Who] = "owner"
    owner: ActorId
    name: Name | None = None
    henchmen: tuple[Name, ...] | None = Field(default=None, max_length=30)


class AddAsset(Action):
    """A troupe gained an asset."""

    type: Literal["add_asset"] = "add_asset"
    WHO: ClassVar[Who] = "owner"
    owner: ActorId
    text: Label


class DropAsset(Action):
    """A troupe lost or used up an asset (by position, from 0)."""

    type: Literal["drop_asset"] = "drop_asset"
    WHO: ClassVar[Who] = "owner"
    owner: ActorId
    index: int = Field(ge=0, le=49)


class MinionPlaces(Action):
    """Set how many minions a troupe may have (the GM may remove the starting one or give more)."""

    type: Literal["minion_places"] = "minion_places"
    DOING: ClassVar[str] = said("change a troupe's minion places")
    owner: ActorId
    n: int = Field(ge=0, le=12)


class GrantAdvancements(Action):
    """Give a troupe advancements to take (e.g. a new troupe keeping its predecessor's)."""

    type: Literal["grant_advancements"] = "grant_advancements"
    DOING: ClassVar[str] = said("grant advancements")
    owner: ActorId
    n: int = Field(ge=1, le=20)


class AddPC(Action):
    """Add a minion (2 traits) in a free minion place."""

    type: Literal["add_pc"] = "add_pc"
    WHO: ClassVar[Who] = "owner"
    owner: ActorId
    pc: PCSpec


class EditPC(Action):
    """Rename a PC or change its concept."""

    type: Literal["edit_pc"] = "edit_pc"
    WHO: ClassVar[Who] = "pc"
    pc: Id
    name: Name | None = None
    concept: Text | None = None


class AddTrait(Action):
    """Give a PC a trait outside advancement (a GM correction)."""

    type: Literal["add_trait"] = "add_trait"
    DOING: ClassVar[str] = said("give traits outside an advancement")
    pc: Id
    trait: Name


class SetSpell(Action):
    """Replace the spell of a PC's magic trait (with the GM's permission, seed L27)."""

    type: Literal["spell"] = "spell"
    DOING: ClassVar[str] = said("change spells")
    pc: Id
    trait: Name
    text: Label


class AddContact(Action):
    """Name a strong contact (one per trait; at creation or later, seed L89)."""

    type: Literal["contact"] = "contact"
    WHO: ClassVar[Who] = "pc"
    pc: Id
    name: Name
    note: Text = ""
    trait: Name | None = None


class AddWeakContact(Action):
    """Note a weak contact the PC found."""

    type: Literal["weak_contact"] = "weak_contact"
    WHO: ClassVar[Who] = "pc"
    pc: Id
    name: Name
    note: Text = ""


class Promote(Action):
    """Make weak contact ``weak`` strong; at the limit, strong contact ``drop`` makes room (seed L91)."""

    type: Literal["promote"] = "promote"
    WHO: ClassVar[Who] = "pc"
    pc: Id
    weak: int = Field(ge=0, le=49)
    drop: int | None = Field(default=None, ge=0, le=3)


class DropContact(Action):
    """Remove a contact (strong or weak, by position from 0)."""

    type: Literal["drop_contact"] = "drop_contact"
    WHO: ClassVar[Who] = "pc"
    pc: Id
    strong: bool
    index: int = Field(ge=0, le=49)


class GMControl(Action):
    """Give a PC over to the GM to portray, or (GM) give it back (seed L12)."""

    type: Literal["gm_control"] = "gm_control"
    WHO: ClassVar[Who] = "pc"
    pc: Id
    on: bool


class Condition(Action):
    """Change a PC's condition directly: rattle, calm, wound, heal or kill."""

    type: Literal["condition"] = "condition"
    DOING: ClassVar[str] = said("change a character's condition")
    pc: Id
    change: Literal["rattle", "calm", "wound", "heal", "kill"]


class Retire(Action):
    """A PC retires (a captain's retirement dissolves the troupe, seed L61)."""

    type: Literal["retire"] = "retire"
    WHO: ClassVar[Who] = "pc"
    pc: Id


class Replace(Action):
    """Replace a dead or retired minion: 2 IP, +1 per trait beyond 2 carried over (seed L61)."""

    type: Literal["replace"] = "replace"
    WHO: ClassVar[Who] = "pc"
    old: Id
    pc: PCSpec


class Advance(Action):
    """Take an advancement: a new trait for ``pc``, or a new minion (seed L59)."""

    type: Literal["advance"] = "advance"
    WHO: ClassVar[Who] = "owner"
    owner: ActorId
    pc: Id | None = None
    trait: Name | None = None
    minion: PCSpec | None = None


ActionKind = Literal["rest", "knavery", "violence", "contact", "weak_contact", "acquire", "join_scene", "other"]


class Act(Action):
    """A character takes its one turn action (resting, joining a scene, …; seed L100-103, 3.6 #46)."""

    type: Literal["act"] = "act"
    WHO: ClassVar[Who] = "pc"
    pc: Id
    kind: ActionKind
    note: Text = ""
    exception: bool = False
    """The GM lets the character act although they have acted this turn (logged)."""


class Knowledge(Action):
    """Roll a knowledge d6 for a 💡 trait: 5–6 the answer, 4 where to find it (seed L24)."""

    type: Literal["knowledge"] = "knowledge"
    WHO: ClassVar[Who] = "pc"
    ROLLS: ClassVar[bool] = True
    pc: Id
    trait: Name
    question: Text = ""


class Push(Action):
    """Push a trait's effect, no roll (seed L22); ``free`` spends a fallout free push and doesn't rattle.

    Medic needs ``target`` (a wounded PC); Berzerker needs ``pool`` (a fight the PC is in, before the roll).
    """

    type: Literal["push"] = "push"
    WHO: ClassVar[Who] = "pc"
    pc: Id
    trait: Name
    free: bool = False
    target: Id | None = None
    pool: Id | None = None
    note: Text = ""


# -- dice pools ------------------------------------------------------------------------------------


NPCName = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=70)]


class NPCGroup(BaseModel):
    """NPCs alike on one side of a fight being opened: ``count`` of them (``Guard 1``, ``Guard 2``…)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    side: int = Field(ge=0, lt=MAX_SIDES)
    """The side's position in ``sides``, from 0."""
    name: NPCName
    count: int = Field(default=1, ge=1, le=20)
    dice: tuple[Sides, ...] = Field(default=(), max_length=MAX_EXTRA_DICE)


class OpenViolence(Action):
    """Open a fight with its sides (2–8), and the NPCs already in it."""

    type: Literal["open_violence"] = "open_violence"
    DOING: ClassVar[str] = said("open a fight")
    title: Text = ""
    sides: tuple[Name, ...] = Field(min_length=2, max_length=MAX_SIDES)
    npcs: tuple[NPCGroup, ...] = Field(default=(), max_length=MAX_SIDES)
    roll_at: int | None = Field(default=None, ge=1, le=MAX_ROLL_AT)
    """The first round rolls by itself once this many characters are in, each with their trait dice."""


class OpenKnavery(Action):
    """Open a scheme: how many challenges, and the ones the group knows (seed L76-79)."""

    type: Literal["open_knavery"] = "open_knavery"
    DOING: ClassVar[str] = said("open a scheme")
    title: Text = ""
    total: int = Field(ge=0, le=30)
    known: tuple[Label, ...] = Field(default=(), max_length=30)
    roll_at: int | None = Field(default=None, ge=1, le=MAX_ROLL_AT)
    """The scheme rolls by itself once this many characters are in, each with their trait dice."""


class SetChallenges(Action):
    """Change a scheme's challenges before the roll (discovered ones, or fewer after a clever plan)."""

    type: Literal["challenges"] = "challenges"
    DOING: ClassVar[str] = said("change challenges")
    pool: Id
    total: int = Field(ge=0, le=30)
    known: tuple[Label, ...] = Field(default=(), max_length=30)


class Join(Action):
    """Put a PC into a pool (on ``side`` in a fight): during a turn, taking part is the character's action."""

    type: Literal["join"] = "join"
    WHO: ClassVar[Who] = "pc"
    pool: Id
    pc: Id
    side: Id | None = None
    exception: bool = False
    """The GM lets the character take part although they have acted this turn (logged)."""
    may_roll: bool = False
    """Into a pool that rolls by itself: this join may complete it and roll it (which keeps it out of undo)."""

    def rolls(self) -> bool:
        """Only a change to a pool that rolls by itself may roll."""
        return self.may_roll


class AddNPC(Action):
    """Add an NPC, or ``count`` alike (``Guard 1``, ``Guard 2``…), each with its base die plus ``dice``."""

    type: Literal["add_npc"] = "add_npc"
    DOING: ClassVar[str] = said("add NPCs")
    pool: Id
    side: Id | None = None
    name: NPCName
    count: int = Field(default=1, ge=1, le=20)
    dice: tuple[Sides, ...] = Field(default=(), max_length=MAX_EXTRA_DICE)


class Leave(Action):
    """Take a combatant out of a pool before its dice are rolled."""

    type: Literal["leave"] = "leave"
    WHO: ClassVar[Who] = "member"
    pool: Id
    who: Id


class Pick(Action):
    """Choose the trait dice that apply for this PC (replaces the previous choice)."""

    type: Literal["pick"] = "pick"
    WHO: ClassVar[Who] = "member"
    pool: Id
    who: Id
    picks: tuple[TraitPick, ...] = Field(default=(), max_length=12)
    may_roll: bool = False
    """In a pool that rolls by itself: these dice may complete it and roll it (which keeps it out of undo)."""

    def rolls(self) -> bool:
        """Only a change to a pool that rolls by itself may roll."""
        return self.may_roll


class Veto(Action):
    """Rule that a trait doesn't apply in this pool."""

    type: Literal["veto"] = "veto"
    DOING: ClassVar[str] = said("veto trait dice")
    pool: Id
    who: Id
    trait: Name


class Grant(Action):
    """Set the extra dice the GM grants a combatant (an NPC's dice, a situational bonus)."""

    type: Literal["grant"] = "grant"
    DOING: ClassVar[str] = said("grant dice")
    pool: Id
    who: Id
    dice: tuple[Sides, ...] = Field(default=(), max_length=MAX_EXTRA_DICE)


class Equip(Action):
    """Give the best-equipped side 0, 1 or 2 d4 (only one side has them, seed L67)."""

    type: Literal["equip"] = "equip"
    DOING: ClassVar[str] = said("award equipment dice")
    pool: Id
    side: Id
    n: int = Field(ge=0, le=2)


class RollPool(Action):
    """Roll every die of the pool."""

    type: Literal["roll"] = "roll"
    DOING: ClassVar[str] = said("roll pools")
    ROLLS: ClassVar[bool] = True
    pool: Id


class Reroll(Action):
    """Push to reroll this PC's dice in the pool (rattles), or spend a free push to do it (doesn't)."""

    type: Literal["reroll"] = "reroll"
    WHO: ClassVar[Who] = "member"
    ROLLS: ClassVar[bool] = True
    pool: Id
    who: Id
    free: bool = False
    dice: tuple[int, ...] | None = Field(default=None, max_length=12)
    """Which of the PC's dice (positions from 0), only with vic.push_reroll_subset."""


class Resolve(Action):
    """Close a fight's reroll window and work out the hits."""

    type: Literal["resolve"] = "resolve"
    DOING: ClassVar[str] = said("resolve the clash")
    pool: Id


class CancelHits(Action):
    """Cancel incoming hits: how many of each attacking side's."""

    type: Literal["cancel"] = "cancel"
    WHO: ClassVar[Who] = "side"
    pool: Id
    side: Id
    cancels: dict[Id, Annotated[int, Field(ge=0, le=100)]] = Field(max_length=8)


class AssignHits(Action):
    """Send remaining hits to sides with fewer hits."""

    type: Literal["assign"] = "assign"
    WHO: ClassVar[Who] = "side"
    pool: Id
    side: Id
    to: dict[Id, Annotated[int, Field(ge=0, le=100)]] = Field(max_length=8)


class AimHits(Action):
    """Choose which combatants of ``target`` the landed hits wound."""

    type: Literal["aim"] = "aim"
    WHO: ClassVar[Who] = "side"
    pool: Id
    side: Id
    target: Id
    at: tuple[Id, ...] = Field(min_length=1, max_length=100)


class DeathTest(Action):
    """Test a wounded combatant for death: d4 ≤ 2 dies, ≤ 1 with medical attention, no test with a Medic; without
    ``who``, every test waiting in the fight, each rolled on its own without care."""

    type: Literal["death_test"] = "death_test"
    DOING: ClassVar[str] = said("make death tests")
    ROLLS: ClassVar[bool] = True
    pool: Id
    who: Id | None = None
    care: Literal["none", "attention", "medic"] = "none"
    medic: Id | None = None
    """The PC with the Medic trait attending (an NPC medic needs none)."""
    end: bool = False
    """And the fight is over once the tests are made (no flight phase)."""


class Flee(Action):
    """Flee the fight in the flight phase."""

    type: Literal["flee"] = "flee"
    WHO: ClassVar[Who] = "member"
    pool: Id
    who: Id


class NextRound(Action):
    """End the flight phase: those who stayed fight the next round."""

    type: Literal["next_round"] = "next_round"
    DOING: ClassVar[str] = said("start the next round")
    pool: Id


class Thwart(Action):
    """After a failed scheme, choose which challenges (positions from 0) the successes thwarted."""

    type: Literal["thwart"] = "thwart"
    WHO: ClassVar[Who] = "group"
    pool: Id
    picks: tuple[int, ...] = Field(default=(), max_length=30)


class ClosePool(Action):
    """End a fight (the crisis is over) or abandon a scheme before its roll."""

    type: Literal["close"] = "close"
    DOING: ClassVar[str] = said("close pools")
    pool: Id
    after_round: bool = False
    """A fight whose dice are rolled ends once this round's hits and death tests are made (no flight phase)."""


# -- rivals (GM) -----------------------------------------------------------------------------------


class AddRival(Action):
    """Create a rival: rank, minions (default rank − 2), up to four assets."""

    type: Literal["add_rival"] = "add_rival"
    DOING: ClassVar[str] = said("manage rivals")
    name: Name
    rank: Rank
    minions: int | None = Field(default=None, ge=0, le=50)
    assets: tuple[Name, ...] = Field(default=(), max_length=4)
    notes: Text = ""


class EditRival(Action):
    """Change a rival."""

    type: Literal["edit_rival"] = "edit_rival"
    DOING: ClassVar[str] = said("manage rivals")
    rival: Id
    name: Name | None = None
    rank: Rank | None = None
    minions: int | None = Field(default=None, ge=0, le=50)
    assets: tuple[Name, ...] | None = Field(default=None, max_length=4)
    notes: Text | None = None


class DropRival(Action):
    """The NPC is no longer a rival."""

    type: Literal["drop_rival"] = "drop_rival"
    DOING: ClassVar[str] = said("manage rivals")
    rival: Id


class AddDesign(Action):
    """Give a rival a design (at most three under way)."""

    type: Literal["add_design"] = "add_design"
    DOING: ClassVar[str] = said("manage rivals")
    rival: Id
    text: Label
    severity: Severity = "light"
    temperament: Temperament = "default"
    asset: Name | None = None
    unsubtle: bool = False


class EditDesign(Action):
    """Change a design; ``asset=""`` removes its helpful asset."""

    type: Literal["edit_design"] = "edit_design"
    DOING: ClassVar[str] = said("manage rivals")
    rival: Id
    design: Id
    text: Label | None = None
    severity: Severity | None = None
    temperament: Temperament | None = None
    asset: Annotated[str, StringConstraints(strip_whitespace=True, max_length=80)] | None = None
    unsubtle: bool | None = None
    points: int | None = Field(default=None, ge=0, le=1000)


class Split(Action):
    """How the rival's rank in points is shared among its designs each turn (None: the default)."""

    type: Literal["split"] = "split"
    DOING: ClassVar[str] = said("manage rivals")
    rival: Id
    points: dict[Id, Annotated[int, Field(ge=0, le=7)]] | None = Field(default=None, max_length=3)


class Initiate(Action):
    """Choose which eligible design the rival initiates after its rival die (None: none)."""

    type: Literal["initiate"] = "initiate"
    DOING: ClassVar[str] = said("manage rivals")
    rival: Id
    design: Id | None = None


class Interfere(RivalDice):
    """The outcome of the PCs' chance to interfere with an unsubtle move; if not foiled, the d4 is rolled."""

    type: Literal["interfere"] = "interfere"
    DOING: ClassVar[str] = said("manage rivals")
    rival: Id
    foiled: bool
    to: Id | None = None
    """Speed Chess: the design that gets the refund (default: the rival's design with the most points)."""


class PickConsequence(RivalDice):
    """Pick (``row``) or roll (no row) the consequence of a successful design."""

    type: Literal["consequence"] = "consequence"
    DOING: ClassVar[str] = said("manage rivals")
    rival: Id
    severity: Severity | None = None
    """The table (default: the design's severity)."""
    row: int | None = Field(default=None, ge=1, le=6)

    def rolls(self) -> bool:
        """Only a consequence left to the dice rolls."""
        return self.row is None


class Confirm(Action):
    """Apply the consequence's effects (on PC ``pc`` for a rattle or a wound) and finish the move."""

    type: Literal["confirm"] = "confirm"
    DOING: ClassVar[str] = said("manage rivals")
    rival: Id
    pc: Id | None = None
    apply: bool = True


class Foil(Action):
    """The PCs foiled a design (Speed Chess refunds half its points)."""

    type: Literal["foil"] = "foil"
    DOING: ClassVar[str] = said("manage rivals")
    rival: Id
    design: Id
    to: Id | None = None


class Deal(Action):
    """A rival deal: the PC's task succeeds and the design gains the company's rank in points (seed L133)."""

    type: Literal["deal"] = "deal"
    DOING: ClassVar[str] = said("manage rivals")
    rival: Id
    design: Id


def declared(base: type[Action] = Action) -> dict[str, type[Action]]:
    """Every action, by its ``type``: each class below ``base`` that has one. An action is declared once, as its
    class (with its handler in the module that applies it); two classes with one ``type`` fail here."""
    found: dict[str, type[Action]] = {}
    for cls in _below(base):
        field = cls.model_fields.get("type")
        if field is None or not isinstance(field.default, str):
            continue
        if field.default in found:
            raise TypeError(f"two Viciousness actions have the type {field.default!r}")
        found[field.default] = cls
    return found


def _below(base: type[Action]) -> Iterator[type[Action]]:
    for cls in base.__subclasses__():
        yield cls
        yield from _below(cls)


ACTIONS = declared()
"""Every action by its ``type``, found from the classes above."""


def discriminated(classes: Iterable[type[Action]]) -> Any:
    """The union of ``classes``, told apart by their ``type``: what pydantic validates an action's JSON against."""
    union = functools.reduce(operator.or_, classes)
    return Annotated[union, Field(discriminator="type")]


ADAPTER: TypeAdapter[Action] = TypeAdapter(discriminated(ACTIONS.values()))


def parse_action(data: Mapping[str, Any]) -> Action:
    """Validate JSON data into an action; raises pydantic's ValidationError if it is not one."""
    return ADAPTER.validate_python(data)
