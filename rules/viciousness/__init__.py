"""Viciousness (RULES.md PART 3): pure rules for the GM assistant."""
