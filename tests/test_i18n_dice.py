"""``/roll``, ``/dice`` and ``/stats`` in other languages: rolls, presets' words, odds, refusals, boards, secret rolls
and luck, said in German, Spanish and the pseudo-language, with no English left and within Discord's limits."""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Iterator
from types import SimpleNamespace
from typing import Any, cast

import discord
import pytest
from babel.messages.pofile import read_po

from bot.errors import UserError
from bot.i18n import LOCALES_DIR, PSEUDO_CLOSE, PSEUDO_OPEN, localize, speaking
from bot.storage.dice import BoardButton, DiceBoard, LuckCount, SecretRoll, Streak, TurnTotals
from bot.storage.pushes import PushableRoll
from cogs.dice.access import not_here
from cogs.dice.boards import BoardButtonItem, board_text, parse_buttons
from cogs.dice.presets import detail, overview
from cogs.dice.push import PushButton, pushable_text
from cogs.dice.roll import RollAgain
from cogs.dice.saved import check_name, parse_import
from cogs.dice.secret import SecretButton, commitment_line, revealed_text
from cogs.dice.speech import refusal
from cogs.dice.stats import alt_text, chart_panels, luck_table, per_size, streak_line, turns_line
from localdiscord.guild import Channel, Member
from localdiscord.messages import Message
from localdiscord.server import LocalDiscord
from rules.dice import ScriptedDice
from rules.odds import TooCostly
from rules.roll import RollError, render, roll, split_rolls
from rules.roll.odds import odds_table
from rules.roll.systems import SYSTEMS, find_preset, preset_odds, push_preset
from tests.conftest import MakeBot

LANGUAGES = ("de", "es", "pt_BR")
KEPT = (
    "Blades in the Dark / Forged in the Dark",
    "Powered by the Apocalypse",
    "Year Zero Engine",
    "Savage Worlds",
    "Cyberpunk RED",
    "Genesys / Star Wars RPG",
    "Ironsworn / Starforged",
    "STAT",
    "Dice Maiden",
)
"""Names kept as the games call themselves, in every language."""
NOTATION = re.compile(
    r"(?<![\w])[+-]?\d*d(?:\d+|%|F)[\w<>=!.]*|\b(?:adv|dis|vs|bitd|dh|pbta|vtm|yz|sr|sw|cpr|coc|gen|is)\b"
)


class Seeded:
    """Dice from a seeded generator: many landings, the same every run."""

    def __init__(self, seed: int) -> None:
        self.random = random.Random(seed)

    def roll(self, die_id: str, sides: int) -> int:
        return self.random.randint(1, sides)


# -- the samples: each a function of nothing, said in the language being spoken ------------------------------------


def _rolls() -> Iterator[tuple[str, Callable[[], str]]]:
    yield "keep", lambda: render(roll("4d6kh3 # Stealth", ScriptedDice([6, 5, 2, 4])), say=localize)
    yield "successes", lambda: render(roll("5d10 t7 f1 b1", ScriptedDice([10, 7, 3, 1, 8])), say=localize)
    yield "percent note", lambda: render(roll("1d%", ScriptedDice([4])), say=localize)
    yield "chained", lambda: render(roll("1d6e6", ScriptedDice([6, 6, 2])), say=localize)
    yield "summarised", lambda: render(roll("300d6kh100e6", Seeded(1)), say=localize, limit=400)
    for system in SYSTEMS:
        for example in system.examples:
            for seed in range(12):
                yield f"{example} #{seed}", lambda e=example, s=seed: render(roll(e, Seeded(s)), say=localize)


def _pushed() -> str:
    first = roll("yz 3 2 1", ScriptedDice([1, 6, 3, 1, 2, 1]))
    preset = find_preset(first.expression)
    assert preset is not None
    pushed = push_preset(preset, first.sets[0].state, ScriptedDice([1, 1, 1]))
    return render(pushed, say=localize)


def _odds() -> Iterator[tuple[str, Callable[[], str]]]:
    yield "4d6kh3", lambda: "\n".join(odds_table("4d6kh3", 12, 8, say=localize))
    yield "sets", lambda: "\n".join(odds_table("3x 2d6e6 t5", 2, say=localize))
    for system in SYSTEMS:
        example = system.examples[-1]
        yield f"odds {example}", lambda e=example: odds_table(e, 1, 3, say=localize)[1]


REFUSED = (
    "",
    "1d6+",
    "1d20!",
    "1d20 ! = 3",
    "4d6k3",
    "+d20",
    "-d8",
    "1d6)",
    "1d20 adv dis",
    "1d6 f1",
    "3d6 t3 f4",
    "30x 1d6",
    "1d100000",
    "2000d6",
    "1d6rrh1",
    "2d6 adv",
    "4d6 d4",
    "4d6 k",
    "1d% e",
    "1d6 t2 t3",
    "1d6 ; 1d6 ; 1d6 ; 1d6 ; 1d6",
    "bitd",
    "bitd 20",
    "bitd 3 x",
    "coc",
    "coc 50 b1 p1",
    "coc 200",
    "dh +1 adv dis",
    "dh vs",
    "dh vs 2 vs 3",
    "gen zz",
    "gen 9g",
    "sw",
    "sw d7",
    "sr",
    "vtm",
    "vtm 3 h5",
    "yz",
    "yz 0 0 0",
    "yz 1 2 3 4",
    "fate +1 vs 50",
    "4dF vs 99",
    "pbta +1 adv dis",
    "is +50",
    "cpr +99",
    "x" * 501,
)
ODDS_REFUSED = ("1d6e6kh1", "(1d4, 1d6)rr1", "1d20ra20 + 2d20ra20", "1d6/0", "100d100")


def _refusal(text: str, work: Callable[[str], object]) -> str:
    try:
        work(text)
    except TooCostly as reason:
        return localize(reason.args[0])
    except RollError as error:
        return refusal(error)
    raise AssertionError(f"{text!r} was not refused")


def _pages() -> Iterator[tuple[str, Callable[[], str]]]:
    board = DiceBoard(7, 1, 2, 3, "member", 3, True, (BoardButton("attack", "Sword"),))
    yield "board", lambda: board_text(board)
    yield "channel board", lambda: board_text(DiceBoard(8, 1, 2, 3, "channel", 1, False, ()))
    secret = SecretRoll(5, 1, 2, 3, True, "Stealth: 1d20 [14] + 5 = 19", "ab" * 16, "c" * 64)
    yield "commitment", lambda: commitment_line(secret)
    yield "revealed", lambda: revealed_text(secret, "Ana")
    yield "revealed again", lambda: revealed_text(secret, None)
    pushable = PushableRoll(4, 1, 2, 3, "yz 3 2 1", (1, 6, 3, 1, 2, 1), "🎲 **Ana** rolled")
    yield "pushable", lambda: pushable_text(pushable).replace("🎲 **Ana** rolled", "")
    yield "presets", overview
    for system in SYSTEMS:
        yield f"preset {system.key}", lambda k=system.key: detail(k)
    yield "pushed", _pushed
    counts = [LuckCount(20, face, 3 + face % 4, (3 + face % 4) * face) for face in range(1, 21)]
    counts += [LuckCount(6, face, 40, 40 * face) for face in range(1, 7)]
    yield "luck table", lambda: luck_table(per_size(counts))
    yield "alt text", lambda: alt_text("Ana", per_size(counts))
    yield "chart", lambda: "\n".join(panel.title for panel in chart_panels(per_size(counts)))
    yield "streaks", lambda: streak_line([Streak(20, 1, 5, 3)], per_size(counts)) or ""
    yield "turns", lambda: turns_line("Vices & Vengeance", TurnTotals(12, 60, 9.5, 4.0), True)
    yield "their turns", lambda: turns_line("Vices & Vengeance", TurnTotals(1, 6, -2.0, 4.0), False)
    interaction = cast(discord.Interaction, SimpleNamespace(guild_id=1))
    yield "not here", lambda: not_here(interaction, "")


def _user_errors() -> Iterator[tuple[str, Callable[[], object]]]:
    yield "no buttons", lambda: parse_buttons(" , ")
    yield "too many buttons", lambda: parse_buttons(",".join(f"b{i}" for i in range(30)))
    yield "long name", lambda: check_name("x" * 40)
    yield "bad name", lambda: check_name("a;b")
    yield "notation name", lambda: check_name("4d6k3")
    yield "bad import line", lambda: parse_import("attack")
    yield "empty import", lambda: parse_import("# nothing")
    yield "bad json", lambda: parse_import('{"nope": 1}')
    yield "json types", lambda: parse_import('{"saved_rolls": [{"name": null, "expression": "1d6"}]}')


def _user_error(work: Callable[[], object]) -> str:
    with pytest.raises(UserError) as refused:
        work()
    return refused.value.text


def samples() -> Iterator[tuple[str, Callable[[], str]]]:
    """Every sample, named."""
    yield from _rolls()
    yield from _odds()
    yield from _pages()
    for text in REFUSED:
        yield f"refused {text[:20]!r}", lambda t=text: _refusal(t, lambda x: roll(x, Seeded(0)))
    yield "five rolls", lambda: _refusal("1d6;1d6;1d6;1d6;1d6", split_rolls)
    for text in ODDS_REFUSED:
        yield f"odds refused {text!r}", lambda t=text: _refusal(t, odds_table)
    for name, work in _user_errors():
        yield name, lambda w=work: _user_error(w)


SAMPLES = dict(samples())


# -- what "translated" means --------------------------------------------------------------------------------------


def _plain(text: str) -> str:
    """``text`` without what stays as typed: code spans, mentions, notation, kept names, numbers."""
    for name in KEPT:
        text = text.replace(name, " ")
    text = re.sub(r"`[^`]*`|<[^<>]*>|\*\*Ana\*\*|\bAna\b|Stealth|Sword|Vices & Vengeance", " ", text)
    return NOTATION.sub(" ", text)


def _shingles(text: str) -> set[tuple[str, ...]]:
    words = re.findall(r"[A-Za-z]{2,}", _plain(text))
    return {tuple(words[i : i + 3]) for i in range(len(words) - 2)}


@pytest.mark.parametrize("language", ["de", "es"])
def test_no_english_sentence_is_left(language: str) -> None:
    english = {name: work() for name, work in SAMPLES.items()}
    for name, work in SAMPLES.items():
        with speaking(language):
            said = work()
        left = _shingles(english[name]) & _shingles(said)
        assert not left, f"{name}: English left in {said!r}: {sorted(left)}"
        if _shingles(english[name]):
            assert said != english[name], name


def test_pseudo_brackets_every_word() -> None:
    for name, work in SAMPLES.items():
        with speaking("pseudo"):
            said = work()
        outside = re.sub(rf"{PSEUDO_OPEN}[^{PSEUDO_CLOSE}]*{PSEUDO_CLOSE}", " ", said)
        # A message said inside another one closes its brackets early: drop those too.
        outside = re.sub(rf"[^{PSEUDO_OPEN}]*{PSEUDO_CLOSE}", " ", outside)
        words = re.findall(r"[A-Za-z]{2,}", _plain(outside))
        assert not words, f"{name}: {words} outside the pseudo-language in {said!r}"


@pytest.mark.parametrize("language", [*LANGUAGES, "pseudo"])
def test_replies_fit_a_message(language: str) -> None:
    with speaking(language):
        for name, work in SAMPLES.items():
            assert len(work()) <= 2000, name


@pytest.mark.parametrize("language", [*LANGUAGES, "pseudo"])
def test_buttons_are_said_and_fit(language: str) -> None:
    with speaking(language):
        labels = [
            RollAgain("1d20", private=False).item.label,
            PushButton(1).item.label,
            SecretButton("peek", 1).item.label,
            SecretButton("reveal", 1).item.label,
            BoardButtonItem(1, 0, "x" * 200).item.label,
        ]
    assert all(label is not None and 0 < len(label) <= 80 for label in labels)
    if language != "en":
        assert labels[:4] != ["Roll again", "Push", "Show me", "Reveal"]


CONTEXT_LIMITS = {
    "command_description": 100,
    "parameter_description": 100,
    "choice_name": 100,
    "group_description": 100,
}


@pytest.mark.parametrize("language", LANGUAGES)
def test_catalog_is_complete_and_fits_discords_limits(language: str) -> None:
    with (LOCALES_DIR / language / "dice.po").open("rb") as f:
        catalog = read_po(f, locale=language)
    messages = [m for m in catalog if m.id]
    assert len(messages) > 400
    for message in messages:
        strings: tuple[Any, ...] = message.string if isinstance(message.string, tuple) else (message.string,)
        assert all(strings), message.id
        limit = CONTEXT_LIMITS.get(message.context or "")
        if limit is not None:
            assert all(len(s) <= limit for s in strings), (message.id, strings)


def test_english_is_unchanged_by_the_catalogs() -> None:
    with speaking("en"):
        assert render(roll("5d10 t7 f1 b1", ScriptedDice([10, 7, 3, 1, 8])), say=localize) == (
            "5d10 [**10**, **7**, 3, *1*, **8**] = **2** successes · 1 botch"
        )
        assert render(roll("bitd 2", ScriptedDice([6, 6])), say=localize) == "2d6 [**6**, **6**] = 6 → **Critical**"


def test_a_verdict_is_said_in_the_readers_language() -> None:
    result = roll("vtm 5 h1 vs 3", ScriptedDice([10, 6, 2, 1, 10]))
    with speaking("es"):
        assert "Crítico caótico (5 éxitos vs 3)" in render(result, say=localize)
    with speaking("de"):
        assert "**Kritischer Erfolg**" in render(roll("dh +1", ScriptedDice([5, 5])), say=localize)


# -- through the bot ----------------------------------------------------------------------------------------------

DE_BLADES = ("Kritisch", "Voller Erfolg", "Teilerfolg", "Schlechtes Ergebnis")


async def _answer(fake: LocalDiscord, channel: Channel, member: Member, command: str, **options: object) -> Message:
    return await (await fake.slash(channel, member, command, options=options)).message()


async def test_a_german_table_rolls_pushes_and_reveals_in_german(fake: LocalDiscord, make_bot: MakeBot) -> None:
    """Through the bot: answers, buttons, refusals, odds, the push drawn through the outbox and a secret roll, in
    German; the notation as typed."""
    fake.guilds[0].preferred_locale = "de"
    channel, bob, carol = fake.channels[0], fake.members[1], fake.members[2]
    bob.locale = carol.locale = "de"
    await make_bot(extensions=("cogs.dice",))
    rolled = await _answer(fake, channel, bob, "roll", expression="bitd 3")
    assert "** hat gewürfelt\n3d6 [" in rolled.content and any(f"**{w}**" in rolled.content for w in DE_BLADES)
    again = await (await fake.click(rolled, "Nochmal würfeln", carol)).message()
    assert "3d6 [" in again.content and any(f"**{w}**" in again.content for w in DE_BLADES)
    refused = await _answer(fake, channel, bob, "roll", expression="bitd 12")
    assert refused.ephemeral and refused.content == "⚠️ Ein Blades-Pool: von 0 bis 10, nicht 12."
    odds = await _answer(fake, channel, bob, "dice odds", expression="pbta +1", at_least=10)
    assert (
        "🎯 Exakte Wahrscheinlichkeiten für `pbta +1`" in odds.content and "Summe mindestens 10: 27.8%" in odds.content
    )
    pushable = await _answer(fake, channel, bob, "roll", expression="yz 3 2 1")
    assert "Basis 3d6 [" in pushable.content and "Nur wer gewürfelt hat, kann forcieren" in pushable.content
    await fake.click(pushable, "Forcieren", bob)
    await fake.wait_for(lambda: "Forciert:" in pushable.content, what="the push drawn in German")
    secret = await _answer(fake, channel, bob, "dice secret", expression="1d20+5")
    assert "hat geheim gewürfelt · Commitment `" in secret.content
    assert [b["label"] for b in secret.buttons] == ["Zeig mir", "Aufdecken"]
    res = await fake.click(secret, "Aufdecken", bob)
    (revealed,) = await res.followups(1)
    assert "Geheimer Wurf von <@" in revealed.content and "\nErgebnis: `1d20 [" in revealed.content
    saved = await _answer(fake, channel, bob, "dice save", name="attack", expression="1d20+5")
    assert saved.content == "✅ Gespeichert: `attack` = `1d20+5` (deiner). Würfle ihn mit `/roll attack`."
    board = await _answer(fake, channel, bob, "dice board")
    assert board.content.startswith("🎲 **Würfelbrett** · gespeicherte Würfe von <@")
    clicked = await (await fake.click(board, "attack", carol)).message()
    assert "** hat **attack** gewürfelt\n1d20 [" in clicked.content


@pytest.mark.parametrize("language", [*LANGUAGES, "pseudo"])
def test_each_systems_outcomes_stay_apart(language: str) -> None:
    """No two outcomes of one game read the same in a language (its odds table would show two rows alike)."""
    examples = {system.key: system.examples for system in SYSTEMS}
    with speaking(language):
        for key, shown in examples.items():
            for example in shown:
                preset = find_preset(example)
                assert preset is not None
                names = [localize(name) for name, _ in preset_odds(preset).categories]
                assert len(set(names)) == len(names), (key, names)
