"""``bench/playground_probes.py --small`` in CI: the issue's probes against a launched playground, a few MiB each
(every one still over its limit), refused, with the server's peak memory under the bench's limit."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def test_the_playground_withstands_the_probes() -> None:
    run = subprocess.run(
        [sys.executable, str(REPO / "bench" / "playground_probes.py"), "--small"],
        capture_output=True,
        text=True,
        timeout=240,
        check=False,
    )
    report = json.loads(run.stdout.splitlines()[-1])
    probes = report["probes"]
    assert report["under_limit"] and run.returncode == 0, run.stdout + run.stderr
    assert probes["json"] == ["401"] and set(probes["parallel_json"]) == {"401"} and probes["multipart"] == "401"
    assert "answered" not in probes["gateway"]
    assert probes["flood_members_made"] <= 12
    assert not probes["find_export"]["found"] and probes["find_export"]["answers"].get("200") is None
