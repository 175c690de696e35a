"""Forms, the command box and autocomplete in the browser: a V&V scoresheet filled in through its form (a field
left empty is refused by the form itself, a bad value by the bot, privately), ``/roll`` picked from the command
list with the keyboard alone, and an option filled from the bot's autocomplete choices."""

from __future__ import annotations

import re
from pathlib import Path

from playwright.sync_api import Page, expect

from tests.browser import browser, last_message, launched, open_page, slash

PLAYERS = "Jordan: Wrath, Casey: Greed, Robin: Sloth"


def score(page: Page, player: str, value: str) -> None:
    """Open the sheet's score form for ``player`` and send ``value``."""
    last_message(page, f"Score for {player}").get_by_role("button", name=f"Score for {player}").click()
    form = page.get_by_role("dialog")
    expect(form).to_contain_text(player)
    form.get_by_label("Points this turn").fill(value)
    form.get_by_role("button", name="Submit").click()


def test_a_scoresheet_filled_in_through_its_form(tmp_path: Path) -> None:
    with launched(tmp_path / "var") as launcher, browser() as chromium:
        page = open_page(chromium, launcher.url, "Alice")
        slash(page, "vv sheet", players=PLAYERS)
        expect(last_message(page, "Score for Jordan")).to_be_visible()

        # Empty: the form itself refuses, as Discord's does, and nothing is sent.
        last_message(page, "Score for Jordan").get_by_role("button", name="Score for Jordan").click()
        form = page.get_by_role("dialog")
        form.get_by_role("button", name="Submit").click()
        expect(form).to_contain_text("This field is required.")
        expect(form.get_by_label("Points this turn")).to_have_attribute("aria-invalid", "true")
        form.get_by_role("button", name="Cancel").click()

        # A bad value: the bot refuses it, and only Alice sees why.
        score(page, "Jordan", "banana")
        refusal = page.locator("article.message.ephemeral").last
        expect(refusal).to_contain_text("whole numbers")
        expect(refusal).to_contain_text("Only you can see this")
        expect(page.get_by_role("dialog")).to_be_hidden()

        score(page, "Jordan", "14")
        sheet = last_message(page, "Score for Casey")
        expect(sheet).to_contain_text("Jordan (Wrath)")
        expect(sheet).to_contain_text("14")
        picture = sheet.locator("img")
        # The bot's own alt text (the attachment's description) says what the picture shows.
        expect(picture).to_have_attribute("alt", re.compile(r"^Picture of the Vices & Vengeance scoresheet.*Jordan"))
        assert picture.evaluate("img => img.complete && img.naturalWidth") >= 800  # the PNG the bot drew
        assert not page.errors  # type: ignore[attr-defined]


def test_roll_by_keyboard_and_an_option_from_autocomplete(tmp_path: Path) -> None:
    with launched(tmp_path / "var") as launcher, browser() as chromium:
        page = open_page(chromium, launcher.url, "Alice")
        box = page.get_by_role("combobox", name="Command")
        box.focus()
        page.keyboard.type("/ro")
        commands = page.get_by_role("listbox", name="Commands")
        expect(commands.get_by_role("option", selected=True)).to_contain_text("/roll")
        page.keyboard.press("Enter")
        expression = page.get_by_role("combobox", name="expression")
        expect(expression).to_be_focused()
        page.keyboard.type("2d6+3")
        page.keyboard.press("Enter")
        expect(last_message(page, "/roll")).to_contain_text(re.compile(r"rolled\s+2d6 \[\d, \d\] \+ 3"))

        # A roll saved under a name, then picked from what /roll offers as its name is typed.
        box.fill("")
        box.focus()
        page.keyboard.type("/dice save")
        expect(commands.get_by_role("option", selected=True)).to_contain_text("/dice save")
        page.keyboard.press("Enter")
        page.locator("#opt-name").fill("attack")
        page.locator("#opt-expression").fill("1d20+5")
        page.get_by_role("button", name="Send").click()
        expect(page.locator("article.message").last).to_contain_text("attack")
        box.fill("")
        box.focus()
        page.keyboard.type("/roll")
        expect(commands.get_by_role("option", selected=True)).to_contain_text("/roll")
        page.keyboard.press("Enter")
        expression = page.get_by_role("combobox", name="expression")
        expression.fill("att")
        saved = page.get_by_role("listbox", name="Choices for expression").get_by_role("option").first
        expect(saved).to_contain_text("attack")
        saved.click()
        page.get_by_role("button", name="Send").click()
        expect(last_message(page, "/roll")).to_contain_text(re.compile(r"1d20 \(\d+\) \+ 5|1d20"))

        # /game rules: the bot offers the games as the member types.
        box.fill("/game rules")
        page.locator("#command-list").get_by_role("option").filter(has_text="/game rules ").first.click()
        field = page.get_by_role("combobox", name="game")
        field.fill("Dice")
        choice = page.get_by_role("listbox", name="Choices for game").get_by_role("option").first
        expect(choice).to_contain_text("Dice of Crowns")
        choice.click()
        expect(field).to_have_value("Dice of Crowns")
        page.get_by_role("button", name="Send").click()
        expect(page.locator("article.message").last).to_contain_text("Dice of Crowns")

        # One person, two seats: someone new in this tab, then back to Alice, whose messages come back.
        page.get_by_label("Play as").select_option(label="Someone new…")
        page.get_by_label("Your name").fill("Bob")
        page.get_by_role("button", name="Join", exact=True).click()
        expect(page.locator("#me-name")).to_have_text("Bob")
        expect(page.locator("#messages")).not_to_contain_text("Dice of Crowns")  # Alice's private answer
        page.get_by_label("Play as").select_option(label="Alice")
        expect(page.locator("#me-name")).to_contain_text("Alice")
        expect(page.locator("article.message").last).to_contain_text("Dice of Crowns")
        assert not page.errors  # type: ignore[attr-defined]
