"""A tiny game used to exercise the core end to end: race to a target with one d6 per turn."""
