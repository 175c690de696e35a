"""Viciousness at the table in another language: pool boards, the GM screen, the narration of every event, the calls,
the recap, the log and the journal, and the refusals, said in German, Spanish and the pseudo-language.

Under ``pseudo`` every word a member reads that is not a name, a number or dice notation is inside ⟦…⟧ (so a
message never marked shows at once), and the boards still fit Discord's limits with every text ~40 % longer. In
German and Spanish no English sentence is left: the English words that only a sentence has ("the", "with", "your"…)
are gone, and every line reads differently from its English.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Iterator, Mapping
from typing import Any

import discord
import pytest

from bot.board import compose
from bot.errors import UserError
from bot.i18n import PSEUDO_CLOSE, PSEUDO_OPEN, speaking
from bot.models import Session
from bot.spec import View, ViewContext
from cogs.viciousness import narrate as narrate_module
from cogs.viciousness import pools_view, rivals_view
from cogs.viciousness.calls import what_waits
from cogs.viciousness.journal import journal
from cogs.viciousness.narrate import NARRATORS, narrate
from cogs.viciousness.odds import odds_now, odds_text
from cogs.viciousness.pools import pool_of, side_and_npcs
from cogs.viciousness.pools_view import render_pool, view_key
from cogs.viciousness.recap import recap_text
from cogs.viciousness.rivals import named_rival
from cogs.viciousness.rivals_view import render_gm
from cogs.viciousness.turns import log_embed, pages_of, title
from localdiscord.responses import DiscordError
from localdiscord.validation import check_message
from rules.dice import SeededDice
from rules.engine import GM_ROLES, PUBLIC, Viewer, visible
from rules.viciousness import ENGINE, CampaignState
from rules.viciousness.data import TRAITS
from tests.rules.vic_support import GM, P1
from tests.test_vic_boards_fit import campaign, random_campaign

LANGUAGES = ("de", "es", "pseudo")
GM_VIEWER = Viewer(GM, GM_ROLES)
TYPED = {"T", "C", "M", "R", "N", "D", "A", "B", "Friend", "Clerk", "Thing", "More", "Zorba", "Quix", "Yrsa", "Vexa"}
"""Everything the campaigns here name (the random driver's names and ours): said as typed, in every language."""
TRAIT_WORDS = {word for name in TRAITS for word in name.split()}
ENGLISH = {
    "the", "and", "with", "your", "their", "this", "that", "who", "which", "is", "are", "of", "to", "for", "has",
    "have", "joins", "rolls", "hits", "fight", "scheme", "nobody", "yet", "turn", "round", "none", "push", "pushes",
    "rattled", "wounded", "challenges", "gm", "dice", "roll", "join", "leave", "flee", "done", "points", "coins",
}  # fmt: skip
"""Words only an English sentence has (none of them is German or Spanish)."""
MINE = frozenset(
    key
    for key, narrator in NARRATORS.items()
    if narrator.__module__ in (narrate_module.__name__, pools_view.__name__, rivals_view.__name__)
)
"""The events this area narrates (other modules add their own narrators)."""


def unbracketed(text: str) -> str:
    """``text`` without what the pseudo-language said (⟦…⟧, nested or not)."""
    out, depth = [], 0
    for char in text:
        if char == PSEUDO_OPEN:
            depth += 1
        elif char == PSEUDO_CLOSE:
            depth -= 1
        elif depth == 0:
            out.append(char)
    return "".join(out)


def assert_pseudo(text: str) -> None:
    """Every word outside ⟦…⟧ is a name, a trait's name, a number or dice notation."""
    left = re.findall(r"[^\W\d_]+(?:['’][^\W\d_]+)?", re.sub(r"\S*\d\S*", " ", unbracketed(text)))
    strays = set(left) - TYPED - TRAIT_WORDS
    assert not strays, f"not said in the pseudo-language: {strays} in {text!r}"


def assert_not_english(text: str, english: str) -> None:
    """``text`` (said in German or Spanish) has no English sentence's word and is not its English."""
    plain = re.sub(r"`[^`]*`|/[\w-]+|\w+:<\w+>", " ", text)  # commands and their options stay as typed
    for name in sorted(TRAITS, key=len, reverse=True):
        plain = plain.replace(name, " ")
    words = {w.casefold() for w in re.findall(r"[^\W\d_]+", plain)} - {t.casefold() for t in TYPED}
    assert not words & ENGLISH, f"English left: {words & ENGLISH} in {text!r}"
    if words:
        assert text != english, text


def check(language: str, text: str, english: str) -> None:
    if language == "pseudo":
        assert_pseudo(text)
    else:
        assert_not_english(text, english)


# -- boards -------------------------------------------------------------------------------------------------------


def drawn(session: Session, view: View) -> dict[str, Any]:
    """A view as discord.py sends it, checked by the fake Discord's validator (every limit of a message)."""
    payload = compose(session, ENGINE.title, [], view, [], main=False)
    body = {
        "content": payload.content,
        "embeds": [e.to_dict() for e in payload.embeds],
        "components": payload.view.to_components() if payload.view else [],
        "allowed_mentions": discord.AllowedMentions.none().to_dict(),
    }
    try:
        check_message(body)
    except DiscordError as exc:  # pragma: no cover - the message says what broke
        raise AssertionError(f"{exc}: {body}") from exc
    return body


def texts(body: dict[str, Any]) -> Iterator[str]:
    """Each text a member reads in a message body, a line at a time."""
    for embed in body["embeds"]:
        for key in ("title", "description"):
            if embed.get(key):
                yield from embed[key].splitlines()
        for field in embed.get("fields", []):
            yield field["name"]
            yield from field["value"].splitlines()
        if "footer" in embed:
            yield embed["footer"]["text"]
    for row in body["components"]:
        for item in row["components"]:
            yield from (item[key] for key in ("label", "placeholder") if item.get(key))
            for option in item.get("options", []):
                yield option["label"]
                if option.get("description"):
                    yield option["description"]


def boards(session: Session, state: CampaignState) -> Iterator[tuple[str, Callable[[], View]]]:
    """Every board of a state: each pool's, as the channel sees it, and the GM screen."""
    public = ENGINE.view(state, PUBLIC)
    for pool_id in public.pools:
        ctx = ViewContext(session=session, state=public, prompts=[], events=[], view=view_key(pool_id))
        yield f"pool {pool_id}", functools.partial(render_pool, ctx, pool_id)
    gm = ViewContext(session=session, state=state, prompts=[], events=[], viewer=GM_VIEWER, view="gm")
    yield "gm screen", lambda: render_gm(gm)


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("seed", [3, 11])
def test_boards_and_narration_are_said_in_the_language(language: str, seed: int) -> None:
    session = campaign()
    seen: set[str] = set()
    for state, events in random_campaign(seed, 250):
        for name, render in boards(session, state):
            english = list(texts(drawn(session, render())))
            with speaking(language):
                said = list(texts(drawn(session, render())))
            assert len(said) == len(english), name
            for line, original in zip(said, english, strict=True):
                check(language, line, original)
        for viewer, seen_state in ((PUBLIC, ENGINE.view(state, PUBLIC)), (GM_VIEWER, state)):
            told = [e for e in events if visible(e, viewer) and e.get("type") in MINE]
            for event in told:
                english_lines = narrate(seen_state, [event])
                with speaking(language):
                    lines = narrate(seen_state, [event])
                assert len(lines) == len(english_lines)
                for line, original in zip(lines, english_lines, strict=True):
                    assert len(line) <= 2000
                    check(language, line, original)
                seen.add(event["type"])
    assert len(seen) > 30, seen  # the campaign got far: fights, schemes, rivals, wealth, troupes


def test_a_fight_and_its_odds_in_german() -> None:
    dice = SeededDice(1)
    state = CampaignState()
    troupe: dict[str, Any] = {"type": "create_troupe", "name": "Zorba", "asset": "headquarters"}
    troupe["captain"] = {"name": "Quix", "traits": ["Lurker", "Acrobat", "Medic"]}
    state = ENGINE.apply(state, P1, ENGINE.parse_action(troupe), dice).state
    quix = f"{P1}.1"
    for data in (
        {"type": "condition", "pc": quix, "change": "rattle"},
        {"type": "open_violence", "sides": ["Zorba", "Vexa"], "roll_at": 9},
        {"type": "join", "pool": "t0p1", "pc": quix, "side": "a", "may_roll": True},
        {"type": "pick", "pool": "t0p1", "who": quix, "picks": [{"trait": "Lurker", "clause": 0}], "may_roll": True},
        {"type": "add_npc", "pool": "t0p1", "side": "b", "name": "N", "count": 2},
        {"type": "equip", "pool": "t0p1", "side": "b", "n": 1},
    ):
        state = ENGINE.apply(state, GM, ENGINE.parse_action(data), dice).state
    session = campaign()
    ctx = ViewContext(session=session, state=state, prompts=[], events=[], view=view_key("t0p1"))
    with speaking("de"):
        body = drawn(session, render_pool(ctx, "t0p1"))
        odds = odds_now(state, state.pools["t0p1"])
    board = str(body)
    for german in ("Beitreten", "Meine Würfel", "Würfeln", "Kampf beenden", "Ausrüstung", "erschüttert"):
        assert german in board, german
    assert odds is not None and odds.startswith("Chancen jetzt: ") and odds.endswith(" (für Zorba)")
    with speaking("pseudo"):
        assert_pseudo(odds_now(state, state.pools["t0p1"]) or "")


# -- replies, calls, recap, log, journal, refusals ----------------------------------------------------------------


WAITS: list[tuple[str, dict[str, Any]]] = [
    ("turn", {"turn": 3}),
    ("join", {"pool_kind": "violence", "title": "Zorba"}),
    ("roll", {"pool_kind": "knavery"}),
    ("clash", {"pool_kind": "violence", "side": "Vexa", "amount": 2, "need": "cancel"}),
    ("clash", {"pool_kind": "violence", "side": "Vexa", "amount": 1, "need": "assign"}),
    ("clash", {"pool_kind": "violence", "side": "Vexa", "amount": 3, "need": "aim"}),
    ("death", {"pool_kind": "violence", "name": "Quix"}),
    ("flight", {"pool_kind": "violence"}),
    ("thwart", {"pool_kind": "knavery", "successes": 2}),
    ("thwart", {"pool_kind": "knavery", "successes": 0}),
    ("fallout", {}),
    ("other", {}),
]
RECAP_ITEMS: list[Mapping[str, Any]] = [
    {"type": "violence_rolled", "pool": "t1p1", "kind": "violence", "title": "Zorba", "round": 2},
    {"type": "death_test", "pool": "t1p1", "kind": "violence", "name": "Quix", "died": False},
    {"type": "fled", "pool": "t1p1", "kind": "violence", "name": "Yrsa"},
    {"type": "fight_ended", "pool": "t1p1", "kind": "violence", "rounds": 2},
    {"type": "scheme_failed", "pool": "t1p2", "kind": "knavery", "thwarted": ["Thing"]},
    {"type": "knowledge", "name": "Quix", "trait": "Alchemist", "result": "where"},
    {"type": "discovery", "found": True},
    {"type": "pushed", "name": "Yrsa", "trait": "Strongman"},
    {"type": "ip_changed", "delta": 3, "ip": 18},
    {"type": "rank_changed", "old": 1, "new": 2},
    {"type": "reward", "coins": 2, "rank": 2},
    {"type": "ambition_completed"},
    {"type": "pc_wounded", "name": "Quix"},
    {"type": "pc_ended", "name": "Yrsa", "fate": "dead"},
    {"type": "troupe_dissolved", "name": "Vexa"},
    {"type": "bought", "name": "Quix", "item": "Thing", "rank": 2},
    {"type": "revealed", "text": "Zorba"},
]


def embed_text(embed: discord.Embed) -> str:
    """An embed's texts, a line each."""
    return "\n".join(texts({"embeds": [embed.to_dict()], "components": []}))


def refusal(work: Callable[[], object]) -> str:
    with pytest.raises(UserError) as info:
        work()
    return str(info.value)


CONTENT, EMBED = 2000, 6000


def replies() -> list[tuple[Callable[[], str], int]]:
    """Replies and refusals of this area, each made afresh in the language being spoken, with the most Discord
    shows of them (a message's content, or an embed's texts together)."""
    state = CampaignState()
    turns = {0: ["Zorba"], 1: [], 2: ["Quix"]}
    out: list[tuple[Callable[[], str], int]] = [
        (lambda: recap_text(RECAP_ITEMS, 1, 3, left_out=4), CONTENT),
        (lambda: recap_text([], 0, 0), CONTENT),
        (lambda: journal("Zorba", turns, {}, gm=True, now=0), 10**6),  # a file
        (lambda: journal("", turns, {}, gm=False, now=0), 10**6),
        (lambda: title(0) + "\n" + title(4), CONTENT),
        (lambda: pages_of([])[0], CONTENT),
        (lambda: embed_text(log_embed(turns, None, total=9)), EMBED),
        (lambda: embed_text(log_embed({1: ["Zorba"] * 900}, 1)), EMBED),
        (lambda: odds_text("3d4 1d6 vs 2d4", None), CONTENT),
        (lambda: odds_text("4d6 vs 3", None), CONTENT),
        (lambda: refusal(lambda: pool_of(state, "t9p9")), CONTENT),
        (lambda: refusal(lambda: side_and_npcs("Vexa (99)", 1)), CONTENT),
        (lambda: refusal(lambda: side_and_npcs("Vexa (2 N d8)", 1)), CONTENT),
        (lambda: refusal(lambda: side_and_npcs("Vexa (2 N 99d6)", 1)), CONTENT),
        (lambda: refusal(lambda: log_embed(turns, 7)), CONTENT),
        (lambda: refusal(lambda: named_rival(state, {"rival": "Zorba"})), CONTENT),
    ]
    out += [(functools.partial(what_waits, kind, about), CONTENT) for kind, about in WAITS]
    return out


@pytest.mark.parametrize("language", LANGUAGES)
def test_replies_and_refusals_are_said_in_the_language(language: str) -> None:
    for reply, limit in replies():
        english = reply()
        with speaking(language):
            said = reply()
        assert len(said) <= limit
        for line, original in zip(said.splitlines(), english.splitlines(), strict=False):
            if line.strip("#-* ") and not line.startswith("- Zorba"):
                check(language, line, original)


def test_a_refusal_quoting_the_engine_keeps_its_help_in_the_language() -> None:
    with speaking("es"):
        text = refusal(lambda: odds_text("vs vs", None))
    assert "hasta 6 bandos" in text and "`4d6 vs 3`" in text
