"""Attachment objects as Discord makes them: a picture's type, width and height read from its header (clients keep
its room before it loads), and any other bytes, however malformed, stored as a plain file."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from localdiscord import LocalDiscord
from localdiscord.cdn import picture_of


def picture(kind: str, size: tuple[int, int]) -> bytes:
    """A picture of ``size`` in the format ``kind``."""
    out = io.BytesIO()
    Image.new("RGB", size, "white").save(out, kind)
    return out.getvalue()


@pytest.mark.parametrize(
    ("kind", "mime"), [("PNG", "image/png"), ("JPEG", "image/jpeg"), ("GIF", "image/gif"), ("WEBP", "image/webp")]
)
def test_a_pictures_type_and_size_come_from_its_header(kind: str, mime: str) -> None:
    assert picture_of(picture(kind, (640, 360))) == (mime, 640, 360)


@pytest.mark.parametrize("content", [b"", b"{}", b"\x89PNG\r\n\x1a\n", picture("PNG", (3, 2))[:30], b"GIF89a\xff"])
def test_anything_else_is_no_picture(content: bytes) -> None:
    assert picture_of(content) is None


async def test_a_stored_pictures_attachment_object_says_so(fake: LocalDiscord) -> None:
    channel = fake.channels[0]
    shown = fake.store_upload(channel, "map.png", picture("PNG", (800, 600)), "application/octet-stream")
    assert (shown["content_type"], shown["width"], shown["height"]) == ("image/png", 800, 600)
    plain = fake.store_upload(channel, "notes.json", b"{}", "application/json")
    assert plain["content_type"] == "application/json" and "width" not in plain
