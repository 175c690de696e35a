"""The playground looks and scrolls as Discord's client does (issue 28), in Chromium at 1280 and 390 px: every game's
board (Dice of Crowns, the Vices & Vengeance table and scoresheet, a Viciousness campaign) and ``/stats luck`` fit
the screen (no element wider than it, nothing scrolled sideways), and after each update the controls one needs next
are in view; a picture keeps its room before it loads; emoji are drawn in colour by the font the bot ships.

One launcher and one browser serve the whole module; each test plays in a channel of its own. The screenshots go to
``LAYOUT_SCREENSHOTS`` (a folder) when it is set, else beside the test's files.
"""

from __future__ import annotations

import os
import random
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.browser import (
    DESKTOP,
    PHONE,
    Launcher,
    browser,
    channel,
    enabled_buttons,
    last_message,
    launched,
    next_board,
    open_page,
)

SHEET_PLAYERS = "Jordan: Wrath, Casey: Greed, Robin: Sloth"

# Every element on screen within the window's width, and none whose content is cut sideways (scrolled, or spilling).
OVERFLOW = """() => {
    const width = window.innerWidth;
    const bad = [];
    for (const e of document.querySelectorAll('#app *')) {
        if (e.closest('.visually-hidden, [hidden], .sidebar, .members, select, option')) continue;
        const box = e.getBoundingClientRect();
        if (!box.width || !box.height) continue;
        const scrolls = getComputedStyle(e).overflowX !== 'visible';
        const cut = scrolls && e.clientWidth > 0 && e.scrollWidth > e.clientWidth + 1;
        if (box.right > width + 1 || box.left < -1 || cut) {
            bad.push(`${e.tagName}.${e.className}: ${e.textContent.slice(0, 60)}`);
        }
    }
    return {page: document.documentElement.scrollWidth, width, bad: bad.slice(0, 10)};
}"""

# Whether the message's controls (its enabled buttons and menus) are all within the visible part of the messages.
IN_VIEW = """(id) => {
    const view = document.getElementById('messages').getBoundingClientRect();
    const message = document.querySelector(`article.message[data-id="${id}"]`);
    const controls = message ? [...message.querySelectorAll('button.button:not([disabled]), .select-toggle')] : [];
    return controls.length > 0 && controls.every((c) => {
        const box = c.getBoundingClientRect();
        return box.top >= view.top - 1 && box.bottom <= view.bottom + 1 && box.right <= window.innerWidth + 1;
    });
}"""

# Where the text of an element ends on the right.
TEXT_RIGHT = (
    "e => { const r = document.createRange(); r.selectNodeContents(e); return r.getBoundingClientRect().right; }"
)

# Every picture on the page has loaded (or failed), every transition ended (the sidebar folding away on a phone),
# and two frames have been drawn since.
SETTLED = """() => new Promise((done) => {
    const waiting = [...document.querySelectorAll('#messages img')].filter((i) => !i.complete);
    const loads = waiting.map((i) => new Promise((r) => { i.onload = i.onerror = r; }));
    const moves = document.getAnimations().map((a) => a.finished.catch(() => null));
    Promise.all([...loads, ...moves])
        .then(() => requestAnimationFrame(() => requestAnimationFrame(() => done(true))));
})"""


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Launcher]:
    """One ``python -m localdiscord`` for the module."""
    with launched(tmp_path_factory.mktemp("layout") / "var") as launcher:
        yield launcher


@pytest.fixture(scope="module")
def chromium() -> Iterator[Browser]:
    """One Chromium for the module (each test opens browser contexts of its own: other people)."""
    with browser() as instance:
        yield instance


@pytest.fixture(scope="module")
def shots(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Where the screenshots go."""
    folder = os.environ.get("LAYOUT_SCREENSHOTS")
    return Path(folder) if folder else tmp_path_factory.mktemp("shots")


def command(page: Page, line: str) -> None:
    """Type a whole command line into the box and press Enter, as in Discord's client."""
    box = page.get_by_role("combobox", name="Command")
    box.fill(line)
    box.press("Enter")


def settle(page: Page) -> None:
    """Wait until every picture has loaded and the page has been drawn since."""
    page.evaluate(SETTLED)


def resize(page: Page, viewport: dict[str, int]) -> None:
    """Turn the window to ``viewport`` (a phone), and wait until it has been drawn so (as a person would look)."""
    page.set_viewport_size(viewport)
    settle(page)


def fits(page: Page, shots: Path, name: str) -> None:
    """Nothing on the page is wider than the window or cut sideways; a screenshot of it as ``name``-WIDTH.png."""
    settle(page)
    found = page.evaluate(OVERFLOW)
    assert found["page"] <= found["width"] and not found["bad"], found
    page.screenshot(path=str(shots / f"{name}-{found['width']}.png"))


def controls_in_view(page: Page, message_id: str) -> None:
    """Once the page has settled, the controls of ``message_id`` are all in view."""
    settle(page)
    assert page.evaluate(IN_VIEW, message_id), f"the controls of message {message_id} are out of view"


def my_board(page: Page, me: str, previous: dict[str, str] | None) -> dict[str, str]:
    """The next board that waits for ``me`` (computers play their turns meanwhile)."""
    board = next_board(page, previous)
    while not board.get("over") and board["who"] != me:
        board = next_board(page, board)
    return board


def play_boards(page: Page, me: str, turns: int, rng: random.Random) -> None:
    """Play ``turns`` of ``me``'s turns by clicking; at each, the board's controls are in view."""
    board = None
    for _ in range(turns):
        board = my_board(page, me, board)
        if board.get("over"):
            return
        controls_in_view(page, board["id"])
        buttons = enabled_buttons(page, board["id"])
        buttons.nth(rng.randrange(buttons.count())).click()


def test_dice_of_crowns_board(server: Launcher, chromium: Browser, shots: Path) -> None:
    page = open_page(chromium, server.url, "Ada")
    channel(page, "games")
    command(page, "/crowns new bots:2")
    last_message(page, "lobby").get_by_role("button", name="Start").click()
    rng = random.Random(28)
    play_boards(page, "Ada", 2, rng)
    fits(page, shots, "crowns")
    resize(page, PHONE)
    play_boards(page, "Ada", 2, rng)
    fits(page, shots, "crowns")
    assert not page.errors  # type: ignore[attr-defined]


def test_vices_and_vengeance_table(server: Launcher, chromium: Browser, shots: Path) -> None:
    page = open_page(chromium, server.url, "Bea")
    channel(page, "dice-table")
    command(page, "/vv new bots:2")
    last_message(page, "lobby").get_by_role("button", name="Start").click()
    rng = random.Random(28)
    play_boards(page, "Bea", 2, rng)
    fits(page, shots, "vv-table")
    resize(page, PHONE)
    play_boards(page, "Bea", 2, rng)
    fits(page, shots, "vv-table")
    assert not page.errors  # type: ignore[attr-defined]


def score(page: Page, player: str, points: int) -> None:
    """Score ``points`` for ``player`` through the sheet's form; then the next Score button is in view."""
    sheet = last_message(page, f"Score for {player}")
    sheet.get_by_role("button", name=f"Score for {player}").click()
    form = page.get_by_role("dialog")
    form.get_by_label("Points this turn").fill(str(points))
    form.get_by_role("button", name="Submit").click()
    expect(form).to_be_hidden()


def test_a_scoresheet_keeps_its_score_button_in_view(server: Launcher, chromium: Browser, shots: Path) -> None:
    page = open_page(chromium, server.url, "Cai")
    channel(page, "general")
    command(page, f"/vv sheet players:{SHEET_PLAYERS}")
    players = ["Jordan", "Casey", "Robin"]
    for turn in range(4):  # a round and one more: the sheet's picture grows a row
        if turn == 2:
            fits(page, shots, "vv-sheet")
            resize(page, PHONE)
        player, up_next = players[turn % 3], players[(turn + 1) % 3]
        score(page, player, 5 + turn)
        sheet = last_message(page, f"Score for {up_next}")
        expect(sheet.get_by_role("button", name=f"Score for {up_next}")).to_be_attached()
        controls_in_view(page, str(sheet.get_attribute("data-id")))
    fits(page, shots, "vv-sheet")

    # Someone whose browser gets no picture at all (slow, or blocked) sees its room kept, the size the bot drew.
    other = open_page(chromium, server.url, "Dee")
    other.route(re.compile(r"/attachments/"), lambda route: route.abort())
    channel(other, "general")
    picture = last_message(other, "Score for").locator("img")
    expect(picture).to_be_attached()
    box = picture.bounding_box()
    assert box is not None and box["height"] > 200
    size = picture.evaluate("img => img.style.aspectRatio").split("/")
    assert abs(box["width"] / box["height"] - float(size[0]) / float(size[1])) < 0.02
    assert not page.errors  # type: ignore[attr-defined]


def test_a_viciousness_campaign_board(server: Launcher, chromium: Browser, shots: Path) -> None:
    page = open_page(chromium, server.url, "Eve")
    channel(page, "tavern")
    command(page, "/vic-gm campaign new company:Knives")
    board = last_message(page, "Start turn 1")
    expect(board).to_be_visible()
    board_id = str(board.get_attribute("data-id"))
    fits(page, shots, "viciousness")
    page.get_by_role("button", name="Dismiss message").last.click()  # the house rules, shown to the GM alone
    board.get_by_role("button", name="Start turn 1").click()
    expect(last_message(page, "Turn 1")).to_contain_text("begins")
    expect(page.locator(f'article.message[data-id="{board_id}"]')).to_contain_text("End turn 1")
    controls_in_view(page, board_id)
    resize(page, PHONE)
    fits(page, shots, "viciousness")
    controls_in_view(page, board_id)
    assert not page.errors  # type: ignore[attr-defined]


def test_stats_luck_is_whole_at_both_widths(server: Launcher, chromium: Browser, shots: Path) -> None:
    page = open_page(chromium, server.url, "Fay")
    channel(page, "general")
    for dice in ("10d6", "4d20", "3d8", "2d12"):
        command(page, f"/roll {dice}")
        expect(last_message(page, "rolled")).to_contain_text(dice)
    command(page, "/stats luck")
    luck = last_message(page, "luck")
    chart = luck.locator("img")
    expect(chart).to_be_visible(timeout=30_000)
    for viewport in (DESKTOP, PHONE):
        resize(page, viewport)
        fits(page, shots, "stats-luck")
        # The chart is whole (the view followed it as it loaded), and so is the table's last column.
        view = page.locator("#messages").bounding_box()
        picture = chart.bounding_box()
        assert view is not None and picture is not None
        assert picture["y"] + picture["height"] <= view["y"] + view["height"] + 1
        table = luck.locator("pre")
        assert table.evaluate("e => e.scrollWidth <= e.clientWidth")
        words = table.evaluate(TEXT_RIGHT)
        assert words <= viewport["width"]
    assert not page.errors  # type: ignore[attr-defined]


def test_typed_text_after_a_command_fills_its_options(server: Launcher, chromium: Browser) -> None:
    page = open_page(chromium, server.url, "Gil")
    channel(page, "general")
    command(page, "/roll 4d6kh3")  # as the README shows it: the first option
    expect(last_message(page, "rolled")).to_contain_text(re.compile(r"4d6kh3 \[[^\]]+\] = \d+"))
    command(page, "/dice save name:sneak expression:1d20+3")  # the rest by name
    expect(last_message(page, "Saved")).to_contain_text("sneak = 1d20+3")
    command(page, "/roll sneak label:Stealth check")  # both, a value with a space
    expect(last_message(page, "Stealth check")).to_contain_text(re.compile(r"1d20 \[\d+\] \+ 3"))
    # A line without what the command needs opens its fields at the one to fill in, as Discord's box does.
    command(page, "/dice save name:stab")
    expect(page.locator("#opt-expression")).to_be_focused()
    expect(page.locator("#opt-name")).to_have_value("stab")
    page.keyboard.type("2d4")
    page.keyboard.press("Enter")
    expect(last_message(page, "Saved")).to_contain_text("stab = 2d4")
    assert not page.errors  # type: ignore[attr-defined]


def test_the_command_list_has_every_command_and_matches_any_word(server: Launcher, chromium: Browser) -> None:
    page = open_page(chromium, server.url, "Hal")
    box = page.get_by_role("combobox", name="Command")
    listed = page.get_by_role("listbox", name="Commands").get_by_role("option")
    box.fill("/")
    every = page.evaluate("S.entries.length")  # every command the bot synced, each subcommand on its own
    assert every > 25 and listed.count() == every
    expect(page.locator("#command-app")).to_have_text("Tabletop Bot")  # grouped by app, as Discord does
    page.locator("#command-list").evaluate("list => { list.scrollTop = list.scrollHeight; }")
    expect(listed.last).to_contain_text("/vv tiebreak")
    expect(listed.last).to_be_in_viewport()

    box.fill("/v")  # the start of any word of a command's name
    names = [text.split("\n")[0] for text in listed.all_inner_texts()]
    assert {"/vv new", "/vic me", "/vic-gm turn end", "/dice verify"} <= set(names)
    assert names.index("/dice verify") == len(names) - 1  # names that start with it first
    tops = [name.split()[0] for name in names]
    assert len(set(tops)) == len([t for i, t in enumerate(tops) if i == 0 or tops[i - 1] != t])  # each command together
    box.fill("/turn e")
    assert "/vic-gm turn end" in listed.first.inner_text()
    page.keyboard.press("Escape")
    assert not page.errors  # type: ignore[attr-defined]


def platform_fonts(page: Page, selector: str) -> list[dict[str, object]]:
    """The fonts Chromium drew the text of ``selector`` with (its DevTools' "Rendered fonts")."""
    cdp = page.context.new_cdp_session(page)
    cdp.send("DOM.enable")
    cdp.send("CSS.enable")
    root = cdp.send("DOM.getDocument")
    node = cdp.send("DOM.querySelector", {"nodeId": root["root"]["nodeId"], "selector": selector})
    fonts: list[dict[str, object]] = cdp.send("CSS.getPlatformFontsForNode", {"nodeId": node["nodeId"]})["fonts"]
    cdp.detach()
    return fonts


def test_emoji_are_drawn_by_the_font_the_bot_ships(server: Launcher, chromium: Browser) -> None:
    # Debian's Chromium has no emoji font: without the page's own, each of these is a box.
    page = open_page(chromium, server.url, "Ivy")
    page.evaluate(
        """() => { const probe = document.createElement('p'); probe.id = 'probe'; probe.textContent = '👑🗡️💀📜';
        document.getElementById('message-list').append(probe); return document.fonts.ready.then(() => true); }"""
    )
    page.wait_for_function("document.fonts.check('16px \"Local Emoji\"', '👑')")
    assert platform_fonts(page, "#probe") == [
        {"familyName": "Noto Color Emoji", "postScriptName": "NotoColorEmoji", "isCustomFont": True, "glyphCount": 4}
    ]
    command(page, "/roll d6")  # and in what the bot sends: 🎲 … rolled
    expect(last_message(page, "rolled")).to_be_visible()
    drawn = platform_fonts(page, "#messages article.message:last-of-type .content p")
    assert any(font["familyName"] == "Noto Color Emoji" for font in drawn), drawn


def test_a_file_goes_up_on_its_own(server: Launcher, chromium: Browser) -> None:
    page = open_page(chromium, server.url, "Jo")
    sent: list[str] = []
    page.on("websocket", lambda ws: ws.on("framesent", lambda frame: sent.append(str(frame))))
    page.reload()  # its WebSocket again, now watched
    expect(page.locator("#me-name")).to_contain_text("Jo")
    command(page, "/dice import")  # the file is required: its field opens
    page.locator("#opt-file").set_input_files(
        files=[{"name": "rolls.txt", "mimeType": "text/plain", "buffer": b"sneaky = 1d20+7\n"}]
    )
    page.get_by_role("button", name="Send").click()
    expect(last_message(page, "Imported")).to_contain_text("Imported 1 saved roll")
    assert sent and not any("sneaky" in frame or "1d20+7" in frame for frame in sent)  # not inside a tab's frame
    assert not page.errors  # type: ignore[attr-defined]
