"""The request log (``DISCORD_REQUEST_LOG``) that the spec check reads stays one whole JSON object a line while
many processes append to it at once, as parallel test workers and the bots and launchers they start do."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
WRITERS = 3
LINES = 30
# Far past any buffer of the standard library (8 KiB) and a pipe's atomic size (4 KiB).
TEXT = 100_000

APPEND = f"""
import sys
from localdiscord.requestlog import log_request
for n in range({LINES}):
    log_request({{"writer": int(sys.argv[1]), "n": n, "json": {{"content": sys.argv[1] * {TEXT}}}}})
"""


def test_processes_appending_at_once_never_split_a_line(tmp_path: Path) -> None:
    log = tmp_path / "requests.jsonl"
    env = os.environ | {"DISCORD_REQUEST_LOG": str(log), "PYTHONPATH": str(REPO)}
    writers = [subprocess.Popen([sys.executable, "-c", APPEND, str(w)], env=env) for w in range(WRITERS)]
    assert [w.wait(timeout=60) for w in writers] == [0] * WRITERS
    entries = [json.loads(line) for line in log.read_text().splitlines()]
    assert sorted((e["writer"], e["n"]) for e in entries) == [(w, n) for w in range(WRITERS) for n in range(LINES)]
    assert all(e["json"]["content"] == str(e["writer"]) * TEXT for e in entries)
