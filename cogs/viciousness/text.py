"""Text that must fit Discord's limits: cutting, sharing a budget among parts (plurals are the catalogs': ``_n``)."""

from __future__ import annotations


def cut(text: str, limit: int) -> str:
    """``text`` within ``limit`` characters, ending in … when it was cut."""
    return text if len(text) <= limit else text[: max(0, limit - 1)].rstrip() + "…"


def fit(parts: list[str], budget: int, floor: int = 60) -> list[str]:
    """Cut the longest of ``parts`` until together they fit ``budget`` (none below ``floor`` unless it must)."""
    out = list(parts)
    while sum(len(p) for p in out) > budget:
        longest = max(range(len(out)), key=lambda i: len(out[i]))
        excess = sum(len(p) for p in out) - budget
        target = max(floor, len(out[longest]) - excess)
        if target >= len(out[longest]):
            target = len(out[longest]) // 2
        out[longest] = cut(out[longest], target)
        if all(len(p) <= 1 for p in out):
            break
    return out
