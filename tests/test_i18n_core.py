"""The core speaks the member's language: its boards, lobby, replies, refusals, settings, news and review, rendered
by calling the functions directly in German, Spanish and the pseudo-language, translated and within Discord's
limits when ~40 % longer."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from types import SimpleNamespace
from typing import Any

import discord
import pytest
from pydantic import BaseModel, ValidationError

from bot.board import status_line, who_must_act
from bot.command_input import refusal
from bot.drawing import notes
from bot.errors import Conflict, InvalidInput, StaleBoard
from bot.i18n import PSEUDO, _, speaking
from bot.i18n_extract import code_messages, problems
from bot.interactions import CONFIRMATIONS
from bot.lifecycle import logged_why, told_why
from bot.lobby import CLOSED_EMPTY, STRENGTH_LABELS, Lobby, _strength_select, computer_name
from bot.models import Deadline, GuildSettings, LogEntry, Seat, Session, Status
from bot.news import _core_news
from bot.ratings import Rating, RatingChange, rating_news
from bot.review import review_text, run_review
from bot.review_chart import alt_text
from bot.server_settings import CORE, settings_command
from bot.service import COMPUTER_SEAT, TIMED_OUT, Service
from bot.spec import LobbyOption
from rules.engine import STRONG, Prompt
from rules.said import said
from tests.core.test_review_log import KIND, a_logged_race

LANGUAGES = ("de", "es", PSEUDO)
KEPT = re.compile(r"<[@#]\d+>|<t:\d+:[a-zA-Z]>|https?://\S+|`[^`]*`|\b(?:Alice|Bob|Ann|Bea|Race)\b|\d[\d,.]*")
"""What a translation keeps as it is: mentions, times, links, code, the members' and the game's names, numbers."""
WORD = re.compile(r"[A-Za-z]{2,}")


def table(status: Status = Status.ACTIVE, **more: Any) -> Session:
    """A two-seat race in a channel: Alice (the host) and Bob."""
    seats = [Seat(player="P1", user_id=100, name="Alice"), Seat(player="P2", user_id=101, name="Bob")]
    fields: dict[str, Any] = {
        "id": 1,
        "guild_id": 1,
        "channel_id": 2,
        "kind": "race",
        "status": status,
        "host_id": 100,
        "options": {},
        "seats": seats,
    }
    return Session(**(fields | more))


def untranslated(text: str) -> list[str]:
    """The words of ``text`` outside the pseudo-language's brackets and what is kept as it is."""
    inner = re.compile(r"⟦[^⟦⟧]*⟧")
    while inner.search(text):
        text = inner.sub(" ", text)
    return WORD.findall(KEPT.sub(" ", text))


def said_in(language: str, render: Callable[[], Any]) -> Any:
    with speaking(language):
        return render()


def check(language: str, render: Callable[[], str]) -> str:
    """``render()`` in ``language``: other than its English, and under pseudo nothing left outside the brackets."""
    english, text = said_in("en", render), said_in(language, render)
    assert text != english, f"not translated: {english!r}"
    if language == PSEUDO:
        assert untranslated(text) == [], text
    else:
        assert english not in text
    return text


def _confirmation(pair: tuple[str, str]) -> tuple[str, str]:
    """A confirmation's question and button, said now."""
    return _(pair[0]), _(pair[1])


class _Number(BaseModel):
    amount: int


def _refused_input() -> str:
    try:
        _Number.model_validate({"amount": "many"})
    except ValidationError as exc:
        return InvalidInput.naming(exc).text
    raise AssertionError("validated")


REPLIES: dict[str, Callable[[], str]] = {
    "game over": lambda: status_line(table(Status.FINISHED, winners=["P1"]), "Race", []),
    "abandoned": lambda: status_line(table(Status.ABANDONED), "Race", []),
    "waiting": lambda: status_line(
        table(deadlines=[Deadline(player="P1", decision="roll", seconds=60, at=1000)]),
        "Race",
        [Prompt(player=p, decision="roll", label=said("roll the dice")) for p in ("P1", "P2")],
    ),
    "who must act": lambda: who_must_act(
        table(), [Prompt(player=p, decision="pair", label=said("pick a pair")) for p in ("P1", "P2")]
    ),
    "out of range": lambda: _option_refused("lobby_minutes", 0),
    "not a choice": lambda: _option_refused("end_by", "nobody"),
    "not your move": lambda: Service.waiting_text(table(), [Prompt(player="P2", decision="r", label=said("roll"))]),
    "stale": lambda: StaleBoard().text,
    "stale with a link": lambda: StaleBoard(url="https://discord.com/channels/1/2/3").text,
    "conflict": lambda: Conflict().text,
    "typed input": _refused_input,
    "timed out": lambda: "\n".join(notes(table(), [{"type": TIMED_OUT, "player": "P2"}])),
    "computer name": lambda: computer_name(2, STRONG),
    "sat down": lambda: Lobby(None, {}).retired_line(table(Status.LOBBY)),  # type: ignore[arg-type]
    "confirm": lambda: " ".join(" ".join(_confirmation(pair)) for pair in CONFIRMATIONS.values()),
    "ratings": lambda: _ratings(),
    "chart": lambda: alt_text("Race", [("Ann", [0.5, 0.75, 1.0]), ("Bea", [0.5, 0.25, 0.0])]),
}
REPLIES |= {f"setting {s.name}": (lambda s=s: s.line(GuildSettings())) for s in CORE}
REPLIES |= {
    f"setting {s.name} changed": (
        lambda s=s: s.line(GuildSettings(threads=True, turn_timeout_s=60, keep_logs_days=1, lobbies_per_member=2))
    )
    for s in CORE
    if s.name in ("threads", "turn_seconds", "keep_logs_days", "lobbies_per_member")
}


def _option_refused(name: str, value: Any) -> str:
    """Why ``/settings`` refuses ``value`` for its option ``name``."""
    command = settings_command(CORE, None)  # type: ignore[arg-type]  # the store is only used when it runs
    refused = refusal(next(p for p in command.parameters if p.name == name), value)
    assert refused is not None
    return refused


def _ratings() -> str:
    change = RatingChange(1, "race", 100, Rating(), Rating(mu=27.0, games=1))
    news = rating_news("Race", [change], set())
    assert news is not None
    return news.text


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("what", sorted(REPLIES))
def test_replies_boards_and_refusals_are_translated(language: str, what: str) -> None:
    text = check(language, REPLIES[what])
    assert len(text) <= 2000


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_news_of_a_departure_and_of_a_computer_taking_a_seat_are_translated(language: str) -> None:
    why = said("missed {limit} decisions in a row and leaves the game", limit=3)
    # Logged as JSON, as the store keeps it: the reason is said again from its message and values.
    action = json.loads(json.dumps({"kind": "leave", "how": "timeout", **logged_why(why)}))
    assert action["why"] == "missed 3 decisions in a row and leaves the game"
    entry = LogEntry(seq=3, actor="P2", action=action, at=0.0)
    events = [{"type": COMPUTER_SEAT, "player": "P2", "missed": 3}]
    for item in said_in(language, lambda: _core_news(table(), entry, events)):
        assert len(item.text) <= 2000
    check(language, lambda: "\n".join(n.text for n in _core_news(table(), entry, events)))
    check(language, lambda: told_why({"kind": "abandon", **logged_why(CLOSED_EMPTY)}) or "")


def _lobby_payload() -> Any:
    kind = SimpleNamespace(
        title="Race", parse_options=lambda options: options, seat_limits=lambda options: (2, 4), computers=object()
    )
    spec = SimpleNamespace(
        kind=kind,
        describe_options=lambda options: "",
        seats_players=False,
        lobby_options=(LobbyOption(key="target", label="Target", choices=(("10", 10),)),),
    )
    lobby = Lobby(None, {"race": spec})  # type: ignore[arg-type]
    session = table(
        Status.LOBBY,
        host_id=101,
        options={"_opened_by": 100},
        deadlines=[Deadline(player="", decision="lobby", seconds=900, at=1000)],
    )
    return lobby.payload(session)


def _components(payload: Any) -> list[dict[str, Any]]:
    return [c for row in payload.view.to_components() for c in row["components"]]


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_lobby_is_translated_and_fits(language: str) -> None:
    english, payload = said_in("en", _lobby_payload), said_in(language, _lobby_payload)
    check(language, lambda: _lobby_payload().content)
    embed, english_embed = payload.embeds[0], english.embeds[0]
    assert embed.title != english_embed.title and len(embed.title) <= 256
    assert embed.footer.text != english_embed.footer.text and len(embed.footer.text) <= 2048
    for field, was in zip(embed.fields, english_embed.fields, strict=True):
        assert field.name != was.name and len(field.name) <= 256 and len(field.value) <= 1024
    labels = [c["label"] for c in _components(payload) if c["type"] == discord.ComponentType.button.value]
    assert len(labels) == 6  # Join, Leave, Add computer, Start, Cancel, Options…
    for label, was in zip(labels, [c.get("label") for c in _components(english) if "label" in c], strict=True):
        assert label != was and len(label) <= 80
    if language == PSEUDO:
        assert untranslated(" ".join([payload.content, embed.title, embed.footer.text, *labels])) == []


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_computer_strength_menu_is_translated_and_fits(language: str) -> None:
    menu = said_in(language, lambda: _strength_select("l:1:cpus:0", False))
    english = said_in("en", lambda: _strength_select("l:1:cpus:0", False))
    assert menu.placeholder != english.placeholder and len(menu.placeholder or "") <= 150
    for option, label in zip(menu.options, STRENGTH_LABELS.values(), strict=True):
        assert option.label != label[0] and len(option.label) <= 100
        assert option.description != label[1] and len(option.description or "") <= 100
    for text, label in (said_in(language, lambda pair=pair: _confirmation(pair)) for pair in CONFIRMATIONS.values()):
        assert len(label) <= 80 and len(text) <= 2000
    if language == PSEUDO:
        shown = [menu.placeholder or "", *(o.label for o in menu.options), *(o.description or "" for o in menu.options)]
        assert untranslated(" ".join(shown)) == []


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_review_in_words_is_translated_and_fits(language: str) -> None:
    result = run_review(KIND, {}, a_logged_race(4), budget=5_000)
    names = {"a": "Ann", "b": "Bea"}

    def render() -> str:
        return review_text(result, names, "a", False, lambda seq: "🎲", lambda events: ["🎲"])

    text = check(language, render)
    assert len(text) <= 1900


def test_every_core_message_in_the_code_is_translated_in_every_language() -> None:
    found = [item for item in code_messages() if item.domain == "core"]
    assert len(found) > 200
    assert [p for p in problems(found) if "/core.po" in p] == []
