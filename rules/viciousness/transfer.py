"""Export and import of a whole campaign as a JSON file (the cog offers both)."""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, ValidationError

from rules.said import said
from rules.text import echo
from rules.viciousness.catalogue import find_trait
from rules.viciousness.state import CampaignState

FORMAT: Literal["viciousness-campaign"] = "viciousness-campaign"
VERSION: Literal[1] = 1
MAX_ERRORS = 8


class CampaignImportError(ValueError):
    """The file is not a campaign this engine can load; ``problems`` are readable lines (``Said`` where they are
    this engine's own words; pydantic's explanations stay English)."""

    HEADER = said("This isn't a campaign file that can be imported:")

    def __init__(self, problems: list[str]) -> None:
        super().__init__(self.text(problems))
        self.problems = problems

    @classmethod
    def text(cls, problems: list[str], say: Callable[[str], str] = str) -> str:
        """The message, its words said by ``say`` (the bot's ``localize``)."""
        return "\n".join([say(cls.HEADER), *(f"- {say(p)}" for p in problems)])

    def said_by(self, say: Callable[[str], str]) -> str:
        """This error's message in the reader's language (``say`` is the bot's ``localize``)."""
        return self.text(self.problems, say)


class CampaignFile(BaseModel):
    """What an export holds: a marker, a format version and the state."""

    model_config = ConfigDict(extra="forbid")

    format: Literal["viciousness-campaign"]
    version: Literal[1]
    state: CampaignState


def export_campaign(state: CampaignState) -> str:
    """The campaign as JSON text, ready to attach as a file."""
    return CampaignFile(format=FORMAT, version=VERSION, state=state).model_dump_json(indent=2)


def import_campaign(data: str | bytes | Mapping[str, Any]) -> CampaignState:
    """Validate an exported campaign; raises CampaignImportError listing what is wrong."""
    if isinstance(data, str | bytes):
        try:
            data = json.loads(data)
        except (ValueError, UnicodeDecodeError) as exc:
            raise CampaignImportError([said("the file is not JSON ({error})", error=exc)]) from exc
        except RecursionError:
            raise CampaignImportError(
                [said("the file nests lists or objects far deeper than a campaign does")]
            ) from None
    if not isinstance(data, Mapping) or data.get("format") != FORMAT:
        raise CampaignImportError([said("the file is not a Viciousness campaign export")])
    try:
        state = CampaignFile.model_validate(data).state
    except ValidationError as exc:
        problems: list[str] = [
            said(
                "{where}: {problem}",
                where=echo(".".join(str(p) for p in e["loc"])) if e["loc"] else said("file"),
                problem=e["msg"],
            )
            for e in exc.errors()
        ]
        raise CampaignImportError(problems[:MAX_ERRORS]) from exc
    unknown: list[str] = [
        said(
            "{name} has the trait {trait}: neither one of the 27 nor a custom trait of the campaign",
            name=echo(pc.name),
            trait=echo(t.name),
        )
        for troupe in state.troupes.values()
        for pc in troupe.pcs
        for t in pc.traits
        if find_trait(state, t.name) is None
    ]
    if unknown:
        raise CampaignImportError(unknown[:MAX_ERRORS])
    # An archived campaign's export is taken into play wherever it is imported.
    return state.model_copy(update={"archived": False})
