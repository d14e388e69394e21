"""Pure rules of the Landsdraad game (rules-spec §1): votes, ballots, temporary factions, the tally."""
