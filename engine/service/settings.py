"""Reading and changing a game's settings; every change is an event (shared/RULINGS.md). Each ruleset has its own
table of settings (``Ruleset.settings``); a game shows and changes those of its ruleset."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from engine.core.errors import ParseError, RuleError
from engine.core.settings import Setting, shown
from engine.core.suggest import nearest
from engine.core.zones import parse_zone
from engine.service.ledger import load_game
from engine.service.ruleset import Ruleset
from engine.service.uow import ServiceBase


def settings_of(ruleset: Ruleset) -> Mapping[str, Setting]:
    if not ruleset.settings:
        raise RuleError(f"{ruleset.title} games have no settings.")
    return ruleset.settings


def value_of(settings: dict[str, Any], name: str, table: Mapping[str, Setting]) -> Any:
    """The game's value of the setting ``name`` of ``table`` (its ruleset's settings), or its default."""
    return settings.get(name, table[name].default)


def setting_of(ruleset: Ruleset, name: str, others: Sequence[Ruleset] = ()) -> Setting:
    """The setting ``name`` of ``ruleset``; a refusal that says whose it is when another ruleset (of ``others``) has
    it, and lists every setting the game takes (its own, ``timezone`` and ``moderator_channel``)."""
    table = settings_of(ruleset)
    key = name.strip().lower().replace("-", "_").replace(" ", "_")
    found = table.get(key)
    if found is None:
        accepted = "a setting: " + ", ".join([*table, TIMEZONE, MODERATOR_CHANNEL])
        owner = next((r for r in others if r.name != ruleset.name and key in (r.settings or {})), None)
        if owner is not None:
            raise ParseError(name, accepted, problem=f"it is a {owner.title} setting, and this game plays "
                                                     f"{ruleset.title}")
        if key in ("moderators", "moderator", "moderator_role"):
            raise ParseError(name, accepted, problem="who moderates is changed with /game moderators")
        raise ParseError(name, accepted, suggestion=nearest(key, [*table, TIMEZONE, MODERATOR_CHANNEL], cutoff=0.7))
    return found


MODERATOR_CHANNEL = "moderator_channel"
"""The one setting every game has: the private channel where Clerk posts what only the moderators see (a transfer,
...), a channel id; unset, a private thread of the game channel (``bot/actions/moderators.py``)."""


TIMEZONE = "timezone"
"""The other setting every game has: the IANA name of the game's time zone, in which a deadline typed as a local
time without a zone is read (``engine/core/durations.py``); unset, UTC. Discord shows every time in each reader's own
zone whatever it is."""
UNSET = ("none", "off", "utc-default", "default")


class SettingsService(ServiceBase):
    async def timezone(self, game_id: int) -> str | None:
        async with self._read() as session:
            value = (await load_game(session, game_id)).settings.get(TIMEZONE)
            return str(value) if value is not None else None

    async def set_timezone(self, game_id: int, *, value: str, actor: int | None,
                           source_id: str | None = None) -> tuple[str | None, str | None]:
        """(old, new) time zone, IANA names; ``none`` unsets it (deadlines typed without a zone are UTC). An unknown
        name is refused (``ParseError``) and nothing is recorded."""
        new = None if value.strip().lower() in UNSET else parse_zone(value)
        async with self._write(game_id, source_id) as uow:
            game = await load_game(uow.session, game_id)
            old = game.settings.get(TIMEZONE)
            if old == new:  # announced and recorded nothing, as /game moderators (play-test T5.3)
                raise RuleError(f"{game.name}'s time zone is already {new or 'none (UTC)'}; nothing was changed.")
            settings = {k: v for k, v in game.settings.items() if k != TIMEZONE}
            game.settings = {**settings, TIMEZONE: new} if new is not None else settings
            await uow.record(game_id, "SettingChanged", actor, {"setting": TIMEZONE, "from": old, "to": new},
                             source_id)
            return (str(old) if old is not None else None), new

    async def moderator_channel(self, game_id: int) -> int | None:
        async with self._read() as session:
            value = (await load_game(session, game_id)).settings.get(MODERATOR_CHANNEL)
            return int(value) if value is not None else None

    async def set_moderator_channel(self, game_id: int, *, channel_id: int | None, actor: int | None,
                                    source_id: str | None = None) -> tuple[int | None, int | None]:
        """(old, new) moderator channel; None: a private thread of the game channel."""
        async with self._write(game_id, source_id) as uow:
            game = await load_game(uow.session, game_id)
            if channel_id is not None and channel_id == game.channel_id:
                raise RuleError(f"The moderator channel must be a private one, not the game channel of {game.name} "
                                "(every player reads that).")
            old = game.settings.get(MODERATOR_CHANNEL)
            if old == channel_id:
                raise RuleError(f"{game.name}'s moderator channel is already "
                                f"{f'<#{old}>' if old is not None else 'a private thread of the game channel'}; "
                                "nothing was changed.")
            settings = {k: v for k, v in game.settings.items() if k != MODERATOR_CHANNEL}
            game.settings = {**settings, MODERATOR_CHANNEL: channel_id} if channel_id is not None else settings
            await uow.record(game_id, "SettingChanged", actor, {"setting": MODERATOR_CHANNEL, "from": old,
                                                                "to": channel_id}, source_id)
            return (int(old) if old is not None else None), channel_id

    async def settings(self, game_id: int) -> list[tuple[str, Any, bool, str]]:
        """(name, value, is it the default, description) for every setting of the game's ruleset."""
        async with self._read() as session:
            game = await load_game(session, game_id)
            table = settings_of(self.backend.ruleset(game.ruleset))
            return [(s.name, value_of(game.settings, s.name, table), s.name not in game.settings, s.description)
                    for s in table.values()]

    async def change_setting(self, game_id: int, *, name: str, value: str, actor: int | None,
                             source_id: str | None = None) -> tuple[str, Any, Any]:
        """(name, old value, new value)."""
        async with self._write(game_id, source_id) as uow:
            game = await load_game(uow.session, game_id)
            spec = setting_of(self.backend.ruleset(game.ruleset), name, self.backend.rulesets)
            new = spec.parse(value)
            old = value_of(game.settings, spec.name, settings_of(self.backend.ruleset(game.ruleset)))
            if new == old:  # announced and recorded nothing, as /game moderators (play-test T5.3)
                default = " (its default)" if spec.name not in game.settings else ""
                raise RuleError(f"{spec.name} of {game.name} is already {shown(new)}{default}; nothing was changed.")
            guard = self.backend.ruleset(game.ruleset).setting_guard
            if guard is not None:
                await guard(uow.session, game, spec.name, old, new)
            game.settings = {**game.settings, spec.name: new}
            ruling = {"ruling": spec.ruling} if spec.ruling else {}
            await uow.record(game_id, "SettingChanged", actor, {"setting": spec.name, **ruling, "from": old, "to": new},
                             source_id)
            return spec.name, old, new
