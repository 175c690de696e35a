"""The Viciousness campaign's sheets, pages, forms, prices, house rules, sessions and refusals in other languages.

Each is drawn (no Discord needed) in German and Spanish, where no English sentence may be left, and in the
pseudo-language, where every word outside names, numbers and notation must be inside ⟦…⟧; and everything drawn,
~40 % longer, still fits Discord's limits. The slash commands' descriptions and choices fit theirs in every
catalog.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from typing import Any, cast

import discord
import pytest
from babel.messages.pofile import read_po

from bot.board import compose
from bot.errors import UserError
from bot.i18n import LOCALES_DIR, PSEUDO, speaking
from bot.models import MAIN_VIEW, Deadline, Session, Status
from bot.spec import View, ViewContext
from cogs.viciousness import controls
from cogs.viciousness.common import named_pc
from cogs.viciousness.forms import SHAPES, FormRefused, Typed, check, pc_form, refusal, typed_embed
from cogs.viciousness.gm_tools import notes_form, unnamed_change
from cogs.viciousness.house_rules import panel
from cogs.viciousness.pages import no_troupe, page_embed
from cogs.viciousness.rules_text import describe, house_rules_line
from cogs.viciousness.sessions import (
    NARRATORS,
    minutes_text,
    parse_reminders,
    parse_start,
    session_reminder,
    zone,
)
from cogs.viciousness.sheets import render_company, render_troupe, troupe_view
from cogs.viciousness.spec import VicSpec
from cogs.viciousness.wealth import Draft, modifiers_typed, price_message, rank_examples
from localdiscord.validation import check_message, check_modal
from rules.viciousness import ENGINE, CampaignState
from rules.viciousness.actions import AddPC, CreateTroupe, Replace
from rules.viciousness.data import TRAITS
from rules.viciousness.sessions import EVERYONE, reminder_key
from tests.rules.vic_support import GM, P1, P2, Campaign

LANGUAGES = ("de", "es")
NAMES = ("Zorvath", "Kranx", "Blorg", "Mirela", "Tobbo", "Quill", "Zorblat", "Vexmoor")
"""What the members typed (the company, troupes, characters, an item): said as typed in every language."""
ENGLISH_WORDS = re.compile(
    r"\b(the|and|of|is|your|you|with|for|this|that|what|turn|turns|coins?|troupes?|minions?|traits?|pick|none|yet|"
    r"rank|player|house|rules?|session|wealth|character)\b",
    re.IGNORECASE,
)
KEPT = re.compile(r"<@!?\d+>|<t:\d+(?::\w)?>|`[^`]*`|https?://\S+|\b\d*d\d+\b")
"""Mentions, timestamps, code, links, dice notation."""
PSEUDO_WORD = re.compile(r"⟦[^⟦⟧]*⟧")


def session() -> Session:
    return Session(
        id=424242,
        guild_id=1,
        channel_id=2,
        kind="viciousness",
        status=Status.ACTIVE,
        host_id=int(GM),
        options={},
        seats=[],
        version=7,
        roles={GM: ["gm"]},
    )


def campaign() -> CampaignState:
    """A campaign with two troupes, a turn under way, conditions, coins, house rules and a planned session."""
    c = Campaign()
    c.gm({"type": "company", "name": "Zorvath", "ambition": "Vexmoor"})
    mirela, tobbo = c.join(
        P1, ("Mirela", ("Acrobat", "Hacker", "Duelist")), [("Tobbo", ("Medic", "Driver"))], name="Kranx"
    )
    c.join(P2, ("Quill", ("Lurker", "Hacker", "Acrobat")), name="Blorg")
    c.gm({"type": "ambition_done", "next": "Vexmoor"})
    c.gm({"type": "reward", "method": "rare", "npc_rank": 3})
    c.gm({"type": "turn_start"})
    c.act(P1, {"type": "act", "pc": mirela, "kind": "rest"})
    c.gm({"type": "condition", "pc": tobbo, "change": "rattle"})
    c.gm({"type": "condition", "pc": tobbo, "change": "wound"})
    c.gm({"type": "options", "changes": {"speed_chess": True, "auto_cancel": False}})
    c.gm({"type": "plan_session", "session": {"start": 1_900_000_000, "minutes": 150, "reminders": [1440, 60]}})
    return c.state


def texts_of_payload(body: dict[str, Any]) -> Iterator[str]:
    """Every text a member reads in a message or modal payload."""
    for key in ("content", "title", "description", "label", "placeholder", "value"):
        if isinstance(body.get(key), str):
            yield body[key]
    for embed in body.get("embeds") or []:
        yield from texts_of_payload(embed)
        yield from (f["name"] for f in embed.get("fields", []))
        yield from (f["value"] for f in embed.get("fields", []))
        if embed.get("footer"):
            yield embed["footer"]["text"]
    for part in [*(body.get("components") or []), *([body["component"]] if body.get("component") else [])]:
        yield from texts_of_payload(part)
        for option in part.get("options") or []:
            yield option["label"]
            yield from ([option["description"]] if option.get("description") else [])


def message(drawn: View) -> dict[str, Any]:
    payload = compose(session(), ENGINE.title, [], drawn, [], main=False)
    body = {
        "content": payload.content,
        "embeds": [e.to_dict() for e in payload.embeds],
        "components": payload.view.to_components() if payload.view else [],
        "allowed_mentions": discord.AllowedMentions.none().to_dict(),
    }
    check_message(body)  # Discord's limits, as the fake Discord checks them
    return body


def embed_message(embed: discord.Embed, view: Any = None) -> dict[str, Any]:
    body: dict[str, Any] = {"embeds": [embed.to_dict()], "components": view.to_components() if view else []}
    check_message(body)
    return body


def modal_message(modal: discord.ui.Modal) -> dict[str, Any]:
    body = modal.to_dict()
    check_modal(body)
    for part in body["components"]:  # a Label's own texts (the fake Discord checks only text inputs')
        assert len(part.get("label", "")) <= 45, part
        assert len(part.get("description") or "") <= 100, part
        for option in part.get("component", {}).get("options", []):
            assert len(option["label"]) <= 100 and len(option.get("description") or "") <= 100, option
        assert len(part.get("component", {}).get("placeholder") or "") <= 150, part
    return body


def quiet_campaign() -> CampaignState:
    """A campaign archived before its first turn, without a name or a troupe."""
    c = Campaign()
    c.gm({"type": "plan_session", "session": {"start": 1_900_000_000, "minutes": 60, "reminders": [60]}})
    c.gm({"type": "archive"})
    return c.state


def refused(work: Callable[[], object]) -> str:
    with pytest.raises(UserError) as info:
        work()
    return info.value.text


def drawn() -> list[str]:
    """Every text of the sample, in the language being spoken."""
    state = campaign()
    s = session()
    ctx = ViewContext(session=s, state=state, prompts=[], events=[], view=MAIN_VIEW)
    troupe = state.troupes[P1]
    tobbo = troupe.pcs[1].id
    bodies = [
        message(render_company(ctx)),
        message(render_troupe(ViewContext(session=s, state=state, prompts=[], events=[], view=troupe_view(P1)))),
        embed_message(page_embed(troupe, state, 0)),
        embed_message(page_embed(troupe, state, 2)),
        embed_message(**price_message(s, state, Draft(4, ("custom_built",), tobbo, "Zorblat"), gm=True)),
        embed_message(**price_message(s, state, Draft(1, (), "", "Zorblat"), gm=False)),
        embed_message(**panel(s, state)),
        modal_message(pc_form(s, state, AddPC, {"owner": P1})),
        modal_message(pc_form(s, state, CreateTroupe, {"asset": "favor"})),
        modal_message(pc_form(s, state, Replace, {"old": tobbo})),
        modal_message(notes_form(s, "Vexmoor")),
    ]
    with pytest.raises(FormRefused) as info:
        check(CreateTroupe, SHAPES[CreateTroupe](state, {}), Typed(troupe="Blorg", name="Quill", traits=("Acrobat",)))
    answer = refusal(s, {"type": "create_troupe"}, info.value)
    bodies += [embed_message(answer["embed"], answer["view"]), {"content": answer["content"]}]
    bodies.append(
        embed_message(typed_embed(Typed(troupe="Blorg", name="Quill", concept="Vexmoor", traits=("Hacker",))))
    )
    quiet = quiet_campaign()
    bodies.append(message(render_company(ViewContext(session=s, state=quiet, prompts=[], events=[]))))
    deadline = Deadline(player=EVERYONE, decision=reminder_key(1_900_000_000, 60), seconds=0)
    news = session_reminder(state, deadline, 1_900_000_000 - 3600)
    assert news is not None
    bodies.append({"content": news.text})
    planned = {"start": 1_900_000_000, "minutes": 150, "reminders": [2880, 90, 60], "moved": True}
    lines = [
        NARRATORS["session_planned"](state, planned),
        NARRATORS["session_cancelled"](state, planned),
        NARRATORS["options_changed"](state, {"changes": {"speed_chess": True}}),
        describe(state.options),
        house_rules_line(state.options),
        minutes_text(2880),
        minutes_text(90),
        rank_examples(3),
        unnamed_change({"type": "split"}),
        unnamed_change({"type": "zap"}),
        no_troupe(True),
        no_troupe(False),
        VicSpec(cast(Any, None), controls()).rules_summary(),
        refused(lambda: named_pc(state, "Nobody", P2, False)),
        refused(lambda: named_pc(state, "Nobody", GM, True)),
        refused(lambda: parse_reminders("soon")),
        refused(lambda: parse_start("someday", zone("UTC"))),
        refused(lambda: zone("Nowhere/Atlantis")),
        refused(lambda: modifiers_typed("shiny")),
        refused(lambda: check(AddPC, SHAPES[AddPC](state, {}), Typed(traits=("Acrobat", "Hacker")))),
    ]
    return [t for body in bodies for t in texts_of_payload(body)] + [line for line in lines if line]


def stripped(text: str) -> str:
    """``text`` without what stays as typed in every language: names, trait names, mentions, code, dice."""
    text = KEPT.sub(" ", text)
    for word in (*NAMES, *sorted(TRAITS, key=len, reverse=True), "Viciousness", "UTC", "IP"):
        text = text.replace(word, " ")
    return text


def test_english_is_the_code_s_own() -> None:
    texts = drawn()
    joined = "\n".join(texts)
    for sentence in (
        "Turn **1** under way",
        "House rules: ",
        "Pick exactly 2 traits in all, from",
        "Fix the form",
        "📦 Archived · The company",
        ": the session starts <t:1900000000:F>",
    ):
        assert sentence in joined
    assert "⟦" not in joined


@pytest.mark.parametrize("language", LANGUAGES)
def test_no_english_sentence_is_left(language: str) -> None:
    english = drawn()
    with speaking(language):
        said = drawn()
    assert len(said) == len(english)
    for en, text in zip(english, said, strict=True):
        left = ENGLISH_WORDS.findall(stripped(text))
        assert not left, f"{language}: English {left} left in {text!r}"
        if ENGLISH_WORDS.search(stripped(en)):
            assert text != en, f"{language}: not translated: {text!r}"


def test_pseudo_brackets_every_word() -> None:
    with speaking(PSEUDO):
        said = drawn()
    for text in said:
        if text.endswith("…"):  # cut to fit Discord's limit: the word and the brackets it cut
            text = re.sub(r"[^\s⟦⟧]*…$", "", text)
            text += "⟧" * (text.count("⟦") - text.count("⟧"))
        rest = stripped(text)
        while PSEUDO_WORD.search(rest):
            rest = PSEUDO_WORD.sub(" ", rest)
        assert not re.search(r"[A-Za-z]", rest), f"outside ⟦…⟧: {rest!r} in {text!r}"


COMMAND_LIMITS = {
    "command_description": 100,
    "group_description": 100,
    "parameter_description": 100,
    "choice_name": 100,
}


@pytest.mark.parametrize("language", ("es", "pt_BR", "de"))
def test_command_texts_fit(language: str) -> None:
    with (LOCALES_DIR / language / "viciousness.po").open("rb") as f:
        catalog = read_po(f, locale=language)
    checked = 0
    for m in catalog:
        limit = COMMAND_LIMITS.get(m.context or "")
        if m.id and limit:
            assert m.string and len(m.string) <= limit, (m.id, m.string)
            checked += 1
    assert checked > 100
