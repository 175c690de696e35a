"""Conditions that partial indexes are made on and queries must repeat word for word, so that each query uses
its index (``tests/core/test_query_plans.py``)."""

from __future__ import annotations

ATTENTION = "(drawn < version OR computer_due OR news_from IS NOT NULL)"
"""Sessions that need the bot's attention: drawn behind their version, a computer seat to move, news not yet
told (a partial index's condition, and the query's, word for word, so the query uses the index)."""
ENDED = "status IN ('finished', 'abandoned')"
ENDED_TABLE = f"{ENDED} AND scope = 'table'"
"""What ``history`` lists (its indexes are partial on exactly this, so the query must say it the same way)."""
LOG_KEPT = f"{ENDED} AND log_cleared_at IS NULL"
"""Ended sessions whose log the retention setting may still clear."""
