"""``python -m bot backup PATH`` (docs/backup.md): an online backup of the SQLite database taken while a second
process keeps casting ballots holds every ballot acknowledged before it started and passes integrity_check;
and the command's refusals. Restoring and comparing ``/game export`` is tests/e2e/test_backup_restore.py."""

from __future__ import annotations

import asyncio
import contextlib
import json
import multiprocessing
import os
import shutil
import sqlite3
import time
import traceback
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from itertools import count, cycle
from multiprocessing.connection import Connection
from multiprocessing.synchronize import Event
from pathlib import Path
from typing import Any

import pytest
from fakediscord.waiting import HANG
from sqlalchemy.engine import make_url
from sqlalchemy.ext.asyncio import AsyncEngine

from bot.__main__ import main
from bot.actions.outbox import EXPLAINS, Keep, Outgoing, ToChannel, ToThread
from bot.actions.wire import encode, retarget
from engine.core.stamps import utc_text
from engine.landsdraad.ballot import parse_ballot
from engine.landsdraad.transfers import parse_transfer
from engine.service import Clerk
from engine.service.announcements import card_tag, posted_marker, warning_marker
from engine.service.clock import ManualClock, RandomDice
from engine.service.marks import CHANNEL_LOST, MOVED_FROM, UNREAD
from engine.service.owed import NOTICE, Owed, owe_in_file
from engine.store.backup import head_revision
from engine.store.database import make_engine, make_sessionmaker
from engine.store.restore import Settled

PLAYERS = (11, 12, 13)


async def new_game(url: str) -> int:
    """A Landsdraad game with three players and round 1 open, on an already migrated database."""
    engine = make_engine(url)
    clerk = Clerk(make_sessionmaker(engine), ManualClock(datetime(2026, 3, 1, 18, 0, tzinfo=UTC)), RandomDice(1))
    try:
        game = await clerk.games.create_game(guild_id=900, channel_id=901, name="sirius", ruleset="landsdraad",
                                             moderator_role_id=None, actor=1)
        for user, name in zip(PLAYERS, ("alice", "bob", "carol"), strict=True):
            await clerk.landsdraad.ledger.add_player(game.id, user_id=user, name=name, diplomacy=3, command=2,
                                                     intrigue=2, roll=1, faction=None, actor=1)
        await clerk.landsdraad.rounds.open_round(game.id, crisis="Raise the fleet levy?", deadline=None, actor=1)
        return game.id
    finally:
        await engine.dispose()


@pytest.fixture
async def live(tmp_path: Path, sqlite_template: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Path, int]:
    """The live database (DATABASE_URL points at it) with one game; the current directory is tmp_path."""
    path = tmp_path / "live" / "clerk.db"
    path.parent.mkdir()
    shutil.copyfile(sqlite_template, path)
    url = f"sqlite+aiosqlite:///{path}"
    game = await new_game(url)
    monkeypatch.setenv("DATABASE_URL", url)
    monkeypatch.setenv("CLERK_CONFIG", os.devnull)  # no settings (not a developer's config.toml)
    monkeypatch.chdir(tmp_path)
    return path, game


async def cast_ballots(url: str, game: int, stop: Event, acknowledge: Callable[[str], None]) -> None:
    """Cast ballots in ``game`` through the real service until ``stop``; ``acknowledge`` each source id only after
    ``cast_ballot`` returned, that is after the ballot was committed."""
    engine = make_engine(url)
    clock = ManualClock(datetime(2026, 3, 1, 18, 0, tzinfo=UTC))
    clerk = Clerk(make_sessionmaker(engine), clock, RandomDice(1))
    options = cycle(["Aye", "Nay", "Abstain", "Aye, 3"])
    try:
        for number in count(1):
            if stop.is_set():
                return
            source = f"writer-{number}"
            await clerk.landsdraad.ballots.cast_ballot(game, user_id=PLAYERS[number % len(PLAYERS)],
                                                       received_at=clock.now(),
                                                       command=parse_ballot(f"Vote: {next(options)}"),
                                                       source_id=source)
            acknowledge(source)
    finally:
        await engine.dispose()


def writer_process(url: str, game: int, stop: Event, acks: Connection) -> None:
    try:
        asyncio.run(cast_ballots(url, game, stop, acks.send))
    except BaseException:
        acks.send(f"error: {traceback.format_exc()}")
        raise


class Writer:
    """:func:`cast_ballots` in a second OS process, and the source ids it has acknowledged so far. The process is
    forked from this one, so it is truly concurrent but needs no second start-up of Python and Clerk's imports
    (two seconds of CPU)."""

    def __init__(self, database: Path, game: int) -> None:
        context = multiprocessing.get_context("fork")
        self.stop_event = context.Event()
        self.acks, sender = context.Pipe(duplex=False)
        self.process = context.Process(target=writer_process, name="backup-test-writer", daemon=True,
                                       args=(f"sqlite+aiosqlite:///{database}", game, self.stop_event, sender))
        self.process.start()
        sender.close()
        self.acknowledged: list[str] = []

    def _receive(self, timeout: float) -> None:
        if self.acks.poll(timeout):
            message = self.acks.recv()
            if message.startswith("error: "):
                raise AssertionError(f"the writer failed:\n{message}")
            self.acknowledged.append(message)

    def wait_for(self, count: int, timeout: float = HANG) -> None:
        give_up = time.monotonic() + timeout
        while len(self.acknowledged) < count:
            if time.monotonic() > give_up or (not self.process.is_alive() and not self.acks.poll()):
                raise AssertionError(f"the writer acknowledged {len(self.acknowledged)} ballots, not {count}")
            self._receive(0.05)

    def stop(self) -> int | None:
        self.stop_event.set()
        give_up = time.monotonic() + HANG
        with contextlib.suppress(EOFError):  # the writer has ended and closed its end of the pipe
            while time.monotonic() < give_up:
                self._receive(0.05)
        self.process.join(5)
        if self.process.is_alive():
            self.process.kill()
        return self.process.exitcode


def contents(path: Path) -> tuple[list[str], set[str], dict[int, str | None], dict[int, str]]:
    """integrity_check's rows, the source ids of the BallotCast events, each player's ballot's source id in the
    ballots table, and the source id of each player's last BallotCast event."""
    with sqlite3.connect(f"{path.as_uri()}?mode=ro", uri=True) as db:
        integrity = [row[0] for row in db.execute("PRAGMA integrity_check")]
        events = db.execute("SELECT source_id, actor FROM events WHERE kind = 'BallotCast' ORDER BY seq").fetchall()
        ballots = db.execute("SELECT p.user_id, b.source_id FROM ballots b JOIN players p ON p.id = b.player_id")
        rows = dict(ballots.fetchall())
    last = {actor: source for source, actor in events}
    return integrity, {source for source, _ in events}, rows, last


def test_backups_taken_while_another_process_votes_hold_every_acknowledged_ballot(
        live: tuple[Path, int], tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    database, game = live
    writer = Writer(database, game)
    backups: list[tuple[Path, list[str]]] = []
    try:
        writer.wait_for(4)
        for number in range(3):
            before = list(writer.acknowledged)  # acknowledged = committed before the backup starts
            target = tmp_path / f"backup-{number}.db"
            assert main(["backup", str(target)]) == 0
            backups.append((target, before))
            writer.wait_for(len(writer.acknowledged) + 2)  # the writer goes on; the next backup sees more
        exit_code = writer.stop()
    finally:
        writer.stop_event.set()
    assert exit_code == 0
    printed = capsys.readouterr()
    assert printed.err == ""
    for target, before in backups:
        integrity, cast, ballots, last = contents(target)
        assert integrity == ["ok"]
        missing = [source for source in before if source not in cast]
        assert not missing, f"{target.name} lacks acknowledged ballots {missing[:5]} (of {len(before)})"
        assert ballots == {user: last[user] for user in PLAYERS}  # the ballots table matches the log: one instant
        with sqlite3.connect(target) as db:
            events = db.execute("SELECT COUNT(*) FROM events").fetchone()[0]
        assert (f"to {target}: {target.stat().st_size} bytes, 1 game, {events} events "
                f"(schema revision {head_revision()}, integrity ok)") in printed.out
        assert not Path(f"{target}-wal").exists() and not Path(f"{target}-journal").exists()
    # the writer kept committing while the backups ran: each later backup holds ballots the earlier ones lack
    assert len(contents(backups[-1][0])[1]) > len(contents(backups[0][0])[1]) >= len(backups[0][1]) >= 4
    assert list(tmp_path.glob(".*.partial")) == []


def run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    code = main(argv)
    printed = capsys.readouterr()
    assert printed.out == ""
    return code, printed.err


def test_a_path_in_a_missing_directory_is_refused(live: tuple[Path, int], tmp_path: Path,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    code, said = run(["backup", "no/such/folder/clerk.db"], capsys)

    assert code == 1
    assert said == ("clerk: backup failed, nothing was written to no/such/folder/clerk.db: cannot write "
                    "no/such/folder/clerk.db: the directory no/such/folder does not exist (create it first)\n")
    assert not (tmp_path / "no").exists()


def test_a_path_that_is_a_directory_is_refused(live: tuple[Path, int], tmp_path: Path,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "backups").mkdir()

    code, said = run(["backup", "backups"], capsys)

    assert code == 1
    assert said == ("clerk: backup failed, nothing was written to backups: backups is a directory; give the "
                    "backup a file name, e.g. backups/clerk-backup.db\n")
    assert list((tmp_path / "backups").iterdir()) == []


def test_the_live_database_itself_is_refused(live: tuple[Path, int], capsys: pytest.CaptureFixture[str]) -> None:
    database, _ = live
    before = database.read_bytes()

    code, said = run(["backup", "live/clerk.db"], capsys)

    assert code == 1
    assert "live/clerk.db is the live database itself; give the backup another path" in said
    assert database.read_bytes() == before


def test_a_postgresql_url_gets_the_pg_dump_command(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("DATABASE_URL", "postgresql+asyncpg://clerk:s3cret@db.example:5433/clerk")
    monkeypatch.setenv("CLERK_CONFIG", os.devnull)  # no settings (not a developer's config.toml)
    monkeypatch.chdir(tmp_path)

    code, said = run(["backup", "clerk backup.dump"], capsys)

    assert code == 2
    assert said == (
        "clerk: DATABASE_URL is a PostgreSQL database; `python -m bot backup` copies only SQLite files. Back it up "
        "with pg_dump (it is consistent while the bot runs) with the password in PGPASSWORD or ~/.pgpass:\n"
        "  pg_dump --format=custom --file='clerk backup.dump' postgresql://clerk@db.example:5433/clerk\n"
        "and restore it (bot stopped) with:\n"
        "  pg_restore --clean --if-exists --no-owner --dbname=postgresql://clerk@db.example:5433/clerk "
        "'clerk backup.dump'\n")
    assert "s3cret" not in said
    assert list(tmp_path.iterdir()) == []


def test_no_database_at_the_url_is_refused_and_not_created(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                          capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("DATABASE_URL", "sqlite+aiosqlite:///missing.db")
    monkeypatch.setenv("CLERK_CONFIG", os.devnull)  # no settings (not a developer's config.toml)
    monkeypatch.chdir(tmp_path)

    code, said = run(["backup", "b.db"], capsys)

    assert code == 1
    assert said == ("clerk: backup failed, nothing was written to b.db: there is no database at missing.db "
                    "(DATABASE_URL sqlite+aiosqlite:///missing.db); nothing to back up\n")
    assert list(tmp_path.iterdir()) == []


def test_a_database_behind_the_migrations_is_backed_up_as_it_is(
        live: tuple[Path, int], tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Play-test V1.2: the backup before an upgrade is taken with the new version's code, before its first start
    migrates the database; it was refused ("start the bot once to migrate it"), so the only backup the new code could
    take was of the database already migrated."""
    database, _ = live
    with sqlite3.connect(database) as db:
        db.execute("UPDATE alembic_version SET version_num = '0005'")

    code = main(["backup", "b.db"])

    assert code == 0
    assert "(schema revision 0005, integrity ok)" in capsys.readouterr().out
    with sqlite3.connect(tmp_path / "b.db") as db:
        assert db.execute("SELECT version_num FROM alembic_version").fetchall() == [("0005",)]


def test_a_database_of_a_newer_clerk_is_refused_and_an_older_backup_kept(
        live: tuple[Path, int], tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    database, _ = live
    assert main(["backup", "b.db"]) == 0
    kept = (tmp_path / "b.db").read_bytes()
    with sqlite3.connect(database) as db:
        db.execute("UPDATE alembic_version SET version_num = 'ffff'")
    capsys.readouterr()

    code, said = run(["backup", "b.db"], capsys)

    assert code == 1
    assert said == (f"clerk: backup failed, nothing was written to b.db: the database is at revision ffff, which "
                    f"this Clerk's migrations (up to {head_revision()}) do not know: a newer Clerk wrote it; back it "
                    "up with that version\n")
    assert (tmp_path / "b.db").read_bytes() == kept
    assert sorted(p.name for p in tmp_path.iterdir()) == ["b.db", "live"]


def test_a_sqlite_file_that_is_not_clerks_is_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    with sqlite3.connect(tmp_path / "other.db") as db:
        db.execute("CREATE TABLE notes (text TEXT)")
    monkeypatch.setenv("DATABASE_URL", "sqlite+aiosqlite:///other.db")
    monkeypatch.setenv("CLERK_CONFIG", os.devnull)  # no settings (not a developer's config.toml)
    monkeypatch.chdir(tmp_path)

    code, said = run(["backup", "b.db"], capsys)

    assert code == 1
    assert "the database has no alembic_version table, so it is not a Clerk database" in said
    assert sorted(p.name for p in tmp_path.iterdir()) == ["other.db"]


# -- restore ----------------------------------------------------------------------------------------------------


def game_names(path: Path) -> list[str]:
    with sqlite3.connect(f"{path.as_uri()}?mode=ro", uri=True) as db:
        return [row[0] for row in db.execute("SELECT name FROM games ORDER BY id")]


def test_restore_over_a_database_a_crash_left_with_its_wal_keeps_the_old_one_whole(
        live: tuple[Path, int], tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    database, _ = live
    assert main(["backup", "b.db"]) == 0
    crashed = tmp_path / "crashed" / "clerk.db"
    crashed.parent.mkdir()
    writer = sqlite3.connect(database)  # a change after the backup, still only in the WAL when "the power fails"
    with writer:
        writer.execute("UPDATE games SET name = 'vega'")
    shutil.copyfile(database, crashed)
    shutil.copyfile(f"{database}-wal", f"{crashed}-wal")
    writer.close()
    monkeypatch.setenv("DATABASE_URL", f"sqlite+aiosqlite:///{crashed}")
    capsys.readouterr()

    assert main(["restore", "b.db"]) == 0

    [kept] = crashed.parent.glob("clerk.db.before-restore-*")
    assert crashed.read_bytes() == (tmp_path / "b.db").read_bytes()  # the stale WAL was not replayed onto it
    assert game_names(crashed) == ["sirius"]
    assert game_names(kept) == ["vega"]  # the WAL was folded into the old database: nothing of it is lost
    assert sorted(p.name for p in crashed.parent.iterdir()) == ["clerk.db", kept.name]
    said = capsys.readouterr().out
    assert said.startswith(f"clerk: restored b.db to {crashed}: ") and f"kept as {kept}. Start the bot." in said


def test_restore_refusals_leave_the_database_as_it_was(live: tuple[Path, int], tmp_path: Path,
                                                       capsys: pytest.CaptureFixture[str]) -> None:
    database, _ = live
    before = database.read_bytes()
    (tmp_path / "notes.txt").write_text("not a database, just text that is long enough to have a header" * 20)
    assert main(["backup", "newer.db"]) == 0
    with sqlite3.connect(tmp_path / "newer.db") as db:
        db.execute("UPDATE alembic_version SET version_num = 'ffff'")
    capsys.readouterr()

    missing = run(["restore", "nope.db"], capsys)
    garbage = run(["restore", "notes.txt"], capsys)
    newer = run(["restore", "newer.db"], capsys)
    itself = run(["restore", "live/clerk.db"], capsys)

    failed = "clerk: restore failed, the database was not changed: "
    assert missing == (1, f"{failed}there is no backup file at nope.db\n")
    assert garbage == (1, f"{failed}notes.txt is not a sound SQLite database: file is not a database\n")
    assert newer == (1, f"{failed}the backup is at revision ffff, which this Clerk's migrations (up to "
                        f"{head_revision()}) do not know: a newer Clerk wrote it; restore it with that version\n")
    assert itself == (1, f"{failed}live/clerk.db is the live database itself\n")
    assert database.read_bytes() == before
    assert sorted(p.name for p in database.parent.iterdir()) == ["clerk.db"]


def test_restore_accepts_a_backup_of_an_older_schema_the_bot_will_migrate(
        live: tuple[Path, int], tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["backup", "older.db"]) == 0
    with sqlite3.connect(tmp_path / "older.db") as db:
        db.execute("UPDATE alembic_version SET version_num = '0005'")
    capsys.readouterr()

    assert main(["restore", "older.db"]) == 0

    assert "(schema revision 0005, integrity ok)" in capsys.readouterr().out


def test_restore_on_postgresql_gets_the_pg_restore_command(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                          capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("DATABASE_URL", "postgresql+asyncpg://postgres@127.0.0.1:5432/clerk")
    monkeypatch.setenv("CLERK_CONFIG", os.devnull)  # no settings (not a developer's config.toml)

    code, said = run(["restore", "clerk.dump"], capsys)

    assert code == 2
    assert said.startswith("clerk: DATABASE_URL is a PostgreSQL database; `python -m bot restore` copies only "
                           "SQLite files.")
    assert said.endswith("  pg_restore --clean --if-exists --no-owner "
                         "--dbname=postgresql://postgres@127.0.0.1:5432/clerk clerk.dump\n")


async def play_after_the_backup(url: str, game: int) -> None:
    """After the backup (at 18:05): carol and bob vote, alice (Aye before it) revotes Nay, bob sends a transfer, a
    moderator closes the round; carol's DMs are then found closed to the bot; and a game vega is made."""
    engine = make_engine(url)
    clock = ManualClock(datetime(2026, 3, 1, 18, 5, tzinfo=UTC))
    clerk = Clerk(make_sessionmaker(engine), clock, RandomDice(1))
    try:
        for user, form in ((13, "Vote: Aye"), (12, "Vote: Nay"), (11, "Revote: Nay")):  # carol, bob, alice
            await clerk.landsdraad.ballots.cast_ballot(game, user_id=user, received_at=clock.now(),
                                                       command=parse_ballot(form), source_id=f"m{user}")
        await clerk.landsdraad.audits.record_transfer(game, user_id=12, command=parse_transfer(
            "Transfer: 500 MS to alice"), at=clock.now(), source_id="t12")
        await clerk.landsdraad.rounds.close_round(game, actor=1)
        await clerk.games.create_game(guild_id=900, channel_id=902, name="vega", ruleset="landsdraad",
                                      moderator_role_id=None, actor=1)
    finally:
        await engine.dispose()
    with sqlite3.connect(make_url(url).database) as connection:
        connection.execute("INSERT OR REPLACE INTO closed_dms (user_id, since) VALUES (13, '2026-03-01 18:06:00')")
    connection.close()


async def alice_votes_aye(url: str, game: int) -> None:
    engine = make_engine(url)
    clerk = Clerk(make_sessionmaker(engine), ManualClock(datetime(2026, 3, 1, 18, 0, tzinfo=UTC)), RandomDice(1))
    try:
        await clerk.landsdraad.ballots.cast_ballot(game, user_id=11, received_at=clerk.clock.now(),
                                                   command=parse_ballot("Vote: Aye"), source_id="m11a")
    finally:
        await engine.dispose()


def set_aside(database: Path, folder: Path) -> None:
    """Move the old databases a restore kept out of the way (the next restore in the same second names its own so)."""
    for n, path in enumerate(database.parent.glob("clerk.db.before-restore-*")):
        path.rename(folder / f"{path.name}.{n}")


def notices(database: Path) -> list[tuple[str, int | None, str, str]]:
    """The restore's notices owed in ``database``: (lane, channel id, nonce, text as anywhere but Discord shows it)."""
    with sqlite3.connect(database) as connection:
        found = connection.execute("SELECT lane, channel_id, nonce, body FROM owed_messages WHERE nonce LIKE 'undo:%' "
                                   "AND outcome IS NULL ORDER BY id").fetchall()
    connection.close()
    return [(lane, channel, nonce, utc_text(json.loads(body)["text"])) for lane, channel, nonce, body in found]


async def test_restore_says_game_by_game_what_it_undid_and_who_to_tell(
        live: tuple[Path, int], tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Play-test V2.1: ballots acknowledged after the backup vanished at a restore and nothing said so; their senders
    held receipts ("Ballot recorded ... Aye") for ballots no longer counted. The restore now names, per game, what the
    database it replaced recorded after the backup, and the players who acted (never their choices), and says the
    bot tells them at its next start."""
    database, game = live
    url = f"sqlite+aiosqlite:///{database}"
    await alice_votes_aye(url, game)
    assert main(["backup", "b.db"]) == 0
    await play_after_the_backup(url, game)
    capsys.readouterr()

    assert main(["restore", "b.db"]) == 0

    printed = capsys.readouterr().out.splitlines()
    [kept] = database.parent.glob("clerk.db.before-restore-*")
    assert printed[1] == f"clerk: the restore undid what the old database (kept as {kept}) recorded after the backup:"
    assert printed[2] == ("  sirius: 6 events from 2026-03-01 18:05:00 UTC (BallotCast 3, TransferRecorded 1, "
                          "RoundClosed 1, ResultPending 1); players who acted: carol, bob, alice")
    assert printed[3:] == [
        "  vega: the whole game, made after the backup: 1 event from 2026-03-01 18:05:00 UTC (GameCreated 1)",
        "clerk: those ballots and commands were acknowledged but are not in the restored database, and the bot will "
        "not take them again by itself (a DM it answered is not read back). At its next start it tells them: a post "
        "in the channel of sirius says what was undone, and a DM to each player whose own ballots or forms are "
        "undone there says what to send again (4 messages owed; docs/backup.md, \"What a restore undoes\").",
        "clerk: vega was made after the backup: the restored database has no channel for it nor any of its players, "
        "so the bot tells nobody there; tell its moderators and players yourself.",
        "clerk: the DMs of carol are closed to the bot, so it does not DM them: their games' channels name them where "
        "that is public; tell them yourself what to send again."]
    assert "Aye" not in "\n".join(printed) and "Nay" not in "\n".join(printed)


async def test_the_restore_owes_a_post_in_the_games_channel_and_a_dm_to_each_player_with_nothing_secret_in_public(
        live: tuple[Path, int], tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """What the restore leaves for the bot to send at its next start (docs/backup.md, "What a restore undoes"): in the
    restored database, owed like anything the bot owes, a post in sirius's channel and a DM to each player whose own
    ballot or form is undone (vega, made after the backup, has no channel there: nothing). The channel's post counts
    the crisis ballots and names who must vote again (``/round status`` shows anyone who has voted, not how), never a
    choice, and says nothing of bob's transfer (the moderators' and his until an audit); each DM says what its
    reader's own held, and the form to send again. carol's DMs are closed: the post says so; her DM is owed all the
    same (the bot settles it undeliverable without a request, and sends it if she has opened them by then)."""
    database, game = live
    url = f"sqlite+aiosqlite:///{database}"
    await alice_votes_aye(url, game)
    assert main(["backup", "b.db"]) == 0
    await play_after_the_backup(url, game)

    assert main(["restore", "b.db"]) == 0

    found = notices(database)
    assert [(lane, channel) for lane, channel, _, _ in found] == [
        ("channel:901", 901), ("user:13", None), ("user:12", None), ("user:11", None)]
    nonces = [nonce for _, _, nonce, _ in found]
    token = nonces[0].split(":")[1]
    assert nonces == [f"undo:{token}:{n}" for n in range(4)] and len(token) == 6
    post, carol, bob, alice = (text for _, _, _, text in found)
    assert post == (
        "⚠️ **sirius: my records were restored from a backup**: they are as they were on 2026-03-01 18:00 UTC, and what "
        "was recorded in this game after that is undone, though I acknowledged it.\n"
        "Undone: 3 crisis ballots.\n"
        "Undone too: the result of round 1 (a card posted after that no longer stands; the result I post when the vote "
        "closes again does).\n"
        "**bob** and **alice**: what you sent after that is undone; I am DMing each of you what it was, to send "
        "again.\n"
        "**carol**: what you sent after that is undone, and your DMs are closed to me, so I cannot tell you what it "
        "was: ask a moderator.\n"
        "Moderators: your commands after that are undone too; check where the game stands before going on.")
    for secret in ("Aye", "Nay", "aye", "nay", "ransfer", "500", "MS"):
        assert secret not in post
    head = ("⚠️ My records of **sirius** were restored from a backup: they are as they were on 2026-03-01 18:00 UTC, "
            "so what you sent there after that is undone, though I acknowledged it. Send again what you still mean:\n")
    tail = "\nIf you play in more than one game, end a DM form with `#sirius`."
    assert carol == (head + "- your crisis ballot in round 1: **Aye** (sent 2026-03-01 18:05 UTC) → DM me `Vote: Aye` "
                            "(or use /vote)" + tail)
    assert bob == (head + "- your crisis ballot in round 1: **Nay** (sent 2026-03-01 18:05 UTC) → DM me `Vote: Nay` "
                          "(or use /vote)\n"
                          "- your transfer of 500 MS to alice in round 1 (sent 2026-03-01 18:05 UTC) → "
                          "`Transfer: 500 MS to alice`" + tail)
    assert alice == (head + "- your crisis ballot in round 1: **Nay** (sent 2026-03-01 18:05 UTC) → DM me `Vote: Nay` "
                            "(or use /vote)" + tail)
    with sqlite3.connect(database) as connection:  # what the old database knew of Discord is kept
        assert connection.execute("SELECT user_id FROM closed_dms").fetchall() == [(13,)]
    connection.close()


async def test_a_restore_done_again_before_the_bot_started_keeps_the_first_ones_notices_and_draws_new_nonces(
        live: tuple[Path, int], tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The same backup restored twice with the bot stopped: the second restore undoes nothing more, but the first one's
    notices, not sent yet, are owed in the database it puts in place (before, they would be lost with it). A restore
    after the bot has run again draws nonces of its own, so Discord does not drop its notices as the first one's."""
    database, game = live
    url = f"sqlite+aiosqlite:///{database}"
    await alice_votes_aye(url, game)
    assert main(["backup", "b.db"]) == 0
    await play_after_the_backup(url, game)
    assert main(["restore", "b.db"]) == 0
    first = notices(database)
    capsys.readouterr()
    set_aside(database, tmp_path)  # the next restore's name for the old one may be the same second's

    assert main(["restore", "b.db"]) == 0

    assert notices(database) == first
    assert capsys.readouterr().out.splitlines()[1:] == [
        "clerk: 4 messages of an earlier restore, which the old database still owed (the bot was not started on it "
        "since), are owed again: the bot sends them at its next start.",
        "clerk: the old database recorded nothing after the backup: nothing was undone."]
    with sqlite3.connect(database) as connection:  # the bot sent them; then it ran on, and the backup is put back
        connection.execute("UPDATE owed_messages SET outcome = 'sent', done_at = '2026-03-01 18:10:00'")
    connection.close()
    set_aside(database, tmp_path)
    await play_after_the_backup(url, game)

    assert main(["restore", "b.db"]) == 0

    again = notices(database)
    assert len(again) == 4 and {n.split(":")[1] for _, _, n, _ in again}.isdisjoint(
        {n.split(":")[1] for _, _, n, _ in first})


async def test_a_backup_older_than_the_outgoing_queue_cannot_hold_the_notices_and_the_host_is_told_to_tell_them(
        live: tuple[Path, int], tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    database, game = live
    url = f"sqlite+aiosqlite:///{database}"
    assert main(["backup", "b.db"]) == 0
    with sqlite3.connect(tmp_path / "b.db") as old:  # as a Clerk before revision 0009 wrote it
        old.execute("DROP TABLE owed_messages")
        old.execute("UPDATE alembic_version SET version_num = '0008'")
    old.close()
    await play_after_the_backup(url, game)
    capsys.readouterr()

    assert main(["restore", "b.db"]) == 0

    assert capsys.readouterr().out.splitlines()[-1] == (
        "clerk: those ballots and commands were acknowledged but are not in the restored database, and the bot will "
        "not take them again by itself (a DM it answered is not read back); it cannot tell them either: the backup is "
        "older than the bot's outgoing queue (schema revision 0009), so nothing can be left in it for the bot to send. "
        "Tell these games' moderators, and the players named, to send them again (docs/backup.md, \"What a restore "
        "undoes\").")


def test_a_restore_over_a_database_with_nothing_newer_says_nothing_was_undone(
        live: tuple[Path, int], capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["backup", "b.db"]) == 0
    capsys.readouterr()

    assert main(["restore", "b.db"]) == 0

    assert capsys.readouterr().out.splitlines()[1:] == [
        "clerk: the old database recorded nothing after the backup: nothing was undone."]


def _owe(database: Path, *nonces: str) -> None:
    with sqlite3.connect(database) as connection:
        connection.executemany(
            "INSERT INTO owed_messages (lane, channel_id, priority, nonce, body, owed_at, attempts) "
            "VALUES ('dm:11', 5011, 0, ?, '{\"content\": \"Ballot recorded\"}', '2026-03-01 18:00:00', 0)",
            [(nonce,) for nonce in nonces])
    connection.close()


def _outcomes(database: Path) -> dict[str, tuple[str | None, str | None]]:
    with sqlite3.connect(database) as connection:
        found = connection.execute("SELECT nonce, outcome, done_at FROM owed_messages WHERE nonce LIKE 'n-%'")
        outcomes = {str(nonce): (outcome, done_at) for nonce, outcome, done_at in found}
    connection.close()
    return outcomes


def test_a_message_the_backup_owed_and_the_old_database_sent_since_is_not_sent_again(
        live: tuple[Path, int], capsys: pytest.CaptureFixture[str]) -> None:
    """A receipt owed when the backup was taken and sent just after it: the backup still owes it, and the bot started
    on the restored database would send it again, later than the minutes in which Discord drops a repeated nonce:
    the player would get their receipt twice. The restore marks it sent as the old database had it; a message
    superseded since (by a newer one the backup does not hold) or still owed there stays owed."""
    database, _ = live
    _owe(database, "n-sent", "n-failed", "n-superseded", "n-owed")
    assert main(["backup", "b.db"]) == 0
    with sqlite3.connect(database) as connection:
        for nonce, outcome in (("n-sent", "sent"), ("n-failed", "undeliverable"), ("n-superseded", "superseded")):
            connection.execute("UPDATE owed_messages SET outcome = ?, done_at = '2026-03-01 18:00:05' WHERE nonce = ?",
                               (outcome, nonce))
    connection.close()
    capsys.readouterr()

    assert main(["restore", "b.db"]) == 0

    assert _outcomes(database) == {"n-sent": ("sent", "2026-03-01 18:00:05"),
                                   "n-failed": ("undeliverable", "2026-03-01 18:00:05"),
                                   "n-superseded": (None, None), "n-owed": (None, None)}
    assert capsys.readouterr().out.splitlines()[1] == (
        "clerk: 2 messages the backup still owed went to Discord after it was taken: marked as the old database has "
        "them, so the bot does not send them again.")


def clerk_on(url: str, at: datetime) -> tuple[AsyncEngine, Clerk]:
    engine = make_engine(url)
    return engine, Clerk(make_sessionmaker(engine), ManualClock(at), RandomDice(1))


async def close_round_one(url: str, game: int, at: datetime) -> str:
    """A moderator closes round 1 at ``at``: its ``ResultPending`` is in the close's transaction, its card not posted
    yet (the service alone: no front end owes it). The close's own token."""
    engine, clerk = clerk_on(url, at)
    try:
        result = await clerk.landsdraad.rounds.close_round(game, actor=1)
        assert result.post_token
        return result.post_token
    finally:
        await engine.dispose()


async def post_round_ones_card(url: str, game: int, message_id: int, at: datetime) -> None:
    """What the front end records once Discord has round 1's card (``Courier.send_to``) and, before it, the moderators'
    disclosure warning: ``ResultPosted`` with the card's message id, where the card went, that the warning went."""
    engine, clerk = clerk_on(url, at)
    try:
        await clerk.announcements.mark_warned(warning_marker("round", game, 1), 901, message_id - 1)
        marker = posted_marker("round", game, 1)
        await clerk.announcements.mark_posted(marker, message_id)
        await clerk.announcements.remember_post(marker, 901, message_id)
    finally:
        await engine.dispose()


async def unposted(url: str, at: datetime) -> list[tuple[str, int, int]]:
    """The results the bot's recovery would announce at a start at ``at`` (bot/actions/recovery.py)."""
    engine, clerk = clerk_on(url, at)
    try:
        return await clerk.announcements.unposted(at - timedelta(days=1))
    finally:
        await engine.dispose()


def ledger(database: Path, game: int) -> tuple[int, list[tuple[int, str, str | None, str, dict[str, Any]]]]:
    """The game's ``last_seq`` and its events: (seq, kind, source id, at, payload)."""
    with sqlite3.connect(database) as connection:
        (last,) = connection.execute("SELECT last_seq FROM games WHERE id = ?", (game,)).fetchone()
        events = [(seq, kind, source, at, json.loads(payload)) for seq, kind, source, at, payload in connection.execute(
            "SELECT seq, kind, source_id, at, payload FROM events WHERE game_id = ? ORDER BY seq", (game,))]
    connection.close()
    return last, events


def kept_messages(database: Path) -> dict[tuple[int, str], tuple[int, int]]:
    with sqlite3.connect(database) as connection:
        found = {(game, key): (channel, message) for game, key, channel, message in connection.execute(
            "SELECT game_id, key, channel_id, message_id FROM posted_messages")}
    connection.close()
    return found


async def test_a_result_the_backup_still_owed_and_the_old_database_posted_since_is_recorded_posted(
        live: tuple[Path, int], capsys: pytest.CaptureFixture[str]) -> None:
    """Round 1 closed just before the backup and its card posted just after it (the backup holds the close and its
    ``ResultPending``, not its ``ResultPosted``): the bot started on the restored database would post the card again
    (the recovery announces every result pending and not posted), later than the minutes in which Discord drops a
    repeated nonce: a second card in the channel. The restore records it posted as the old database did: the same
    ``ResultPosted`` (payload, time, source id), numbered as the restored ledger's next event, where the card went
    (an erratum links it) and that the moderators' warning went (the recovery would warn again)."""
    database, game = live
    url = f"sqlite+aiosqlite:///{database}"
    await alice_votes_aye(url, game)
    await close_round_one(url, game, datetime(2026, 3, 1, 18, 1, tzinfo=UTC))
    assert main(["backup", "b.db"]) == 0
    await post_round_ones_card(url, game, 5555, datetime(2026, 3, 1, 18, 2, tzinfo=UTC))
    _, old_events = ledger(database, game)
    capsys.readouterr()

    assert main(["restore", "b.db"]) == 0

    last, events = ledger(database, game)
    assert events == old_events and last == events[-1][0] == len(events)
    assert events[-1][1:] == ("ResultPosted", f"posted:round:{game}:1", "2026-03-01 18:02:00.000000",
                              {"kind": "round", "number": 1, "message_id": "5555"})
    assert await unposted(url, datetime(2026, 3, 1, 18, 3, tzinfo=UTC)) == []  # nothing to post again at start
    assert kept_messages(database) == {(game, "posted:round:1"): (901, 5555), (game, "warned:wround:1"): (901, 5554)}
    assert capsys.readouterr().out.splitlines()[1:] == [
        "clerk: 2 messages the backup still owed went to Discord after it was taken: marked as the old database has "
        "them, so the bot does not send them again.",
        "clerk: the old database recorded nothing after the backup: nothing was undone."]


async def test_a_close_made_again_in_the_old_database_is_not_taken_for_the_one_the_backup_holds(
        live: tuple[Path, int], tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The old database posted a card of round 1, but of another close than the backup's (an earlier backup was
    restored over it and the round closed again, with a token of its own): the backup's close was never posted, so
    its card stays owed, and the restore says nothing was sent for it."""
    database, game = live
    url = f"sqlite+aiosqlite:///{database}"
    await alice_votes_aye(url, game)
    assert main(["backup", "before.db"]) == 0
    first = await close_round_one(url, game, datetime(2026, 3, 1, 18, 1, tzinfo=UTC))
    assert main(["backup", "b.db"]) == 0
    assert main(["restore", "before.db"]) == 0
    set_aside(database, tmp_path)
    again = await close_round_one(url, game, datetime(2026, 3, 1, 18, 4, tzinfo=UTC))
    await post_round_ones_card(url, game, 5555, datetime(2026, 3, 1, 18, 5, tzinfo=UTC))
    assert again != first
    capsys.readouterr()

    assert main(["restore", "b.db"]) == 0

    _, events = ledger(database, game)
    assert [kind for _, kind, _, _, _ in events][-2:] == ["RoundClosed", "ResultPending"]
    assert await unposted(url, datetime(2026, 3, 1, 18, 6, tzinfo=UTC)) == [("round", game, 1)]
    assert kept_messages(database) == {}
    assert "went to Discord after it was taken" not in capsys.readouterr().out


def _owe_posts(database: Path, game: int) -> None:
    """Owed when the backup is taken, not sent yet: the first post of player vote 3's running count (a kept message,
    in its round's thread, which is not made yet) and an audit's card (no marker: **Explain this** finds it by the
    message it became)."""
    thread = ToThread(901, "player-votes-round-1", game)
    count = Outgoing(thread, text="Player vote 3: 1 of 2", keep=Keep(game, "pv:3"))
    audit = Outgoing(ToChannel(901), text="Audit of bob", extra={EXPLAINS: card_tag("audit", game, 1, 12)})
    assert owe_in_file(database, datetime(2026, 3, 1, 18, 0, tzinfo=UTC), [
        Owed("thread:901:player-votes-round-1", None, NOTICE, "n-count", encode(count), f"keep:{game}:pv:3"),
        Owed("channel:901", 901, NOTICE, "n-audit", encode(audit))]) == 2


async def _post_after_the_backup(url: str, game: int) -> None:
    """What the bot did on Discord after the backup: the set-up summary posted again (its message deleted, say), the
    count and the audit's card sent (the thread made for the count), round 2's opening card (a round opened after
    the backup: undone), a Forecast's card (not owed in the backup); the channel told that the bot reads message text
    again (told before the backup that it could not), and the moderators that it was deleted (marks: said once)."""
    engine, clerk = clerk_on(url, datetime(2026, 3, 1, 18, 5, tzinfo=UTC))
    try:
        await clerk.posts.keep_message(game, "setup", 901, 1001)
        await clerk.posts.keep_message(game, "thread:player-votes-round-1", 901, 1002)
        await clerk.posts.keep_message(game, "pv:3", 1002, 1003)
        await clerk.announcements.remember_card(card_tag("audit", game, 1, 12), 901, 1004)
        await clerk.posts.keep_message(game, "round-card:2", 901, 1005)
        await clerk.announcements.remember_card(card_tag("forecast", game, 0), 901, 1006)
        await clerk.marks.unmark(game, UNREAD)
        await clerk.marks.mark(game, CHANNEL_LOST, "901")
    finally:
        await engine.dispose()
    with sqlite3.connect(make_url(url).database) as connection:
        connection.execute("UPDATE owed_messages SET outcome = 'sent', done_at = '2026-03-01 18:05:00'")
    connection.close()


def _marks(database: Path) -> dict[tuple[int, str], str]:
    with sqlite3.connect(database) as connection:
        found = {(game, key): value for game, key, value in connection.execute(
            "SELECT game_id, key, value FROM game_marks")}
    connection.close()
    return found


async def test_where_the_old_database_posted_kept_messages_after_the_backup_is_kept(
        live: tuple[Path, int], capsys: pytest.CaptureFixture[str]) -> None:
    """Kept messages are edited in place where the database says they are (``posted_messages``). A count whose first
    post the backup owed and the old database sent, a thread it made for it, a summary it posted again: restored as
    the backup had them, the bot would post the count and the summary again as new messages at their next update
    (two counts, one stale), make a second thread of the same name, and **Explain this** would not find the audit's
    card. The restore keeps where the old database has them; not a kept message of what only happened after the
    backup (round 2's opening card: its redo is a new announcement), nor a card the backup never owed. What the
    channel was told once (the marks) is kept too, or the bot would tell it again."""
    database, game = live
    url = f"sqlite+aiosqlite:///{database}"
    engine, clerk = clerk_on(url, datetime(2026, 3, 1, 18, 0, tzinfo=UTC))
    try:
        await clerk.posts.keep_message(game, "setup", 901, 1000)
        await clerk.posts.keep_message(game, "round-card:1", 901, 999)
        await clerk.marks.mark(game, UNREAD, "told")
    finally:
        await engine.dispose()
    _owe_posts(database, game)
    assert main(["backup", "b.db"]) == 0
    await _post_after_the_backup(url, game)
    capsys.readouterr()

    assert main(["restore", "b.db"]) == 0

    assert kept_messages(database) == {
        (game, "setup"): (901, 1001), (game, "round-card:1"): (901, 999), (game, "pv:3"): (1002, 1003),
        (game, "thread:player-votes-round-1"): (901, 1002), (game, "card:1004:audit:1:12"): (901, 1004)}
    assert _marks(database) == {(game, CHANNEL_LOST): "901"}
    assert capsys.readouterr().out.splitlines()[1] == (  # the count and the card, by the outgoing queue's settling
        "clerk: 2 messages the backup still owed went to Discord after it was taken: marked as the old database has "
        "them, so the bot does not send them again.")


def test_a_restore_that_cannot_keep_what_the_old_database_posted_is_done_all_the_same(
        live: tuple[Path, int], monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    def broken(restored: Path, old: Path) -> Settled:
        raise sqlite3.DatabaseError("database disk image is malformed")
    monkeypatch.setattr("bot.backup._settle", broken)
    assert main(["backup", "b.db"]) == 0
    capsys.readouterr()

    assert main(["restore", "b.db"]) == 0

    assert capsys.readouterr().out.splitlines()[1:] == [
        "clerk: could not check what the old database posted after the backup (DatabaseError: database disk image is "
        "malformed): at its next start the bot may post again a result card posted after the backup was taken, and "
        "post a kept message (a running count, a set-up summary) again instead of editing it.",
        "clerk: the old database recorded nothing after the backup: nothing was undone."]


async def move_sirius(url: str, game: int, to: int, at: datetime, source_id: str) -> None:
    """``/game move`` of sirius to the channel ``to``, what was held for its old channel owed again there (as the
    front end's move does in its transaction)."""
    engine, clerk = clerk_on(url, at)
    try:
        await clerk.games.move(game, channel_id=to, actor=1, source_id=source_id,
                               release=lambda owed: retarget(owed, to))
    finally:
        await engine.dispose()


def game_rows(database: Path) -> dict[int, tuple[str, int]]:
    with sqlite3.connect(database) as connection:
        found = {int(i): (str(n), int(c)) for i, n, c in connection.execute("SELECT id, name, channel_id FROM games")}
    connection.close()
    return found


def owed_rows(database: Path, *nonces: str) -> dict[str, tuple[str, str | None]]:
    """nonce -> (lane, outcome)."""
    with sqlite3.connect(database) as connection:
        found = {str(n): (str(lane), outcome) for n, lane, outcome in connection.execute(
            f"SELECT nonce, lane, outcome FROM owed_messages WHERE nonce IN ({', '.join('?' * len(nonces))})", nonces)}
    connection.close()
    return found


async def test_a_game_moved_after_the_backup_is_kept_where_its_players_are_now(
        live: tuple[Path, int], capsys: pytest.CaptureFixture[str]) -> None:
    """#901 was deleted before the backup: the backup holds two posts for it and the mark that the moderators were
    told. After the backup the game is moved to #950 (``/game move``: the held posts owed there, one sent since) and
    bob votes. Restored as the backup had it, the game was back in the deleted channel: the posts held for good, the
    moderators told again, the restore's own post held there too. The restore keeps the move: the game's channel, its
    ``GameMoved`` as the restored ledger's next event (as the old database recorded it), the ``moved_from`` mark and
    not the lost channel's, the held posts owed in #950 (the one sent marked so), the restore's post to #950; and only
    bob's ballot is undone."""
    database, game = live
    url = f"sqlite+aiosqlite:///{database}"
    await alice_votes_aye(url, game)
    held = [Outgoing(ToChannel(901), text="sirius: round 1 closes soon"),
            Outgoing(ToThread(901, "crisis-1", game), text="in its thread")]
    assert owe_in_file(database, datetime(2026, 3, 1, 18, 0, tzinfo=UTC), [
        Owed("channel:901", 901, NOTICE, "n-held-sent", encode(held[0])),
        Owed("thread:901:crisis-1", None, NOTICE, "n-held-owed", encode(held[1]))]) == 2
    engine, clerk = clerk_on(url, datetime(2026, 3, 1, 18, 0, tzinfo=UTC))
    try:
        await clerk.marks.mark(game, CHANNEL_LOST, "901")
    finally:
        await engine.dispose()
    with sqlite3.connect(database) as connection:
        connection.execute("UPDATE owed_messages SET outcome = 'held' WHERE nonce LIKE 'n-held-%'")
    connection.close()
    assert main(["backup", "b.db"]) == 0
    await move_sirius(url, game, 950, datetime(2026, 3, 1, 18, 5, tzinfo=UTC), "mv1")
    with sqlite3.connect(database) as connection:
        connection.execute("UPDATE owed_messages SET outcome = 'sent', done_at = '2026-03-01 18:05:01' "
                           "WHERE nonce = 'n-held-sent'")
    connection.close()
    engine, clerk = clerk_on(url, datetime(2026, 3, 1, 18, 6, tzinfo=UTC))
    try:
        await clerk.landsdraad.ballots.cast_ballot(game, user_id=12, received_at=clerk.clock.now(),
                                                   command=parse_ballot("Vote: Nay"), source_id="m12")
    finally:
        await engine.dispose()
    _, old_events = ledger(database, game)
    [moved] = [event for event in old_events if event[1] == "GameMoved"]
    capsys.readouterr()

    assert main(["restore", "b.db"]) == 0

    last, events = ledger(database, game)
    assert last == len(events) and events[-1] == (last, *moved[1:])
    assert events[-1][4] == {"from": 901, "to": 950, "deleted": True}
    assert "m12" not in [source for _, _, source, _, _ in events]  # bob's ballot is undone
    assert game_rows(database) == {game: ("sirius", 950)}
    assert _marks(database) == {(game, MOVED_FROM): "901"}
    assert owed_rows(database, "n-held-sent", "n-held-owed") == {
        "n-held-sent": ("channel:950", "sent"), "n-held-owed": ("thread:950:crisis-1", None)}
    assert [(lane, channel) for lane, channel, _, _ in notices(database)] == [("channel:950", 950), ("user:12", None)]
    printed = capsys.readouterr().out.splitlines()
    assert printed[1:3] == [
        "clerk: 1 message the backup still owed went to Discord after it was taken: marked as the old database has "
        "it, so the bot does not send it again.",
        "clerk: sirius was moved from channel 901 to channel 950 after the backup (/game move): the restored database "
        "keeps the move (recorded as it was), as its players are there now: the bot posts for it there."]
    assert printed[4] == "  sirius: 1 event from 2026-03-01 18:06:00 UTC (BallotCast 1); players who acted: bob"


async def test_a_move_to_a_channel_the_backup_gives_another_game_is_not_kept_and_said(
        live: tuple[Path, int], tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Backups of two histories: b2.db holds vega in #950, made after b1.db; b1.db is restored and sirius is moved
    to #950 there. Restoring b2.db over that cannot keep the move (one channel, one game): sirius stays in #901, as
    b2.db has it, the move is undone and told in #901, and the host is told to move it again."""
    database, game = live
    url = f"sqlite+aiosqlite:///{database}"
    assert main(["backup", "b1.db"]) == 0
    engine, clerk = clerk_on(url, datetime(2026, 3, 1, 18, 1, tzinfo=UTC))
    try:
        await clerk.games.create_game(guild_id=900, channel_id=950, name="vega", ruleset="landsdraad",
                                      moderator_role_id=None, actor=1)
    finally:
        await engine.dispose()
    assert main(["backup", "b2.db"]) == 0
    assert main(["restore", "b1.db"]) == 0
    set_aside(database, tmp_path)
    await move_sirius(url, game, 950, datetime(2026, 3, 1, 18, 5, tzinfo=UTC), "mv1")
    capsys.readouterr()

    assert main(["restore", "b2.db"]) == 0

    assert sorted(game_rows(database).values()) == [("sirius", 901), ("vega", 950)]
    assert "GameMoved" not in [kind for _, kind, *_ in ledger(database, game)[1]]
    assert [lane for lane, _, _, _ in notices(database)] == ["channel:901"]
    printed = capsys.readouterr().out.splitlines()
    assert printed[1] == (
        "clerk: sirius was moved from channel 901 to channel 950 after the backup (/game move), but the restored "
        "database has vega there: the restored database has it in channel 901, as the backup has it. Run /game move "
        "in the channel it should be played in.")
    assert printed[3] == "  sirius: 1 event from 2026-03-01 18:05:00 UTC (GameMoved 1)"


async def test_a_restore_over_another_history_of_the_game_undoes_it_from_where_the_two_part(
        live: tuple[Path, int], tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """b1.db, then alice votes Aye and b2.db; b1.db is restored and the round is played differently: carol, bob and
    alice vote. The old database's ledger then numbers its three ballots as b2.db numbers alice's one and more:
    comparing numbers, restoring b2.db undid only the old database's events past b2.db's last (two ballots), and took
    carol's (the first) for alice's. Compared by what they hold, the two ledgers part after b1.db's last event: all
    three are undone, told in the game's channel and to each of them, and b2.db's ballot of alice stands again."""
    database, game = live
    url = f"sqlite+aiosqlite:///{database}"
    assert main(["backup", "b1.db"]) == 0
    shared, _ = ledger(database, game)
    await alice_votes_aye(url, game)
    assert main(["backup", "b2.db"]) == 0
    assert main(["restore", "b1.db"]) == 0
    set_aside(database, tmp_path)
    engine, clerk = clerk_on(url, datetime(2026, 3, 1, 18, 5, tzinfo=UTC))
    try:
        for user, form in ((13, "Vote: Aye"), (12, "Vote: Nay"), (11, "Vote: Nay")):  # carol, bob, alice
            await clerk.landsdraad.ballots.cast_ballot(game, user_id=user, received_at=clerk.clock.now(),
                                                       command=parse_ballot(form), source_id=f"h2-{user}")
    finally:
        await engine.dispose()
    with sqlite3.connect(database) as connection:  # b1.db's restore's notices were sent
        connection.execute("UPDATE owed_messages SET outcome = 'sent', done_at = '2026-03-01 18:04:00'")
    connection.close()
    capsys.readouterr()

    assert main(["restore", "b2.db"]) == 0

    printed = capsys.readouterr().out.splitlines()
    assert printed[2] == (
        "  sirius: 3 events from 2026-03-01 18:05:00 UTC (BallotCast 3); players who acted: carol, bob, alice; the "
        f"backup's ledger of it parts from the old database's after event #{shared} (one of them was restored from an "
        "earlier backup and played on differently): these are the old database's events after it, and the backup's 1 "
        "event after it, which the old database did not hold, stand again")
    found = notices(database)
    assert [lane for lane, _, _, _ in found] == ["channel:901", "user:13", "user:12", "user:11"]
    post, *_, alice = (text for _, _, _, text in found)
    assert post.startswith(
        "⚠️ **sirius: my records were restored from a backup**: they are as they were on 2026-03-01 18:00 UTC, in a "
        "history of this game that parts from mine on 2026-03-01 18:05 UTC (a backup restored before was played on "
        "differently). What I recorded in this game from then on is undone, though I acknowledged it, and what the "
        "backup holds from then on stands.\n"
        "Undone: 3 crisis ballots.\n")
    assert alice.startswith(
        "⚠️ My records of **sirius** were restored from a backup: they are as they were on 2026-03-01 18:00 UTC, in a "
        "history of the game that parts from mine on 2026-03-01 18:05 UTC, so what you sent there from then on is "
        "undone, though I acknowledged it. Send again what you still mean:\n"
        "- your crisis ballot in round 1: **Nay** (sent 2026-03-01 18:05 UTC) → DM me `Vote: Nay`")
    assert [e[4]["option"] for e in ledger(database, game)[1] if e[1] == "BallotCast"] == ["aye"]


async def test_a_chain_of_moves_and_a_move_into_a_channel_another_game_left_are_kept(
        live: tuple[Path, int], capsys: pytest.CaptureFixture[str]) -> None:
    """After the backup vega leaves #902 for #960, and sirius moves twice, #901 to #950 to #902: each game is kept
    where it is played now (one channel a game in the restored database too: sirius takes the channel vega left), with
    each of its moves in order as its ledger's next events; nothing is undone."""
    database, game = live
    url = f"sqlite+aiosqlite:///{database}"
    engine, clerk = clerk_on(url, datetime(2026, 3, 1, 18, 0, tzinfo=UTC))
    try:
        vega = (await clerk.games.create_game(guild_id=900, channel_id=902, name="vega", ruleset="landsdraad",
                                              moderator_role_id=None, actor=1)).id
    finally:
        await engine.dispose()
    assert main(["backup", "b.db"]) == 0
    engine, clerk = clerk_on(url, datetime(2026, 3, 1, 18, 5, tzinfo=UTC))
    try:
        await clerk.games.move(vega, channel_id=960, actor=1, source_id="mv-vega")
        await clerk.games.move(game, channel_id=950, actor=1, source_id="mv-1")
        await clerk.games.move(game, channel_id=902, actor=1, source_id="mv-2")
    finally:
        await engine.dispose()
    old = {g: ledger(database, g)[1] for g in (game, vega)}
    capsys.readouterr()

    assert main(["restore", "b.db"]) == 0

    assert game_rows(database) == {game: ("sirius", 902), vega: ("vega", 960)}
    for g in (game, vega):
        last, events = ledger(database, g)
        assert events == old[g] and last == len(events)
    assert [e[4] for e in ledger(database, game)[1] if e[1] == "GameMoved"] == [
        {"from": 901, "to": 950, "deleted": False}, {"from": 950, "to": 902, "deleted": False}]
    assert _marks(database) == {(game, MOVED_FROM): "950", (vega, MOVED_FROM): "902"}
    printed = capsys.readouterr().out.splitlines()
    assert printed[1:] == [
        "clerk: sirius was moved from channel 901 to channel 902 after the backup (/game move): the restored database "
        "keeps the move (recorded as it was), as its players are there now: the bot posts for it there.",
        "clerk: vega was moved from channel 902 to channel 960 after the backup (/game move): the restored database "
        "keeps the move (recorded as it was), as its players are there now: the bot posts for it there.",
        "clerk: the old database recorded nothing after the backup: nothing was undone."]
