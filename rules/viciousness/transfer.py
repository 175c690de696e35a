"""Export and import of a whole campaign as a JSON file (the cog offers both)."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, ValidationError

from rules.text import echo
from rules.viciousness.catalogue import find_trait
from rules.viciousness.state import CampaignState

FORMAT: Literal["viciousness-campaign"] = "viciousness-campaign"
VERSION: Literal[1] = 1
MAX_ERRORS = 8


class CampaignImportError(ValueError):
    """The file is not a campaign this engine can load; ``problems`` are readable lines."""

    def __init__(self, problems: list[str]) -> None:
        super().__init__("This isn't a campaign file that can be imported:\n" + "\n".join(f"- {p}" for p in problems))
        self.problems = problems


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
            raise CampaignImportError([f"the file is not JSON ({exc})"]) from exc
        except RecursionError:
            raise CampaignImportError(["the file nests lists or objects far deeper than a campaign does"]) from None
    if not isinstance(data, Mapping) or data.get("format") != FORMAT:
        raise CampaignImportError(["the file is not a Viciousness campaign export"])
    try:
        state = CampaignFile.model_validate(data).state
    except ValidationError as exc:
        problems = [
            f"{echo('.'.join(str(p) for p in e['loc'])) if e['loc'] else 'file'}: {e['msg']}" for e in exc.errors()
        ]
        raise CampaignImportError(problems[:MAX_ERRORS]) from exc
    unknown = [
        f"{echo(pc.name)} has the trait {echo(t.name)}: neither one of the 27 nor a custom trait of the campaign"
        for troupe in state.troupes.values()
        for pc in troupe.pcs
        for t in pc.traits
        if find_trait(state, t.name) is None
    ]
    if unknown:
        raise CampaignImportError(unknown[:MAX_ERRORS])
    # An archived campaign's export is taken into play wherever it is imported.
    return state.model_copy(update={"archived": False})
