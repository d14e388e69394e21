"""Pure rules of The Republic of Mylantium (rules-spec §2): elections, party alignment, approval, revolutionary
fervor, revolutions and coups. The rulings P1-01..P1-23 are the defaults of ``settings.Rules``."""
