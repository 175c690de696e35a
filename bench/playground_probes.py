"""The playground under attack: ``python bench/playground_probes.py [--small] [--code DIR] [--python EXE]``.

Starts ``python -m localdiscord --port 0`` (the server, its web client and the bot, as the README's first command
does) in a scratch folder and probes it as a stranger on this machine would, without the join code or any token:

- ``json``: one 60 MiB JSON body to the API; ``parallel_json``: six at once;
- ``multipart``: a message upload of five 64 MiB parts;
- ``gateway``: three 300 MiB frames on the Gateway before IDENTIFY;
- ``flood``: one browser making 300 members;
- ``find_export``: a player's two public rolls around the GM's ``/vic-gm campaign export``, then every attachment
  id between them guessed, as the issue's attacker did: how many requests until the GM's file is served, if ever.

Reports the server process's resident memory before the probes and its peak (``VmHWM``) after them, and what each
probe got back. ``--small`` sends every probe at a few MiB (still over each limit) and 40 members: seconds, for CI.
``--code``/``--python`` run another checkout's server (e.g. main's, to compare). The last line is the JSON.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import re
import signal
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

import aiohttp

REPO = Path(__file__).resolve().parents[1]
MIB = 1024 * 1024
LIMIT_MIB = 150
OPEN_LINE = re.compile(r"Open (http://127\.0\.0\.1:\d+)")
SIZES = {
    False: {"json": 60 * MIB, "parallel": 6, "part": 64 * MIB, "parts": 5, "frame": 300 * MIB, "frames": 3},
    True: {"json": 4 * MIB, "parallel": 3, "part": 4 * MIB, "parts": 3, "frame": 4 * MIB, "frames": 2},
}
FLOOD = {False: 300, True: 40}
EPOCH_MS = 1_420_070_400_000


def memory(pid: int) -> dict[str, float]:
    """The process's resident memory now and at its peak, in MiB."""
    fields = dict(line.split(":", 1) for line in Path(f"/proc/{pid}/status").read_text().splitlines() if ":" in line)
    return {key: int(fields[key].split()[0]) / 1024 for key in ("VmRSS", "VmHWM")}


async def answer(request: Any) -> str:
    """An HTTP status, or how the connection ended."""
    try:
        async with request as response:
            return str(response.status)
    except (TimeoutError, aiohttp.ClientError, ConnectionError) as exc:
        return type(exc).__name__


async def probe_json(http: aiohttp.ClientSession, url: str, size: int, count: int) -> list[str]:
    """``count`` JSON bodies of ``size`` bytes at once, without a token."""
    body = b'{"content": "' + b"x" * (size - 16) + b'"}'
    headers = {"Content-Type": "application/json"}
    posts = [answer(http.post(f"{url}/api/v10/channels/1/messages", data=body, headers=headers)) for _ in range(count)]
    return list(await asyncio.gather(*posts))


async def probe_multipart(http: aiohttp.ClientSession, url: str, size: int, parts: int) -> str:
    """One message upload of ``parts`` files of ``size`` bytes, without a token."""
    form = aiohttp.FormData()
    form.add_field("payload_json", '{"content": "x"}', content_type="application/json")
    for index in range(parts):
        form.add_field(f"files[{index}]", b"\0" * size, filename=f"{index}.bin")
    return await answer(http.post(f"{url}/api/v10/channels/1/messages", data=form))


async def probe_gateway(http: aiohttp.ClientSession, url: str, size: int, count: int) -> list[str]:
    """``count`` Gateway connections, each sending one frame of ``size`` bytes before IDENTIFY."""

    async def one() -> str:
        try:
            async with http.ws_connect(f"{url.replace('http', 'ws', 1)}/gateway?v=10&encoding=json") as ws:
                await ws.receive()  # HELLO
                with contextlib.suppress(ConnectionError, aiohttp.ClientError):
                    await ws.send_bytes(b"x" * size)  # the server may close before it has all of it
                closed = await ws.receive(timeout=60)
                return f"closed {ws.close_code}" if closed.type != aiohttp.WSMsgType.TEXT else "answered"
        except (TimeoutError, aiohttp.ClientError, ConnectionError) as exc:
            return type(exc).__name__

    return list(await asyncio.gather(*(one() for _ in range(count))))


class Tab:
    """One browser tab of the web client: a cookie jar and a WebSocket, the frames it was sent."""

    def __init__(self, http: aiohttp.ClientSession, ws: aiohttp.ClientWebSocketResponse) -> None:
        self.http, self.ws, self.frames, self.seq = http, ws, [], 0
        self.reader = asyncio.create_task(self._read())

    @classmethod
    async def open(cls, url: str) -> Tab:
        """A new browser, admitted, with a tab open."""
        http = aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True))
        async with http.post(f"{url}/client/join", json={}) as response:
            response.raise_for_status()
        tab = cls(http, await http.ws_connect(f"{url}/client/ws", max_msg_size=0))
        await tab.send("hello", member=None)
        return tab

    async def _read(self) -> None:
        async for msg in self.ws:
            if msg.type == aiohttp.WSMsgType.TEXT:
                self.frames.append(json.loads(msg.data))

    async def send(self, op: str, **fields: Any) -> int:
        """Send a request; its sequence number."""
        self.seq += 1
        await self.ws.send_json({"op": op, "seq": self.seq, **fields})
        return self.seq

    async def wait(self, test: Any, timeout: float = 30.0) -> dict[str, Any]:
        """The first frame received matching ``test``."""
        async with asyncio.timeout(timeout):
            while True:
                found = next((f for f in self.frames if test(f)), None)
                if found is not None:
                    return found
                await asyncio.sleep(0.02)

    async def close(self) -> None:
        """Close the tab and its browser."""
        await self.ws.close()
        self.reader.cancel()
        await self.http.close()


async def probe_flood(url: str, count: int) -> int:
    """One browser asks for ``count`` members, one after the other; how many it got."""
    tab = await Tab.open(url)
    try:
        for index in range(count):
            seq = await tab.send("join", name=f"Flood {index}")
            await tab.wait(lambda f, seq=seq: f.get("seq") == seq or (f["op"] == "state" and f.get("me")), 10.0)
            tab.frames.clear()
        await tab.send("hello", member=None)
        state = await tab.wait(lambda f: f["op"] == "state")
        return sum(1 for m in state["members"] if m["mine"])
    finally:
        await tab.close()


async def joined(url: str, name: str) -> tuple[Tab, str]:
    """A new browser joined as ``name``; its tab and the first channel's id."""
    tab = await Tab.open(url)
    await tab.send("join", name=name)
    state = await tab.wait(lambda f: f["op"] == "state" and (f.get("me") or {}).get("name") == name)
    return tab, state["channels"][0]["id"]


async def command(tab: Tab, channel: str, line: str, test: Any, **options: Any) -> dict[str, Any]:
    """Run ``/line`` from ``tab``; the message frame matching ``test`` that it brings."""
    tab.frames.clear()
    await tab.send("slash", channel=channel, command=line, options=options)
    return (await tab.wait(lambda f: f["op"] == "message" and test(f["message"])))["message"]


async def probe_find_export(url: str, cap: int) -> dict[str, Any]:
    """The issue's attack on the GM's campaign export; requests until found (or ``cap`` tried)."""
    gm, channel = await joined(url, "Gemma")
    player, _ = await joined(url, "Pip")
    try:
        await command(gm, channel, "vic-gm campaign new", lambda m: "Knives" in json.dumps(m), company="Knives")
        first = await command(player, channel, "roll", lambda m: "Pip" in m["html"], expression="d20")
        export = await command(gm, channel, "vic-gm campaign export", lambda m: bool(m["attachments"]))
        second = await command(player, channel, "roll", lambda m: "Pip" in m["html"], expression="d20")
        low, high = int(first["id"]), int(second["id"])
        tried, answers = 0, {}
        for millis in range(low >> 22, (high >> 22) + 1):
            for counter in range((low & 0xFFF) + 1, (high & 0xFFF)):
                guess = (millis << 22) | (1 << 17) | counter
                status = await answer(player.http.get(f"{url}/attachments/{channel}/{guess}/campaign.json"))
                tried += 1
                answers[status] = answers.get(status, 0) + 1
                if status == "200" or tried >= cap:
                    return {"found": status == "200", "requests": tried, "answers": answers}
        return {"found": False, "requests": tried, "answers": answers, "gm_got_a_file": bool(export["attachments"])}
    finally:
        await gm.close()
        await player.close()


def start(code: Path, python: str, data: Path) -> tuple[subprocess.Popen[str], str]:
    """The launcher, started; its address once it printed it."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("DISCORD_", "DATABASE_"))}
    env |= {"PYTHONPATH": str(code), "PYTHONUNBUFFERED": "1", "COMPUTER_DELAY": "0.2"}
    proc = subprocess.Popen(
        [python, "-m", "localdiscord", "--port", "0", "--data", str(data)],
        cwd=data.parent,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    assert proc.stdout is not None
    for line in proc.stdout:
        found = OPEN_LINE.search(line)
        if found:
            return proc, found.group(1)
    raise RuntimeError("the launcher stopped before serving the page")


def stop(proc: subprocess.Popen[str]) -> None:
    """Ctrl-C, by its PID; killed if it does not stop."""
    if proc.poll() is None:
        proc.send_signal(signal.SIGINT)
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


async def run(url: str, pid: int, small: bool) -> dict[str, Any]:
    """Every probe in turn; what each got and the server's memory."""
    sizes = SIZES[small]
    before = memory(pid)
    # The GM first, so the GM is who made the server (its manager), as when people play.
    results: dict[str, Any] = {"find_export": await probe_find_export(url, 2000 if small else 20_000)}
    timeout = aiohttp.ClientTimeout(total=300)
    async with aiohttp.ClientSession(timeout=timeout) as http:
        results["json"] = await probe_json(http, url, sizes["json"], 1)
        results["parallel_json"] = await probe_json(http, url, sizes["json"], sizes["parallel"])
        results["multipart"] = await probe_multipart(http, url, sizes["part"], sizes["parts"])
        results["gateway"] = await probe_gateway(http, url, sizes["frame"], sizes["frames"])
    results["flood_members_made"] = await probe_flood(url, FLOOD[small])
    after = memory(pid)
    peak = after["VmHWM"]
    return {
        "small": small,
        "rss_before_mib": round(before["VmRSS"], 1),
        "peak_rss_mib": round(peak, 1),
        "limit_mib": LIMIT_MIB,
        "under_limit": peak < LIMIT_MIB,
        "probes": results,
    }


def main() -> int:
    """Parse the command line, run the probes against a fresh launcher, print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--small", action="store_true", help="probes of a few MiB: seconds, for CI")
    parser.add_argument("--code", type=Path, default=REPO, help="the checkout whose localdiscord to run")
    parser.add_argument("--python", default=sys.executable, help="the Python (and so the packages) to run it with")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="probes-") as scratch:
        proc, url = start(args.code.resolve(), args.python, Path(scratch) / "var")
        try:
            report = asyncio.run(run(url, proc.pid, args.small))
        finally:
            stop(proc)
    for key, value in report.items():
        if key != "probes":
            print(f"{key}: {value}")
    for key, value in report["probes"].items():
        print(f"  {key}: {value}")
    print(json.dumps(report))
    return 0 if report["under_limit"] else 1


if __name__ == "__main__":
    with contextlib.suppress(KeyboardInterrupt):
        sys.exit(main())
