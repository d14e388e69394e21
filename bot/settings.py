"""Settings: config.toml (optional, see config.example.toml) plus DISCORD_TOKEN and DATABASE_URL from the
environment. Loaded in main() and passed in; never read at import time. Bad config fails fast in one line."""

from __future__ import annotations

import os
import tomllib
from dataclasses import dataclass
from datetime import timedelta
from pathlib import Path

from engine.store.database import DEFAULT_URL, WRITE_WAIT

STOP_WAIT = timedelta(seconds=5)
"""A clean stop's wait for what is still to be sent: within ``docker stop``'s 10 s before it kills."""


class ConfigError(Exception):
    """A setting is wrong; the message is one line that says which and why."""


@dataclass(frozen=True)
class Settings:
    token: str | None
    database_url: str
    log_level: str = "INFO"
    sync_commands: bool = True
    dev_guild_id: int | None = None
    seed: int | None = None
    shard_count: int | None = None
    shard_ids: tuple[int, ...] | None = None
    write_wait: timedelta = WRITE_WAIT
    """How long a write waits for another writer's lock before it is refused (engine.store.database)."""
    plugins: tuple[str, ...] = ()
    """Modules of rulesets that are not shipped (``rulesets = ["mygame"]``), each with a ``RULESET`` and a ``FRONT``;
    imported by ``bot.plugins.load_plugins``."""
    health_port: int | None = None
    """The health endpoint's port (``/healthz``, ``/metrics``: bot/discord/health.py); None: no endpoint."""
    health_host: str = "127.0.0.1"
    log_format: str = "text"
    """``text`` or ``json`` (JSON lines with the game, the command and the error id: bot/logs.py)."""
    stop_wait: timedelta = STOP_WAIT
    """How long a clean stop (SIGTERM, Ctrl-C) waits for the messages still waiting to be sent (bot/discord/run.py)."""
    message_content: str = "auto"
    """Ask Discord for the privileged Message Content intent: ``true``, ``false``, or ``auto`` (ask, and start again
    without it when Discord refuses it; ``bot/discord/run.py``)."""


def load_settings(path: str | os.PathLike[str] | None = None, env: dict[str, str] | None = None) -> Settings:
    env = dict(os.environ if env is None else env)
    named = env.get("CLERK_CONFIG", "").strip() or None
    file = Path(path or named or "config.toml")
    data: dict[str, object] = {}
    if file.exists():
        try:
            data = tomllib.loads(file.read_text())
        except tomllib.TOMLDecodeError as error:
            raise ConfigError(f"{file}: not valid TOML ({error})") from None
    elif path is not None:
        raise ConfigError(f"{file}: no such config file")
    elif named is not None:  # a file named on purpose, not there: its settings would be silently left out (V4.5)
        raise ConfigError(f"CLERK_CONFIG names {file}, which does not exist; correct the path, or unset CLERK_CONFIG "
                          "to read config.toml in the current folder (if there is one)")
    known = {"log_level", "sync_commands", "dev_guild_id", "seed", "write_wait", "rulesets", "health_port",
             "health_host", "log_format", "message_content", "stop_wait"}
    if {"token", "discord_token", "database_url"} & {str(key).lower() for key in data}:
        # before the unknown settings: "unknown setting token" did not say where it goes (play-test V4.2)
        raise ConfigError(f"{file}: the token and database URL come only from the environment, DISCORD_TOKEN and "
                          "DATABASE_URL; take them out of the file")
    unknown = set(data) - known
    if unknown:
        raise ConfigError(f"{file}: unknown setting(s) {', '.join(sorted(unknown))}; see config.example.toml")
    level = str(data.get("log_level", "INFO")).upper()
    if level not in {"DEBUG", "INFO", "WARNING", "ERROR"}:
        raise ConfigError(f"{file}: log_level must be DEBUG, INFO, WARNING or ERROR, not {level}")
    sync = data.get("sync_commands", True)
    if not isinstance(sync, bool):
        raise ConfigError(f"{file}: sync_commands must be true or false")
    guild = data.get("dev_guild_id")
    if guild is not None and not isinstance(guild, int):
        raise ConfigError(f"{file}: dev_guild_id must be a server id (a number)")
    seed = data.get("seed")
    if seed is not None and not isinstance(seed, int):
        raise ConfigError(f"{file}: seed must be a whole number")
    wait = data.get("write_wait", WRITE_WAIT.total_seconds())
    if isinstance(wait, bool) or not isinstance(wait, int | float) or not 0 < wait <= 3600:
        raise ConfigError(f"{file}: write_wait must be a number of seconds above 0 and at most 3600, not {wait!r}")
    stop = data.get("stop_wait", STOP_WAIT.total_seconds())
    if isinstance(stop, bool) or not isinstance(stop, int | float) or not 0 <= stop <= 600:
        raise ConfigError(f"{file}: stop_wait must be a number of seconds from 0 to 600, not {stop!r}")
    plugins = data.get("rulesets", [])
    if not isinstance(plugins, list) or not all(isinstance(p, str) and p.strip() for p in plugins):
        raise ConfigError(f"{file}: rulesets must be a list of module names, e.g. [\"mygame\"]")
    health_port, health_host, log_format = observability(file, data)
    content = message_content(data.get("message_content", "auto"), env, file)
    url = database_url(env.get("DATABASE_URL") or DEFAULT_URL, "DATABASE_URL")
    token = env.get("DISCORD_TOKEN") or None
    count, ids = shards(env)
    return Settings(token=token, database_url=url, log_level=level, sync_commands=sync, dev_guild_id=guild, seed=seed,
                    shard_count=count, shard_ids=ids, write_wait=timedelta(seconds=wait),
                    stop_wait=timedelta(seconds=stop),
                    plugins=tuple(p.strip() for p in plugins), health_port=health_port, health_host=health_host,
                    log_format=log_format, message_content=content)


def database_url(url: str, what: str) -> str:
    """``url`` if it names a database Clerk can use; else a ConfigError that says what is accepted. Only the
    scheme of a wrong URL is repeated (the rest may hold a password); a bare file name gets the URL it meant."""
    path = url.removeprefix("sqlite+aiosqlite://")
    if url.startswith("sqlite+aiosqlite://") and path and not path.startswith(("/", "?")):
        # SQLAlchemy took ``clerk.db`` for a host and stopped with a traceback (play-test V4.3)
        raise ConfigError(f"{what} has two slashes after sqlite+aiosqlite:, three are needed: "
                          f"sqlite+aiosqlite:///{path} (a path from the current folder; four slashes for an "
                          "absolute path, sqlite+aiosqlite:////srv/clerk/clerk.db)")
    if url.startswith(("sqlite+aiosqlite://", "postgresql+asyncpg://")):
        return url
    scheme, sep, _ = url.partition("://")
    given = f"{scheme}://..." if sep else repr(url)
    hint = f" (a SQLite file: sqlite+aiosqlite:///{url})" if not sep else ""
    if scheme.lower() in ("postgres", "postgresql", "postgresql+psycopg2", "postgresql+psycopg", "pgsql"):
        # what hosting services hand out (play-test 4.8)
        hint = " (a PostgreSQL URL: write its beginning as postgresql+asyncpg:// and keep the rest as it is)"
    elif scheme.lower() in ("sqlite", "sqlite3", "sqlite+pysqlite"):
        hint = " (a SQLite file: write its beginning as sqlite+aiosqlite:// and keep the rest as it is)"
    raise ConfigError(f"{what} must start with sqlite+aiosqlite:// or postgresql+asyncpg://, not {given}{hint}")


def observability(file: Path, data: dict[str, object]) -> tuple[int | None, str, str]:
    """``health_port`` (1 to 65535; absent: no health endpoint), ``health_host`` and ``log_format``."""
    port = data.get("health_port")
    if port is not None and (isinstance(port, bool) or not isinstance(port, int) or not 0 < port < 65536):
        raise ConfigError(f"{file}: health_port must be a port number from 1 to 65535, not {port!r}")
    host = data.get("health_host", "127.0.0.1")
    if not isinstance(host, str) or not host.strip():
        raise ConfigError(f"{file}: health_host must be an address to listen on, e.g. \"127.0.0.1\" or \"0.0.0.0\"")
    log_format = data.get("log_format", "text")
    if log_format not in ("text", "json"):
        raise ConfigError(f"{file}: log_format must be \"text\" or \"json\", not {log_format!r}")
    return port, host.strip(), str(log_format)


MESSAGE_CONTENT = ("true", "false", "auto")


def message_content(value: object, env: dict[str, str], file: Path) -> str:
    """``message_content`` of the config file, or MESSAGE_CONTENT in the environment (which wins): true, false or
    auto."""
    if env.get("MESSAGE_CONTENT", "").strip():
        value, where = env["MESSAGE_CONTENT"].strip().lower(), "MESSAGE_CONTENT"
    else:
        where = f"{file}: message_content"
    text = ("true" if value else "false") if isinstance(value, bool) else str(value).strip().lower()
    if text not in MESSAGE_CONTENT:
        raise ConfigError(f"{where} must be true, false or auto, not {value!r}")
    return text


def shards(env: dict[str, str]) -> tuple[int | None, tuple[int, ...] | None]:
    """SHARD_COUNT (how many shards the bot has in all) and SHARD_IDS (the ones this process runs, e.g. ``0,1``;
    all of them if unset). Without SHARD_COUNT the bot is one unsharded client."""
    count_text = env.get("SHARD_COUNT", "").strip()
    ids_text = env.get("SHARD_IDS", "").strip()
    if not count_text:
        if ids_text:
            raise ConfigError("SHARD_IDS needs SHARD_COUNT (the total number of shards), e.g. SHARD_COUNT=4")
        return None, None
    if not count_text.isdigit() or int(count_text) < 1:
        raise ConfigError(f"SHARD_COUNT must be a whole number of shards, 1 or more, not {count_text!r}")
    count = int(count_text)
    if not ids_text:
        return count, None
    parts = [p.strip() for p in ids_text.split(",")]
    if not all(p.isdigit() and int(p) < count for p in parts):
        raise ConfigError(f"SHARD_IDS must be shard numbers from 0 to {count - 1} separated by commas "
                          f"(e.g. 0,1), not {ids_text!r}")
    if len(set(parts)) != len(parts):
        raise ConfigError(f"SHARD_IDS names a shard twice: {ids_text!r}")
    return count, tuple(sorted(int(p) for p in parts))
