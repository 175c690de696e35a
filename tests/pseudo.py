"""The pseudo-language's check: which words of what the bot sent were never translated.

Under ``pseudo`` (``bot.i18n``) every translated message is bracketed ``⟦…⟧``; what the bot sends outside the
brackets is a name, a number, a mention, code (notation members copy), or a sentence nobody marked for the
catalogs. ``untranslated`` reads every text of every request the bot made (contents, embeds, buttons, selects,
forms, autocomplete choices, pictures' alt text) and returns those sentences.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from typing import Any

from bot.i18n import PSEUDO_CLOSE, PSEUDO_OPEN

KEPT_WORDS = frozenset({"Dice", "of", "Crowns", "Vices", "Vengeance", "Viciousness", "V&V"})
"""Words every language keeps: the games' names."""

_BRACKETED = re.compile(f"{PSEUDO_OPEN}[^{PSEUDO_OPEN}{PSEUDO_CLOSE}]*{PSEUDO_CLOSE}")
_CODE = re.compile(r"```.*?```|`[^`]*`", re.DOTALL)
_MARKUP = re.compile(r"<[^<>\s]*>|https?://\S+|:[A-Za-z0-9_]+:|\[[^\]]*\]\(https?://[^)]*\)")
_WORD = re.compile(r"[A-Za-z][A-Za-z']+")
_NOTATION = re.compile(r"\S*\d\S*")
"""A token with a digit in it: dice notation as typed (``4d6kh3``, ``2d20kh1``), a number, a time."""


def texts(body: Any) -> Iterator[str]:
    """Every text a member reads in a request's body (a message, an interaction's answer, a form)."""
    if not isinstance(body, dict):
        return
    data = body.get("data") if isinstance(body.get("data"), dict) else body
    for key in ("content", "title"):
        if isinstance(data.get(key), str):
            yield data[key]
    for embed in data.get("embeds") or []:
        yield from _embed_texts(embed)
    for attachment in data.get("attachments") or []:
        if isinstance(attachment, dict) and isinstance(attachment.get("description"), str):
            yield attachment["description"]
    for choice in data.get("choices") or []:
        if isinstance(choice, dict) and isinstance(choice.get("name"), str):
            yield choice["name"]
    yield from _component_texts(data.get("components") or [])


def _embed_texts(embed: dict[str, Any]) -> Iterator[str]:
    for key in ("title", "description"):
        if isinstance(embed.get(key), str):
            yield embed[key]
    for part in ("footer", "author"):
        item = embed.get(part) or {}
        for key in ("text", "name"):
            if isinstance(item.get(key), str):
                yield item[key]
    for field in embed.get("fields") or []:
        yield str(field.get("name", ""))
        yield str(field.get("value", ""))


def _component_texts(components: Iterable[Any]) -> Iterator[str]:
    for component in components:
        if not isinstance(component, dict):
            continue
        for key in ("label", "placeholder", "content"):
            if isinstance(component.get(key), str):
                yield component[key]
        for option in component.get("options") or []:
            yield str(option.get("label", ""))
            if option.get("description"):
                yield str(option["description"])
        yield from _component_texts(component.get("components") or [])


def stray_words(text: str, names: Iterable[str] = ()) -> list[str]:
    """The words of ``text`` outside the pseudo-language's brackets, code, notation, mentions, links and
    ``names``."""
    previous = None
    while previous != text:  # a translated message may hold another (its {value} was said too): innermost first
        previous, text = text, _BRACKETED.sub(" ", text)
    text = _MARKUP.sub(" ", _CODE.sub(" ", text))
    for name in sorted(names, key=len, reverse=True):
        text = text.replace(name, " ")
    text = _NOTATION.sub(" ", text)
    return [word for word in _WORD.findall(text) if word not in KEPT_WORDS]


def untranslated(requests: Iterable[dict[str, Any]], names: Iterable[str] = ()) -> dict[str, list[str]]:
    """For every text the bot sent with words outside the brackets: those words (the text cut to 120 characters
    is the key). Command registrations are skipped: their names are not translated."""
    found: dict[str, list[str]] = {}
    names = tuple(names)
    for request in requests:
        if request.get("method") not in ("POST", "PATCH") or "/commands" in str(request.get("path")):
            continue
        for text in texts(request.get("json")):
            words = stray_words(text, names)
            if words:
                found[text[:120]] = words
    return found
