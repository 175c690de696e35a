"""The luck chart: for each die size, how often each face (or range of faces) came up against a fair die's share.

``draw_chart`` is a pure function of its panels (no I/O, no clock), run in a worker process by
``bot.pictures.PictureWorker`` like the scoresheet picture, its text in the shipped fonts (``bot.fonts``: a name or a
word in any language is drawn as written). Bars are labelled with their faces, the fair share is
a dashed line with its own legend entry, and the caller sends the same facts as alt text: nothing is told by
colour alone.
"""

from __future__ import annotations

import io
from dataclasses import dataclass

from PIL import Image

from bot.fonts import Canvas, Lettering

PAPER = (251, 248, 243)
INK = (28, 28, 30)
MUTED = (105, 99, 92)
BAR = (52, 101, 164)
FAIR = (176, 32, 32)
WIDTH = 900
PANEL_H = 190
MARGIN = 28
TITLE_H = 46


@dataclass(frozen=True, slots=True)
class Panel:
    """One die size: ``bars`` as (label, share of rolls, fair share)."""

    title: str
    bars: tuple[tuple[str, float, float], ...]


def draw_chart(title: str, panels: tuple[Panel, ...], legend: tuple[str, str] = ("rolled", "fair dice")) -> bytes:
    """A PNG with one panel per die size; ``legend`` names the bars and the dashed line (said by the caller, in the
    reader's language: this runs in another process)."""
    height = TITLE_H + len(panels) * PANEL_H + MARGIN
    image = Image.new("RGB", (WIDTH, height), PAPER)
    draw = Canvas(image)
    big, small = Lettering(24), Lettering(14)
    draw.write((MARGIN, 12), title, big, fill=INK)
    rolled, fair = legend
    # Right-aligned, as wide as its words: a language with longer ones pushes it left, never off the picture.
    legend_x = int(WIDTH - MARGIN - (20 + small.getlength(rolled) + 16 + 30 + 6 + small.getlength(fair)))
    draw.rectangle((legend_x, 18, legend_x + 14, 32), fill=BAR)
    draw.write((legend_x + 20, 17), rolled, small, fill=INK)
    line_x = int(legend_x + 20 + small.getlength(rolled) + 16)
    _dashed(draw, line_x, line_x + 30, 25)
    draw.write((line_x + 36, 17), fair, small, fill=INK)
    for index, panel in enumerate(panels):
        _panel(draw, panel, TITLE_H + index * PANEL_H, small)
    out = io.BytesIO()
    image.save(out, format="PNG", compress_level=1)  # optimize=True took 3× as long, for 30 % less
    return out.getvalue()


def _panel(draw: Canvas, panel: Panel, top: int, font: Lettering) -> None:
    draw.write((MARGIN, top + 4), panel.title, font, fill=INK)
    plot_top, plot_bottom = top + 26, top + PANEL_H - 30
    left, right = MARGIN, WIDTH - MARGIN
    highest = max([share for _, share, fair in panel.bars] + [fair for _, _, fair in panel.bars] + [1e-9])
    scale = (plot_bottom - plot_top) / (highest * 1.1)
    slot = (right - left) / max(1, len(panel.bars))
    draw.line((left, plot_bottom, right, plot_bottom), fill=MUTED, width=1)
    every = max(1, len(panel.bars) // 20)
    for i, (label, share, fair) in enumerate(panel.bars):
        x0 = left + i * slot + slot * 0.15
        x1 = left + (i + 1) * slot - slot * 0.15
        draw.rectangle((x0, plot_bottom - share * scale, x1, plot_bottom), fill=BAR)
        _dashed(draw, int(left + i * slot), int(left + (i + 1) * slot), int(plot_bottom - fair * scale))
        if i % every == 0:
            draw.write(((x0 + x1) / 2, plot_bottom + 4), label, font, fill=MUTED, anchor="ma")


def _dashed(draw: Canvas, x0: int, x1: int, y: int) -> None:
    for x in range(x0, x1, 8):
        draw.line((x, y, min(x + 4, x1), y), fill=FAIR, width=2)
