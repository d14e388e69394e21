"""The name the Landsdraad ruleset is stored under (``games.ruleset``) and typed as in ``/game new``."""

NAME = "landsdraad"
