"""Reading and changing a game's settings; every change is an event (shared/RULINGS.md)."""

from __future__ import annotations

from typing import Any

from engine.landsdraad.settings import SETTINGS, setting
from engine.service.ledger import load_game
from engine.service.uow import ServiceBase


def value_of(settings: dict[str, Any], name: str) -> Any:
    return settings.get(name, SETTINGS[name].default)


class SettingsService(ServiceBase):
    async def settings(self, game_id: int) -> list[tuple[str, Any, bool, str]]:
        """(name, value, is it the default, description) for every setting."""
        async with self._read() as session:
            game = await load_game(session, game_id)
            return [(s.name, value_of(game.settings, s.name), s.name not in game.settings, s.description)
                    for s in SETTINGS.values()]

    async def change_setting(self, game_id: int, *, name: str, value: str, actor: int | None,
                             source_id: str | None = None) -> tuple[str, Any, Any]:
        """(name, old value, new value)."""
        spec = setting(name)
        new = spec.parse(value)
        async with self._write(game_id, source_id) as uow:
            game = await load_game(uow.session, game_id)
            old = value_of(game.settings, spec.name)
            game.settings = {**game.settings, spec.name: new}
            await uow.record(game_id, "SettingChanged", actor, {"setting": spec.name, "from": old, "to": new},
                             source_id)
            return spec.name, old, new
