"""How a log entry is stored: a few hundred bytes where its JSON took kilobytes, decoded back to the same
``LogEntry`` on read. Shared by every backend (the log's ``entry`` column holds these bytes).

An encoded entry is one format byte, then its body:

- ``RAW_JSON`` (0): the entry as compact JSON, ``[actor, action, dice, events, at, news]``, each die a
  ``[die, sides, value]`` triple instead of an object naming its three fields, each news item ``[text, pings]``.
  Used when compressing would not make it smaller.
- ``DEFLATE_1`` (1): that JSON compressed with raw deflate and the preset dictionary ``data/log/dictionary-1.bin``:
  typical entries of every game, so even a one-line entry finds most of its text in the dictionary (per entry, 5
  to 10 times smaller than its JSON; deflate alone on one small entry gains about 2).

A format, once released, is read forever: a better dictionary is a new format number beside the old ones
(``bench/log_dictionary.py`` makes one), never a change to a released file (a test pins its digest).
Encoding a typical entry takes ~20 µs (the compressor primed with the dictionary is copied, not rebuilt), decoding
~20 µs with the ``LogEntry`` it makes.
"""

from __future__ import annotations

import zlib
from functools import cache
from importlib import resources
from typing import Any

import pydantic_core

from bot.models import LogEntry, News

RAW_JSON = 0
DEFLATE_1 = 1
DICTIONARY_1 = ("log", "dictionary-1.bin")
LEVEL = 6
"""Level 9 gains ~7 % more for ~60 % more time; 3 loses ~15 %."""
WINDOW_BITS = -15
"""Raw deflate (no zlib header or checksum: the database keeps the bytes whole), a 32 KiB window."""


@cache
def dictionary(number: int = 1) -> bytes:
    """The preset dictionary of format ``number``."""
    assert number == 1, number
    return resources.files("data").joinpath(*DICTIONARY_1).read_bytes()


@cache
def _primed() -> Any:
    """A compressor that has read the dictionary: each entry is compressed by a copy of it."""
    return zlib.compressobj(LEVEL, zlib.DEFLATED, WINDOW_BITS, 8, zlib.Z_DEFAULT_STRATEGY, dictionary(1))


def entry_body(entry: LogEntry) -> bytes:
    """The entry as compact JSON (UTF-8): everything but its seq, which the database keeps beside it."""
    dice = [[d["die"], d["sides"], d["value"]] for d in entry.dice]
    fields: list[Any] = [entry.actor, entry.action, dice, entry.events, entry.at]
    if entry.news:
        fields.append([[n.text, n.pings] for n in entry.news])
    return pydantic_core.to_json(fields)  # as json.dumps(…, separators=(",", ":"), ensure_ascii=False), 3× faster


def encode_entry(entry: LogEntry) -> bytes:
    """The bytes a log entry is stored as."""
    body = entry_body(entry)
    compressor = _primed().copy()
    packed = compressor.compress(body) + compressor.flush()
    if len(packed) < len(body):
        return bytes([DEFLATE_1]) + packed
    return bytes([RAW_JSON]) + body


def decode_entry(seq: int, data: bytes) -> LogEntry:
    """The log entry ``seq`` stored as ``data`` (any released format)."""
    fmt, body = data[0], memoryview(data)[1:]
    if fmt == DEFLATE_1:
        text = zlib.decompressobj(WINDOW_BITS, dictionary(1)).decompress(body)
    elif fmt == RAW_JSON:
        text = bytes(body)
    else:
        raise ValueError(f"log entry {seq}: unknown format {fmt} (written by a newer version of the bot?)")
    actor, action, dice, events, at, *rest = pydantic_core.from_json(text)
    return LogEntry(
        seq=seq,
        actor=actor,
        action=action,
        dice=[{"die": die, "sides": sides, "value": value} for die, sides, value in dice],
        events=events,
        at=at,
        news=[News(text=text, pings=pings) for text, pings in rest[0]] if rest else [],
    )
