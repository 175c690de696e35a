"""The campaign state (RULES.md 3.2), as frozen pydantic models that round-trip through JSON exactly.

The state is a set of records the core versions separately (see ``records`` in the engine): the
company, the turn, each troupe (with its PCs), each rival (GM-only), each open dice pool, the custom
traits and the GM's notes. Ids are derived inside the record they belong to (a troupe numbers its
own PCs, a rival its designs, the turn its pools), so no action bumps a counter shared by everyone.

Validators check the invariants of RULES.md 3.5; they run when a state is parsed (an import, a
reload), while the engine's own updates keep them by construction.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, StringConstraints, model_validator

from rules.viciousness.data import MAX_TRAITS, MIN_IP, Severity, Temperament, TraitDef
from rules.viciousness.options import VicOptions

Name = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=80)]
"""A name typed by someone: 1–80 characters."""
Text = Annotated[str, StringConstraints(strip_whitespace=True, max_length=1000)]
"""Free text: at most 1,000 characters."""
ActorId = Annotated[str, StringConstraints(pattern=r"^[0-9A-Za-z_-]{1,32}$")]
"""A Discord user id (as a string), or any short id without dots."""
Sides = Literal[4, 6]
MAX_SIDES = 8
"""Sides a fight may have."""
MAX_EXTRA_DICE = 10
"""Dice the GM may grant one combatant (an NPC's dice) besides its base die."""
Rank = Annotated[int, Field(ge=1, le=7)]


class Frozen(BaseModel):
    """Base of every state model: immutable, no unknown fields."""

    model_config = ConfigDict(frozen=True, extra="forbid")


def rank_for_ip(ip: int) -> int:
    """The largest rank whose minimum the investment points reach (RULES.md P10)."""
    return max(rank for rank, minimum in MIN_IP.items() if ip >= minimum)


def owner_of(pc_id: str) -> str:
    """The troupe owner of a PC id (``<owner>.<n>``)."""
    return pc_id.rpartition(".")[0]


# -- company and turn ------------------------------------------------------------------------------


class Coins(Frozen):
    """``count`` coins of wealth rank ``rank``."""

    rank: Rank
    count: int = Field(ge=1)


class Lockout(Frozen):
    """A scheme failed: no group knavery rolls until the GM clears the fallout (seed L86)."""

    free_pushes: int = Field(default=0, ge=0)
    """Free pushes (6s of the failed rolls) kept for the fallout scene."""


class Company(Frozen):
    """All the players' troupes together: name, ambition and wealth (seed L8-9, L136-169)."""

    name: Annotated[str, StringConstraints(strip_whitespace=True, max_length=80)] = ""
    ambition: Text = ""
    ip: int = Field(default=MIN_IP[2], ge=0)
    """Investment points; the wealth rank is derived from them."""
    turn_coins: Coins | None = None
    """This turn's coins, issued at turn start at the rank the company had then; discarded at turn end."""
    liquid: tuple[Coins, ...] = ()
    """Liquid coins by rank, ascending, each rank at most once; they keep the rank they were earned at."""
    advancements: int = Field(default=0, ge=0)
    """Ambitions completed."""
    lockout: Lockout | None = None
    knowledge_turn: int | None = None
    """The turn of the company's knowledge roll (only used with vic.knowledge_limit=per_company)."""

    @property
    def rank(self) -> int:
        """The wealth rank, 1–7, derived from the investment points."""
        return rank_for_ip(self.ip)

    def liquid_at(self, rank: int) -> int:
        """How many liquid coins of ``rank`` the company holds."""
        return next((c.count for c in self.liquid if c.rank == rank), 0)

    @model_validator(mode="after")
    def _liquid_sorted(self) -> Company:
        ranks = [c.rank for c in self.liquid]
        if ranks != sorted(set(ranks)):
            raise ValueError("liquid coins must be listed once per rank, in ascending rank")
        return self


class Turn(Frozen):
    """Where the campaign is in its turns (seed L100). Turn 0 is the set-up before the first turn."""

    number: int = Field(default=0, ge=0)
    running: bool = False
    """Between ``turn_start`` and ``turn_end``."""
    length: Name = "1 day"
    pools: int = Field(default=0, ge=0)
    """Dice pools opened during this turn; pool ids are ``t<turn>p<n>``."""


# -- troupes and characters ------------------------------------------------------------------------


class Contact(Frozen):
    """A contact of a PC; a strong one may say which trait it came from."""

    name: Name
    note: Text = ""
    trait: str | None = None


class PCTrait(Frozen):
    """A trait a PC has; a magic trait may carry a replacement spell the GM allowed (seed L27)."""

    name: Name
    spell: Text | None = None


class TraitPick(Frozen):
    """One dice clause of one of the PC's traits: ``clause`` indexes the trait's ``dice`` list."""

    trait: Name
    clause: int = Field(ge=0, le=5)


PoolKind = Literal["violence", "knavery"]
Role = Literal["captain", "minion"]
Fate = Literal["active", "dead", "retired"]


class PC(Frozen):
    """A player character (seed L11-12, L22, L59-61, L71, L89-91)."""

    id: str
    name: Name
    concept: Text = ""
    role: Role
    traits: tuple[PCTrait, ...] = Field(min_length=1, max_length=MAX_TRAITS)
    strong: tuple[Contact, ...] = ()
    weak: tuple[Contact, ...] = Field(default=(), max_length=50)
    rattled: bool = False
    wounded: bool = False
    recovery: int = Field(default=0, ge=0)
    """Turns of bed rest still needed while wounded."""
    fate: Fate = "active"
    gm_controlled: bool = False
    """Given over to the GM to portray; only GMs edit it (seed L12)."""
    action_turn: int | None = None
    """The turn in which this character took its turn action."""
    action: str | None = None
    """What that action was (``rest`` matters at turn end)."""
    knowledge_turn: int | None = None
    """The turn of this PC's knowledge roll."""
    replaces: str | None = None
    """The dead or retired minion this one replaced (so that place is filled again)."""
    usual: dict[PoolKind, tuple[TraitPick, ...]] = {}
    """The trait dice last picked in a fight and in a scheme: picked again when the PC next joins one."""

    @property
    def active(self) -> bool:
        """Neither dead nor retired."""
        return self.fate == "active"

    def has_trait(self, name: str) -> bool:
        """Whether the PC has the trait called ``name`` (canonical name)."""
        return any(t.name == name for t in self.traits)

    @model_validator(mode="after")
    def _limits(self) -> PC:
        names = [t.name for t in self.traits]
        if len(set(names)) != len(names):
            raise ValueError(f"{self.name} has the same trait twice")
        if len(self.strong) > len(self.traits):
            raise ValueError(f"{self.name} has more strong contacts than traits")
        if self.wounded != (self.recovery > 0):
            raise ValueError(f"{self.name}: a wounded PC needs recovery turns, and only a wounded one")
        return self


StartingAssetKey = Literal["liquid_coin", "headquarters", "luxury_item", "favor"]


class Troupe(Frozen):
    """One player's captain and minions, henchmen and assets (seed L10-18)."""

    owner: ActorId
    name: Name
    pcs: tuple[PC, ...]
    henchmen: tuple[Name, ...] = Field(default=(), max_length=30)
    starting_asset: StartingAssetKey
    assets: tuple[Text, ...] = Field(default=(), max_length=50)
    minion_places: int = Field(default=1, ge=0, le=12)
    """Minions the troupe may have; a dead or retired minion's place is filled only by a paid replacement."""
    dissolved: bool = False
    """Its captain died or retired (seed L61)."""
    pc_seq: int = Field(default=0, ge=0)
    """PCs ever created by this owner; the next PC is ``<owner>.<pc_seq + 1>``."""
    advancements: int = Field(default=0, ge=0)
    """Advancements taken."""
    pending_advancements: int = Field(default=0, ge=0)
    """Advancements granted (by a completed ambition, or by the GM) and not yet taken."""

    def pc(self, pc_id: str) -> PC | None:
        """The PC with ``pc_id``, if it is in this troupe."""
        return next((p for p in self.pcs if p.id == pc_id), None)

    @property
    def captain(self) -> PC:
        """The troupe's captain (dead or retired once the troupe is dissolved)."""
        return next(p for p in self.pcs if p.role == "captain")

    @property
    def original_minions(self) -> int:
        """Minions that took a place of their own (replacements take a dead minion's place)."""
        return sum(1 for p in self.pcs if p.role == "minion" and p.replaces is None)

    @model_validator(mode="after")
    def _shape(self) -> Troupe:
        if sum(1 for p in self.pcs if p.role == "captain") != 1:
            raise ValueError(f"troupe {self.name!r} must have exactly one captain")
        for p in self.pcs:
            owner, _, n = p.id.rpartition(".")
            if owner != self.owner or not n.isdigit() or int(n) > self.pc_seq:
                raise ValueError(f"PC id {p.id!r} does not belong to troupe {self.owner!r}")
        if self.dissolved == self.captain.active:
            raise ValueError(f"troupe {self.name!r} is dissolved exactly when its captain is dead or retired")
        return self


# -- rivals ----------------------------------------------------------------------------------------


class Design(Frozen):
    """An objective a rival pursues (seed L109-111)."""

    id: str
    text: Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=1000)]
    severity: Severity = "light"
    temperament: Temperament = "default"
    asset: Name | None = None
    """The rival's asset that helps with this design (+1 point per turn while the rival holds it)."""
    unsubtle: bool = False
    points: int = Field(default=0, ge=0)
    status: Literal["building", "done", "foiled"] = "building"


MoveStage = Literal["initiated", "interference", "consequence", "confirm"]


class Move(Frozen):
    """A design the rival die initiated, on its way through P8 steps 3–5 and P9."""

    design: str
    stage: MoveStage
    """initiated: waits for the next turn start (the GM may still switch it);
    interference: unsubtle, the PCs may interfere (the GM records the outcome);
    consequence: it succeeded, the GM picks or rolls a consequence;
    confirm: the GM confirms the consequence's effects."""
    d20: int
    eligible: tuple[str, ...]
    """Designs the d20 made eligible (the GM may initiate any one of them)."""
    d4: int | None = None
    severity: Severity | None = None
    row: int | None = Field(default=None, ge=1, le=6)


class Rival(Frozen):
    """A powerful NPC working against the company (seed L104-111). GM-only."""

    id: str
    name: Name
    rank: Rank
    minions: int = Field(ge=0, le=50)
    assets: tuple[Name, ...] = Field(default=(), max_length=4)
    notes: Text = ""
    designs: tuple[Design, ...] = ()
    split: tuple[tuple[str, int], ...] | None = None
    """The GM's split of the rank's points among designs, kept from turn to turn (None: the default)."""
    dropped: bool = False
    """No longer a rival: keeps its history, takes no more turns."""
    move: Move | None = None

    def design(self, design_id: str) -> Design | None:
        """The design with ``design_id``."""
        return next((d for d in self.designs if d.id == design_id), None)

    @property
    def working(self) -> tuple[Design, ...]:
        """Designs still being built (not done, not foiled, not in motion)."""
        moving = self.move.design if self.move else None
        return tuple(d for d in self.designs if d.status == "building" and d.id != moving)

    def helped(self, design: Design) -> bool:
        """Whether the rival holds the asset that helps ``design``."""
        return design.asset is not None and design.asset.casefold() in {a.casefold() for a in self.assets}

    @model_validator(mode="after")
    def _designs(self) -> Rival:
        live = [d for d in self.designs if d.status == "building"]
        if len(live) > 3:
            raise ValueError(f"rival {self.name!r} has more than three designs under way")
        if self.move and (d := self.design(self.move.design)) is not None and d.status != "building":
            raise ValueError(f"rival {self.name!r} moves a design that is already over")
        return self


# -- dice pools ------------------------------------------------------------------------------------


class PoolDie(Frozen):
    """A die in a pool, once rolled. A rattled PC's die is rolled twice and the lower kept (seed L22)."""

    id: str
    """The die id given to the dice source (a rattled die's second roll is ``<id>.2``)."""
    sides: Sides
    source: str
    """``base``, a trait name, ``extra`` (granted by the GM), ``push`` (Berzerker) or ``equipment``."""
    rolls: tuple[int, ...] = Field(min_length=1, max_length=2)

    @property
    def value(self) -> int:
        """The value that counts: the lower of a rattled pair."""
        return min(self.rolls)


class DeathDue(Frozen):
    """A death test waiting for the GM: after a wound, or at the end of a Berzerker's crisis."""

    reason: Literal["wound", "berserk"]
    round: int


class Combatant(Frozen):
    """A PC, or an NPC the GM added, in a pool."""

    id: str
    """The PC id for a PC; ``n<k>`` for an NPC."""
    name: Name
    pc: bool = False
    side: str | None = None
    picks: tuple[TraitPick, ...] = ()
    vetoed: tuple[str, ...] = ()
    """Traits the GM ruled out for this pool."""
    extra: tuple[Sides, ...] = Field(default=(), max_length=MAX_EXTRA_DICE)
    """Dice the GM granted (an NPC's dice, a situational bonus)."""
    berserk: bool = False
    """Pushed Berzerker: +1d4 for the whole crisis, then a death test (3.6 #43)."""
    dice: tuple[PoolDie, ...] = ()
    pushed: bool = False
    """Used this roll's reroll push (once per roll)."""
    rerolls: int = 0
    """Rerolls of this roll so far (for die ids)."""
    status: Literal["in", "wounded", "dead", "fled"] = "in"
    death: tuple[DeathDue, ...] = ()
    spent: bool = False
    """Joining took the PC's action for the turn (given back if they leave before the roll)."""


class Side(Frozen):
    """One side of a fight."""

    id: str
    name: Name
    equipment: int = Field(default=0, ge=0, le=2)
    """The GM's equipment bonus, 0–2 d4 (at most one side has any)."""
    equipment_dice: tuple[PoolDie, ...] = ()


class Cancel(Frozen):
    """Side ``side`` cancels ``n`` hits of each source side."""

    kind: Literal["cancel"] = "cancel"
    side: str
    cancels: tuple[tuple[str, int], ...]


class Assign(Frozen):
    """Side ``side`` sends its remaining hits to sides with fewer hits."""

    kind: Literal["assign"] = "assign"
    side: str
    to: tuple[tuple[str, int], ...]


class Aim(Frozen):
    """Side ``side`` picks which combatants of ``target`` its landed hits wound."""

    kind: Literal["aim"] = "aim"
    side: str
    target: str
    at: tuple[str, ...]


ClashDecision = Annotated[Cancel | Assign | Aim, Field(discriminator="kind")]


class Landed(Frozen):
    """Hits one side sent another this round, as they landed (kept: the wounds change who stands)."""

    side: str
    target: str
    sent: int = Field(ge=0)
    cancelled: int = Field(ge=0)
    wounded: tuple[str, ...] = ()
    """Combatant ids the landed hits wounded."""

    @property
    def landed(self) -> int:
        """Hits not cancelled."""
        return self.sent - self.cancelled


ViolenceStage = Literal["gather", "rolled", "clash", "wounds", "flight", "ended"]


MAX_ROLL_AT = 30
"""The most characters a pool may wait for before it rolls by itself."""


class ViolencePool(Frozen):
    """A fight, round by round (seed L63-73): gather → rolled → clash → wounds → flight → next round."""

    kind: Literal["violence"] = "violence"
    id: str
    title: Text = ""
    round: int = 1
    stage: ViolenceStage = "gather"
    sides: tuple[Side, ...] = Field(min_length=2, max_length=MAX_SIDES)
    combatants: tuple[Combatant, ...] = ()
    decisions: tuple[ClashDecision, ...] = ()
    """This round's clash decisions, in the order they were taken."""
    landed: tuple[Landed, ...] = ()
    """This round's hits once they have landed (the wound phase on)."""
    npcs: int = 0
    """NPCs added so far (for their ids)."""
    ending: bool = False
    """The GM ended the fight during this round: its hits and death tests are made, then it is over (no flight)."""
    roll_at: int | None = Field(default=None, ge=1, le=MAX_ROLL_AT)
    """The GM's word when opening it: its first round rolls by itself once this many characters are in."""


class Challenge(Frozen):
    """A challenge of a scheme; the label of one the group doesn't know is the GM's."""

    label: Text = ""
    known: bool = False


class KnaveryPool(Frozen):
    """A scheme (seed L75-86): gather → roll → success, or failed → thwarted challenges chosen → fallout."""

    kind: Literal["knavery"] = "knavery"
    id: str
    title: Text = ""
    stage: Literal["gather", "failed"] = "gather"
    challenges: tuple[Challenge, ...] = Field(default=(), max_length=30)
    combatants: tuple[Combatant, ...] = ()
    free_pushes: int = 0
    """6s of the roll: free pushes to use if the scheme fails."""
    npcs: int = 0
    roll_at: int | None = Field(default=None, ge=1, le=MAX_ROLL_AT)
    """The GM's word when opening it: it rolls by itself once this many characters are in."""

    @property
    def prepared(self) -> bool:
        """The group has discovered every challenge (seed L84)."""
        return all(c.known for c in self.challenges)

    @property
    def successes(self) -> int:
        """Dice showing 4 or more."""
        return sum(1 for c in self.combatants for d in c.dice if d.value >= 4)


Pool = Annotated[ViolencePool | KnaveryPool, Field(discriminator="kind")]


# -- calling the table ------------------------------------------------------------------------------

CallHow = Literal["channel", "dm", "off"]
MAX_REMIND_HOURS = 168
RECAP_KEPT = 200
"""Happenings a recap holds at most (a busy turn's oldest are left out, and counted)."""


class Calls(Frozen):
    """How a member is called when the table waits on them (their own choice)."""

    how: CallHow = "channel"
    """A ping in the channel, a direct message instead, or nothing (they follow the channel themselves)."""
    remind_after: int | None = Field(default=None, ge=1, le=MAX_REMIND_HOURS)
    """Hours after which a wait still on them is recalled once (None: no reminders)."""


class Recap(Frozen):
    """What happened since the last recap, as the channel saw it: the happenings a recap tells, in order."""

    since_turn: int = 0
    """The turn the recap began in."""
    items: tuple[dict[str, Any], ...] = Field(default=(), max_length=RECAP_KEPT)
    left_out: int = Field(default=0, ge=0)
    """Happenings beyond ``RECAP_KEPT`` (the oldest are left out)."""


MAX_SESSION_REMINDERS = 5
MAX_REMINDER_MINUTES = 14 * 24 * 60
Minutes = Annotated[int, Field(ge=1, le=MAX_REMINDER_MINUTES)]


class Planned(Frozen):
    """The campaign's next session as the GM planned it (a Discord Scheduled Event shows it in the server)."""

    start: float = Field(ge=0)
    """Seconds since the epoch."""
    minutes: int = Field(ge=15, le=24 * 60)
    description: Text = ""
    reminders: tuple[Minutes, ...] = Field(default=(), max_length=MAX_SESSION_REMINDERS)
    """When the players are reminded, in minutes before the start (largest first)."""
    event: Annotated[str, StringConstraints(max_length=200)] | None = None
    """The Scheduled Event's link, when Discord made one."""
    timezone: Annotated[str, StringConstraints(max_length=64)] = "UTC"
    """The time zone the GM gave the start in (the next change starts from it)."""


COMMITTED_KEPT = 60
"""Rival dice kept for a reveal (the oldest unrevealed go first; the GM's log keeps every one)."""


class CommittedDie(Frozen):
    """A rival die rolled with its commitment shown in the channel, kept for the GM to reveal (GM-only)."""

    die: str
    """The die's id (``rival.r1.t3.d20``: which rival, for the GM's eyes)."""
    sides: int
    turn: int
    line: str
    """The result as one line, as ``/dice verify`` checks it: ``1d20 [14] = 14``."""
    salt: str
    commitment: str


# -- the campaign ----------------------------------------------------------------------------------


class CampaignState(Frozen):
    """A whole campaign. Read-only; the engine returns a new one after each action."""

    options: VicOptions = VicOptions()
    company: Company = Company()
    turn: Turn = Turn()
    troupes: dict[str, Troupe] = {}
    """By owner id."""
    rivals: dict[str, Rival] = {}
    """By rival id (``r<n>``); GM-only."""
    pools: dict[str, Pool] = {}
    """Open dice pools by id."""
    traits: tuple[TraitDef, ...] = ()
    """Custom traits the GM approved, beside the 27 of the seed."""
    notes: Text = ""
    """The GM's notes; GM-only."""
    archived: bool = False
    """Put away by the GM: readable, and nothing but a restore changes it."""
    calls: dict[str, Calls] = {}
    """How each member who said so is called, by user id."""
    recap: Recap = Recap()
    """What happened since the last recap (public: what the channel saw)."""
    planned: Planned | None = None
    """The next session, if the GM planned one."""
    committed: tuple[CommittedDie, ...] = Field(default=(), max_length=COMMITTED_KEPT)
    """Rival dice committed in the channel and not revealed yet (GM-only)."""

    def find_pc(self, pc_id: str) -> PC | None:
        """The PC with ``pc_id``, in any troupe."""
        troupe = self.troupes.get(owner_of(pc_id))
        return troupe.pc(pc_id) if troupe else None

    @model_validator(mode="after")
    def _keys(self) -> CampaignState:
        for key, troupe in self.troupes.items():
            if key != troupe.owner:
                raise ValueError(f"troupe {troupe.name!r} is filed under {key!r}, not its owner")
        for key, rival in self.rivals.items():
            if key != rival.id:
                raise ValueError(f"rival {rival.name!r} is filed under {key!r}, not its id")
        for key, pool in self.pools.items():
            if key != pool.id:
                raise ValueError(f"pool {pool.id!r} is filed under {key!r}")
        return self
