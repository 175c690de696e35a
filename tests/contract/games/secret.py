"""Secret dice (``tests/secret``), the guide's hidden-information example, in the contract suite."""

from __future__ import annotations

import random

from pydantic import BaseModel

from tests.contract.kit import Game, Table, seated
from tests.secret.cog import SecretSpec
from tests.secret.engine import SecretOptions, SecretState


def secret_table(rng: random.Random) -> Table:
    return seated("secret", SecretOptions(), rng.randint(2, 4))


def secret_owners(state: BaseModel) -> list[str]:
    assert isinstance(state, SecretState)
    return [] if state.revealed else list(state.players)


def secret_shows(viewed: BaseModel, owner: str) -> bool:
    assert isinstance(viewed, SecretState)
    return viewed.dice.get(owner) is not None


GAME = Game("secret", SecretSpec(), secret_table, games=10, owners=secret_owners, shows=secret_shows)
