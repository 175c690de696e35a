"""The Viciousness engine in the reader's language: its refusals, labels, odds tables and data sentences are
``Said`` (English as before), and ``localize`` says them in Spanish, Brazilian Portuguese, German and the
pseudo-language, complete and within Discord's limits."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from babel.messages.pofile import read_po

from bot.i18n import LOCALES_DIR, PSEUDO_CLOSE, PSEUDO_OPEN, localize, speaking
from rules.engine import GM_ROLES, IllegalAction
from rules.said import Said
from rules.viciousness import ENGINE
from rules.viciousness.characters import ACTION_WORDS
from rules.viciousness.choices import choices_for
from rules.viciousness.data import CHARACTERS, CONSEQUENCES, PRICES, PROCEDURES, REWARDS, told
from rules.viciousness.economy import quote
from rules.viciousness.odds import chances, knavery_odds, render_knavery, render_violence, summary, violence_odds
from rules.viciousness.odds_parse import OddsInputError, parse_knavery, parse_pool, parse_violence
from rules.viciousness.transfer import CampaignImportError, import_campaign
from tests.rules.vic_support import GM, KESTREL, MOTT, P1, P2, PIP, Campaign

LANGUAGES = ("de", "es", "pseudo")
TRANSLATED = ("es", "pt_BR", "de")
NAMES = {"Kestrel", "Mott", "Pip", "Nell", "Crew", "Guards", "Guard", "Troupe", "of", "Flying", "Daggertwist", "Medic"}
"""Words that are names (of PCs, troupes, sides, traits) and stay as typed in every language."""
_PLACEHOLDER = re.compile(r"\{([^{}]*)\}")
_INNERMOST = re.compile(f"{PSEUDO_OPEN}[^{PSEUDO_OPEN}{PSEUDO_CLOSE}]*{PSEUDO_CLOSE}")
_WORD = re.compile(r"[^\W\d_]{2,}")


def _english_parts(text: Said) -> Iterator[str]:
    """The English of a Said and of every Said put into it."""
    yield str(text)
    for value in text.params.values():
        if isinstance(value, Said):
            yield from _english_parts(value)


def _outside_pseudo(text: str) -> str:
    """What is left of ``text`` once every ⟦…⟧ (nested ones too) is taken out."""
    while (shorter := _INNERMOST.sub(" ", text)) != text:
        text = shorter
    return text


def _assert_said(text: Said, limit: int) -> None:
    """``text`` is said in German, Spanish and the pseudo-language: translated through, and within ``limit``."""
    assert isinstance(text, Said), text
    for language in LANGUAGES:
        with speaking(language):
            said = localize(text)
        assert len(said) <= limit, (language, said)
        if language == "pseudo":
            left = set(_WORD.findall(_outside_pseudo(said))) - NAMES
            assert not left, (said, left)
            continue
        for english in _english_parts(text):
            if _PLACEHOLDER.sub("", english).strip(" :"):  # a message of nothing but values reads the same
                assert not re.search(rf"(?<!\w){re.escape(english)}(?!\w)", said), (language, english, said)


def _refused(c: Campaign, actor: str, action: dict[str, Any], dice: tuple[int, ...] = ()) -> Said:
    with pytest.raises(IllegalAction) as info:
        c.act(actor, action, dice)
    reason = info.value.reason
    assert isinstance(reason, Said), reason
    return reason


def test_every_message_of_the_domain_is_translated_with_its_placeholders() -> None:
    for language in TRANSLATED:
        with (LOCALES_DIR / language / "viciousness_rules.po").open("rb") as f:
            catalog = read_po(f, locale=language)
        messages = [m for m in catalog if m.id]
        assert len(messages) > 300
        for m in messages:
            assert isinstance(m.id, str) and isinstance(m.string, str) and m.string, (language, m.id)
            assert set(_PLACEHOLDER.findall(m.string)) == set(_PLACEHOLDER.findall(m.id)), (language, m.id)
            assert m.string.count("`") == m.id.count("`") and ("💡" in m.string) == ("💡" in m.id), m.id


def test_refusals_of_company_troupes_and_wealth_are_said_in_every_language() -> None:
    c = Campaign()
    kestrel, mott = c.join(P1, KESTREL, [MOTT], asset="favor")
    c.join(P2, PIP, asset="liquid_coin")
    reasons = [
        _refused(c, GM, {"type": "company"}),
        _refused(c, GM, {"type": "divest", "n": 9}),
        _refused(c, GM, {"type": "invest", "rank": 2, "n": 5}),
        _refused(c, P1, {"type": "add_pc", "owner": P1, "pc": {"name": "Nell", "traits": ["Driver", "Hacker"]}}),
        _refused(c, P2, {"type": "add_pc", "owner": P2, "pc": {"name": "Nell", "traits": ["Driver", "Driver"]}}),
        _refused(c, P2, {"type": "add_pc", "owner": P2, "pc": {"name": "Nell", "traits": ["Driver", "Flying"]}}),
        _refused(c, P2, {"type": "add_pc", "owner": P2, "pc": {"name": "Nell", "traits": ["Driver"]}}),
        _refused(c, P1, {"type": "act", "pc": kestrel, "kind": "rest"}),
        _refused(c, P1, {"type": "turn_start"}),
        _refused(c, P2, {"type": "condition", "pc": mott, "change": "wound"}),
        _refused(c, GM, {"type": "condition", "pc": mott, "change": "calm"}),
        _refused(c, GM, {"type": "gm_control", "pc": mott, "on": False}),
        _refused(c, GM, {"type": "options", "changes": {"no_such_rule": 1}}),
        _refused(c, GM, {"type": "restore"}),
        _refused(c, GM, {"type": "clear_lockout"}),
    ]
    c.gm({"type": "turn_start"})
    c.act(P1, {"type": "act", "pc": kestrel, "kind": "rest"})
    reasons += [
        _refused(c, P1, {"type": "act", "pc": kestrel, "kind": "knavery"}),
        _refused(c, GM, {"type": "turn_start"}),
        _refused(c, P1, {"type": "push", "pc": mott, "trait": "Daggertwist"}),
        _refused(c, P1, {"type": "knowledge", "pc": mott, "trait": "Strongman"}),
        _refused(c, GM, {"type": "buy", "item": "A palace", "rank": 7, "pay": [{"coins": "turn"}]}),
        _refused(c, GM, {"type": "buy", "item": "A horse", "rank": 3, "pay": [{"coins": "liquid", "rank": 2}]}),
    ]
    for reason in reasons:
        _assert_said(reason, 2000)
    assert reasons[0] == "Nothing to change: give a name, an ambition or a turn length."  # English as before
    assert reasons[15] == "Kestrel already rested this turn: each character takes one action a turn."


def test_refusals_of_fights_schemes_and_rivals_are_said_in_every_language() -> None:
    c = Campaign()
    kestrel, mott = c.join(P1, KESTREL, [MOTT])
    c.gm({"type": "turn_start"})
    fight = c.gm({"type": "open_violence", "title": "The warehouse", "sides": ["Crew", "Guards"]})[0]["pool"]
    c.act(P1, {"type": "join", "pool": fight, "pc": kestrel, "side": "a"})
    scheme = c.gm({"type": "open_knavery", "title": "The vault", "total": 2})[0]["pool"]
    reasons = [
        _refused(c, P1, {"type": "join", "pool": fight, "pc": kestrel, "side": "a"}),
        _refused(c, P1, {"type": "join", "pool": scheme, "pc": kestrel}),
        _refused(c, P1, {"type": "join", "pool": fight, "pc": mott}),
        _refused(c, GM, {"type": "roll", "pool": fight}),
        _refused(c, GM, {"type": "roll", "pool": scheme}),
        _refused(c, P1, {"type": "pick", "pool": fight, "who": kestrel, "picks": [{"trait": "Medic", "clause": 0}]}),
        _refused(c, P1, {"type": "pick", "pool": fight, "who": kestrel, "picks": [{"trait": "Lurker", "clause": 1}]}),
        _refused(c, P1, {"type": "pick", "pool": fight, "who": kestrel, "picks": [{"trait": "Lurker", "clause": 5}]}),
        _refused(c, P1, {"type": "add_npc", "pool": fight, "side": "b", "name": "Guard", "count": 2}),
        _refused(c, GM, {"type": "resolve", "pool": fight}),
        _refused(c, GM, {"type": "flee", "pool": fight, "who": kestrel}),
        _refused(c, GM, {"type": "thwart", "pool": scheme, "picks": [0]}),
        _refused(c, GM, {"type": "challenges", "pool": scheme, "total": 1, "known": ["A good lock", "A hidden trap"]}),
        _refused(c, GM, {"type": "roll", "pool": "t9p9"}),
        _refused(c, GM, {"type": "edit_rival", "rival": "r1", "name": "Nobody"}),
    ]
    rival = c.gm({"type": "add_rival", "name": "The Duke", "rank": 4, "assets": ["A fleet"]})[0]["rival"]
    reasons += [
        _refused(c, GM, {"type": "edit_rival", "rival": rival}),
        _refused(c, GM, {"type": "add_design", "rival": rival, "text": "Burn the docks", "asset": "A castle"}),
        _refused(c, GM, {"type": "foil", "rival": rival, "design": "d9"}),
        _refused(c, GM, {"type": "split", "rival": rival, "points": {}}),
    ]
    for reason in reasons:
        _assert_said(reason, 2000)


def test_permission_refusals_name_the_gm_action_in_every_language() -> None:
    c = Campaign()
    kestrel, _ = c.join(P1, KESTREL, [MOTT])
    reasons = []
    for actor, action in (
        (P2, {"type": "turn_start"}),
        (P2, {"type": "open_violence", "title": "A brawl", "sides": ["A", "B"]}),
        (P2, {"type": "act", "pc": kestrel, "kind": "rest"}),
        (P2, {"type": "edit_troupe", "owner": P1, "name": "Mine"}),
        (P1, {"type": "act", "pc": kestrel, "kind": "rest", "exception": True}),
    ):
        with pytest.raises(IllegalAction) as info:
            ENGINE.authorize(c.state, actor, frozenset(), ENGINE.parse_action(action))
        reasons.append(info.value.reason)
    for reason in reasons:
        _assert_said(reason, 2000)
    with speaking("de"):
        assert localize(reasons[0]) == "Nur die SL darf einen Zug beginnen."


def test_open_decisions_fit_a_button_in_every_language() -> None:
    c = Campaign()
    kestrel, mott = c.join(P1, KESTREL, [MOTT])
    c.gm({"type": "turn_start"})
    fight = c.gm({"type": "open_violence", "title": "The warehouse", "sides": ["Crew", "Guards"]})[0]["pool"]
    for pc in (kestrel, mott):
        c.act(P1, {"type": "join", "pool": fight, "pc": pc, "side": "a"})
    c.gm({"type": "add_npc", "pool": fight, "side": "b", "name": "Guard", "count": 2})
    labels = [d.label for d in choices_for(c.state, GM, GM_ROLES)]
    c.gm({"type": "roll", "pool": fight}, [4, 4, 2, 1])
    labels += [d.label for d in choices_for(c.state, GM, GM_ROLES)]
    assert len(labels) >= 5
    for label in labels:
        _assert_said(label, 80)


def test_action_words_and_data_sentences_are_said_and_fit_their_choices() -> None:
    for word in ACTION_WORDS.values():
        _assert_said(word, 100)
    labels = [a.label for a in CHARACTERS.starting_assets] + [m.label for m in PRICES.modifiers]
    labels += [m.label for m in REWARDS.methods] + [c.label for c in PROCEDURES.discovery.conditions]
    for severity in ("light", "medium", "heavy"):
        table = CONSEQUENCES.table(severity)
        labels += [table.label, *(row.text for row in table.rows)]
    for label in labels:
        _assert_said(told(label), 100)  # a choice's name, a select option's label


def test_prices_say_each_term() -> None:
    q = quote(5, 3, ["custom_built", "illegal"])
    assert [str(why) for why, _ in q.parts] == [
        "Base price",
        "2 ranks above the coins' rank",
        "Custom-built",
        "Illegal (a narcotic, a bribe)",
    ]
    for why, _ in (*q.parts, *quote(2, 3).parts):
        assert isinstance(why, Said)
        _assert_said(why, 100)
    with speaking("es"):
        assert localize(q.parts[1][0]) == "2 rangos por encima del rango de las monedas"


def test_odds_tables_and_their_mistakes_in_every_language() -> None:
    fight = violence_odds(*parse_violence("3d4 r1d6 vs 2d4"))
    brawl = violence_odds(*parse_violence("2d4 vs 2d4 vs 1d4"))
    scheme = knavery_odds(*parse_knavery("3d6 1d4 vs 2"))
    lone = knavery_odds(parse_pool("1d6"), 1)
    assert render_violence(fight).startswith("```\nA 3d4 r1d6")  # English unchanged by default
    for odds in (fight, brawl, scheme, lone):
        _assert_said(summary(odds), 200)  # type: ignore[arg-type]
        _assert_said(chances(odds), 200)
    for language in LANGUAGES:
        with speaking(language):
            tables = [render_violence(fight, localize), render_violence(brawl, localize)]
            tables += [render_knavery(scheme, localize), render_knavery(lone, localize)]
        for table in tables:
            assert len(table) <= 2000 and table.startswith("```") and table.endswith("```")
            words = set(_WORD.findall(table))
            if language == "pseudo":
                words = set(_WORD.findall(_outside_pseudo(table)))
                assert words <= {"vs"}, words  # only dice notation (3d4, r1d6) and side letters are left
            else:
                assert not words & {"wins", "Most", "hits", "Tie", "Success", "Fail", "Successes", "challenges"}
    for language in TRANSLATED:  # the labels fit their column, as the English ones do: the percentages line up
        with speaking(language):
            tables = [render_violence(fight, localize), render_knavery(scheme, localize)]
        for table in tables:
            assert len({line.index("%") for line in table.splitlines() if "%" in line}) == 1, table
            assert max(len(line) for line in table.splitlines()) <= 40, table
    for typed in ("3d4 vs", "3x vs 2d4", "3 vs 2d4", "0d4 vs 1d4", "1d4 vs 1d4 vs 1d4 vs 1d4 vs 1d4 vs 1d4 vs 1d4"):
        with pytest.raises(OddsInputError) as info:
            parse_violence(typed)
        _assert_said(info.value.args[0], 2000)
    for typed, n in (("2d6 vs 3", 3), ("2d6", None), ("2d6 vs 99", None)):
        with pytest.raises(OddsInputError) as info:
            parse_knavery(typed, n)
        _assert_said(info.value.args[0], 2000)


def test_a_file_that_is_no_campaign_is_refused_in_every_language() -> None:
    for data in ("not json", '{"format": "something else"}', '{"format": "viciousness-campaign", "version": 9}'):
        with pytest.raises(CampaignImportError) as info:
            import_campaign(data)
        assert str(info.value) == info.value.said_by(str)  # the English message as before
        for problem in info.value.problems:
            if isinstance(problem, Said) and problem.msgid != "{where}: {problem}":
                _assert_said(problem, 1900)
        with speaking("de"):
            german = info.value.said_by(localize)
        assert german.startswith("Das ist keine Kampagnendatei, die importiert werden kann:\n- ")
