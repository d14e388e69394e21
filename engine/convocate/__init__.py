"""The Convocate's politics (rules-spec §4, R4-01..R4-17, rulings P4-01..P4-15): pure rules, no I/O."""
