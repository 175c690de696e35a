"""Vices & Vengeance in other languages: the table game's boards, the scoresheet (its message, picture text and
alt text), their sentences, the calculator and the refusals, said in German, Spanish and the pseudo-language.

Under ``pseudo`` every message is bracketed ``⟦…⟧``: what is left outside the brackets must be names, numbers,
dice notation or the rulebook's proper names (the Sins, the Mythical dice), never an English word. German and
Spanish must differ from the English and keep none of its common words. Everything must fit Discord's limits
although ``pseudo`` makes each message ~40 % longer.
"""

from __future__ import annotations

import asyncio
import importlib
import random
import re
from collections.abc import Iterator
from typing import Any

import discord
import pytest

from bot.errors import InvalidInput
from bot.i18n import localize, speaking
from bot.models import Seat, Session, Status
from bot.pictures import PictureWorker
from bot.spec import View, ViewContext
from cogs.vices import table_view as tv
from cogs.vices.picture import alt_text, draw_sheet
from cogs.vices.sheet import SheetSpec, help_embed, parse_players, sin_called, sins_embed
from cogs.vices.sheet_view import narrate as sheet_narrate
from cogs.vices.sheet_view import render_sheet
from cogs.vices.table import TableSpec, preview_text
from rules.dice import ScriptedDice, SeededDice
from rules.engine import IllegalAction
from rules.vices.actions import ClaimSin, PickPair, Remove, RemoveZeros
from rules.vices.calc import CalcError, calculate
from rules.vices.engine import ENGINE
from rules.vices.options import VicesOptions
from rules.vices.playout import random_options, random_removal
from rules.vices.sheet import SHEET_ENGINE
from rules.vices.sheet_state import SheetOptions, SheetState, progress
from tests.rules.test_vv_sheet_support import KEEPER, new_sheet

TABLE = TableSpec(bot=None)  # type: ignore[arg-type]  # drawing needs no bot
SHEET = SheetSpec(bot=None)  # type: ignore[arg-type]
NAMES = ("Ana", "Bea", "Cyd", "Dov", "Eli", "Fay", "Gus")
SHEET_NAMES = {"Jordan", "Taylor", "Casey", "Avery", "Kim"}
"""The sheet's players and keeper (tests.rules.test_vv_sheet_support)."""
PROPER = {
    *("Wrath", "Sloth", "Pride", "Lust", "Greed", "Gluttony", "Envy"),
    *("WRATH", "SLOTH", "PRIDE", "LUST", "GREED", "GLUTTONY", "ENVY"),
    *("Wr", "Sl", "Pr", "Lu", "Gr", "Gl", "En"),
    *("Mirror", "Medusa", "David", "Goliath", "Silver", "Bullet", "Werewolf"),
    *("Vices", "Vengeance", "vv", "game", "log"),  # the game's name; `/vv …` and `/game log` are typed as they are
    *("pair", "bullet", "penalty", "nemesis", "wild"),  # the calculator's kinds of term, as typed
}
"""Words that stay English in every language: the rulebook's proper names and what members type."""
ENGLISH_WORDS = re.compile(r"\b(the|and|your|you|is|are|with|of|to|from|wins|roll|dice|turn|score|round)\b")
"""Common English words (whole words) a German or Spanish text must not contain."""
LIMITS = {"title": 256, "description": 4096, "field": 256, "value": 1024, "footer": 2048, "content": 2000}


# -- collecting what a member reads -------------------------------------------------------------------------------


def view_texts(view: View) -> Iterator[tuple[str, str]]:
    """(kind, text) of everything a member reads in a drawn view, with the limit it must fit."""
    if view.content:
        yield "content", view.content
    for embed in view.embeds:
        if embed.title:
            yield "title", embed.title
        if embed.description:
            yield "description", embed.description
        for field in embed.fields:
            yield "field", str(field.name)
            yield "value", str(field.value)
        if embed.footer and embed.footer.text:
            yield "footer", embed.footer.text
    for picture in view.pictures:
        yield "alt", picture.description or ""
    for row in view.rows:
        for item in row:
            yield from item_texts(item)


def item_texts(item: discord.ui.Item[Any]) -> Iterator[tuple[str, str]]:
    """A button's label, a select's placeholder and options."""
    if isinstance(item, discord.ui.Button) and item.label:
        yield "label", item.label
    if isinstance(item, discord.ui.Select):
        if item.placeholder:
            yield "placeholder", item.placeholder
        for option in item.options:
            yield "option", option.label
            if option.description:
                yield "option", option.description


ITEM_LIMITS = {"label": 80, "placeholder": 150, "option": 100, "alt": 1024, **LIMITS}


def unbracketed(text: str) -> str:
    """``text`` with every pseudo-language message (nested ones too) taken out."""
    while True:
        shorter = re.sub(r"⟦[^⟦⟧]*⟧", " ", text)
        if shorter == text:
            return text
        text = shorter


def english_left(text: str, names: set[str]) -> list[str]:
    """Words of ``text`` outside the pseudo-language's brackets that are neither names nor proper names."""
    words = re.findall(r"[A-Za-z]{2,}", unbracketed(text))
    return [w for w in words if w not in PROPER and w not in names]


def assert_said(language: str, texts: list[tuple[str, str]], english: list[tuple[str, str]], names: set[str]) -> None:
    """Every text fits its limit and is said in ``language`` (no English left)."""
    assert texts, "nothing was drawn"
    for (kind, text), (_kind, original) in zip(texts, english, strict=True):
        assert len(text) <= ITEM_LIMITS[kind], (kind, len(text), text)
        if language == "pseudo":
            assert not english_left(text, names), (kind, english_left(text, names), text)
        elif ENGLISH_WORDS.search(original.lower()):
            # A text with English words in English (not only names and numbers) must read otherwise.
            assert text != original, (kind, text)
            assert not ENGLISH_WORDS.search(unnamed(text, names).lower()), (kind, text)


def unnamed(text: str, names: set[str]) -> str:
    """``text`` without the names in it (a name could be an English word) and its code (commands as typed)."""
    for name in names:
        text = text.replace(name, "")
    return re.sub(r"`[^`]*`", "", text)


# -- the table game ----------------------------------------------------------------------------------------------


def table(players: int, options: dict[str, Any]) -> Session:
    seats = [Seat(player=f"P{i}", user_id=10**18 + i, name=NAMES[i - 1]) for i in range(1, players + 1)]
    return Session(
        id=5,
        guild_id=1,
        channel_id=2,
        kind="vices",
        status=Status.ACTIVE,
        host_id=seats[0].user_id,
        options=options,
        seats=seats,
        version=7,
    )


def table_drawings(seed: int, every: int = 7) -> Iterator[tuple[list[tuple[str, str]], Session, Any]]:
    """Every ``every``-th board of a random game (and its first and last), as (texts, session, state)."""
    rng = random.Random(seed)
    options = random_options(rng)
    players = [f"P{i}" for i in range(1, rng.randint(3, 6) + 1)]
    dice = SeededDice(seed)
    game = table(len(players), options.model_dump(mode="json"))
    outcome = ENGINE.start(options, players, dice)
    state, events, step = outcome.state, outcome.events, 0
    while True:
        over = ENGINE.winners(state) is not None
        game.status = Status.FINISHED if over else Status.ACTIVE
        if step % every == 0 or over:
            ctx = ViewContext(session=game, state=state, prompts=ENGINE.prompts(state), events=events, first=step == 0)
            yield list(view_texts(TABLE.render(ctx))), game, state
        if over:
            return
        player = ENGINE.prompts(state)[0].player
        if ENGINE.prompts(state)[0].decision == "remove":
            action = random_removal(state, rng)
        else:
            action = rng.choice(ENGINE.legal_actions(state, player))
        outcome = ENGINE.apply(state, player, action, dice)
        state, events, step = outcome.state, outcome.events, step + 1


def table_sample(seed: int) -> list[tuple[str, str]]:
    """The boards, their sentences, the previews and the house rules of one random game."""
    texts: list[tuple[str, str]] = []
    for drawn, game, state in table_drawings(seed):
        texts += drawn
        units = ENGINE.removable_units(state)
        if state.turn is not None and units and ENGINE.prompts(state)[0].decision == "remove":
            picked = [units[0].id]
            texts.append(("content", preview_text(game, state, units, picked, ENGINE.removal_points(state, picked))))
    texts.append(("description", TABLE.rules_summary()))
    texts.append(("description", TABLE.describe_options(VicesOptions())))
    texts.append(("value", localize(TABLE.legend)))  # as /game rules shows the key

    return texts


@pytest.mark.parametrize("language", ["de", "es", "pt_BR", "pseudo"])
@pytest.mark.parametrize("seed", [3, 11])
def test_the_table_games_boards_are_said_in_the_language(language: str, seed: int) -> None:
    english = table_sample(seed)
    with speaking(language):
        said = table_sample(seed)
    assert_said(language, said, english, set(NAMES))


def all_events() -> list[dict[str, Any]]:
    """One of every event the table narrates, as the engine emits them."""
    d20 = {"unit": "N.Greed", "dice": [{"die": "N.Greed", "value": 6, "owner": "P2"}], "points": 14}
    pair = {"unit": "mirror_medusa", "dice": [{"die": "Mirror", "value": 3}, {"die": "Medusa", "value": 4}]}
    group = {"unit": "N.Envy+N.Wrath", "dice": [{"die": "N.Envy", "value": 7}, {"die": "N.Wrath", "value": 7}]}
    roll = {"player": "P1", "pair": "david_goliath", "dice": [{"die": "David", "value": 2}], "points": 4}
    return [
        {"type": "game_started", "players": ["P1", "P2", "P3"]},
        {"type": "seat_rolls", "rolls": [{"player": "P1", "value": 20}, {"player": "P2", "value": 20}], "tied": True},
        {"type": "mirror_roll", "player": "P1", "mirror": 3, "dice": [{"die": "L.Wrath", "value": 3}], "matches": []},
        {"type": "mirror_roll", "player": "P1", "mirror": 3, "dice": [], "matches": ["Wrath", "Envy"]},
        {"type": "claim_needed", "player": "P2", "sins": ["Wrath", "Sloth", "Pride"]},
        {"type": "sin_claimed", "player": "P2", "sin": "Pride"},
        {"type": "setup_done", "reserves": []},
        {"type": "turn_started", "round": 2, "player": "P1", "pool": list(range(17))},
        {"type": "matches", "sins": [{"player": "P2", "sin": "Lust"}]},
        {
            "type": "penalty",
            "player": "P2",
            "sin": "Pride",
            "points": 1,
            "dice": [{"die": "s.Pride", "value": 4}, {"die": "L.Pride", "value": 4}, {"die": "M", "value": 5}],
        },
        {"type": "choice_needed", "player": "P2", "decision": "wrath"},
        {"type": "sin_taken", "player": "P2", "sin": "Envy", "source": "reserves", "by": "Gluttony"},
        {"type": "sin_taken", "player": "P2", "sin": "Envy", "source": "P3", "by": "Greed"},
        {"type": "sin_destroyed", "player": "P2", "sin": "Envy", "source": "reserves"},
        {"type": "sins_swapped", "player": "P2", "gave": "Envy", "took": "Lust", "other": "P3"},
        {"type": "envy_declined", "player": "P2"},
        {"type": "effect_none", "sin": "Greed", "reason": "reserves_empty"},
        {"type": "absorbed", "owner": "P2", "value": 9, "defender": "P1"},
        {"type": "not_absorbed", "owner": "P2"},
        {"type": "nemesis_removed", "owner": "P2", "reason": "sloth"},
        {"type": "nemesis_removed", "owner": "P2", "reason": "left"},
        {"type": "removed", "player": "P1", "units": [d20, pair, group], "points": 15, "turn_score": 20},
        {"type": "removed", "player": "P1", "units": [], "points": 0, "turn_score": 20},
        {"type": "nemesis_returned", "dice": [{"to": "P2"}]},
        {"type": "turn_ended", "player": "P1", "abandoned": False, "turn_score": 20, "total": 71},
        {"type": "turn_ended", "player": "P1", "abandoned": True, "turn_score": 20, "total": 71},
        {"type": "end_triggered", "players": ["P1"], "last_turns": ["P2", "P3"]},
        {"type": "end_triggered", "players": ["P1"], "last_turns": []},
        {"type": "game_ended", "reason": "too_few_players", "candidates": ["P1", "P2"], "exact_target": True},
        {"type": "game_ended", "candidates": ["P1"], "exact_target": False},
        {"type": "tiebreak_started", "contenders": ["P1", "P2"]},
        {"type": "pair_chosen", "player": "P1"},
        {"type": "tiebreak_rolled", "round": 1, "rolls": [roll, roll], "tied": True},
        {"type": "game_over", "winner": "P1", "total": 66},
        {"type": "player_left", "player": "P3"},
    ]


@pytest.mark.parametrize("language", ["de", "es", "pt_BR", "pseudo"])
def test_every_sentence_of_the_table_is_said_in_the_language(language: str) -> None:
    game = table(3, {})
    english = [("value", line) for line in tv.narrate(game, all_events())]
    assert len(english) == len(all_events())
    with speaking(language):
        said = [("value", line) for line in tv.narrate(game, all_events())]
        said.append(("value", tv.retired_line(game, all_events())))
    english.append(("value", tv.retired_line(game, all_events())))
    assert_said(language, said, english, set(NAMES))


def table_refusals() -> list[tuple[str, str]]:
    """What the table engine says to actions it refuses, as the bot says them."""
    options = VicesOptions(sin_assignment="mirror_roll")
    state = ENGINE.start(options, ["P1", "P2", "P3"], SeededDice(4)).state
    tries = [("P9", Remove(units=("d12",))), ("P1", PickPair(pair="mirror_medusa")), ("P1", RemoveZeros())]
    tries += [("P1", ClaimSin(sin="Wrath")), ("P2", Remove(units=()))]
    said = []
    for player, action in tries:
        with pytest.raises(IllegalAction) as refused:
            ENGINE.apply(state, player, action, SeededDice(1))
        said.append(("content", localize(refused.value.reason)))
    return said


@pytest.mark.parametrize("language", ["de", "es", "pt_BR", "pseudo"])
def test_the_table_refusals_are_said_in_the_language(language: str) -> None:
    english = table_refusals()
    with speaking(language):
        said = table_refusals()
    assert_said(language, said, english, set(NAMES))


# -- the scoresheet -------------------------------------------------------------------------------------------------


def sheet_game() -> tuple[list[SheetState], list[dict[str, Any]]]:
    """A sheet played to a tie on 70, with Sins moved, a rename and the Sloth die: each state and every event."""
    state = new_sheet()
    states, events = [state], [{"type": "sheet_started", "order": [r.sin for r in state.rows]}]

    def do(data: dict[str, Any], dice: ScriptedDice | None = None) -> None:
        nonlocal state
        outcome = SHEET_ENGINE.apply(state, KEEPER, SHEET_ENGINE.parse_action(data), dice or ScriptedDice([]))
        state = outcome.state
        states.append(state)
        events.extend(outcome.events)

    do({"type": "reorder", "row": "Sloth", "dir": "up"})
    for value in (14, 9, 22, 11, 17, 8, 19, 15):
        do({"type": "score", "row": progress(state).up, "value": value})
    do({"type": "sin", "sin": "Greed", "to": "reserves"})
    do({"type": "sloth", "removed": True})
    do({"type": "rename", "row": "Pride", "name": "Ava"})
    do({"type": "correct", "row": "Wrath", "round": 1, "value": 13})
    do({"type": "keeper", "to": "200", "name": "Kim"})
    events += [{"type": "undone", "by": KEEPER}, {"type": "redone", "by": "200"}]
    for value in (40, 10, 35, 5):  # Taylor reaches 71; Jordan and Ava tie on 31, the lowest
        do({"type": "score", "row": progress(state).up, "value": value})
    rolls = iter(([2, 5], [3, 3]))  # Jordan's pair scores 6, Ava's matches: 0 wins
    while progress(state).roller is not None:
        do({"type": "tiebreak", "row": progress(state).roller, "pair": "mirror_medusa", "dice": next(rolls)})
    assert progress(state).winner == "Pride"
    return states, events


def sheet_session() -> Session:
    return Session(
        id=9, guild_id=1, channel_id=2, kind=SHEET_ENGINE.kind, status=Status.ACTIVE, host_id=100, options={}, version=3
    )


def sheet_sample() -> list[tuple[str, str]]:
    """The sheet's messages (with their picture's words), its sentences, its cards and its refusals."""
    states, events = sheet_game()
    texts: list[tuple[str, str]] = []
    for i, state in enumerate(states):
        ctx = ViewContext(session=sheet_session(), state=state, prompts=[], events=events[: i + 1], first=i == 0)
        texts += list(view_texts(render_sheet(ctx)))
        texts.append(("description", alt_text(state)))
    texts += [("value", line) for line in sheet_narrate(states[-1], events)]
    texts += [("description", SHEET.rules_summary()), ("description", SHEET.describe_options(sheet_options()))]
    texts += embed_texts(sins_embed()) + embed_texts(help_embed(table_game=True))
    return texts + sheet_refusals(states)


def sheet_options() -> SheetOptions:
    """A sheet's options where everyone listed scores their own turn and the round is finished after 70."""
    rows = [{"sin": "Wrath", "name": "Jordan"}, {"sin": "Sloth", "name": "Taylor"}, {"sin": "Greed", "name": "Casey"}]
    settings = {"self_scoring": True}
    return SheetOptions.model_validate({"keeper": KEEPER, "keeper_name": "Kim", "rows": rows, "settings": settings})


def embed_texts(embed: discord.Embed) -> list[tuple[str, str]]:
    """A reference card's texts, each within its limit, read as one text (a long field is split in two)."""
    texts = list(view_texts(View(embeds=[embed], rows=[])))
    for kind, text in texts:
        assert len(text) <= ITEM_LIMITS[kind], (kind, len(text), text)
    return [("description", "\n".join(text for _kind, text in texts))]


def sheet_refusals(states: list[SheetState]) -> list[tuple[str, str]]:
    """The sheet engine's, the calculator's and the typed players' refusals, as the bot says them."""
    said = []
    first, last = states[0], states[-1]
    for state, data in (
        (last, {"type": "score", "row": "Wrath", "value": 3}),
        (first, {"type": "correct", "row": "Wrath", "round": 2, "value": 3}),
        (first, {"type": "rename", "row": "Wrath", "name": "Taylor"}),
        (first, {"type": "sin", "sin": "Wrath", "to": "Wrath"}),
        (first, {"type": "keeper", "to": KEEPER, "name": "Kim"}),
    ):
        with pytest.raises(IllegalAction) as refused:
            SHEET_ENGINE.apply(state, KEEPER, SHEET_ENGINE.parse_action(data), ScriptedDice([]))
        said.append(("content", localize(refused.value.reason)))
    with pytest.raises(IllegalAction) as bad_score:
        SHEET_ENGINE.parse_action({"type": "score", "row": "Wrath", "value": -3})
    said.append(("content", localize(bad_score.value.reason)))
    for text in ("d12:8 pair:3,5 penalty:2,2,5 nemesis:7,7 bullet:1,2", "d7:3", "pair:1", "d12:13"):
        try:
            said.append(("content", calculate(text).render(localize)))
        except CalcError as exc:
            said.append(("content", localize(exc.args[0])))
    for typed in ("Jordan: G", "Jordan: Lazy", ""):
        with pytest.raises(InvalidInput) as refused_input:
            parse_players(typed) if ":" in typed or not typed else sin_called(typed)
        said.append(("content", refused_input.value.text))
    return said


@pytest.mark.parametrize("language", ["de", "es", "pt_BR", "pseudo"])
def test_the_scoresheet_is_said_in_the_language(language: str) -> None:
    english = sheet_sample()
    with speaking(language):
        said = sheet_sample()
    assert_said(language, said, english, SHEET_NAMES | {"Ava", "Lazy"})


def test_the_sheets_picture_is_drawn_in_the_language_it_was_shown_in() -> None:
    state = sheet_game()[0][-1]
    ctx = ViewContext(session=sheet_session(), state=state, prompts=[], events=[], first=False)
    worker = PictureWorker()
    # The modules as imported now: a bot started earlier in this process loaded its cogs afresh, and a picture is
    # sent to the worker by its function's name, which must be the module's function of today.
    view = importlib.import_module("cogs.vices.sheet_view")
    try:
        with speaking("de"):
            picture = view.render_sheet(ctx).pictures[0]
            german = draw_sheet(state)
            # Drawn as the bot draws it: in the worker process, which speaks the language of the channel.
            drawn = asyncio.run(worker.draw(picture.draw))
    finally:
        worker.close()
    assert drawn == german != draw_sheet(state)
    assert "Bild" in (picture.description or "")
    with speaking("pseudo"):
        assert draw_sheet(state)  # every label fits its place, clipped, whatever its length
