"""Campaign options: every ``vic.*`` house-rule flag of RULES.md PART 5, with its recommended default."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict


class VicOptions(BaseModel):
    """Chosen when the campaign starts; each field is the flag of the same name without ``vic.``."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    auto_cancel: bool = True
    """3.6 #3: a side cancels as many incoming hits as it can; false lets it choose (3+ sides)."""
    death_test_timing: Literal["immediate", "deferred"] = "immediate"
    """3.6 #7: test at the wound phase, or let the GM hold the test up to 3 rounds for medical attention."""
    rattled_affects_knowledge: bool = False
    """3.6 #11: a rattled PC's knowledge d6 is rolled twice, lower kept."""
    push_reroll_subset: bool = False
    """3.6 #12: a reroll push may pick which of the PC's dice to reroll instead of all of them."""
    push_reroll_rattled: bool = False
    """3.6 #13: the dice of a reroll push are already rolled as rattled."""
    free_push_use: Literal["both", "immediate", "fallout"] = "both"
    """3.6 #15: free pushes reroll right after the failed roll, serve during the fallout, or both."""
    free_push_from_rerolls: bool = False
    """3.6 #15: 6s rolled on rerolls grant free pushes too."""
    knowledge_limit: Literal["per_pc", "per_company"] = "per_pc"
    """3.6 #19: one knowledge d6 per PC per turn, or one for the whole company."""
    asset_bonus_scope: Literal["per_design", "per_rival"] = "per_design"
    """3.6 #22: +1 ambition point per design with a helpful asset, or +1 per rival."""
    speed_chess: bool = False
    """3.6 #25: a foiled design refunds half its points (rounded down) to the rival's other designs."""
    speed_chess_on_failed_roll: bool = False
    """3.6 #25: with Speed Chess, a failed success d4 refunds too."""
    mixed_rank_payment: bool = False
    """3.6 #29: one purchase may combine coins of several ranks."""
    wealth_track: Literal["ip", "rank"] = "ip"
    """3.6 #33: "the wealth track lowers by N" takes N investment points, or N ranks."""
    invest_rank_rule: Literal["any_rank", "current_rank_only"] = "any_rank"
    """3.6 #35: any liquid coin buys 1 IP, or only coins of the company's current rank."""
    rival_dice: Literal["secret", "committed"] = "secret"
    """The table's own setting (no RULES.md flag): the GM's rival dice are rolled unseen, or committed in the
    channel (a SHA-256 of the result and a salt, naming no rival or design) and revealed when the GM chooses."""
