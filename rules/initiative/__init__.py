"""An initiative tracker for any tabletop RPG: who acts in which order, rounds, conditions that run out (pure)."""
