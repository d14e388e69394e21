"""Play-test V (docs/playtests/operations-2026-12-07.md): what a host sees when the database cannot be used at start
(a database a newer Clerk migrated, a server that cannot be reached, a database or user that does not exist) and
when config.toml or DATABASE_URL is written wrong: one line that says what is wrong and what to do, never a
traceback, and never the password of DATABASE_URL."""

from __future__ import annotations

import logging
import os
import shutil
import socket
import sqlite3
import uuid
from pathlib import Path

import pytest
from databases import ON_POSTGRES, POSTGRES_URL
from sqlalchemy.engine import Connection, make_url

from bot.__main__ import main as cli
from bot.discord.run import main
from bot.settings import ConfigError, Settings, load_settings
from engine.store.database import make_engine
from engine.store.migrate import alembic_config, known_revisions, upgrade
from engine.store.writable import CannotConnect, _cannot_connect, upgrade_writable


@pytest.fixture
def database(tmp_path: Path, sqlite_template: Path) -> Path:
    path = tmp_path / "clerk.db"
    shutil.copyfile(sqlite_template, path)
    return path


def newer(database: Path) -> None:
    """The database as a newer Clerk leaves it: at a revision these migrations do not have."""
    with sqlite3.connect(database) as db:
        db.execute("UPDATE alembic_version SET version_num = 'ffff'")
    db.close()


NEWER = ("the database is at schema revision ffff, which this Clerk does not know (its migrations end at "
         f"{known_revisions()[-1]}): a newer version of Clerk has migrated it. Run that version or a newer one; to go "
         "back to this version, restore the backup taken before the upgrade (docs/deploy.md, \"Upgrading Clerk\")")


async def test_the_bot_started_on_a_database_a_newer_clerk_migrated_stops_in_one_line(
        database: Path, caplog: pytest.LogCaptureFixture) -> None:
    """V1.1: it ended in Alembic's traceback, "Can't locate revision identified by 'ffff'", 40 lines long."""
    newer(database)
    caplog.set_level(logging.INFO)

    code = await main(Settings(token="never-used", database_url=f"sqlite+aiosqlite:///{database}"))

    assert code == 1
    errors = [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert [r.getMessage() for r in errors] == [f"cannot start: {NEWER}"]
    assert errors[0].exc_info is None
    with sqlite3.connect(database) as db:  # and nothing was changed
        assert db.execute("SELECT version_num FROM alembic_version").fetchall() == [("ffff",)]
    db.close()


def test_the_console_on_a_database_a_newer_clerk_migrated_stops_in_one_line(
        database: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    newer(database)
    monkeypatch.setenv("CLERK_CONFIG", os.devnull)  # no settings (not a developer's config.toml)

    code = cli(["console", "--database", f"sqlite+aiosqlite:///{database}"])

    assert code == 1
    assert capsys.readouterr().err == f"clerk: cannot open the console: {NEWER}\n"


async def test_a_database_at_an_older_revision_is_still_migrated(database: Path) -> None:
    """What V1.1's check must not refuse: a revision these migrations know (an upgrade)."""
    from alembic import command

    older = known_revisions()[-2]
    engine = make_engine(f"sqlite+aiosqlite:///{database}")

    def down(connection: Connection) -> None:
        config = alembic_config()
        config.attributes["connection"] = connection
        command.downgrade(config, older)

    try:
        async with engine.begin() as connection:
            await connection.run_sync(down)
        await upgrade(engine)
    finally:
        await engine.dispose()
    with sqlite3.connect(database) as db:
        assert db.execute("SELECT version_num FROM alembic_version").fetchall() == [(known_revisions()[-1],)]
    db.close()


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


async def test_a_database_server_that_refuses_the_connection_is_named_without_its_password() -> None:
    """V4.1: it said "the database refuses writes (applying the migrations): [Errno 111] Connect call failed", as if
    the server had refused a write."""
    engine = make_engine(f"postgresql+asyncpg://clerk:hunter2@127.0.0.1:{free_port()}/clerk")
    try:
        with pytest.raises(CannotConnect) as refused:
            await upgrade_writable(engine)
    finally:
        await engine.dispose()
    said = str(refused.value)
    assert said.startswith(f"cannot connect to the database postgresql+asyncpg://clerk:***@127.0.0.1:"
                           f"{engine.url.port}/clerk (DATABASE_URL): ")
    assert said.endswith("; nothing accepts connections there: is the database server running, on that host and port?")
    assert "hunter2" not in said


def test_an_unknown_host_and_a_database_that_does_not_exist_say_what_to_check() -> None:
    """V4.1: each was a traceback of 130-180 lines. (The driver's errors are made here: no DNS, no server needed.)"""
    engine = make_engine("postgresql+asyncpg://clerk:hunter2@db.example:5432/clerk")

    class Missing(Exception):
        sqlstate = "3D000"

    host = _cannot_connect(engine, socket.gaierror(-2, "Name or service not known"))
    missing = _cannot_connect(engine, Missing('database "clerk" does not exist'))

    where = "cannot connect to the database postgresql+asyncpg://clerk:***@db.example:5432/clerk (DATABASE_URL)"
    assert str(host) == (f"{where}: [Errno -2] Name or service not known; the host name in DATABASE_URL is not known "
                         "here: check it (and this machine's DNS)")
    assert str(missing) == (f"{where}: database \"clerk\" does not exist; create it (CREATE DATABASE, or `createdb`) "
                            "or correct the database's name at the end of DATABASE_URL")


@ON_POSTGRES
async def test_a_postgresql_database_that_does_not_exist_stops_the_bot_in_one_line(
        caplog: pytest.LogCaptureFixture) -> None:
    name = f"clerk_missing_{uuid.uuid4().hex[:12]}"
    url = make_url(POSTGRES_URL).set(database=name).render_as_string(hide_password=False)

    assert await main(Settings(token="never-used", database_url=url)) == 1

    errors = [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert len(errors) == 1 and errors[0].exc_info is None
    assert errors[0].getMessage().endswith(f'database "{name}" does not exist; create it (CREATE DATABASE, or '
                                           "`createdb`) or correct the database's name at the end of DATABASE_URL")


def test_a_token_in_config_toml_is_sent_to_the_environment(tmp_path: Path) -> None:
    """V4.2: it was "unknown setting(s) token; see config.example.toml", which did not say where the token goes."""
    config = tmp_path / "config.toml"
    config.write_text('token = "MTIz.abc"\nlog_level = "INFO"\n')

    with pytest.raises(ConfigError) as refused:
        load_settings(config, env={})

    assert str(refused.value) == (f"{config}: the token and database URL come only from the environment, "
                                  "DISCORD_TOKEN and DATABASE_URL; take them out of the file")
    assert "MTIz" not in str(refused.value)


def test_a_sqlite_url_with_two_slashes_gets_the_url_it_meant(tmp_path: Path) -> None:
    """V4.3: ``sqlite+aiosqlite://clerk.db`` (SQLAlchemy reads ``clerk.db`` as a host) ended in a traceback."""
    (tmp_path / "none.toml").write_text("")
    with pytest.raises(ConfigError) as refused:
        load_settings(env={"DATABASE_URL": "sqlite+aiosqlite://clerk.db", "CLERK_CONFIG": str(tmp_path / "none.toml")})

    assert str(refused.value) == ("DATABASE_URL has two slashes after sqlite+aiosqlite:, three are needed: "
                                  "sqlite+aiosqlite:///clerk.db (a path from the current folder; four slashes for an "
                                  "absolute path, sqlite+aiosqlite:////srv/clerk/clerk.db)")
    for url in ("sqlite+aiosqlite:///clerk.db", "sqlite+aiosqlite:////srv/clerk.db", "sqlite+aiosqlite://"):
        assert load_settings(None, env={"DATABASE_URL": url, "CLERK_CONFIG": str(tmp_path / "none.toml")}
                             ).database_url == url


def test_a_url_of_another_driver_gets_the_beginning_clerk_reads(tmp_path: Path) -> None:
    """Play-test 4.8: hosting services hand out ``postgres://`` URLs; the refusal now says what to write instead (and
    still repeats nothing after the scheme, which may hold a password)."""
    (tmp_path / "none.toml").write_text("")
    said = {}
    for url in ("postgres://clerk:hunter2@db.example/clerk", "postgresql://clerk:hunter2@db.example/clerk",
                "sqlite:///clerk.db"):
        with pytest.raises(ConfigError) as refused:
            load_settings(env={"DATABASE_URL": url, "CLERK_CONFIG": str(tmp_path / "none.toml")})
        said[url.partition(":")[0]] = str(refused.value)
    begins = "DATABASE_URL must start with sqlite+aiosqlite:// or postgresql+asyncpg://, not "
    assert said == {
        "postgres": f"{begins}postgres://... (a PostgreSQL URL: write its beginning as postgresql+asyncpg:// and keep "
                    "the rest as it is)",
        "postgresql": f"{begins}postgresql://... (a PostgreSQL URL: write its beginning as postgresql+asyncpg:// and "
                      "keep the rest as it is)",
        "sqlite": f"{begins}sqlite://... (a SQLite file: write its beginning as sqlite+aiosqlite:// and keep the rest "
                  "as it is)"}


def test_a_config_file_named_by_clerk_config_that_is_not_there_is_refused(tmp_path: Path) -> None:
    """V4.5: ``CLERK_CONFIG=/etc/clerk/confg.toml`` (a typo) was ignored without a word, and the bot ran with none of
    its settings (no health endpoint, so a Docker HEALTHCHECK failing with no reason given)."""
    missing = tmp_path / "confg.toml"

    with pytest.raises(ConfigError) as refused:
        load_settings(env={"CLERK_CONFIG": str(missing)})

    assert str(refused.value) == (f"CLERK_CONFIG names {missing}, which does not exist; correct the path, or unset "
                                  "CLERK_CONFIG to read config.toml in the current folder (if there is one)")
    (tmp_path / "config.toml").write_text("health_port = 8080\n")
    assert load_settings(env={"CLERK_CONFIG": str(tmp_path / "config.toml")}).health_port == 8080
