"""One discord.py cog per game, plus dice and the bot's own commands."""
