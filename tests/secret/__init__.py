"""Secret dice: a small game with hidden information, written from docs/adding-a-game.md alone."""
