"""The benchmarks' bare bot (bench/barebot.py), the floor Clerk's end-to-end and burst figures are measured against
(docs/performance.md): it must answer, and its two ways of answering must make the same request, so that the only
difference between them is the code that makes it (Clerk's ``PlainPoster`` or discord.py's ``Message.reply``).

Run as the benchmark runs it: the fake Discord in one process (here a child Python running bench/procs.py's
``start_fake`` and ``spawn``), each bot a process of its own."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

PROBE = """
import asyncio, json
from bench.procs import ready, scratch_dir, spawn, start_fake

async def main():
    fake = await start_fake()
    user = fake.add_user("probe")
    seen = {}
    try:
        for kind in ("bare", "bare-reply"):
            child = await spawn(fake, kind, scratch_dir())
            try:
                before = len(fake.sent)
                await ready(fake, child, user, "hello")
                [sent] = [s for s in fake.sent[before:] if s.kind != "system"]
                [(method, path, body)] = [b for b in fake.bodies if b[1].endswith("/messages")][-1:]
                seen[kind] = {"content": sent.content, "replies_to_a_dm": sent.reference is not None,
                              "request": [method, path.rsplit("/", 2)[-1], {k: v for k, v in body.items()
                                                                            if k != "nonce"}]}
                seen[kind]["request"][2]["message_reference"].pop("message_id")  # each replies to its own DM
            finally:
                await child.stop()
    finally:
        await fake.stop()
    print(json.dumps(seen))

asyncio.run(main())
"""


def test_the_bare_bot_answers_with_clerks_post_and_with_discord_pys_reply_alike() -> None:
    done = subprocess.run([sys.executable, "-c", PROBE], cwd=ROOT, capture_output=True, text=True, timeout=240)
    assert done.returncode == 0, done.stderr[-3000:]
    seen = json.loads(done.stdout.strip().splitlines()[-1])
    assert seen["bare"]["content"] == seen["bare-reply"]["content"] == "ok"
    assert seen["bare"]["replies_to_a_dm"] and seen["bare-reply"]["replies_to_a_dm"]
    assert seen["bare"]["request"] == seen["bare-reply"]["request"], "the same request either way"


def test_the_bare_bot_imports_nothing_of_clerk() -> None:
    """It loads Clerk's pacer, HTTP settings and plain post by their files (``_load``); importing the ``bot`` package
    would import all of Clerk, and the bare bot's start-up and memory would be Clerk's."""
    probe = ("import importlib.util, sys; "
             "spec = importlib.util.spec_from_file_location('barebot', 'bench/barebot.py'); "
             "module = importlib.util.module_from_spec(spec); spec.loader.exec_module(module); "
             "print(sorted(m for m in sys.modules if m.split('.')[0] in ('bot', 'engine')))")
    done = subprocess.run([sys.executable, "-c", probe], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-3000:]
    assert done.stdout.strip() == "[]"
