"""House rules in words: each ``vic.*`` flag of RULES.md PART 5 and its values, for the sheets, boards and panel."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rules.viciousness.options import VicOptions

RULES: dict[str, tuple[str, dict[Any, str]]] = {
    "auto_cancel": (
        "Cancelling hits",
        {True: "a side cancels all the hits it can", False: "with 3+ sides, a side chooses how many it cancels"},
    ),
    "death_test_timing": (
        "Death tests",
        {"immediate": "at once, in the wound phase", "deferred": "may wait up to 3 rounds for medical attention"},
    ),
    "rattled_affects_knowledge": (
        "A rattled PC's knowledge d6",
        {False: "is rolled once", True: "is rolled twice, the lower kept"},
    ),
    "push_reroll_subset": ("A push rerolls", {False: "all the PC's dice", True: "the dice the PC picks"}),
    "push_reroll_rattled": ("A push's reroll", {False: "is rolled normally", True: "is already rolled as rattled"}),
    "free_push_use": (
        "Free pushes",
        {
            "both": "right after the failed roll, or in the fallout",
            "immediate": "only right after the failed roll",
            "fallout": "only in the fallout",
        },
    ),
    "free_push_from_rerolls": ("6s on rerolls", {False: "give no free push", True: "give free pushes too"}),
    "knowledge_limit": (
        "Knowledge d6",
        {"per_pc": "one per character a turn", "per_company": "one for the whole company a turn"},
    ),
    "asset_bonus_scope": (
        "A rival's helpful assets",
        {"per_design": "+1 point a turn per design they help", "per_rival": "+1 point a turn per rival"},
    ),
    "speed_chess": ("Speed Chess", {False: "off", True: "a foiled design refunds half its points"}),
    "speed_chess_on_failed_roll": (
        "Speed Chess on a failed d4",
        {False: "no refund", True: "refunds half the points too"},
    ),
    "mixed_rank_payment": (
        "Paying",
        {False: "with coins of one rank per purchase", True: "with coins of several ranks at once"},
    ),
    "wealth_track": ("“The wealth track lowers by N”", {"ip": "takes N investment points", "rank": "takes N ranks"}),
    "invest_rank_rule": (
        "Investing",
        {"any_rank": "a liquid coin of any rank buys 1 IP", "current_rank_only": "only coins of the company's rank"},
    ),
    "rival_dice": (
        "The GM's rival dice",
        {
            "secret": "are rolled unseen",
            "committed": "are committed in the channel (checkable later, no rival named), revealed when the GM chooses",
        },
    ),
}
"""Each flag: what it is about, and each of its values in words."""
FIGHT_RULES = ("auto_cancel", "death_test_timing", "push_reroll_subset", "push_reroll_rattled")
SCHEME_RULES = ("free_push_use", "free_push_from_rerolls", "push_reroll_subset", "push_reroll_rattled")
RIVAL_RULES = ("speed_chess", "speed_chess_on_failed_roll", "asset_bonus_scope", "wealth_track", "rival_dice")
DEFAULTS = VicOptions()


def rule_line(flag: str, value: Any) -> str:
    """``Speed Chess: a foiled design refunds half its points``."""
    about, values = RULES[flag]
    return f"{about}: {values[value]}"


def changed_rules(options: VicOptions, flags: Sequence[str] = tuple(RULES)) -> list[str]:
    """The rules among ``flags`` that differ from the recommended ones, in words."""
    return [rule_line(f, getattr(options, f)) for f in flags if getattr(options, f) != getattr(DEFAULTS, f)]


def house_rules_line(options: VicOptions, flags: Sequence[str] = tuple(RULES)) -> str:
    """``House rules: …; …`` for the sheets and boards, or "" when the recommended ones are in force."""
    changed = changed_rules(options, flags)
    return "House rules: " + "; ".join(changed) + "." if changed else ""


def describe(options: VicOptions) -> str:
    """Every rule in force, one line each, the house rules (not the recommended ones) in bold."""
    lines = []
    for flag in RULES:
        line = rule_line(flag, getattr(options, flag))
        lines.append(f"• **{line}**" if getattr(options, flag) != getattr(DEFAULTS, flag) else f"• {line}")
    return "\n".join(lines)
