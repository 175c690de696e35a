"""The bot core: settings, startup, storage, the action pipeline. It never names a specific game."""
