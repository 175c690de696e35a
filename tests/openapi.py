"""Discord's OpenAPI description (``../shared/discord-api/openapi.json``, as the request check reads it), for tests
that check what the local Discord *sends* the bot (interactions, messages, commands) against its schemas.

``DISCORD_OPENAPI`` points elsewhere; otherwise the first ``shared/discord-api/openapi.json`` beside the repository
or one of its parent folders (a worktree sits deeper than the checkout). Without it the caller's test skips, as the
request check is skipped in CI when ``../shared`` is absent.
"""

from __future__ import annotations

import functools
import json
import os
from pathlib import Path
from typing import Any

import pytest
from jsonschema import Draft202012Validator
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT202012

SPEC = Path("shared") / "discord-api" / "openapi.json"


def spec_path() -> Path | None:
    """Where the description is, if anywhere."""
    named = os.environ.get("DISCORD_OPENAPI")
    if named:
        return Path(named)
    here = Path(__file__).resolve().parent.parent
    return next((folder / SPEC for folder in here.parents if (folder / SPEC).is_file()), None)


@functools.cache
def _registry() -> tuple[dict[str, Any], Registry]:
    path = spec_path()
    if path is None:
        pytest.skip("Discord's OpenAPI description (../shared/discord-api/openapi.json) is not here")
    doc = json.loads(path.read_text())
    schemas = doc["components"]["schemas"]
    # Snowflakes as integers too, as Discord accepts them (the request check does the same).
    schemas["SnowflakeType"] = {"anyOf": [schemas["SnowflakeType"], {"type": "integer", "minimum": 0}]}
    return doc, Registry().with_resource("urn:discord", Resource.from_contents(doc, default_specification=DRAFT202012))


def check(schema: str, value: Any) -> None:
    """Fail the test if ``value`` doesn't match the description's ``components/schemas/<schema>``."""
    _, registry = _registry()
    validator = Draft202012Validator({"$ref": f"urn:discord#/components/schemas/{schema}"}, registry=registry)
    errors = [f"{'/'.join(map(str, e.absolute_path))}: {e.message[:300]}" for e in validator.iter_errors(value)]
    assert not errors, f"not a valid {schema}:\n" + "\n".join(errors)
