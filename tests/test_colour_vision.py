"""Nothing told by colour alone: every game's dice and chips carry a letter or a symbol, and the colours the
bot paints stay apart for the common colour-vision deficiencies.

The simulation is Machado, Oliveira and Fernandes (2009), "A Physiologically-based Model for Simulation of
Color Vision Deficiency", at severity 1.0 (dichromacy: no working L, M or S cones), applied to linear RGB;
colours are then compared in CIELAB (ΔE*ab, where about 2.3 is a just-noticeable difference).
"""

from __future__ import annotations

import itertools
import math
import re

from bot.spec import ViewContext
from cogs.crowns import FACE_EMOJI
from cogs.vices import table_view as tv
from cogs.vices.picture import _contrast_ink
from cogs.vices.sheet_view import SIN_EMOJI, SIN_LETTERS
from rules.dice import SeededDice
from rules.vices.engine import ENGINE
from rules.vices.options import VicesOptions
from rules.vices.sheet_data import SINS
from tests.test_vices_boards_fit import table, wire

Matrix = tuple[tuple[float, float, float], ...]
RGB = tuple[int, int, int]
NORMAL: Matrix = ((1, 0, 0), (0, 1, 0), (0, 0, 1))
MACHADO: dict[str, Matrix] = {
    "protanopia": ((0.152286, 1.052583, -0.204868), (0.114503, 0.786281, 0.099216), (-0.003882, -0.048116, 1.051998)),
    "deuteranopia": ((0.367322, 0.860646, -0.227968), (0.280085, 0.672501, 0.047413), (-0.011820, 0.042940, 0.968881)),
    "tritanopia": ((1.255528, -0.076749, -0.178779), (-0.078411, 0.930809, 0.147602), (0.004733, 0.691367, 0.303900)),
}
APART = 15.0
"""ΔE*ab two chips must keep to be told apart at a glance, side by side."""
TWEMOJI: dict[str, RGB] = {"🟥": (221, 46, 68), "🟦": (85, 172, 238), "🟪": (170, 142, 214), "🔵": (85, 172, 238)}
TWEMOJI |= {"🟨": (253, 203, 88), "🟧": (244, 144, 12), "🟩": (120, 177, 89)}
"""How Discord (Twemoji) paints the Sins' squares and circle."""


def linear(channel: int) -> float:
    c = channel / 255
    return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4


def seen(rgb: RGB, matrix: Matrix) -> tuple[float, float, float]:
    """The colour as someone with that vision sees it, in CIELAB (D65)."""
    lin = [linear(c) for c in rgb]
    r, g, b = (min(1.0, max(0.0, sum(row[j] * lin[j] for j in range(3)))) for row in matrix)
    x, y, z = (
        (0.4124 * r + 0.3576 * g + 0.1805 * b) / 0.95047,
        0.2126 * r + 0.7152 * g + 0.0722 * b,
        (0.0193 * r + 0.1192 * g + 0.9505 * b) / 1.08883,
    )

    def f(t: float) -> float:
        return t ** (1 / 3) if t > 0.008856 else 7.787 * t + 16 / 116

    return (116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z)))


def closest(palette: dict[str, RGB], matrix: Matrix) -> tuple[float, str, str]:
    """The two colours of ``palette`` nearest each other for that vision, and how far apart they are."""
    return min(
        (math.dist(seen(palette[a], matrix), seen(palette[b], matrix)), a, b)
        for a, b in itertools.combinations(palette, 2)
    )


def test_the_simulation_is_machados() -> None:
    # White stays white for every vision (each row sums to 1); the old gold and orange met for a deuteranope.
    for matrix in MACHADO.values():
        assert all(abs(sum(row) - 1) < 0.001 for row in matrix)
        assert [round(v) for v in seen((255, 255, 255), matrix)] == [100, 0, 0]
    old = {"Greed": (201, 160, 28), "Gluttony": (239, 108, 0)}
    assert closest(old, NORMAL)[0] > 40 and closest(old, MACHADO["deuteranopia"])[0] < 6


def test_the_scoresheet_colours_stay_apart_for_every_vision() -> None:
    palette = {sin.name: sin.rgb for sin in SINS}
    for vision, matrix in {"normal": NORMAL, **MACHADO}.items():
        distance, a, b = closest(palette, matrix)
        assert distance >= APART, f"{a} and {b} look alike with {vision} (ΔE {distance:.1f})"


def test_the_scoresheet_writes_each_sins_name_on_its_colour_legibly() -> None:
    def luminance(rgb: RGB) -> float:
        r, g, b = (linear(c) for c in rgb)
        return 0.2126 * r + 0.7152 * g + 0.0722 * b

    for sin in SINS:
        ink = _contrast_ink(sin.rgb)
        light, dark = sorted((luminance(sin.rgb), luminance(ink)), reverse=True)
        assert (light + 0.05) / (dark + 0.05) >= 4.5, sin.name  # WCAG AA for text


def test_every_sin_on_a_die_carries_its_letters() -> None:
    """🟦 Sloth and 🔵 Lust are the same blue on Discord: the letters, unique per Sin, tell them apart."""
    assert closest({s: TWEMOJI[SIN_EMOJI[s]] for s in ("Sloth", "Lust")}, NORMAL)[0] < 1
    assert len(set(SIN_LETTERS.values())) == len(SIN_LETTERS) == 7
    for sin in SIN_LETTERS:
        assert tv.sin_mark(sin) == SIN_EMOJI[sin] + SIN_LETTERS[sin] and SIN_LETTERS[sin].isalpha()
        assert f"{tv.sin_mark(sin)} {sin}" in tv.LEGEND  # the key on the first board


def test_a_board_never_shows_a_sin_by_its_colour_alone() -> None:
    colours = "".join(TWEMOJI)
    bare = re.compile(rf"[{colours}](?![A-Za-z])")
    game = table(3, VicesOptions().model_dump(mode="json"))
    dice = SeededDice(4)
    state = ENGINE.start(VicesOptions(), ["P1", "P2", "P3"], dice).state
    shown = 0
    for _ in range(60):
        if ENGINE.winners(state):
            break
        prompts = ENGINE.prompts(state)
        ctx = ViewContext(session=game, state=state, prompts=prompts, events=[])
        text = str(wire(game, ctx)["embeds"])
        assert not bare.search(text), bare.search(text)
        shown += sum(text.count(c) for c in colours)
        player = prompts[0].player
        state = ENGINE.apply(state, player, ENGINE.legal_actions(state, player)[0], dice).state
    assert shown > 100


def test_dice_of_crowns_faces_are_symbols_not_colours() -> None:
    assert len(set(FACE_EMOJI.values())) == 4
    assert not set("".join(FACE_EMOJI.values())) & set("".join(TWEMOJI))
