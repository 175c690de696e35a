"""Vices & Vengeance: the dice game (``rules.vices.engine``) and its scoresheet (``rules.vices.sheet``)."""
