"""The bot's languages: message catalogs (gettext ``.po`` files read with Babel) and the language being spoken.

Every sentence a member reads is a message in the catalogs, written in English in the code and marked there:

- ``_("You rolled {total}.", total=12)``: said now, in the language being spoken;
- ``_n("{n} point", "{n} points", n)``: the same with a count (each language's own plural forms);
- ``N_("Dice of Crowns")``: only marked (a module's constant); said later with ``_(CONSTANT)``;
- ``rules.said.said(...)`` (``said_n`` with a count) in the pure engines: English now, said in another language by
  ``localize``.

Who is spoken to decides the language (``speaking``): a member's own answers in their Discord language (or the
one they chose, ``bot.languages``), what a channel shows in its server's. English is the code's own text, so it
needs no catalog. ``pseudo`` is for tests: every message lengthened by ~40 %, accented and bracketed ``⟦…⟧``, so
a payload shows at once what was never translated and whether a longer language still fits.

The catalogs are ``data/locales/<language>/<domain>.po``, one domain per game or part
(``python -m bot.i18n_extract`` keeps them in step with the code).
"""

from __future__ import annotations

import contextlib
import functools
import gettext
import io
import logging
import math
import re
from collections.abc import Callable, Iterator
from contextvars import ContextVar
from pathlib import Path
from typing import Any, TypeVar

from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

import data
from rules.said import Said

log = logging.getLogger(__name__)
T = TypeVar("T")

ENGLISH = "en"
PSEUDO = "pseudo"
LANGUAGES: dict[str, str] = {"en": "English", "es": "Español", "pt_BR": "Português (Brasil)", "de": "Deutsch"}
"""The catalogs' languages, each by its name in itself."""
LOCALES_DIR = Path(data.__file__).parent / "locales"

_DISCORD_LOCALES = {"es-ES": "es", "es-419": "es", "pt-BR": "pt_BR", "de": "de"}
"""Discord's locales that have a catalog; every other one is answered in English."""

_speaking: ContextVar[str] = ContextVar("speaking", default=ENGLISH)


def language_of(locale: object) -> str:
    """The catalog's language for a Discord locale (``es-419`` → ``es``), a language itself, or English."""
    value = str(getattr(locale, "value", locale) or "")
    if value in LANGUAGES or value == PSEUDO:
        return value
    return _DISCORD_LOCALES.get(value, ENGLISH)


def discord_locales(language: str) -> tuple[str, ...]:
    """Discord's locales a catalog's language answers (``es`` → ``es-ES``, ``es-419``)."""
    return tuple(locale for locale, lang in _DISCORD_LOCALES.items() if lang == language)


@functools.cache
def translations(language: str) -> gettext.NullTranslations:
    """A language's catalogs, every domain in one (read once per process; there are only a few languages)."""
    if language == PSEUDO:
        return _Pseudo()
    folder = LOCALES_DIR / language
    if language == ENGLISH or not folder.is_dir():
        return gettext.NullTranslations()
    merged = Catalog(locale=language)
    for path in sorted(folder.glob("*.po")):
        with open(path, "rb") as f:
            catalog = read_po(f, locale=language)
        for message in catalog:
            if message.id and message.string and not message.fuzzy:
                merged.add(message.id, message.string, context=message.context)
    buffer = io.BytesIO()
    write_mo(buffer, merged)
    buffer.seek(0)
    return gettext.GNUTranslations(buffer)


def current() -> str:
    """The language being spoken."""
    return _speaking.get()


@contextlib.contextmanager
def speaking(language: str) -> Iterator[None]:
    """Say everything inside in ``language`` (a catalog's language, ``language_of`` a Discord locale)."""
    token = _speaking.set(language)
    try:
        yield
    finally:
        _speaking.reset(token)


def use(language: str) -> None:
    """Speak ``language`` from here to the end of the current task (an interaction's handling)."""
    _speaking.set(language)


def in_language(language: str, work: Callable[[], T]) -> T:
    """``work()`` with ``language`` spoken: for work done in another process, which has no say of its own."""
    with speaking(language):
        return work()


def _format(message: str, text: str, params: dict[str, Any]) -> str:
    if not params:
        return text
    values = {k: localize(v) if isinstance(v, Said) else v for k, v in params.items()}
    try:
        return text.format(**values)
    except (KeyError, IndexError, ValueError):
        log.warning("A translation of %r has other {names} than the message; said in English", message)
        return message.format(**values)


def _(message: str, /, **params: Any) -> str:
    """``message`` in the language being spoken, with ``params`` put into its ``{names}``."""
    return _format(message, translations(current()).gettext(message), params)


def _n(singular: str, plural: str, n: int, /, **params: Any) -> str:
    """The form of the message for ``n`` things in the language being spoken; ``{n}`` is the count."""
    text = translations(current()).ngettext(singular, plural, n)
    return _format(singular if n == 1 else plural, text, {"n": n, **params})


def _p(context: str, message: str, /, **params: Any) -> str:
    """``message`` as it is meant in ``context`` (a short word said differently in two places)."""
    return _format(message, translations(current()).pgettext(context, message), params)


def N_(message: str) -> str:
    """Marks ``message`` for the catalogs without saying it yet (a constant said later with ``_``)."""
    return message


def localize(text: str) -> str:
    """Text an engine said (``rules.said.Said``) in the language being spoken; any other text as it is."""
    if not isinstance(text, Said):
        return text
    if text.plural is not None:
        n = text.params["n"]
        english = text.msgid if n == 1 else text.plural
        return _format(english, translations(current()).ngettext(text.msgid, text.plural, n), text.params)
    return _format(text.msgid, translations(current()).gettext(text.msgid), text.params)


# -- the pseudo-language -------------------------------------------------------------------------------------------

_ACCENTED = dict(
    zip(
        "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ",
        "áƀçđéƒğĥíĵķĺɱñóƥʠŕšťúṽŵẋýžÁƁÇĐÉƑĞĤÍĴĶĹṀÑÓƤɊŔŠŤÚṼŴẊÝŽ",
        strict=True,
    )
)
_KEPT = re.compile(r"\{[^{}]*\}|`[^`]*`|<[^<>]*>|https?://\S+|:[a-z0-9_]+:|\*\*|__|~~|\|\||\\.")
PSEUDO_OPEN, PSEUDO_CLOSE = "⟦", "⟧"


def pseudo(message: str) -> str:
    """``message`` as the pseudo-language says it: accented, ~40 % longer, bracketed; its ``{names}``, code,
    mentions, links and markdown untouched."""
    if not message.strip():
        return message
    parts, at = [], 0
    for kept in _KEPT.finditer(message):
        parts.append("".join(_ACCENTED.get(c, c) for c in message[at : kept.start()]))
        parts.append(kept.group())
        at = kept.end()
    parts.append("".join(_ACCENTED.get(c, c) for c in message[at:]))
    padding = "·" * math.ceil(len(message) * 0.4)
    return f"{PSEUDO_OPEN}{''.join(parts)}{padding}{PSEUDO_CLOSE}"


class _Pseudo(gettext.NullTranslations):
    def gettext(self, message: str) -> str:
        return pseudo(message)

    def ngettext(self, msgid1: str, msgid2: str, n: int) -> str:
        return pseudo(msgid1 if n == 1 else msgid2)

    def pgettext(self, context: str, message: str) -> str:
        return pseudo(message)

    def npgettext(self, context: str, msgid1: str, msgid2: str, n: int) -> str:
        return pseudo(msgid1 if n == 1 else msgid2)
