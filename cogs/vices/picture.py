"""A picture of a Vices & Vengeance scoresheet (PNG, drawn with Pillow) and the same facts as text.

``draw_sheet`` is a pure function of the sheet: no I/O, no clock, no randomness, so the same sheet
always gives the same bytes, and the cog can run it in a thread off the event loop. Names are drawn as
typed, in any script and with emoji, with the fonts the bot ships (``bot.fonts``); ``alt_text`` and
``picture_description`` say the same in words.
"""

from __future__ import annotations

import io
from collections.abc import Callable
from dataclasses import dataclass

from PIL import Image

from bot.fonts import Canvas, Lettering
from bot.i18n import N_, _, localize
from rules.vices.sheet_data import EXACT_TARGET, PAIR_TITLES, SIN_BY_NAME, SIN_NAMES, SinName
from rules.vices.sheet_state import (
    OUT_OF_PLAY,
    RESERVES,
    Phase,
    Progress,
    Row,
    SheetState,
    progress,
    row_of,
    running_totals,
    seat_of,
    tie_points,
    totals,
    where,
)

RGB = tuple[int, int, int]
Font = Lettering

PAPER: RGB = (251, 248, 243)
INK: RGB = (28, 28, 30)
MUTED: RGB = (105, 99, 92)
GRID: RGB = (214, 205, 190)
ZEBRA: RGB = (243, 238, 229)
AMBER: RGB = (214, 150, 0)
AMBER_SOFT: RGB = (255, 240, 190)
AMBER_INK: RGB = (112, 76, 0)
GOLD: RGB = (212, 172, 40)
GOLD_SOFT: RGB = (251, 233, 170)
RED: RGB = (176, 32, 32)
WHITE: RGB = (255, 255, 255)

MARGIN = 32
LABEL_W = 136
COL_MIN, COL_MAX = 176, 250
TARGET_W = 1100
MIN_WIDTH = 800
"""Columns share this width (within COL_MIN..COL_MAX), so 3 to 7 players all read on a phone."""
BADGE_H, BAND_H, NAME_H = 38, 42, 74
ROW_H, TOTAL_H = 54, 66
CHIP_GAP = 10
MAX_ROUNDS_SHOWN = 14
"""Older rounds fold into one row of running totals, so a long game keeps a readable height."""
MAX_TIEBREAK_SHOWN = 2
"""Tie-break rounds shown (the latest); earlier ones only decided who is still in."""


def _fonts() -> dict[str, Font]:
    sizes = {"title": 42, "sub": 24, "band": 24, "name": 26, "small": 22, "cell": 32, "total": 36, "status": 27}
    return {key: Lettering(size) for key, size in sizes.items()}


def _prefix_fitting(text: str, font: Font, width: float, suffix: str = "") -> int:
    """The most characters of ``text`` that fit ``width`` with ``suffix`` after them (a binary search:
    measuring text is the costly part of drawing names)."""
    low, high = 0, len(text)
    while low < high:
        mid = (low + high + 1) // 2
        if font.getlength(text[:mid] + suffix) <= width:
            low = mid
        else:
            high = mid - 1
    return low


def _fit(text: str, font: Font, width: float) -> str:
    """``text`` cut with an ellipsis to fit ``width`` pixels."""
    if font.getlength(text) <= width:
        return text
    return text[: _prefix_fitting(text, font, width, "…")].rstrip() + "…"


def _wrap(text: str, font: Font, width: float, lines: int) -> list[str]:
    """Up to ``lines`` lines of ``text`` within ``width``, breaking at spaces (or anywhere in a long word);
    the last line ends with an ellipsis if text is left over."""
    out: list[str] = []
    rest = text
    while len(out) < lines - 1 and font.getlength(rest) > width:
        cut = max(1, _prefix_fitting(rest, font, width))
        # Break after the last space or hyphen that fits; a word longer than the line breaks anywhere.
        space = max(rest.rfind(" ", 0, cut + 1), rest.rfind("-", 0, cut - 1) + 1)
        cut = space if space > 0 else cut
        out.append(rest[:cut].rstrip())
        rest = rest[cut:].lstrip()
    if rest:
        out.append(_fit(rest, font, width))
    return out


def _contrast_ink(colour: RGB) -> RGB:
    """White or near-black, whichever reads better on ``colour`` (WCAG relative luminance)."""

    def channel(c: int) -> float:
        s = c / 255
        return s / 12.92 if s <= 0.03928 else ((s + 0.055) / 1.055) ** 2.4

    lum = 0.2126 * channel(colour[0]) + 0.7152 * channel(colour[1]) + 0.0722 * channel(colour[2])
    return WHITE if (1.05 / (lum + 0.05)) >= ((lum + 0.05) / 0.05) else INK


def _faded(colour: RGB, amount: float = 0.7) -> RGB:
    r, g, b = (round(c + (p - c) * amount) for c, p in zip(colour, PAPER, strict=True))
    return (r, g, b)


_END_RULES = {"finish_round": N_("finish the round"), "one_more_each": N_("everyone else plays once more")}


def end_rule(end_mode: str) -> str:
    """What happens once someone reaches 70, in a few words (the sheet's ``end_mode``)."""
    return _(_END_RULES.get(end_mode, _END_RULES["finish_round"]))


def _status(state: SheetState, p: Progress, name: Callable[[str], str]) -> str:
    """One sentence on where the game stands, shared by the picture and the alt text."""

    def who(sin: SinName) -> str:
        return name(row_of(state, sin).name)

    if p.phase is Phase.PLAYING:
        assert p.up is not None
        return _("{player} to play, round {round}.", player=who(p.up), round=p.round)
    if p.phase is Phase.FINISHING:
        assert p.trigger is not None
        return _(
            "{player} reached {total}: {then}. Still to play: {rest}.",
            player=who(p.trigger.row),
            total=p.trigger.total,
            then=end_rule(state.settings.end_mode),
            rest=", ".join(who(s) for s in p.to_play),
        )
    if p.phase is Phase.TIEBREAK:
        assert p.roller is not None
        return _(
            "Tie-break {round} between {tied}: {roller} picks a Mythical pair and rolls.",
            round=p.tiebreak_round,
            tied=", ".join(who(s) for s in p.contenders),
            roller=who(p.roller),
        )
    assert p.winner is not None
    total = totals(state)[p.winner]
    if total == EXACT_TARGET:
        return _("{player} wins with exactly 70!", player=who(p.winner))
    return _("{player} wins with {total}!", player=who(p.winner), total=total)


@dataclass(frozen=True, slots=True)
class _Grid:
    """Where things go; every size follows from the number of players and rounds shown."""

    col_w: int
    rounds: tuple[int, ...]
    """Round numbers with a row of their own (older ones fold into the first row)."""
    folded: int
    """Rounds folded into the first row (0 if none)."""
    tiebreak: tuple[int, ...]
    """Tie-break rounds (0-based) with a row of their own: the latest MAX_TIEBREAK_SHOWN."""
    top: int
    """y of the badge row above the column headers."""

    def col_x(self, seat: int) -> int:
        return MARGIN + LABEL_W + seat * self.col_w

    @property
    def header_y(self) -> int:
        return self.top + BADGE_H

    @property
    def rows_y(self) -> int:
        return self.header_y + BAND_H + NAME_H

    @property
    def total_y(self) -> int:
        return self.rows_y + (len(self.rounds) + self.folded_rows) * ROW_H

    @property
    def folded_rows(self) -> int:
        """1 when older rounds are folded into the first row, else 0."""
        return 1 if self.folded else 0

    @property
    def bottom(self) -> int:
        return self.total_y + TOTAL_H + len(self.tiebreak) * ROW_H


def _pending(state: SheetState, p: Progress) -> dict[tuple[int, int], bool]:
    """Cells (seat, round) still to be played this game → True for the player up."""
    if p.up is None:
        return {}
    n = len(state.rows)
    turns = range(p.turns, p.trigger.last_turn) if p.trigger is not None else range(p.turns, p.turns + 1)
    return {(k % n, k // n + 1): k == p.turns for k in turns}


def draw_sheet(sheet: SheetState) -> bytes:
    """The sheet as a PNG: a column per player under their original Sin's colour, a row per round with the
    turn score and running total, totals, the player up, 70 and the winner marked, the Sins' places below."""
    p = progress(sheet)
    f = _fonts()
    n = len(sheet.rows)
    col_w = max(COL_MIN, min(COL_MAX, (TARGET_W - 2 * MARGIN - LABEL_W) // n))
    width = max(MIN_WIDTH, 2 * MARGIN + LABEL_W + n * col_w)
    col_w = (width - 2 * MARGIN - LABEL_W) // n  # two players share the minimum width
    pending = _pending(sheet, p)
    last_round = max([len(r.scores) for r in sheet.rows] + [rnd for _, rnd in pending] + [1])
    folded = max(0, last_round - MAX_ROUNDS_SHOWN)
    shown_tiebreak = tuple(range(len(sheet.tiebreak)))[-MAX_TIEBREAK_SHOWN:]
    grid = _Grid(col_w, tuple(range(folded + 1, last_round + 1)), folded, shown_tiebreak, MARGIN + 104)
    status = _wrap(_status(sheet, p, str), f["status"], width - 2 * MARGIN - 40, 3)
    status_h = 28 + 36 * len(status)
    sins_y = grid.bottom + 28 + status_h + 28
    chip_w = (width - 2 * MARGIN - 6 * CHIP_GAP) // 7
    places = _places(sheet, f["small"], chip_w)
    height = sins_y + 40 + 44 + 24 + 28 * max(len(lines) for lines, _ in places) + MARGIN

    image = Image.new("RGB", (width, height), PAPER)
    d = Canvas(image)
    _draw_title(d, f, sheet, p, width)
    _draw_columns(d, f, sheet, p, grid, pending)
    y = grid.bottom + 28
    banner = {Phase.PLAYING: ZEBRA, Phase.FINISHING: AMBER_SOFT, Phase.TIEBREAK: AMBER_SOFT, Phase.OVER: GOLD_SOFT}
    d.rounded_rectangle((MARGIN, y, width - MARGIN, y + status_h), 14, fill=banner[p.phase], outline=GRID, width=2)
    for i, line in enumerate(status):
        d.write((MARGIN + 20, y + 14 + 36 * i), line, f["status"], fill=INK)
    _draw_sins(d, f, sheet, sins_y, width, chip_w, places)
    out = io.BytesIO()
    _paletted(image).save(out, "PNG", compress_level=1)
    return out.getvalue()


def _paletted(image: Image.Image) -> Image.Image:
    """``image`` with a 256-colour palette: visually lossless here (flat fills and anti-aliased text; no
    channel moves by more than about 10/255), and a third of the bytes to filter and compress.

    Encoding an RGB picture was most of the drawing time. The palette is chosen from a copy a third
    the size (same fills, and enough blends of the text's edges), which costs a fraction of choosing
    it from every pixel; fast octree without dithering is deterministic.
    """
    palette = image.reduce(3).quantize(colors=256, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)
    return image.quantize(palette=palette, dither=Image.Dither.NONE)


def _draw_title(d: Canvas, f: dict[str, Font], sheet: SheetState, p: Progress, width: int) -> None:
    d.write((MARGIN, MARGIN), "Vices & Vengeance", f["title"], fill=INK, stroke_width=1)
    game = _("Game {game} · Round {round}", game=len(sheet.history) + 1, round=p.round)
    d.write((width - MARGIN, MARGIN + 8), game, f["name"], fill=INK, anchor="ra")
    motto = _fit(_("Lowest score wins. Exactly 70 steals the victory."), f["sub"], width - 2 * MARGIN)
    d.write((MARGIN, MARGIN + 56), motto, f["sub"], fill=MUTED)


def _draw_columns(
    d: Canvas,
    f: dict[str, Font],
    sheet: SheetState,
    p: Progress,
    g: _Grid,
    pending: dict[tuple[int, int], bool],
) -> None:
    left, right = MARGIN, MARGIN + LABEL_W + len(sheet.rows) * g.col_w
    # Zebra rows and the round labels.
    labels = ([f"1-{g.folded}"] if g.folded else []) + [_("Round {round}", round=r) for r in g.rounds]
    for i, label in enumerate(labels):
        y = g.rows_y + i * ROW_H
        if i % 2:
            d.rectangle((left, y, right, y + ROW_H), fill=ZEBRA)
        d.write((left + 8, y + ROW_H // 2), _fit(label, f["small"], LABEL_W - 12), f["small"], fill=MUTED, anchor="lm")
    d.rectangle((left, g.total_y, right, g.total_y + TOTAL_H), fill=ZEBRA)
    total = _fit(_("Total"), f["name"], LABEL_W - 12)
    d.write((left + 8, g.total_y + TOTAL_H // 2), total, f["name"], fill=INK, anchor="lm")
    for i, rnd in enumerate(g.tiebreak):
        y = g.total_y + TOTAL_H + i * ROW_H
        label = _fit(_("Tie-break {round}", round=rnd + 1), f["small"], LABEL_W - 12)
        d.write((left + 8, y + ROW_H // 2), label, f["small"], fill=MUTED, anchor="lm")
    for seat, row in enumerate(sheet.rows):
        _draw_column(d, f, sheet, p, g, seat, row, pending)
    # Grid lines over the fills, so every cell has a crisp edge.
    round_lines = [g.rows_y + i * ROW_H for i in range(len(labels) + 1)]
    tiebreak_lines = [g.total_y + TOTAL_H + i * ROW_H for i in range(len(g.tiebreak) + 1)]
    for y in (*round_lines, *tiebreak_lines):
        d.line((left, y, right, y), fill=GRID, width=2)
    d.line((left, g.total_y, right, g.total_y), fill=INK, width=3)
    for seat in range(len(sheet.rows) + 1):
        x = g.col_x(seat)
        d.line((x, g.header_y, x, g.bottom), fill=GRID, width=2)
    if p.winner is not None:
        x = g.col_x(seat_of(sheet, p.winner))
        d.rectangle((x, g.header_y, x + g.col_w, g.bottom), outline=GOLD, width=5)


def _draw_column(
    d: Canvas,
    f: dict[str, Font],
    sheet: SheetState,
    p: Progress,
    g: _Grid,
    seat: int,
    row: Row,
    pending: dict[tuple[int, int], bool],
) -> None:
    x, w = g.col_x(seat), g.col_w
    sin = SIN_BY_NAME[row.sin]
    badge = None
    if p.winner == row.sin:
        badge = (_("WINNER"), GOLD, INK)
    elif row.sin == p.up:
        badge = (_("TO PLAY"), AMBER, INK)
    elif p.phase is Phase.TIEBREAK and row.sin in p.contenders:
        badge = (_("TIE-BREAK"), AMBER_SOFT, AMBER_INK)
    if badge is not None:
        text, fill, ink = badge
        d.rounded_rectangle((x + 10, g.top + 2, x + w - 10, g.top + BADGE_H - 6), 12, fill=fill)
        text = _fit(text, f["small"], w - 28)
        d.write((x + w // 2, g.top + BADGE_H // 2 - 2), text, f["small"], fill=ink, anchor="mm")
    # Header: the original Sin's colour band, then the name on up to two lines.
    band = (x + 2, g.header_y, x + w - 2, g.header_y + BAND_H)
    d.rounded_rectangle(band, 10, fill=sin.rgb, corners=(True, True, False, False))
    d.write(
        (x + w // 2, g.header_y + BAND_H // 2),
        sin.name.upper(),
        f["band"],
        fill=_contrast_ink(sin.rgb),
        anchor="mm",
    )
    lines = _wrap(row.name, f["name"], w - 16, 2)
    top = g.header_y + BAND_H + (NAME_H - 32 * len(lines)) // 2
    for i, line in enumerate(lines):
        d.write((x + w // 2, top + 32 * i + 16), line, f["name"], fill=INK, anchor="mm")
    # Rounds: "+score" small on the left, the running total large on the right.
    running = running_totals(row)
    trigger_round = p.trigger.round if p.trigger is not None and p.trigger.row == row.sin else None
    if g.folded:
        _cell_total(d, f, x, g.rows_y, w, running[g.folded - 1], False)
    for i, rnd in enumerate(g.rounds):
        y = g.rows_y + (i + g.folded_rows) * ROW_H
        if rnd <= len(row.scores):
            d.write((x + 12, y + ROW_H // 2), f"+{row.scores[rnd - 1]}", f["small"], fill=MUTED, anchor="lm")
            _cell_total(d, f, x, y, w, running[rnd - 1], rnd == trigger_round)
        elif (seat, rnd) in pending:
            up = pending[seat, rnd]
            d.rectangle((x + 3, y + 3, x + w - 3, y + ROW_H - 3), fill=AMBER_SOFT if up else ZEBRA)
            if up:
                d.rectangle((x + 3, y + 3, x + w - 3, y + ROW_H - 3), outline=AMBER, width=4)
            label, ink = (_("to play"), AMBER_INK) if up else (_("still to play"), MUTED)
            d.write((x + w // 2, y + ROW_H // 2), _fit(label, f["small"], w - 16), f["small"], fill=ink, anchor="mm")
    total = sum(row.scores)
    ty = g.total_y
    if total == EXACT_TARGET or p.winner == row.sin:
        fill = GOLD if total == EXACT_TARGET else GOLD_SOFT
        d.rounded_rectangle((x + 16, ty + 10, x + w - 16, ty + TOTAL_H - 10), 16, fill=fill)
    ink = RED if total > EXACT_TARGET else INK
    d.write(
        (x + w // 2, ty + TOTAL_H // 2),
        str(total),
        f["total"],
        fill=ink,
        anchor="mm",
        stroke_width=1,
    )
    # Tie-break rounds: the points, with the dice in small.
    for i, rnd in enumerate(g.tiebreak):
        roll = next((r for r in sheet.tiebreak[rnd] if r.row == row.sin), None)
        if roll is None:
            continue
        y = ty + TOTAL_H + i * ROW_H
        dice = "-".join(map(str, roll.dice))
        d.write((x + 12, y + ROW_H // 2), dice, f["small"], fill=MUTED, anchor="lm")
        points = str(tie_points(roll, sheet.settings))
        d.write((x + w - 14, y + ROW_H // 2), points, f["cell"], fill=INK, anchor="rm")


def _cell_total(d: Canvas, f: dict[str, Font], x: int, y: int, w: int, total: int, mark: bool) -> None:
    """A running total at the right of its cell; ``mark`` (the turn that reached 70) adds a pill, gold on exactly 70."""
    right = x + w - 14
    if mark:
        pill_w = f["cell"].getlength(str(total)) + 24
        fill = GOLD if total == EXACT_TARGET else RED
        d.rounded_rectangle((right + 10 - pill_w, y + 8, right + 10, y + ROW_H - 8), 14, fill=fill)
        ink = INK if total == EXACT_TARGET else WHITE
    else:
        ink = INK
    d.write((right, y + ROW_H // 2), str(total), f["cell"], fill=ink, anchor="rm")


def _places(sheet: SheetState, font: Font, chip_w: int) -> list[tuple[list[str], RGB]]:
    """Under each Sin's chip: where it is now, on one or two lines, and in which ink."""
    out = []
    for sin in SIN_NAMES:
        place = sheet.sins[sin]
        if place == RESERVES:
            where, ink = _("reserves"), MUTED
        elif place == OUT_OF_PLAY:
            where, ink = _("out of play"), MUTED
        else:
            where, ink = row_of(sheet, place).name, INK
        out.append((_wrap(where, font, chip_w - 8, 2), ink))
    return out


def _draw_sins(
    d: Canvas,
    f: dict[str, Font],
    sheet: SheetState,
    y: int,
    width: int,
    chip_w: int,
    places: list[tuple[list[str], RGB]],
) -> None:
    """The seven Sins in precedence order with where each one is now (faded when out of play)."""
    d.write((MARGIN, y), _("Sins now"), f["name"], fill=INK, stroke_width=1)
    if any(r.sin == "Sloth" for r in sheet.rows):
        d.write((width - MARGIN, y + 2), sloth_die(sheet), f["small"], fill=MUTED, anchor="ra")
    top = y + 40
    for i, (sin_name, (lines, ink)) in enumerate(zip(SIN_NAMES, places, strict=True)):
        sin = SIN_BY_NAME[sin_name]
        x = MARGIN + i * (chip_w + CHIP_GAP)
        colour = _faded(sin.rgb) if sheet.sins[sin_name] == OUT_OF_PLAY else sin.rgb
        d.rounded_rectangle((x, top, x + chip_w, top + 44), 10, fill=colour)
        d.write((x + chip_w // 2, top + 22), sin.name, f["small"], fill=_contrast_ink(colour), anchor="mm")
        for j, line in enumerate(lines):
            d.write((x + chip_w // 2, top + 64 + 28 * j), line, f["small"], fill=ink, anchor="mm")


def picture_description(sheet: SheetState) -> str:
    """The picture's alt text (its attachment's description, at most 1,024 characters): what it shows in
    short, each player's total and where the game stands; the embed beside it has every score."""
    p = progress(sheet)
    totals_now = ", ".join(f"{row.name} ({row.sin}) {sum(row.scores)}" for row in sheet.rows)
    text = _(
        "Picture of the Vices & Vengeance scoresheet, game {game}, round {round}: "
        "a column per player with each round's score. Totals: {totals}. {status}",
        game=len(sheet.history) + 1,
        round=p.round,
        totals=totals_now,
        status=_status(sheet, p, str),
    )
    return text if len(text) <= 1024 else text[:1023] + "…"


def sloth_die(sheet: SheetState) -> str:
    """Where the Sloth Nemesis die is: ``Sloth Nemesis die: removed`` (or ``in play``)."""
    if sheet.sloth_removed:
        return _("Sloth Nemesis die: removed")
    return _("Sloth Nemesis die: in play")


def alt_text(sheet: SheetState, escape: Callable[[str], str] = str) -> str:
    """The picture's facts as text (embed description, screen readers).

    At most 4,000 characters even for seven 32-character names that escaping doubles: the latest
    MAX_ROUNDS_SHOWN scores per player and MAX_TIEBREAK_SHOWN tie-break rounds, as in the picture.

    ``escape`` is applied to every name, so the cog can pass its markdown escaper.
    """
    p = progress(sheet)
    lines = [
        _(
            "Vices & Vengeance scoresheet, game {game}, round {round}. "
            "Lowest score wins; exactly 70 steals the victory.",
            game=len(sheet.history) + 1,
            round=p.round,
        )
    ]
    for row in sheet.rows:
        total = sum(row.scores)
        scores = ", ".join(map(str, row.scores[-MAX_ROUNDS_SHOWN:])) or _("no scores yet")
        if len(row.scores) > MAX_ROUNDS_SHOWN:
            scores = f"…, {scores}"
        line = (
            _("total {total} (exactly 70)", total=total) if total == EXACT_TARGET else _("total {total}", total=total)
        )
        lines.append(f"{escape(row.name)} ({row.sin}): {scores}; {line}.")
    for i, rnd in list(enumerate(sheet.tiebreak))[-MAX_TIEBREAK_SHOWN:]:
        rolls = "; ".join(
            f"{escape(row_of(sheet, r.row).name)} {PAIR_TITLES[r.pair]} {r.dice[0]}-{r.dice[1]} = "
            f"{tie_points(r, sheet.settings)}"
            for r in rnd
        )
        lines.append(_("Tie-break {round}: {rolls}.", round=i + 1, rolls=rolls))
    lines.append(_status(sheet, p, escape))
    places = "; ".join(f"{sin} {localize(where(sheet, sheet.sins[sin], escape))}" for sin in SIN_NAMES)
    lines.append(_("Sins now: {places}.", places=places))
    if any(r.sin == "Sloth" for r in sheet.rows):
        lines.append(f"{sloth_die(sheet)}.")
    return "\n".join(lines)
