"""An unknown slash command in the console (play-test, landsdraad-2026-12-07 #3): its group's commands are listed,
and a near spelling suggested, from those the channel's game takes, not every ruleset's."""

from __future__ import annotations

from pathlib import Path

from bot.console.cli import replay

from .helpers import fresh_database

LINES = ["! time 2026-03-01 18:00",
         "mod #t3: /game new ruleset:landsdraad name:t3",
         "mod #t3: /faction drop name:Merchants",
         "mod #t3: /faction sett",
         "mod #rep: /game new ruleset:mylantium name:rep",
         "mod #rep: /faction drop",
         "mod #lobby: /faction drop",
         "mod #t3: /faction set faction:PL vp:3"]


async def test_an_unknown_subcommand_lists_only_what_the_games_ruleset_takes(tmp_path: Path) -> None:
    db = await fresh_database(tmp_path)
    out: list[str] = []
    result = await replay(LINES, database_url=db.url, seed=0, write=out.append, engine_options=db.options)
    assert result.code == 0, result.error
    answers = [line.split(": ", 1)[1] for line in out
               if line.startswith("  → #") and ("There is no command" in line or "is a Mylantium command" in line)]
    assert answers == [
        "There is no command /faction drop. /faction has: add, remove.",  # Landsdraad's: not me, register, set, votes
        "There is no command /faction sett. /faction has: add, remove.",  # not "Did you mean /faction set?"
        "There is no command /faction drop. /faction has: me, register, set, votes.",
        "There is no command /faction drop. /faction has: add, me, register, remove, set, votes.",  # no game: all
        "/faction set is a Mylantium command; t3 plays Landsdraad.",  # another ruleset's command is still found
    ], out
