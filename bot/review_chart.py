"""The review's picture: each player's estimated win chance over the game, one line per player.

A pure function of its arguments (no I/O, no clock), run in a worker process by ``bot.pictures.PictureWorker`` like
the luck chart. Nothing is told by colour alone: each line has its own dash pattern and is labelled with the
player's name where it ends, and the caller sends the same facts as alt text (``alt_text``).
"""

from __future__ import annotations

import io
import itertools
from collections.abc import Sequence

from PIL import Image

from bot.fonts import Canvas, Lettering
from bot.i18n import _, _n
from bot.names import clip

PAPER = (251, 248, 243)
INK = (28, 28, 30)
MUTED = (105, 99, 92)
LINES = ((52, 101, 164), (176, 32, 32), (46, 125, 50), (123, 31, 162), (230, 120, 0), (0, 131, 143))
DASHES = (None, (12, 6), (3, 5), (14, 4, 3, 4), (6, 6), (2, 3))
"""Solid, dashed, dotted, dash-dot…: told apart without colour."""
WIDTH, HEIGHT = 900, 420
LEFT, RIGHT, TOP, BOTTOM = 56, 170, 52, 44


def draw_review_chart(title: str, curves: Sequence[tuple[str, Sequence[float]]], axis: str) -> bytes:
    """A PNG of each (name, win chances by position) line over the game, 0 to 100 %; ``axis`` names the moves'
    axis (said by the caller: the worker process has no language of its own)."""
    image = Image.new("RGB", (WIDTH, HEIGHT), PAPER)
    draw = Canvas(image)
    big, small = Lettering(22), Lettering(14)
    draw.write((LEFT, 14), title, big, fill=INK)
    x0, x1, y0, y1 = LEFT, WIDTH - RIGHT, TOP, HEIGHT - BOTTOM
    for tick in (0, 25, 50, 75, 100):
        y = y1 - (y1 - y0) * tick / 100
        draw.line((x0, y, x1, y), fill=(225, 220, 212) if tick else MUTED, width=1)
        draw.write((x0 - 8, y), f"{tick}%", small, fill=MUTED, anchor="rm")
    draw.write(((x0 + x1) / 2, y1 + 8), axis, small, fill=MUTED, anchor="ma")
    ends: list[float] = []
    for index, (name, values) in enumerate(curves):
        if not values:
            continue
        step = (x1 - x0) / max(1, len(values) - 1)
        points = [(x0 + i * step, y1 - (y1 - y0) * v) for i, v in enumerate(values)]
        colour = LINES[index % len(LINES)]
        _polyline(draw, points, colour, DASHES[index % len(DASHES)])
        label_y = _free(points[-1][1], ends)
        ends.append(label_y)
        draw.write((x1 + 8, label_y), f"{name} {round(values[-1] * 100)}%", small, fill=colour, anchor="lm")
    out = io.BytesIO()
    image.save(out, format="PNG", compress_level=1)
    return out.getvalue()


def _free(y: float, taken: Sequence[float]) -> float:
    """A label's height near ``y`` that no earlier label overlaps (labels of lines ending together stack)."""
    while any(abs(y - other) < 18 for other in taken):
        y += 18
    return y


def _polyline(
    draw: Canvas, points: Sequence[tuple[float, float]], colour: tuple[int, int, int], dash: tuple[int, ...] | None
) -> None:
    """The line through ``points``, solid or in the ``dash`` pattern (on, off, on, off… in pixels)."""
    if dash is None:
        draw.line(list(points), fill=colour, width=3, joint="curve")
        return
    pattern, phase, on = list(dash), 0.0, True
    index = 0
    for (ax, ay), (bx, by) in itertools.pairwise(points):
        length = max(1e-9, ((bx - ax) ** 2 + (by - ay) ** 2) ** 0.5)
        done = 0.0
        while done < length:
            run = min(pattern[index] - phase, length - done)
            if on:
                s, e = done / length, (done + run) / length
                piece = (ax + (bx - ax) * s, ay + (by - ay) * s, ax + (bx - ax) * e, ay + (by - ay) * e)
                draw.line(piece, fill=colour, width=3)
            done += run
            phase += run
            if phase >= pattern[index]:
                phase, on, index = 0.0, not on, (index + 1) % len(pattern)


def alt_text(title: str, curves: Sequence[tuple[str, Sequence[float]]]) -> str:
    """The chart in words (Discord's alt text holds 1,024 characters): each line's start, lowest, highest, end."""
    positions = max((len(v) for _, v in curves), default=0)
    parts = [
        _n(
            "{title}: estimated chance to win (smoothed) over {n} position.",
            "{title}: estimated chance to win (smoothed) over {n} positions.",
            positions,
            title=title,
        )
    ]
    for name, values in curves:
        if values:
            parts.append(
                _(
                    "{name}: from {first}% to {last}% (low {low}%, high {high}%).",
                    name=name,
                    first=round(values[0] * 100),
                    last=round(values[-1] * 100),
                    low=round(min(values) * 100),
                    high=round(max(values) * 100),
                )
            )
    return clip(" ".join(parts), 1024)
