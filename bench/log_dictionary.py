"""Make a preset dictionary for the log's compressed format (``bot/storage/codec.py``) from games played here.

    python bench/log_dictionary.py --out data/log/dictionary-2.bin

Plays a few games of each kind (``bench/played_games.py``, seeded: the same code makes the same file), takes
entries of each at random, an equal share of the 32 KiB deflate window for every kind, and writes their bodies
end to end. A released dictionary is never changed (entries stored with it are read with it forever): a new one
goes with a new format number in the codec. Prints how much smaller each kind's entries get with it, as JSON.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import sys
import tempfile
import zlib
from pathlib import Path

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.played_games import PLAYERS, SMALL_PLAYERS, table
from bot.storage.codec import LEVEL, WINDOW_BITS, entry_body

WINDOW = 32 * 1024
LONGEST = 1500
"""Entries longer than this are left out: one would take a big share of the window for one kind of entry."""


async def bodies(seed: int, games: int, small: bool = False) -> dict[str, list[bytes]]:
    """The encoded bodies of every entry of ``games`` games of each kind, by kind (``small``: short games)."""
    found: dict[str, list[bytes]] = {}
    with tempfile.TemporaryDirectory() as folder:
        async with table(Path(folder) / "bot.sqlite3", seed=seed) as t:
            for name, play in (SMALL_PLAYERS if small else PLAYERS).items():
                for _ in range(1 if name == "campaign_50_turns" else games):
                    session = await play(t)
                    entries = await t.service.store.log_entries(session.id)
                    found.setdefault(name, []).extend(entry_body(e) for e in entries)
    return found


def dictionary(samples: dict[str, list[bytes]], seed: int, size: int = WINDOW) -> bytes:
    """Entries of every kind, an equal share each, the most frequent kinds last (nearest to what is compressed)."""
    rng = random.Random(seed)
    share = size // len(samples)
    parts = []
    for name in sorted(samples, key=lambda n: len(samples[n])):
        chosen = b""
        for body in rng.sample(samples[name], len(samples[name])):
            if len(body) <= LONGEST and len(chosen) + len(body) <= share:
                chosen += body
        parts.append(chosen)
    return b"".join(parts)


def ratios(samples: dict[str, list[bytes]], zdict: bytes) -> dict[str, float]:
    """How many times smaller each kind's entries are, compressed one by one with ``zdict``."""
    out = {}
    for name, found in samples.items():
        packed = 0
        for body in found:
            compressor = zlib.compressobj(LEVEL, zlib.DEFLATED, WINDOW_BITS, 8, zlib.Z_DEFAULT_STRATEGY, zdict)
            packed += len(compressor.compress(body) + compressor.flush()) + 1
        out[name] = round(sum(map(len, found)) / packed, 2)
    return out


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, help="the new dictionary's file (must not exist)")
    parser.add_argument("--seed", type=int, default=99)
    parser.add_argument("--games", type=int, default=3, help="games of each table kind to sample")
    parser.add_argument("--small", action="store_true", help="CI's run: short games, the dictionary not kept")
    args = parser.parse_args()
    if args.out is None and not args.small:
        parser.error("give --out, the new dictionary's file")
    if args.out is not None and args.out.exists():
        sys.exit(f"{args.out} exists: a released dictionary is never rewritten; give the next number.")
    train = await bodies(args.seed, 1 if args.small else args.games, small=args.small)
    made = dictionary(train, args.seed)
    if args.out is not None:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_bytes(made)
    check = await bodies(args.seed + 1, 1, small=args.small)
    print(json.dumps({"bytes": len(made), "times_smaller": ratios(check, made)}))


if __name__ == "__main__":
    asyncio.run(main())
