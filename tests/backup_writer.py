"""A second process for tests/test_backup.py: it keeps casting ballots in one game through the real service
(``Clerk.cast_ballot``) and prints each ballot's source id only after the call returned, that is after the
ballot was committed ("acknowledged"). It stops when the stop file appears.

    python tests/backup_writer.py DATABASE_URL GAME_ID STOP_FILE USER_ID...
"""

from __future__ import annotations

import asyncio
import sys
from datetime import UTC, datetime
from itertools import count, cycle
from pathlib import Path

from engine.landsdraad.ballot import parse_ballot
from engine.service import Clerk
from engine.service.clock import ManualClock, RandomDice
from engine.store.database import make_engine, make_sessionmaker


async def write(url: str, game_id: int, stop: Path, users: list[int]) -> None:
    engine = make_engine(url)
    clock = ManualClock(datetime(2026, 3, 1, 18, 0, tzinfo=UTC))
    clerk = Clerk(make_sessionmaker(engine), clock, RandomDice(1))
    options = cycle(["Aye", "Nay", "Abstain", "Aye, 3"])
    try:
        for number in count(1):
            if stop.exists():
                return
            user = users[number % len(users)]
            source = f"writer-{number}"
            await clerk.cast_ballot(game_id, user_id=user, command=parse_ballot(f"Vote: {next(options)}"),
                                    received_at=clock.now(), source_id=source)
            print(source, flush=True)
    finally:
        await engine.dispose()


if __name__ == "__main__":
    url, game, stop, *users = sys.argv[1:]
    asyncio.run(write(url, int(game), Path(stop), [int(u) for u in users]))
