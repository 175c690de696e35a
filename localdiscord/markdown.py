"""Discord's markdown as HTML for the web client, on markdown-it-py (a CommonMark parser) with Discord's additions.

CommonMark does the common part (emphasis, code spans and blocks, quotes, lists, headers, masked links) and escapes
every raw HTML tag (``html`` off), so a bot's text can never inject markup. Discord's own syntax is added as small
parser rules: ``__underline__``, ``||spoilers||``, ``-# subtext``, ``<@user>``/``<@&role>``/``<#channel>`` mentions
and ``<t:unix:style>`` timestamps, which the browser formats in the reader's time zone (and keeps relative ones
current). Whatever Discord does not render (tables, images, horizontal rules, indented code) stays plain text.
"""

from __future__ import annotations

import html
import re
from collections.abc import Mapping, Sequence
from datetime import UTC, datetime
from typing import Any

from markdown_it import MarkdownIt
from markdown_it.renderer import RendererHTML
from markdown_it.rules_block import StateBlock
from markdown_it.rules_inline import StateInline
from markdown_it.token import Token
from markdown_it.utils import EnvType, OptionsDict

ANGLE = re.compile(r"<(@!?|@&|#)(\d{15,21})>|<t:(-?\d{1,13})(?::([tTdDfFR]))?>")
BLOCK_RULES = ["blockquote", "fence", "heading", "list"]
INLINE_RULES = ["emphasis", "backticks", "strikethrough", "link", "newline", "escape", "autolink"]


def _spoiler(state: StateInline, silent: bool) -> bool:
    """``||hidden||``: a spoiler the reader reveals by clicking it."""
    start = state.pos
    if not state.src.startswith("||", start):
        return False
    end = state.src.find("||", start + 2)
    if end <= start + 2 or end > state.posMax:
        return False
    if not silent:
        state.push("spoiler_open", "span", 1)
        old_max = state.posMax
        state.pos, state.posMax = start + 2, end
        state.md.inline.tokenize(state)
        state.posMax = old_max
        state.push("spoiler_close", "span", -1)
    state.pos = end + 2
    return True


def _angle(state: StateInline, silent: bool) -> bool:
    """Mentions and timestamps: ``<@id>``, ``<@!id>``, ``<@&id>``, ``<#id>``, ``<t:unix>``, ``<t:unix:R>``."""
    if state.src[state.pos] != "<":
        return False
    match = ANGLE.match(state.src, state.pos, state.posMax)
    if match is None:
        return False
    if not silent:
        token = state.push("discord_ref", "", 0)
        token.meta = {"kind": match.group(1), "id": match.group(2), "unix": match.group(3), "style": match.group(4)}
    state.pos = match.end()
    return True


def _subtext(state: StateBlock, start: int, end: int, silent: bool) -> bool:
    """``-# small print``: one line of subtext (before lists claim the ``-``)."""
    begin = state.bMarks[start] + state.tShift[start]
    line = state.src[begin : state.eMarks[start]]
    if not line.startswith("-# ") or state.sCount[start] - state.blkIndent >= 4:
        return False
    if silent:
        return True
    state.push("subtext_open", "small", 1).map = [start, start + 1]
    inline = state.push("inline", "", 0)
    inline.content, inline.map, inline.children = line[3:].strip(), [start, start + 1], []
    state.push("subtext_close", "small", -1)
    state.line = start + 1
    return True


class DiscordRenderer(RendererHTML):
    """HTML for Discord's additions; ``env`` carries the names of users, roles and channels."""

    def strong_open(self, tokens: Sequence[Token], idx: int, options: OptionsDict, env: EnvType) -> str:
        """``__x__`` underlines in Discord; ``**x**`` is bold."""
        return "<u>" if tokens[idx].markup == "__" else "<strong>"

    def strong_close(self, tokens: Sequence[Token], idx: int, options: OptionsDict, env: EnvType) -> str:
        """Closes what ``strong_open`` opened."""
        return "</u>" if tokens[idx].markup == "__" else "</strong>"

    def spoiler_open(self, tokens: Sequence[Token], idx: int, options: OptionsDict, env: EnvType) -> str:
        """A spoiler: hidden until clicked (or focused and Enter), announced as such to screen readers."""
        return '<span class="spoiler" role="button" tabindex="0" aria-expanded="false" aria-label="Spoiler">'

    def spoiler_close(self, tokens: Sequence[Token], idx: int, options: OptionsDict, env: EnvType) -> str:
        """Closes a spoiler."""
        return "</span>"

    def subtext_open(self, tokens: Sequence[Token], idx: int, options: OptionsDict, env: EnvType) -> str:
        """A line of subtext."""
        return '<p class="subtext"><small>'

    def subtext_close(self, tokens: Sequence[Token], idx: int, options: OptionsDict, env: EnvType) -> str:
        """Closes a line of subtext."""
        return "</small></p>"

    def link_open(self, tokens: Sequence[Token], idx: int, options: OptionsDict, env: EnvType) -> str:
        """Links open in a new tab and tell the page nothing about where they came from."""
        tokens[idx].attrSet("target", "_blank")
        tokens[idx].attrSet("rel", "noopener noreferrer nofollow")
        return self.renderToken(tokens, idx, options, env)

    def discord_ref(self, tokens: Sequence[Token], idx: int, options: OptionsDict, env: EnvType) -> str:
        """A mention (a name, highlighted) or a timestamp (``<time>``, formatted by the browser)."""
        meta: dict[str, Any] = tokens[idx].meta
        if meta["unix"] is not None:
            return _timestamp(int(meta["unix"]), meta["style"] or "f")
        names: Mapping[str, Mapping[str, str]] = env or {}
        kind, ident = meta["kind"], meta["id"]
        if kind == "#":
            name = names.get("channels", {}).get(ident, "unknown-channel")
            return f'<span class="mention channel" data-channel="{ident}">#{html.escape(name)}</span>'
        if kind == "@&":
            name = names.get("roles", {}).get(ident, "unknown-role")
            return f'<span class="mention role">@{html.escape(name)}</span>'
        name = names.get("users", {}).get(ident, "Unknown User")
        return f'<span class="mention user" data-user="{ident}">@{html.escape(name)}</span>'


def _timestamp(unix: int, style: str) -> str:
    try:
        moment = datetime.fromtimestamp(unix, UTC)
    except (OverflowError, OSError, ValueError):
        return html.escape(f"<t:{unix}:{style}>")
    fallback = moment.strftime("%Y-%m-%d %H:%M UTC")
    return f'<time datetime="{moment.isoformat()}" data-style="{style}">{fallback}</time>'


def _parser() -> MarkdownIt:
    md = MarkdownIt("zero", {"breaks": True, "html": False}, renderer_cls=DiscordRenderer)
    md.enable(BLOCK_RULES + INLINE_RULES)
    md.block.ruler.before("list", "subtext", _subtext, {"alt": ["paragraph", "blockquote"]})
    md.inline.ruler.before("autolink", "discord_ref", _angle)
    md.inline.ruler.before("emphasis", "spoiler", _spoiler)
    md.inline.add_terminator_char("|")  # so that plain text stops where a spoiler may start
    return md


_MD = _parser()


def render(text: str, names: Mapping[str, Mapping[str, str]] | None = None) -> str:
    """``text`` in Discord's markdown as safe HTML; ``names`` maps ids to names under "users", "roles", "channels"."""
    if not text:
        return ""
    return _MD.render(text, dict(names or {})).strip()
