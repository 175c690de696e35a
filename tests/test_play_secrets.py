"""Viciousness in the browser: what the bot tells the GM privately never reaches a player's browser (not on
screen, not in a single WebSocket frame) until the GM reveals it with ``/vic-gm reveal``; the GM's screen
(``/vic-gm screen``) is the GM's alone."""

from __future__ import annotations

import re
from pathlib import Path

from playwright.sync_api import expect

from tests.browser import browser, launched, open_page, slash

SECRET = "Baron Vane"


def test_a_rival_reaches_the_player_only_when_the_gm_reveals_it(tmp_path: Path) -> None:
    with launched(tmp_path / "var") as launcher, browser() as chromium:
        gm = open_page(chromium, launcher.url, "Alice")
        player = open_page(chromium, launcher.url, "Bob")
        frames: list[str] = []
        player.on("websocket", lambda ws: ws.on("framereceived", lambda payload: frames.append(str(payload))))
        player.reload()  # the recorder is on before the page's socket opens; the tab comes back as Bob
        expect(player.locator("#me-name")).to_contain_text("Bob")

        slash(gm, "vic-gm campaign new", company="The Gilded Knives")
        expect(player.locator("#messages")).to_contain_text("The Gilded Knives")

        # Bob joins with a troupe, through its form: names typed, three traits ticked in its pick lists.
        slash(player, "vic troupe new", asset="A secured headquarters")
        form = player.get_by_role("dialog")
        form.get_by_label("Troupe name").fill("Night Owls")
        form.get_by_label("Character name").fill("Vex")
        for trait in ("Acrobat", "Marksman", "Medic"):
            form.get_by_role("checkbox", name=re.compile(f"^{trait}")).check()
        form.get_by_role("button", name="Submit").click()
        expect(gm.locator("#messages")).to_contain_text("Traits: Acrobat, Marksman, Medic")

        slash(gm, "vic-rival add", name=SECRET, rank=3, notes="Burned the mill.")
        expect(gm.locator("article.message.ephemeral").last).to_contain_text(SECRET)
        expect(gm.locator("article.message.ephemeral").last).to_contain_text("Only you can see this")
        slash(gm, "vic-gm screen")
        screen = gm.locator("article.message.ephemeral").last
        expect(screen).to_contain_text(SECRET)

        # The player asks for the GM's screen too: refused, privately, and still no secret.
        slash(player, "vic-gm screen")
        expect(player.locator("article.message.ephemeral").last).to_contain_text("Only the GM")
        seen_by_player = player.locator("#messages").inner_text()
        assert SECRET not in seen_by_player
        assert frames and not any(SECRET in frame for frame in frames)

        slash(gm, "vic-gm reveal", text=f"{SECRET}'s men were seen at the mill.")
        expect(player.locator("#messages")).to_contain_text(f"{SECRET}'s men were seen at the mill.")
        assert not gm.errors and not player.errors  # type: ignore[attr-defined]
