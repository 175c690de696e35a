"""House rules in words: each ``vic.*`` flag of RULES.md PART 5 and its values, for the sheets, boards and panel."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bot.i18n import N_, _
from rules.viciousness.options import VicOptions

RULES: dict[str, tuple[str, dict[Any, str]]] = {
    "auto_cancel": (
        N_("Cancelling hits"),
        {
            True: N_("a side cancels all the hits it can"),
            False: N_("with 3+ sides, a side chooses how many it cancels"),
        },
    ),
    "death_test_timing": (
        N_("Death tests"),
        {
            "immediate": N_("at once, in the wound phase"),
            "deferred": N_("may wait up to 3 rounds for medical attention"),
        },
    ),
    "rattled_affects_knowledge": (
        N_("A rattled PC's knowledge d6"),
        {False: N_("is rolled once"), True: N_("is rolled twice, the lower kept")},
    ),
    "push_reroll_subset": (N_("A push rerolls"), {False: N_("all the PC's dice"), True: N_("the dice the PC picks")}),
    "push_reroll_rattled": (
        N_("A push's reroll"),
        {False: N_("is rolled normally"), True: N_("is already rolled as rattled")},
    ),
    "free_push_use": (
        N_("Free pushes"),
        {
            "both": N_("right after the failed roll, or in the fallout"),
            "immediate": N_("only right after the failed roll"),
            "fallout": N_("only in the fallout"),
        },
    ),
    "free_push_from_rerolls": (N_("6s on rerolls"), {False: N_("give no free push"), True: N_("give free pushes too")}),
    "knowledge_limit": (
        N_("Knowledge d6"),
        {"per_pc": N_("one per character a turn"), "per_company": N_("one for the whole company a turn")},
    ),
    "asset_bonus_scope": (
        N_("A rival's helpful assets"),
        {"per_design": N_("+1 point a turn per design they help"), "per_rival": N_("+1 point a turn per rival")},
    ),
    "speed_chess": (N_("Speed Chess"), {False: N_("off"), True: N_("a foiled design refunds half its points")}),
    "speed_chess_on_failed_roll": (
        N_("Speed Chess on a failed d4"),
        {False: N_("no refund"), True: N_("refunds half the points too")},
    ),
    "mixed_rank_payment": (
        N_("Paying"),
        {False: N_("with coins of one rank per purchase"), True: N_("with coins of several ranks at once")},
    ),
    "wealth_track": (
        N_("“The wealth track lowers by N”"),
        {"ip": N_("takes N investment points"), "rank": N_("takes N ranks")},
    ),
    "invest_rank_rule": (
        N_("Investing"),
        {
            "any_rank": N_("a liquid coin of any rank buys 1 IP"),
            "current_rank_only": N_("only coins of the company's rank"),
        },
    ),
    "rival_dice": (
        N_("The GM's rival dice"),
        {
            "secret": N_("are rolled unseen"),
            "committed": N_(
                "are committed in the channel (checkable later, no rival named), revealed when the GM chooses"
            ),
        },
    ),
}
"""Each flag: what it is about, and each of its values in words (marked: said with ``_`` when shown)."""
FIGHT_RULES = ("auto_cancel", "death_test_timing", "push_reroll_subset", "push_reroll_rattled")
SCHEME_RULES = ("free_push_use", "free_push_from_rerolls", "push_reroll_subset", "push_reroll_rattled")
RIVAL_RULES = ("speed_chess", "speed_chess_on_failed_roll", "asset_bonus_scope", "wealth_track", "rival_dice")
DEFAULTS = VicOptions()


def rule_line(flag: str, value: Any) -> str:
    """``Speed Chess: a foiled design refunds half its points``."""
    about, values = RULES[flag]
    return _("{about}: {value}", about=_(about), value=_(values[value]))


def changed_rules(options: VicOptions, flags: Sequence[str] = tuple(RULES)) -> list[str]:
    """The rules among ``flags`` that differ from the recommended ones, in words."""
    return [rule_line(f, getattr(options, f)) for f in flags if getattr(options, f) != getattr(DEFAULTS, f)]


def house_rules_line(options: VicOptions, flags: Sequence[str] = tuple(RULES)) -> str:
    """``House rules: …; …`` for the sheets and boards, or "" when the recommended ones are in force."""
    changed = changed_rules(options, flags)
    return _("House rules: {rules}.", rules="; ".join(changed)) if changed else ""


def describe(options: VicOptions) -> str:
    """Every rule in force, one line each, the house rules (not the recommended ones) in bold."""
    lines = []
    for flag in RULES:
        line = rule_line(flag, getattr(options, flag))
        lines.append(f"• **{line}**" if getattr(options, flag) != getattr(DEFAULTS, flag) else f"• {line}")
    return "\n".join(lines)
