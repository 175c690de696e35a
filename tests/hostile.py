"""Hostile input for the property test of every command option and form field (``tests/test_hostile_input.py``).

Values are what a member can type or a modified client can send: text of any script and length (up to Discord's
own limits), markdown nested deep, mentions, control characters, numbers out of every range, other members and
users who are not members, files of nested JSON. Beside the noise, the values the bot itself offers (choices,
autocomplete) and mixtures of both, so the input also gets past the first check and into the deeper ones.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import Any

from hypothesis import strategies as st

from localdiscord.guild import Member
from localdiscord.validation import API_INTEGER_MAX, API_STRING_MAX

MODAL_TEXT_MAX = 4000
"""The most a text input of a form can hold (Discord's own limit, whatever the form declares)."""

MENTIONS = [
    "@everyone",
    "@here",
    "<@123456789012345678>",
    "<@!123456789012345678>",
    "<@&123456789012345678>",
    "<#123456789012345678>",
    "</vic me:123456789012345678>",
    "<t:0:R>",
    "<:blob:123456789012345678>",
]
MARKDOWN = [
    "**",
    "__",
    "~~",
    "||",
    "`",
    "```",
    "> ",
    ">>> ",
    "# ",
    "-# ",
    "- ",
    "1. ",
    "\\",
    "*",
    "_",
    "[x](https://e.com)",
]
SCRIPTS = [
    "Саша",
    "さくら",
    "محمد",
    "王小明",
    "שלום",
    "José Núñez",
    "Ελένη",
    "हिन्दी",
    "ไทย",
    "👨‍👩‍👧‍👦",
    "🏳️‍🌈",
    "🎲",
    "e\u0301",
    "Z̷̢̛a̸l̶g̵o̴",
    "\u202eRTL override",
    "\u200b",
    "\u2066",
    "\ufeff",
    "\u3000",
]
CONTROL = ["\x00", "\x07", "\x1b[31m", "\r", "\n", "\t", "\x7f", "\u2028", "\u0085"]
SHAPES = [
    "",
    " ",
    "  \n\t ",
    "-",
    ",",
    ", , ,",
    "null",
    "{}",
    "[]",
    '"',
    "'",
    "%s %d {0} {name} ${x}",
    "'; DROP TABLE sessions; --",
    "0",
    "-1",
    "1e308",
    "NaN",
    "inf",
    "9007199254740993",
    "2^53",
    "٣",
    "½",
    "d6",
    "1d6+",
    "99999d99999",
    "999999999d6",
    "9999999999999999999999d4",
    "s99999999999",
    "d1 99999999999",
    "²",
    "①",
]
FRAGMENTS = MENTIONS + MARKDOWN + SCRIPTS + CONTROL + SHAPES


def _nested_markdown(depth: int) -> str:
    marks = ["**", "__", "~~", "||", "*", "_", "`"]
    inner = "x"
    for level in range(depth):
        mark = marks[level % len(marks)]
        inner = f"{mark}{inner}{mark}"
    return inner


def _nested_json(depth: int) -> str:
    return '{"a": ' * depth + "[" * depth + "1" + "]" * depth + "}" * depth


def _repeat(piece: str, length: int) -> str:
    piece = piece or "x"
    return (piece * (length // len(piece) + 1))[:length]


@cache  # building a strategy costs more than drawing from it
def texts(limit: int = API_STRING_MAX) -> st.SearchStrategy[str]:
    """Any text a member could type, at most ``limit`` characters."""
    fragment = st.sampled_from(FRAGMENTS)
    short = st.one_of(fragment, st.text(max_size=40))
    strategy = st.one_of(
        fragment,
        st.text(max_size=80),
        st.lists(short, max_size=30).map("".join),
        st.integers(1, 300).map(_nested_markdown),
        st.integers(1, 3000).map(_nested_json),
        st.tuples(short, st.sampled_from([limit, 101, 1001, 2000, 4000, 6000]), st.integers(0, 2)).map(
            lambda t: _repeat(t[0], max(0, min(t[1], limit) - t[2]))
        ),
        st.tuples(short, st.integers(0, limit)).map(lambda t: _repeat(t[0], t[1])),
    )
    return strategy.map(lambda text: text[:limit])


def mixed(known: list[Any], limit: int) -> st.SearchStrategy[str]:
    """Noise, or a value the bot offers as it is, padded, recased, or run into noise."""
    noise = texts(limit)
    if not known:
        return noise
    offered = st.sampled_from([str(k) for k in known])
    return st.one_of(
        noise,
        offered,
        offered,
        st.tuples(offered, noise).map(lambda t: (t[0] + t[1])[:limit]),
        st.tuples(noise, offered).map(lambda t: (t[0] + t[1])[-limit:]),
        offered.map(lambda k: f"  {k.upper()}  "),
    )


EDGE_INTEGERS = [0, 1, -1, 2, 7, 8, 2**31 - 1, 2**31, -(2**31), 2**53 - 1, API_INTEGER_MAX, -API_INTEGER_MAX]


def integers(option: dict[str, Any], known: list[Any]) -> st.SearchStrategy[int]:
    """Integers at and past the option's declared range, anywhere in Discord's, and the ones the bot offers."""
    low, high = option.get("min_value"), option.get("max_value")
    edges = EDGE_INTEGERS + [b + d for b in (low, high) if b is not None for d in (-1, 0, 1)]
    edges += [int(k) for k in known if isinstance(k, int) or str(k).lstrip("-").isdigit()]
    around = st.integers((low if low is not None else -10) - 5, (high if high is not None else 10) + 5)
    return st.one_of(st.sampled_from(edges), around, st.integers(-API_INTEGER_MAX, API_INTEGER_MAX))


EDGE_NUMBERS = [0.0, -0.0, 0.1, -1.0, 1e-300, 5e-324, 2.0**31, float(API_INTEGER_MAX), -float(API_INTEGER_MAX)]


def numbers(option: dict[str, Any], known: list[Any]) -> st.SearchStrategy[float]:
    """Numbers (JSON has no NaN or infinity) at and past the option's declared range, and anywhere Discord's API
    takes them (±2^53)."""
    low, high = option.get("min_value"), option.get("max_value")
    edges = EDGE_NUMBERS + [float(b) + d for b in (low, high) if b is not None for d in (-0.01, 0.0, 0.01)]
    edges += [float(k) for k in known if isinstance(k, int | float)]
    around = st.floats((low if low is not None else -10) - 5, (high if high is not None else 10) + 5)
    anywhere = st.floats(-float(API_INTEGER_MAX), float(API_INTEGER_MAX), allow_nan=False, allow_infinity=False)
    return st.one_of(st.sampled_from(edges), around, anywhere)


def attachments() -> st.SearchStrategy[tuple[str, bytes]]:
    """A file a member attaches: deeply nested JSON, a campaign file around it, garbage, huge lists, text."""
    depth = st.integers(1, 200_000)
    content = st.one_of(
        depth.map(lambda n: "[" * n + "]" * n),
        depth.map(lambda n: '{"a":' * n + "1" + "}" * n),
        depth.map(lambda n: '{"format": "viciousness-campaign", "version": 1, "state": ' + '{"a":' * n + "}" * n + "}"),
        st.integers(0, 100_000).map(lambda n: "[" + ",".join(["0"] * n) + "]"),
        st.integers(0, 2000).map(
            lambda n: (
                '{"format": "viciousness-campaign", "version": 1, "state": {"troupes": {'
                + ",".join(f'"{"@everyone" * (i + 1)}": 1' for i in range(n))
                + "}}}"
            )
        ),
        texts(20_000),
    ).map(lambda text: text.encode("utf-8", "surrogatepass"))
    garbage = st.one_of(st.binary(max_size=3000), st.just(b"\xff\xfe\x00"), st.just(b"\xef\xbb\xbf{}"))
    names = st.sampled_from(["campaign.json", "c.json", "x.txt", "no-extension", "spaces in name.json", "é.json"])
    return st.tuples(names, st.one_of(content, garbage))


@dataclass(frozen=True)
class Leaf:
    """A command a member can run: its path ("vic pc edit") and the options it takes."""

    path: str
    options: tuple[dict[str, Any], ...]

    @property
    def top(self) -> str:
        """The top-level command's name."""
        return self.path.split()[0]


def leaves(commands: list[dict[str, Any]]) -> list[Leaf]:
    """Every runnable command of a synced command tree (subcommands of groups included), in tree order."""
    found: list[Leaf] = []

    def walk(path: str, options: list[dict[str, Any]]) -> None:
        subs = [o for o in options if o["type"] in (1, 2)]
        if not subs:
            found.append(Leaf(path, tuple(options)))
        for sub in subs:
            walk(f"{path} {sub['name']}", sub.get("options") or [])

    for command in commands:
        if command.get("type", 1) == 1:
            walk(command["name"], command.get("options") or [])
    return found


def option_values(
    option: dict[str, Any], known: list[Any], users: list[Member], limit: int = API_STRING_MAX
) -> st.SearchStrategy[Any]:
    """What may arrive for one option (``known``: the values the bot offers for it)."""
    choices = [c["value"] for c in option.get("choices") or []]
    kind = option["type"]
    if kind == 3:
        return mixed(choices + known, limit)
    if kind == 4:
        return integers(option, choices + known)
    if kind == 10:
        return numbers(option, choices + known)
    if kind == 5:
        return st.booleans()
    if kind == 6:
        return st.sampled_from(users)
    if kind == 11:
        return attachments()
    raise NotImplementedError(f"no hostile values for option type {kind} ({option['name']}): add them here")
