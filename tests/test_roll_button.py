"""The Roll again button carries its expression in the custom_id, within Discord's 100 characters."""

from __future__ import annotations

from cogs.dice import CUSTOM_ID_LIMIT, RollAgain, roll_again_view
from rules.dice import ScriptedDice
from rules.roll import roll


def button_id(expression: str, *, private: bool = False) -> str | None:
    view = roll_again_view(roll(expression, ScriptedDice([1] * 100)), private=private)
    if view is None:
        return None
    (item,) = view.children
    assert isinstance(item, RollAgain)
    return item.item.custom_id


async def test_expression_and_label_travel_in_the_custom_id() -> None:
    assert button_id("1d20+5 adv # Stealth") == "roll:0:1d20+5 adv # Stealth"
    assert button_id("2x 1d6", private=True) == "roll:1:2x 1d6"


async def test_label_is_left_off_when_only_the_dice_fit() -> None:
    expression = "1d6+" * 20 + "1"
    assert button_id(f"{expression} # {'L' * 40}") == f"roll:0:{expression}"


async def test_no_button_when_the_dice_do_not_fit() -> None:
    assert button_id("+".join(["1d6"] * 30)) is None


async def test_every_button_fits() -> None:
    for length in range(1, 40):
        custom_id = button_id("+".join(["1"] * length) + " # label")
        assert custom_id is None or len(custom_id) <= CUSTOM_ID_LIMIT
