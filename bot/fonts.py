"""Text in pictures for any name a member can have, with the fonts shipped in ``data/fonts``.

A Discord name may be Latin with accents, Cyrillic, Greek, Chinese, Japanese, Korean, Arabic or Hebrew
(right to left), or emoji, often mixed. No one font has all of them, so each character (a grapheme: an
emoji sequence or a letter with its marks stays whole) is drawn with the first shipped font that has it:

- Noto Sans: Latin, Greek, Cyrillic and most symbols;
- Noto Sans Arabic and Noto Sans Hebrew;
- Droid Sans Fallback: Chinese, Japanese and Korean (3.4 MB, where Noto Sans CJK is 19 MB);
- Noto Color Emoji: a bitmap font with one size, drawn at that size and scaled.

Text runs in one font are shaped by Pillow's Raqm layout (HarfBuzz and FriBiDi: Arabic letters join, marks
sit on their letters); the runs are put in visual order by the Unicode bidirectional rules, simplified to
what a name needs (a paragraph direction from the first strong letter, neutrals between two runs of one
direction take it, numbers read left to right). A character no font has is drawn as the missing-glyph box.

The fonts are under the SIL Open Font License (Noto) and the Apache License 2.0 (Droid); see
``data/fonts/README.md``. Fonts and their character maps are loaded once per process.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache, lru_cache
from importlib.resources import files

from fontTools.ttLib import TTFont
from PIL import Image, ImageDraw, ImageFont, features

FONT_DIR = files("data") / "fonts"
RAQM = features.check_feature("raqm")
"""Shaping needs libraqm's FriBiDi (``libfribidi0`` on Debian; the Docker image installs it)."""
LAYOUT = ImageFont.Layout.RAQM if RAQM else ImageFont.Layout.BASIC
ZWJ, VS15, VS16 = "\u200d", "\ufe0e", "\ufe0f"
RGB = tuple[int, int, int]


@dataclass(frozen=True)
class Face:
    """A font file, and the one size it has if it is a bitmap (colour emoji) font."""

    file: str
    bitmap_size: int | None = None

    @property
    def path(self) -> str:
        """Where the file is."""
        return str(FONT_DIR / self.file)


TEXT = Face("NotoSans-Regular.ttf")
EMOJI = Face("NotoColorEmoji.ttf", bitmap_size=109)
FACES = (
    TEXT,
    Face("NotoSansArabic-Regular.ttf"),
    Face("NotoSansHebrew-Regular.ttf"),
    Face("DroidSansFallback.ttf"),
    EMOJI,
)
"""In the order a character looks for a font (an emoji looks in EMOJI first)."""


@cache
def _covered(face: Face) -> frozenset[int]:
    """The characters ``face`` has a glyph for."""
    return frozenset(TTFont(face.path, lazy=True).getBestCmap())


@lru_cache(maxsize=64)
def _font(face: Face, size: int) -> ImageFont.FreeTypeFont:
    return ImageFont.truetype(face.path, face.bitmap_size or size, layout_engine=LAYOUT)


# -- splitting text into graphemes and runs -----------------------------------------------------------------


def _joins(previous: str, ch: str) -> bool:
    """``ch`` belongs to the grapheme before it: a mark, a joiner and what it joins, a variation selector,
    a skin tone, a tag, the second regional indicator of a flag."""
    cp = ord(ch)
    if previous.endswith(ZWJ) or ch == ZWJ or unicodedata.category(ch).startswith("M"):
        return True
    if 0xFE00 <= cp <= 0xFE0F or 0x1F3FB <= cp <= 0x1F3FF or 0xE0020 <= cp <= 0xE007F:
        return True
    return _regional(ch) and len(previous) == 1 and _regional(previous)


def _regional(ch: str) -> bool:
    return 0x1F1E6 <= ord(ch) <= 0x1F1FF


def graphemes(text: str) -> list[str]:
    """``text`` split into what a reader sees as one character each."""
    out: list[str] = []
    for ch in text:
        if out and _joins(out[-1], ch):
            out[-1] += ch
        else:
            out.append(ch)
    return out


def _emoji(grapheme: str) -> bool:
    """Shown as an emoji: asks for it (VS16, a joiner) or lies in the emoji blocks."""
    return VS16 in grapheme or ZWJ in grapheme or any(0x1F000 <= ord(c) <= 0x1FAFF for c in grapheme)


def face_of(grapheme: str, previous: Face | None = None) -> Face:
    """The first font that has every character of ``grapheme`` (a neutral one, like a space, stays in the
    font before it when that font has it: a run of Arabic words is shaped as one)."""
    needed = [ord(c) for c in grapheme if c not in (ZWJ, VS15, VS16)] or [ord(grapheme[0])]
    stays = previous is not None and previous.bitmap_size is None and _direction(grapheme) is None
    if stays and previous is not None and all(cp in _covered(previous) for cp in needed):
        return previous
    order = (EMOJI, *FACES[:-1]) if _emoji(grapheme) else FACES
    for face in order:
        if all(cp in _covered(face) for cp in needed):
            return face
    return next((face for face in order if needed[0] in _covered(face)), TEXT)


def _direction(grapheme: str) -> str | None:
    """ "R" for a right-to-left letter, "L" for any other letter or a digit, None for the rest."""
    for ch in grapheme:
        kind = unicodedata.bidirectional(ch)
        if kind in ("R", "AL"):
            return "R"
        if kind in ("L", "EN", "AN"):
            return "L"
    return None


@dataclass
class Run:
    """Consecutive graphemes in one font and one direction."""

    text: str
    face: Face
    level: int
    """Bidirectional embedding level: even left to right, odd right to left."""

    @property
    def direction(self) -> str:
        """``ltr`` or ``rtl``."""
        return "rtl" if self.level % 2 else "ltr"


def runs(text: str) -> list[Run]:
    """``text`` as runs in visual order (left to right on the page)."""
    parts = graphemes(text)
    strong = [_direction(g) for g in parts]
    base = next((d for d in strong if d is not None), "L")
    resolved: list[str] = []
    for i, direction in enumerate(strong):
        if direction is None:  # between two letters of one direction it takes theirs, else the paragraph's
            before = next((d for d in reversed(strong[:i]) if d is not None), base)
            after = next((d for d in strong[i + 1 :] if d is not None), base)
            direction = before if before == after else base
        resolved.append(direction)
    levels = [(1 if d == "R" else 0) if base == "L" else (1 if d == "R" else 2) for d in resolved]
    out: list[Run] = []
    previous: Face | None = None
    for grapheme, level in zip(parts, levels, strict=True):
        face = face_of(grapheme, previous)
        if out and out[-1].face == face and out[-1].level == level:
            out[-1].text += grapheme
        else:
            out.append(Run(grapheme, face, level))
        previous = face
    return _visual_order(out)


def _visual_order(logical: list[Run]) -> list[Run]:
    """Runs reordered for display (rule L2: from the highest level down, reverse every stretch at or above it)."""
    order = list(logical)
    top = max((r.level for r in order), default=0)
    for level in range(top, 0, -1):
        i = 0
        while i < len(order):
            if order[i].level >= level:
                j = i
                while j < len(order) and order[j].level >= level:
                    j += 1
                order[i:j] = reversed(order[i:j])
                i = j
            else:
                i += 1
    return order


# -- measuring and drawing -------------------------------------------------------------------------------


class Lettering:
    """Text at one size, in whichever shipped font each character needs. Measures like a Pillow font
    (``getlength``) and is drawn with :meth:`Canvas.write`."""

    def __init__(self, size: int) -> None:
        self.size = size
        ascent, descent = _font(TEXT, size).getmetrics()
        self.ascent, self.descent = ascent, descent

    def _scale(self, face: Face) -> float:
        return self.size / face.bitmap_size if face.bitmap_size else 1.0

    def _length(self, run: Run) -> float:
        font = _font(run.face, self.size)
        length = font.getlength(run.text, direction=run.direction) if RAQM else font.getlength(run.text)
        return length * self._scale(run.face)

    def getlength(self, text: str) -> float:
        """The width of ``text`` in pixels."""
        return sum(self._length(run) for run in _runs(text))

    def pieces(self, text: str) -> Iterator[tuple[Run, float]]:
        """Each run of ``text`` in visual order with its width."""
        for run in _runs(text):
            yield run, self._length(run)


@lru_cache(maxsize=4096)
def _runs(text: str) -> tuple[Run, ...]:
    return tuple(runs(text))


class Canvas(ImageDraw.ImageDraw):
    """Pillow's drawing surface, plus text in any script (:meth:`write`)."""

    def __init__(self, image: Image.Image) -> None:
        super().__init__(image)
        self.image = image

    def write(
        self,
        xy: tuple[float, float],
        text: str,
        lettering: Lettering,
        *,
        fill: RGB,
        anchor: str = "la",
        stroke_width: int = 0,
    ) -> None:
        """Draw ``text`` at ``xy`` like ``ImageDraw.text`` (horizontal anchor l, m or r; vertical a, m, s or d),
        every run on one baseline; ``stroke_width`` thickens the letters (not the emoji) in their own ink."""
        pieces = list(lettering.pieces(text))
        width = sum(w for _, w in pieces)
        x = xy[0] - {"l": 0.0, "m": width / 2, "r": width}[anchor[0]]
        ascent, descent = lettering.ascent, lettering.descent
        baseline = xy[1] + {"a": ascent, "m": (ascent - descent) / 2, "s": 0, "d": -descent}[anchor[1]]
        for run, run_width in pieces:
            font = _font(run.face, lettering.size)
            if run.face.bitmap_size:
                self._paste_emoji(run, font, (x, baseline), lettering)
            else:
                text_run = run.text if RAQM or run.level % 2 == 0 else run.text[::-1]
                self.text(
                    (x, baseline),
                    text_run,
                    font=font,
                    fill=fill,
                    anchor="ls",
                    stroke_width=stroke_width,
                    stroke_fill=fill if stroke_width else None,
                    direction=run.direction if RAQM else None,
                )
            x += run_width

    def _paste_emoji(
        self, run: Run, font: ImageFont.FreeTypeFont, at: tuple[float, float], lettering: Lettering
    ) -> None:
        """Colour emoji: drawn at their font's one size, scaled to the text's, on its baseline."""
        ascent, descent = font.getmetrics()
        width = max(1, round(font.getlength(run.text)))
        tile = Image.new("RGBA", (width, ascent + descent), (0, 0, 0, 0))
        ImageDraw.Draw(tile).text((0, ascent), run.text, font=font, anchor="ls", embedded_color=True)
        scale = lettering.size / font.size
        size = (max(1, round(width * scale)), max(1, round((ascent + descent) * scale)))
        tile = tile.resize(size, Image.Resampling.LANCZOS)
        self.image.paste(tile, (round(at[0]), round(at[1] - ascent * scale)), tile)
