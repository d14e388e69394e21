"""Run the Docker image (or the compose file) against the test suite's fake Discord (docs/deploy.md, "Checked").

    PYTHONPATH=$PWD .venv/bin/python scripts/docker/fake_discord.py [--image clerk] [--database URL]
    PYTHONPATH=$PWD .venv/bin/python scripts/docker/fake_discord.py --compose

The fake listens on 127.0.0.1, so the bots run with host networking (``--compose`` adds
compose.fake-discord.yaml to compose.yaml). The bots must migrate, connect (every shard), register the
commands, create a game, open a round, answer a DM ballot, and stop cleanly (no ERROR in their logs). Needs
docker (and docker-compose for ``--compose``) and the dev install (tests/fakediscord); the test suite does not use
this script. Exit 0 if all went as expected, 1 otherwise (the logs' last 80 lines are printed then)."""

from __future__ import annotations

import argparse
import asyncio
import os
import subprocess
import sys
import time
import uuid
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests"))

from fakediscord import TOKEN, FakeDiscord  # noqa: E402


def run(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    result = subprocess.run(args, capture_output=True, text=True, check=False, cwd=ROOT, env=env)
    if result.returncode != 0:
        print(f"{' '.join(args)} exited {result.returncode}:\n{result.stdout}{result.stderr}", file=sys.stderr)
    return result


class Bots:
    """``docker run`` one container, or ``docker-compose up`` the compose file with the override."""

    def __init__(self, fake: FakeDiscord, options: argparse.Namespace) -> None:
        self.compose = options.compose
        self.env = {**os.environ, "DISCORD_TOKEN": TOKEN, "CLERK_TEST_DISCORD_API": fake.api_base,
                    "CLERK_TEST_DISCORD_GATEWAY": fake.gateway_url}
        self.name = f"clerk-check-{uuid.uuid4().hex[:8]}"
        self.files = ["-f", "compose.yaml", "-f", "scripts/docker/compose.fake-discord.yaml"]
        self.run_args = ["--network", "host", "-e", "DISCORD_TOKEN", "-e", "CLERK_TEST_DISCORD_API",
                         "-e", "CLERK_TEST_DISCORD_GATEWAY"]
        if options.database:
            self.run_args += ["-e", f"DATABASE_URL={options.database}"]
        self.image = options.image

    def start(self) -> bool:
        if self.compose:
            return run("docker-compose", "-p", self.name, *self.files, "up", "-d", "--build", env=self.env
                       ).returncode == 0
        return run("docker", "run", "-d", "--name", self.name, *self.run_args, self.image, env=self.env
                   ).returncode == 0

    def stop(self) -> str:
        """Stop (timed), collect the logs, remove the containers and their volumes."""
        began = time.monotonic()
        if self.compose:
            run("docker-compose", "-p", self.name, *self.files, "stop", env=self.env)
            print(f"docker-compose stop took {time.monotonic() - began:.1f} s")
            logs = run("docker-compose", "-p", self.name, *self.files, "logs", "--no-color", env=self.env)
            run("docker-compose", "-p", self.name, *self.files, "down", "-v", env=self.env)
        else:
            run("docker", "stop", self.name)
            print(f"docker stop took {time.monotonic() - began:.1f} s")
            logs = run("docker", "logs", self.name)
            run("docker", "rm", "-v", self.name)
        return logs.stdout + logs.stderr


async def check(options: argparse.Namespace) -> int:
    fake = FakeDiscord()
    await fake.start()
    mod = fake.add_user("mod", manage_guild=True)
    alice = fake.add_user("alice")
    game = fake.add_channel("sirius")
    bots = Bots(fake, options)
    shards = 2 if options.compose else 1
    ok = bots.start()
    try:
        if ok:
            await fake.wait_for(lambda: fake.identifies >= shards and fake.commands.get(None),
                                f"{shards} shard(s) to connect and the commands to be registered", 180)
            print(f"connected: {fake.identifies} IDENTIFY {sorted(fake.shards_identified.values())}; "
                  f"{len(fake.commands[None])} commands registered")
            steps: list[tuple[str, dict[str, Any]]] = [
                ("game new", {"ruleset": "landsdraad", "name": "sirius"}),
                ("player add", {"user": alice, "diplomacy": 4, "command": 2, "intrigue": 2, "roll": 3}),
                ("round open", {"crisis": "Raise the fleet levy?"}),
            ]
            for command, options_ in steps:
                answer = await fake.answered(await fake.slash(mod, command, game, **options_))
                print(f"/{command}: {answer.content.splitlines()[0] if answer.content else '(embed)'}")
            reply = await fake.reply_to(await fake.dm(alice, "Vote: Aye"))
            print(f"DM ballot: {reply.content.splitlines()[0]}")
            ok = "Ballot recorded" in reply.content and not fake.problems()
            for problem in fake.problems():
                print(problem, file=sys.stderr)
    except AssertionError as error:
        print(f"FAILED: {error}", file=sys.stderr)
        ok = False
    finally:
        log = bots.stop()
        await fake.stop()
    errors = [line for line in log.splitlines() if " ERROR " in line]
    if not ok or errors:
        print("\n".join(log.splitlines()[-80:]), file=sys.stderr)
        return 1
    print("migrated, connected, answered and stopped cleanly")
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--image", default="clerk", help="the image to run (default: clerk)")
    parser.add_argument("--database", help="DATABASE_URL for the container (default: the image's, SQLite on /data)")
    parser.add_argument("--compose", action="store_true", help="run compose.yaml (PostgreSQL and two shards)")
    return asyncio.run(check(parser.parse_args()))


if __name__ == "__main__":
    sys.exit(main())
