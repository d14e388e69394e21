"""Memory: the resident memory of a bot process with 100 open games of 20 players (every player has voted once),
measured in a child process so that nothing else this suite ran is counted. The fake Discord runs in the same
child (it holds little: the messages the bot sent), and its share is shown by the figure before the bot starts."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

GAMES, PLAYERS = 100, 20


def rss_mb() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise RuntimeError("no VmRSS in /proc/self/status")


async def child() -> dict[str, float]:
    from sqlalchemy import insert

    from bench.common import migrated_sqlite, scratch_dir
    from bench.wire import READY, _connect, _disconnect, fake_discord
    from bot.actions.commands import App
    from bot.discord import make_bot
    from engine.service import Clerk
    from engine.service.clock import ManualClock, RandomDice
    from engine.store.database import make_engine, make_sessionmaker
    from engine.store.models import Player

    fake = await fake_discord()
    engine = make_engine(await migrated_sqlite(scratch_dir() / "memory.db"))
    clerk = Clerk(make_sessionmaker(engine), ManualClock(datetime(2026, 3, 1, tzinfo=UTC)), RandomDice(2))
    users = []
    for g in range(GAMES):
        channel = fake.add_channel(f"game{g}")
        game = await clerk.games.create_game(guild_id=fake.guild_id, channel_id=channel.id, name=f"game{g}",
                                             ruleset="landsdraad", moderator_role_id=None, actor=fake.owner.id)
        members = [fake.add_user(f"g{g}p{i}") for i in range(PLAYERS)]
        rows: list[dict[str, Any]] = [
            {"game_id": game.id, "user_id": u.id, "name": u.name, "faction": None, "diplomacy": 3, "command": 2,
             "intrigue": 2, "roll": 2, "diplomacy_max": 3, "intrigue_max": 2, "misc_votes": 0, "active": True}
            for u in members]
        async with engine.begin() as conn:
            await conn.execute(insert(Player), rows)
        await clerk.landsdraad.rounds.open_round(game.id, crisis=f"Crisis {g}", deadline=None, actor=fake.owner.id)
        users += members
    before = rss_mb()
    bot = make_bot(App(clerk), guild_ready_timeout=READY)
    task = await _connect(bot)
    for u in users:
        await fake.reply_to(await fake.dm(u, "Vote: Aye"))
    after = rss_mb()
    await _disconnect(bot, task)
    await engine.dispose()
    await fake.stop()
    return {"before_bot": before, "with_bot": after}


def run() -> list[str]:
    out = subprocess.run([sys.executable, "-m", "bench.memory", "--child"], capture_output=True, text=True,
                         check=True, cwd=Path(__file__).resolve().parents[1])
    figures = json.loads(out.stdout.strip().splitlines()[-1])
    total = figures["with_bot"]
    return [f"Memory: {GAMES} open games of {PLAYERS} players, every player has voted (one process, bot and fake)",
            f"  resident memory with the bot running: {total:.0f} MB (before the bot started: "
            f"{figures['before_bot']:.0f} MB); target <= 150 MB: {'ok' if total <= 150 else 'OVER'}"]


if __name__ == "__main__":
    if "--child" in sys.argv:
        print(json.dumps(asyncio.run(child())))
    else:
        print("\n".join(run()))
