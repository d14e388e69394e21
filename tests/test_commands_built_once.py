"""The slash commands are built once per command table and shared by every bot of the process
(``bot.discord.tree.commands_for``): each command runs, and suggests values, on the bot the interaction came to, and a
table changed after a build is built anew."""

from __future__ import annotations

from dataclasses import replace
from types import SimpleNamespace
from typing import Any

from discord import app_commands

from bot.actions.rulesets import FRONTS, ROUTES, routes_of
from bot.discord.tree import commands_for


class Bot:
    """What ``commands_for``'s commands ask of ``interaction.client``: what it was asked to run and complete."""

    def __init__(self) -> None:
        self.ran: list[tuple[str, dict[str, Any]]] = []
        self.completed: list[tuple[str, str, str]] = []

    async def run_command(self, interaction: Any, name: str, values: dict[str, Any]) -> None:
        self.ran.append((name, values))

    async def complete_option(self, interaction: Any, name: str, option: str,
                              typed: str) -> list[app_commands.Choice[str]]:
        self.completed.append((name, option, typed))
        return []


def command(commands: list[Any], name: str) -> app_commands.Command[Any, ..., None]:
    parts = name.split()
    found = next(c for c in commands if c.name == parts[0])
    for part in parts[1:]:
        found = found.get_command(part)
    assert isinstance(found, app_commands.Command)
    return found


def test_the_same_table_gives_the_same_commands() -> None:
    assert commands_for(ROUTES) is commands_for(ROUTES)


async def test_each_command_runs_and_completes_on_the_bot_the_interaction_came_to() -> None:
    first, second = Bot(), Bot()
    vote = command(commands_for(ROUTES), "round close")
    await vote.callback(SimpleNamespace(client=second))  # type: ignore[call-arg]
    await vote.callback(SimpleNamespace(client=first))  # type: ignore[call-arg]
    assert first.ran == [("round close", {})] and second.ran == [("round close", {})]

    found = next((name, spec) for name, spec in ROUTES.commands.items()
                 if any(o.autocomplete for o in spec.options))
    name, spec = found
    option = next(o for o in spec.options if o.autocomplete)
    suggest = command(commands_for(ROUTES), name)._params[option.name].autocomplete
    assert suggest is not None
    await suggest(SimpleNamespace(client=second), "al")  # type: ignore[arg-type]
    assert second.completed == [(name, option.name, "al")] and first.completed == []


def test_a_table_changed_after_a_build_is_built_anew() -> None:
    routes = routes_of(FRONTS)
    before = commands_for(routes)
    spec = routes.commands["round close"]
    routes.commands["round close"] = replace(spec, description="Close the round now, changed.")
    after = commands_for(routes)
    assert after is not before
    assert command(after, "round close").description == "Close the round now, changed."
    assert command(before, "round close").description == spec.description
