"""Ruleset-independent pure helpers: errors, exact rounding, durations, near-miss suggestions."""
