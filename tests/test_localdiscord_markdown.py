"""Discord's markdown as the web client shows it: what Discord renders, rendered; what it doesn't, left as text;
raw HTML always escaped."""

from __future__ import annotations

import pytest

from localdiscord.markdown import render

SPOILER = '<span class="spoiler" role="button" tabindex="0" aria-expanded="false" aria-label="Spoiler">'
BOB = '<span class="mention user" data-user="123456789012345678">@Bob</span>'
NAMES = {"users": {"123456789012345678": "Bob"}, "roles": {"223456789012345678": "Crew"}, "channels": {}}


@pytest.mark.parametrize(
    ("text", "html"),
    [
        (
            "**bold** *it* _it_ __under__ ~~gone~~",
            "<p><strong>bold</strong> <em>it</em> <em>it</em> <u>under</u> <s>gone</s></p>",
        ),
        (
            "a ||secret **x**|| b",
            f"<p>a {SPOILER}secret <strong>x</strong></span> b</p>",
        ),
        ("# Big\n## Less\n### Least", "<h1>Big</h1>\n<h2>Less</h2>\n<h3>Least</h3>"),
        ("- one\n- two", "<ul>\n<li>one</li>\n<li>two</li>\n</ul>"),
        ("1. one\n2. two", "<ol>\n<li>one</li>\n<li>two</li>\n</ol>"),
        ("`x<y`", "<p><code>x&lt;y</code></p>"),
        ("```py\nif a < b:\n```", '<pre><code class="language-py">if a &lt; b:\n</code></pre>'),
        ("> said", "<blockquote>\n<p>said</p>\n</blockquote>"),
        ("-# small print", '<p class="subtext"><small>small print</small></p>'),
        ("line\nnext", "<p>line<br>\nnext</p>"),
        (
            "<@123456789012345678> <@!123456789012345678>",
            f"<p>{BOB} {BOB}</p>",
        ),
        ("<@&223456789012345678>", '<p><span class="mention role">@Crew</span></p>'),
        (
            "<t:1700000000:R>",
            '<p><time datetime="2023-11-14T22:13:20+00:00" data-style="R">2023-11-14 22:13 UTC</time></p>',
        ),
        (
            "<t:1700000000>",
            '<p><time datetime="2023-11-14T22:13:20+00:00" data-style="f">2023-11-14 22:13 UTC</time></p>',
        ),
        ("<script>alert(1)</script>", "<p>&lt;script&gt;alert(1)&lt;/script&gt;</p>"),
        (
            "[site](https://example.org)",
            '<p><a href="https://example.org" target="_blank" rel="noopener noreferrer nofollow">site</a></p>',
        ),
        ("[x](javascript:alert(1))", "<p>[x](javascript:alert(1))</p>"),
        ("| a | b |\n|---|---|\n| 1 | 2 |", "<p>| a | b |<br>\n|---|---|<br>\n| 1 | 2 |</p>"),
        ("---", "<p>---</p>"),
        ("", ""),
    ],
)
def test_discord_markdown(text: str, html: str) -> None:
    assert render(text, NAMES) == html


def test_an_unknown_user_is_not_shown_by_id() -> None:
    assert "Unknown User" in render("<@999999999999999999>", NAMES)
