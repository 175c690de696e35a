"""Every benchmark still runs: each script in ``bench/`` is found here and run in its small mode (``--small``: a
few seconds, the convention every bench script follows), and its last line must be one JSON object. The figures
are not checked (a bench measures, it does not test), so this only keeps the benches from rotting unnoticed. A new
bench script is run with no change to this file; a module of ``bench/`` that is not a script (no ``__main__``)
must be imported by one, so it runs too.
"""

from __future__ import annotations

import ast
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.bot_process import SETTINGS_PREFIXES

BENCH = Path(__file__).resolve().parents[1] / "bench"
FILES = sorted(BENCH.glob("*.py"))
SCRIPTS = [path for path in FILES if 'if __name__ == "__main__":' in path.read_text()]
TIMEOUT_S = 240.0
"""Far above any small run (seconds, tens on a busy machine), so only a bench that hangs hits it."""


def bench_imports(path: Path) -> set[str]:
    """The names of the ``bench/`` modules ``path`` imports (``bench.x``, ``from bench import x``, or ``x`` as
    a sibling when run as a script)."""
    names = {p.stem for p in FILES}
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            modules = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module:
            modules = [node.module] + [f"{node.module}.{alias.name}" for alias in node.names]
        else:
            continue
        found |= {m.removeprefix("bench.") for m in modules} & names
    return found


@pytest.mark.parametrize("script", SCRIPTS, ids=lambda path: path.stem)
def test_the_bench_runs_in_its_small_mode(script: Path, tmp_path: Path) -> None:
    # A developer's bot settings must not reach the bench's bot; the request log does, so CI's spec check sees
    # what the benches send too.
    env = {k: v for k, v in os.environ.items() if not k.startswith(SETTINGS_PREFIXES) or k == "DISCORD_REQUEST_LOG"}
    done = subprocess.run(
        [sys.executable, str(script), "--small"],
        cwd=tmp_path,  # whatever it writes lands in the test's folder
        env=env,
        capture_output=True,
        text=True,
        timeout=TIMEOUT_S,
        check=False,
    )
    said = f"stdout:\n{done.stdout[-3000:]}\nstderr:\n{done.stderr[-3000:]}"
    assert done.returncode == 0, said
    lines = done.stdout.strip().splitlines()
    assert lines, said
    assert isinstance(json.loads(lines[-1]), dict), said


KNOWN = (
    "big_database",
    "campaign_ux",
    "crowns_bots",
    "dice",
    "engine",
    "latency",
    "log_dictionary",
    "log_reads",
    "odds",
    "playground_probes",
    "presets",
    "ratings",
    "review",
    "roll_worst",
    "scale",
    "sheet_picture",
    "soak",
    "storage_size",
    "strength",
    "table_ux",
    "vices_bots",
)
"""The benches there are as this file was last written: the search above must find at least these, so a change of
layout can't leave it finding nothing and passing (a new bench is found without being listed)."""


def test_the_search_finds_every_bench_script_known() -> None:
    assert set(KNOWN) <= {path.stem for path in SCRIPTS}


def test_every_bench_module_runs_through_a_script() -> None:
    reached = {path.stem for path in SCRIPTS}
    imports = {path.stem: bench_imports(path) for path in FILES}
    frontier = set(reached)
    while frontier:
        frontier = set().union(*(imports[name] for name in frontier)) - reached
        reached |= frontier
    assert {path.stem for path in FILES} - reached == set()
