"""``python -m bench.profiles DIR [N]``: what the bots' main threads did per DM, from the profiles a
``python -m bench e2e burst --bot-profile=DIR`` run wrote (``CLERK_TEST_PROFILE``, bot/discord/run.py).

For each bot and benchmark (all its blocks together): the main thread's CPU per DM, the parts of Clerk's DM path
(cumulative, so they overlap: ``handle_dm`` is inside ``on_message``), and the ``N`` functions with the most CPU of
their own per DM. The clock is the thread's CPU time, so the figures compare across a loaded machine; cProfile's own
cost inflates small calls, so they are for comparing the parts and two versions of the code, not latencies."""

from __future__ import annotations

import pstats
import sys
from collections import defaultdict
from pathlib import Path

DMS_FILE = "dms.txt"
"""Beside the profiles: one line per profile, its file name and how many DMs its block sent."""

PARTS = (
    ("the gateway's read of a message (discord.py)", "gateway.py", "received_message"),
    ("  of it, discord.py's Message (parse_message_create)", "state.py", "parse_message_create"),
    ("Clerk's on_message (front door, service call, queueing)", "client.py", "on_message"),
    ("Clerk's on_direct_message (front door, service, queueing)", "client.py", "on_direct_message"),
    ("  of it, handle_dm", "messages.py", "handle_dm"),
    ("  of it, Courier.to_message", "delivery.py", "to_message"),
    ("the Batcher's loop side (_drain)", "batching.py", "_drain"),
    ("the hop to a worker thread (run_in_executor)", "base_events.py", "run_in_executor"),
    ("the outbox's _deliver (with the send)", "outbox_worker.py", "_deliver"),
    ("  of it, the HTTP send (Messageable.send)", "abc.py", "send"),
    ("  of it, the HTTP send of text alone (Courier.send_plain)", "delivery.py", "send_plain"),
    ("the outbox's settle (marking a row sent)", "outbox.py", "settle"),
    ("the bare bot's on_message (a reply)", "barebot.py", "on_message"),
)


def dms(directory: Path) -> dict[str, int]:
    lines = (directory / DMS_FILE).read_text().split("\n")
    return {name: int(count) for name, count in (line.split() for line in lines if line.strip())}


def report(directory: Path, top: int = 15) -> list[str]:
    counts = dms(directory)
    groups: dict[str, list[Path]] = defaultdict(list)
    for name in counts:
        kind, bench, _ = name.rsplit("-", 2)
        groups[f"{kind} {bench}"].append(directory / name)
    out = []
    for group, files in sorted(groups.items()):
        n = sum(counts[f.name] for f in files)
        stats = pstats.Stats(*map(str, files))
        table = stats.stats  # type: ignore[attr-defined]
        out.append(f"{group}: {len(files)} block(s), {n} DMs, main thread {stats.total_tt / n * 1e3:.3f} ms CPU "  # type: ignore[attr-defined]
                   "per DM")
        for label, file, function in PARTS:
            cum = sum(v[3] for (path, _, name), v in table.items() if name == function and path.endswith(file))
            if cum:
                out.append(f"  {label:<58} {cum / n * 1e3:7.3f} ms")
        own = sorted(table.items(), key=lambda kv: kv[1][2], reverse=True)[:top]
        out.append(f"  the {top} functions with the most CPU of their own, per DM:")
        for (path, line, name), v in own:
            where = "/".join(Path(path).parts[-2:]) if path != "~" else ""
            out.append(f"    {v[2] / n * 1e3:7.3f} ms  {name} {where}:{line}")
    return out


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit("usage: python -m bench.profiles DIR [N]")
    print("\n".join(report(Path(sys.argv[1]), int(sys.argv[2]) if len(sys.argv) > 2 else 15)))
