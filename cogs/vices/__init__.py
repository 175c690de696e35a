"""Vices & Vengeance in Discord."""
