"""The contract every game passes (docs/adding-a-game.md §5): one suite, parameterised over every game kind."""
