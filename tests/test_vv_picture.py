"""The scoresheet's picture (a PNG drawn with Pillow) and its alt text."""

from __future__ import annotations

import fnmatch
import io
import tomllib
from importlib.resources import files
from pathlib import Path

from PIL import Image, ImageDraw, ImageFont, features

from bot.fonts import EMOJI, FACES, VS16, ZWJ, Canvas, Lettering, _covered, _font, runs
from cogs.vices.picture import MIN_WIDTH, alt_text, draw_sheet, picture_description
from rules.vices.sheet_state import SheetState
from tests.rules.test_vv_sheet_support import act, new_sheet, play

SIX = ("Wrath", "Sloth", "Pride", "Lust", "Greed", "Gluttony")


def decode(png: bytes) -> Image.Image:
    image = Image.open(io.BytesIO(png))
    image.load()
    assert image.format == "PNG"
    return image


def on_70() -> SheetState:
    """VV-14 after round 3 and Jordan's 19: Jordan on exactly 70, the round still to finish."""
    state = play(new_sheet(), 14, 9, 22, 11, 17, 8, 19, 15, 20, 21, 15, 30, 19)
    return act(state, {"type": "sin", "sin": "Greed", "to": "Pride"})


def long_names(count: int = 6) -> SheetState:
    names = [f"{i} " + "Bartholomew Fitzgerald-Wolfgang"[: 32 - 2] for i in range(count)]
    return new_sheet(tuple(zip((*SIX, "Envy")[:count], names, strict=True)), max_players=7)


def test_the_picture_is_a_png_wide_enough_for_a_phone() -> None:
    image = decode(draw_sheet(on_70()))
    assert image.width >= MIN_WIDTH and image.height > 600
    assert image.mode == "P"  # a 256-colour palette: small, quick to encode
    paper = image.convert("RGB").getpixel((5, 5))
    assert isinstance(paper, tuple) and max(abs(a - b) for a, b in zip(paper, (251, 248, 243), strict=True)) <= 2


def test_same_sheet_same_bytes() -> None:
    state = on_70()
    copy = SheetState.model_validate_json(state.model_dump_json())
    assert draw_sheet(state) == draw_sheet(state) == draw_sheet(copy)


def test_the_picture_changes_with_a_score() -> None:
    state = on_70()
    corrected = act(state, {"type": "correct", "row": "Sloth", "round": 2, "value": 9})
    assert draw_sheet(corrected) != draw_sheet(state)
    assert draw_sheet(play(state, 5)) != draw_sheet(state)


def test_six_long_names_and_seven_players_fit() -> None:
    for count in (6, 7):
        state = long_names(count)
        assert len(state.rows[0].name) == 32
        image = decode(draw_sheet(play(state, *range(3 * count))))
        assert image.width >= MIN_WIDTH


def test_two_players_still_fill_the_minimum_width() -> None:
    state = new_sheet((("Envy", "E"), ("Lust", "L")), min_players=2)
    assert decode(draw_sheet(state)).width == MIN_WIDTH


def test_every_stage_of_a_game_draws() -> None:
    state = play(new_sheet(), 14, 9, 22, 11, 17, 8, 19, 15, 20, 21, 15, 30, 19, 32, 14, 9)
    state = act(state, {"type": "sloth", "removed": True})
    state = act(state, {"type": "sin", "sin": "Wrath", "to": "out"})
    frames = [draw_sheet(state)]
    for row, pair, dice in [
        ("Wrath", "mirror_medusa", [3, 3]),
        ("Sloth", "silverbullet_werewolf", [1, 4]),
        ("Greed", "david_goliath", [2, 2]),
        ("Wrath", "mirror_medusa", [3, 5]),
        ("Sloth", "mirror_medusa", [6, 6]),
        ("Greed", "mirror_medusa", [6, 6]),
        ("Sloth", "mirror_medusa", [1, 2]),
        ("Greed", "mirror_medusa", [6, 6]),
    ]:
        state = act(state, {"type": "tiebreak", "row": row, "pair": pair, "dice": dice})
        frames.append(draw_sheet(state))
    assert len(set(frames)) == len(frames)
    assert "Casey wins with exactly 70!" in alt_text(state)
    assert decode(draw_sheet(act(state, {"type": "new_game"}))).width >= MIN_WIDTH
    # A long game folds its oldest rounds into one row: 30 rounds take the height of 15.
    heights = {decode(draw_sheet(play(new_sheet(), *[1] * 4 * rounds))).height for rounds in (15, 30)}
    assert len(heights) == 1


NAMES = (
    "José Núñez",
    "Łukasz Straße",
    "Саша",
    "Πέτρος",
    "さくら",
    "王小明",
    "김민준",
    "محمد",
    "דוד",
    "🎲 Dice Queen 👑",
    "Zoë 👍🏽 🇫🇷",
)


def test_every_name_is_drawn_with_a_shipped_font_that_has_its_letters() -> None:
    """No "?" and no missing-glyph box: each character finds a font that has it, whatever the script."""
    for name in NAMES:
        for run in runs(name):
            missing = [c for c in run.text if c not in (ZWJ, VS16) and ord(c) not in _covered(run.face)]
            assert not missing, (name, run.face.file, missing)
    assert {run.face for name in NAMES for run in runs(name)} == set(FACES)  # every font is used
    assert [r.face for r in runs("👍🏽")] == [EMOJI] and len(runs("👍🏽")[0].text) == 2  # a skin tone stays whole


def test_right_to_left_names_read_right_to_left() -> None:
    assert [(r.text, r.direction) for r in runs("محمد علي")] == [("محمد علي", "rtl")]  # one shaped run
    # In a right-to-left name a number reads left to right, at its logical end: on the left.
    assert [r.text for r in runs("דוד 2")] == ["2", "דוד "]
    assert [r.text for r in runs("Ali محمد")] == ["Ali ", "محمد"]
    assert [r.text for r in runs("محمد Ali")] == ["Ali", "محمد "]


def test_arabic_is_shaped_like_the_font_draws_it_alone() -> None:
    """Letters join (Raqm): the same pixels as Pillow drawing the word right to left in the Arabic font."""
    assert features.check_feature("raqm")
    word, size = "محمد", 40
    ours = Image.new("RGB", (300, 80), "white")
    Canvas(ours).write((10, 60), word, Lettering(size), fill=(0, 0, 0), anchor="ls")
    theirs = Image.new("RGB", (300, 80), "white")
    arabic = _font(FACES[1], size)
    ImageDraw.Draw(theirs).text((10, 60), word, font=arabic, fill=(0, 0, 0), anchor="ls", direction="rtl")
    assert ours.tobytes() == theirs.tobytes()
    unjoined = Image.new("RGB", (300, 80), "white")
    ImageDraw.Draw(unjoined).text((10, 60), word, font=arabic, fill=(0, 0, 0), anchor="ls", features=["-init"])
    assert ours.tobytes() != unjoined.tobytes()


def test_a_sheet_of_names_in_every_script_draws_them() -> None:
    names = ("José Núñez 🎲", "Саша Πέτρος", "さくら 王小明", "محمد علي", "דוד 2", "🇫🇷 Zoë 👍🏽")
    state = new_sheet(tuple(zip(SIX, names, strict=True)), max_players=7)
    image = decode(draw_sheet(play(state, *range(1, 13))))
    assert image.width >= MIN_WIDTH
    # Each name is really drawn: its column's name band is not blank, and differs from "?" drawn there.
    blank = decode(
        draw_sheet(play(new_sheet(tuple(zip(SIX, [f"?{i}" for i in range(6)], strict=True))), *range(1, 13)))
    )
    assert image.tobytes() != blank.tobytes()
    assert "محمد علي (Lust) 14" in picture_description(play(state, *range(1, 13)))


def test_the_fonts_ship_with_the_package() -> None:
    """Both a pip install and the Docker image (a wheel of the package) have every font."""
    root = Path(__file__).resolve().parents[1]
    shipped = tomllib.loads((root / "pyproject.toml").read_text())["tool"]["setuptools"]["package-data"]["data"]
    for face in FACES:
        assert (files("data") / "fonts" / face.file).is_file()
        assert any(fnmatch.fnmatch(f"fonts/{face.file}", pattern) for pattern in shipped)
    assert "libfribidi0" in (root / "Dockerfile").read_text()  # Raqm's FriBiDi, for right-to-left names
    assert isinstance(_font(FACES[0], 20), ImageFont.FreeTypeFont)


def test_alt_text_has_the_same_facts() -> None:
    text = alt_text(on_70())
    assert "Jordan (Wrath): 14, 17, 20, 19; total 70 (exactly 70)." in text
    assert "Taylor (Sloth): 9, 8, 21; total 38." in text
    assert "Jordan reached 70: finish the round. Still to play: Taylor, Casey, Avery." in text
    assert "Greed with Avery" in text and "Lust in the reserves" in text
    assert "Sloth Nemesis die: in play." in text
    escaped = alt_text(on_70(), escape=lambda name: f"<{name}>")
    assert "<Jordan> (Wrath)" in escaped and "with <Avery>" in escaped


def test_alt_text_stays_within_an_embed_description() -> None:
    """Seven 32-character names that escaping doubles, 30 rounds, a seven-way tie-break of many rounds."""
    names = [f"{i}" + "_" * 31 for i in range(7)]
    state = new_sheet(tuple(zip((*SIX, "Envy"), names, strict=True)), max_players=7)
    state = play(state, *[2] * 7 * 35)  # everyone on exactly 70 after round 35
    for _ in range(5):
        for sin in (*SIX, "Envy"):
            state = act(state, {"type": "tiebreak", "row": sin, "pair": "silverbullet_werewolf", "dice": [3, 3]})
    text = alt_text(state, escape=lambda name: name.replace("_", "\\_"))
    assert len(text) <= 4000
    assert decode(draw_sheet(state)).width >= MIN_WIDTH
