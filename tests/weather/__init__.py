"""Every kind of interaction the bot has, under bad weather (``tests/test_every_interaction.py``)."""
