"""Issue 8, "Permissions and secrecy": every moderator-only command of the command table, in a game of each ruleset
it belongs to, run as a member with no role, as the moderator of another game (who plays there), and as a player
of this game: all refused with a clear answer, and nothing changed (the events table and the full export of both
games are compared before and after). The same command run by the game's moderator is not refused, and changes
the game unless it only reads (the positive control, so the refusals cannot pass vacuously).

The commands are read from ``COMMANDS``: a new moderator command is tested without a line here. Its options are
built from their types and choices (``generic_line``); ``OVERRIDES`` gives the values a command needs to succeed
and ``PRELUDES`` the state it needs (an open primary, a motion on the floor) in lines of the transcript syntax."""

from __future__ import annotations

import fcntl
import json
import os
import shutil
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncEngine

from bot.actions.commands import COMMON, App, Command, Role, Upload, dispatch, ruleset_refusal
from bot.actions.context import Ctx, UserRef
from bot.actions.outbox import Here
from bot.actions.rulesets import COMMANDS, FRONTS
from bot.console.session import Session
from bot.console.slash import parse_slash
from bot.console.transcript import parse_transcript
from bot.console.world import World
from engine.service import Clerk
from engine.service.clock import ManualClock, RandomDice
from engine.service.views import GameView
from engine.store.database import make_engine, make_sessionmaker
from engine.store.models import Event

GAME, OTHER = "alpha", "beta"
"""The game under test (channel #alpha, moderator role a-mods held by amod) and another game (#beta, a Landsdraad
game moderated by bmod through the role b-mods; bmod plays in it)."""
START = "2026-03-01 18:00"
RULESETS = COMMANDS["game new"].option("ruleset").choices  # type: ignore[union-attr]

COMMON_SETUP = f"""\
! time {START}
! role amod a-mods
! role bmod b-mods
mod #{OTHER}: /game new ruleset:landsdraad name:{OTHER} moderator_role:@b-mods
mod #{OTHER}: /player add user:@bmod diplomacy:3 command:2 intrigue:2 roll:2
mod #{OTHER}: /round open crisis:"Famine on Beta" deadline:3d
mod #{GAME}: /game new ruleset:{{ruleset}} name:{GAME} moderator_role:@a-mods
"""
SETUPS = {
    "landsdraad": """\
mod #alpha: /player add user:@alice diplomacy:4 command:3 intrigue:3 roll:3
mod #alpha: /player add user:@bob diplomacy:3 command:2 intrigue:2 roll:2
mod #alpha: /player add user:@carol diplomacy:2 command:1 intrigue:1 roll:1
mod #alpha: /holding add player:@bob kind:elector name:Count Jasek tier:average votes:5
mod #alpha: /holding add player:@carol kind:planet name:Caladan quality:average
mod #alpha: /round open crisis:"Piracy in Sirius" deadline:2d
mod #alpha: /faction add name:Merchants votes:3 stance:aye
alice dm: Vote: Aye
mod #alpha: /transfer record sender:@alice to:@bob what:100 MS
bob dm: Transfer: Elector Count Jasek to carol
mod #alpha: /kanly add p:@alice q:@bob
mod #alpha: /kanly transit owner:@alice target:@bob fee:10 what:2 legions
mod #alpha: /embargo add by:@alice on:@bob
mod #alpha: /goal add player:@alice description:"Hold Caladan" vp:40
carol #alpha/votes: Vote: End Game
""",
    "mylantium": """\
mod #alpha: /territory add name:Avalon
mod #alpha: /building add territory:Avalon kind:port count:2
mod #alpha: /building add territory:Avalon kind:city name:Arcadia
mod #alpha: /unit add name:Dragoons territory:Avalon maintenance:5 cost:25
mod #alpha: /faction register faction:Plutocrat user:@alice party:Whig vp:20 treasury:30
mod #alpha: /faction register faction:Granger user:@bob party:Whig vp:20 treasury:10
mod #alpha: /faction register faction:Prole user:@carol party:Federalist vp:20 treasury:10
mod #alpha: /faction register faction:Brass Hat user:@dave party:Federalist vp:20 treasury:20
mod #alpha: /candidate add name:Lee Adams faction:Plutocrat charisma:7
mod #alpha: /candidate add name:Kit Marlow faction:Prole charisma:5
mod #alpha: /government set president:Prole approval:60
mod #alpha: /event scandal
""",
    "convocate": """\
mod #alpha: /convocate player user:@alice sovereignty:Union
mod #alpha: /convocate player user:@bob sovereignty:Kingdom
mod #alpha: /convocate player user:@carol sovereignty:Republic
mod #alpha: /card add kind:homeworld name:Union Prime controller:@alice
mod #alpha: /card add kind:homeworld name:Tribune controller:@carol
mod #alpha: /card add kind:seat name:Union Senate controller:@alice sovereignty:Union faces:"prime: 0..4"
mod #alpha: /card add kind:seat name:Tribunate controller:@carol sovereignty:Republic faces:"prime: 0..4 directive"
mod #alpha: /card add kind:character name:Kista controller:@alice at:Union Senate morality:Loyal
mod #alpha: /card add kind:character name:Tessaly controller:@carol at:Tribunate morality:Ruthless
mod #alpha: /factor set name:GOVT value:1
""",
}

OVERRIDES: dict[str, str] = {
    "assets set": "player:@bob weapons_factory:2",
    "economy set": "player:@bob income:5",
    "forces set": "player:@bob militia:3",
    "luxury in-play": "spice:3",
    "motion ask-again": "player:@carol",
    "embargo add": "by:@bob on:@carol",
    "kanly add": "p:@bob q:@carol",
    "kanly transit": "owner:@alice target:@bob fee:5",
    "holding add": "player:@bob kind:planet name:Giedi Prime quality:rich",
    "player add": "user:@dave diplomacy:2 command:2 intrigue:2",
    "transfer record": "sender:@alice to:@carol what:50 MS",
    "game new": "name:gamma",
    "ag extend": "until:\"2026-03-05 18:00\"",
    "round extend": "by:1d",
    "faction remove": "name:merchants",
    "holding remove": "player:@bob name:Count Jasek",
    "holding set": "player:@bob name:Count Jasek votes:3",
    "goal achieved": "player:@alice goal:1",
    "goal remove": "player:@alice goal:1",
    "kanly arrived": "id:1",
    "kanly remove": "p:@alice q:@bob",
    "embargo remove": "by:@alice on:@bob",
    "transfer correct": "id:1 note:\"a typo\" what:200 MS",
    "transfer apply": "id:2",
    "player set": "user:@bob diplomacy:4",
    "player remove": "user:@bob",
    "game moderators": "role:@new-mods",
    "game move": "game:alpha",
    "candidate add": "name:Ann Oakes faction:Granger charisma:3",
    "event income-tax": "change:created points:30",
    "candidate discard": "name:Kit Marlow",
    "candidate set": "name:Kit Marlow charisma:6",
    "unit remove": "name:Dragoons",
    "unit set": "name:Dragoons maintenance:6",
    "unit add": "name:Fleet territory:Avalon maintenance:3 cost:30",
    "territory add": "name:Bicardia",
    "building add": "territory:Avalon kind:temple",
    "building remove": "territory:Avalon kind:port",
    "faction votes": "faction:Granger territory:Avalon votes:8",
    "faction register": "faction:Redneck user:@erin party:Whig",
    "faction set": "faction:Granger vp:21",
    "government set": "approval:55",
    "election nominee": "party:Whig candidate:Ann Oakes",  # Lee Adams won: naming him again changes nothing
    "factor set": "name:TRADE value:1",
    "convocate player": "user:@dave sovereignty:Hegemony",
    "event fiat-money": "dollars:10",
    "event war-table": "result:3",
    "revolution deadline": "deadline:24h",
    "election deadline": "deadline:24h",
}
"""Values a command needs to do something (the required options not named here get ``generic_value``)."""

PRELUDES: dict[str, list[str]] = {
    "game end": ["mod #alpha: /round close"],
    "landsdraad:game reopen": ["mod #alpha: /round close", "mod #alpha: /game end"],
    "game reopen": ["mod #alpha: /game close"],
    "round open": ["mod #alpha: /round close"],
    "pv enact": ["bob #alpha/votes: Vote: End Game"],
    "pv veto": ["bob #alpha/votes: Vote: End Game"],
    "ag close": ["mod #alpha: /ag open"],
    "ag extend": ["mod #alpha: /ag open"],
    "round resume": ["mod #alpha: /round pause"],
    "election primary open": ["mod #alpha: /election start"],
    "election primary close": ["mod #alpha: /election start", "mod #alpha: /election primary open"],
    "election general open": ["mod #alpha: /election start", "mod #alpha: /election primary open",
                              "mod #alpha: /election primary close"],
    "election remind": ["mod #alpha: /election start", "mod #alpha: /election primary open"],
    "election deadline": ["mod #alpha: /election start", "mod #alpha: /election primary open"],
    "election reopen": ["mod #alpha: /election start", "mod #alpha: /election primary open",
                        "mod #alpha: /election primary close"],
    "election cancel": ["mod #alpha: /election start"],
    "election nominee": ["mod #alpha: /candidate add name:Ann Oakes faction:Granger charisma:3",
                         "mod #alpha: /election start", "mod #alpha: /election primary open",
                         "mod #alpha: /election primary close"],
    "revolution coup": ["mod #alpha: /faction set faction:Prole vp:0 treasury:100"],
    "revolution resolve": ["mod #alpha: /faction set faction:Prole vp:0 treasury:100",
                           "mod #alpha: /revolution coup answer:no"],
    "revolution deadline": ["mod #alpha: /faction set faction:Prole vp:0 treasury:100",
                            "mod #alpha: /revolution coup answer:no"],
    "phase back": ["mod #alpha: /phase next", "alice #alpha: /phase next"],
    "motion skip": ["mod #alpha: /phase next", "alice #alpha: /phase next",
                    "alice #alpha: Motion: Open the Archives by Kista"],
    "motion withdraw": ["mod #alpha: /phase next", "alice #alpha: /phase next",
                        "alice #alpha: Motion: Open the Archives by Kista"],
    "motion reopen": ["mod #alpha: /phase next", "alice #alpha: /phase next",
                      "alice #alpha: Motion: Open the Archives by Kista", "carol dm: Second: Tessaly"],
    "motion ask-again": ["mod #alpha: /phase next", "alice #alpha: /phase next",
                         "alice #alpha: Motion: Open the Archives by Kista", "carol dm: Second: no"],
    "election general close": ["mod #alpha: /election start", "mod #alpha: /election primary open",
                               "mod #alpha: /election primary close", "mod #alpha: /election general open"],
    "round erratum": ["mod #alpha: /round close", "mod #alpha: /player set user:@bob misc:5 since:1"],
    "ag erratum": ["mod #alpha: /game settings setting:ag_weighted value:yes", "mod #alpha: /ag open",
                   "alice dm: AG Vote: alice", "bob dm: AG Vote: bob", "carol dm: AG Vote: bob",
                   "mod #alpha: /ag close", "mod #alpha: /player set user:@alice misc:20 since:1"],
    "election erratum": ["mod #alpha: /election start", "mod #alpha: /election primary open",
                         "mod #alpha: /election primary close", "mod #alpha: /election general open",
                         "mod #alpha: /election general close", "mod #alpha: /government set approval:20 since:1"],
    "round release": ["mod #alpha: /game settings setting:disclosure value:hold", "mod #alpha: /round close"],
    "election release": ["mod #alpha: /game settings setting:disclosure value:hold",
                         "mod #alpha: /candidate add name:Ann Oakes faction:Granger charisma:3",
                         "mod #alpha: /election start", "mod #alpha: /election primary open",
                         "alice dm: Primary: Lee Adams", "mod #alpha: /election primary close"],
}
"""Lines (transcript syntax) run before a command, for the state it acts on."""

NOT_THERE = {"landsdraad:game close": "Landsdraad games end with /game end; nothing was changed."}
NO_PAST = {"convocate:motion erratum": "Motion #1 of alpha is no resolved Motion of Repeal (those: none yet).",
           "convocate:statute restore": "has been repealed or destroyed in alpha (those: none). Nothing was recorded.",
           "convocate:statute set": "is in force. In force: none."}
"""``ruleset:command`` -> the moderator's answer, for a command that acts on a past the bench has none of (a resolved
Repeal, then a correction; a Statute repealed or destroyed: tests/service/test_errata_convocate.py does each)."""
"""``ruleset:command`` -> the moderator's answer, where the ruleset does not take the command (it has its own)."""
BY_RULESET: dict[tuple[str, str], tuple[list[str], str]] = {
    ("landsdraad", "cast-for"): ([], 'player:@bob choice:"Vote: Aye"'),
    ("mylantium", "cast-for"): (["mod #alpha: /election start"], 'player:@bob choice:"Realign: Federalist"'),
    ("convocate", "cast-for"): (PRELUDES["motion skip"], 'player:@carol choice:"Second: no"'),
    ("mylantium", "game import"): ([], f"file:{Path(__file__).parent / 'files' / 'one-territory.csv'}"),
    ("convocate", "game import"): ([], f"file:{Path(__file__).parent / 'files' / 'one-card.csv'}"),
}
"""(prelude, options) of a command whose positive control differs by ruleset (``/cast-for`` reads each one's forms)."""

SET_UP_ONLY = frozenset({("landsdraad", "game announce")})
"""(ruleset, command) that acts during set-up only, where that ruleset's bench is past its set-up (a round is open):
the positive control checks that the moderator's run is refused with why, and records nothing."""
READ_ONLY = frozenset({"game export", "log", "event list", "prestige list", "transfer list", "vp holdings",
                       "round preview", "ag preview", "motion preview",
                       "player dms"})
"""Moderator commands that only show something (or, ``player dms``, change delivery bookkeeping, no game's events):
the positive control expects no change from these."""


@dataclass(frozen=True)
class Who:
    label: str
    name: str
    channel: str


REFUSED = (Who("a member without the moderator role", "stranger", GAME),
           Who("the moderator of another game, who plays there", "bmod", GAME),
           Who("a player of this game", "alice", GAME),
           Who("this game's moderator, in the other game's channel", "amod", OTHER))


def rulesets_of(spec: Command) -> tuple[str, ...]:
    if spec.name == "game import":  # only where the ruleset reads a set-up file (Front.importer)
        return tuple(f.name for f in FRONTS if f.importer is not None)
    if spec.name in COMMON:
        return RULESETS
    if spec.ruleset is not None:
        return (spec.ruleset,)
    return tuple(f.name for f in FRONTS if not f.exclusive)


CASES = [pytest.param(ruleset, name, id=f"{ruleset}:{name}")
         for name, spec in sorted(COMMANDS.items()) if spec.moderator for ruleset in rulesets_of(spec)]


def generic_value(option: Any) -> str:
    """A value of the option's type, written as the console reads it."""
    if option.choices:
        return f'"{option.choices[0]}"'
    if option.kind is bool:
        return "true"
    if option.kind is int:
        return str(option.min_value if option.min_value is not None else 1)
    if option.kind is UserRef:
        return "@bob"
    if option.kind is Role:
        return "@a-mods"
    if option.kind is Upload:
        return str(Path(__file__).parent / "files" / "one-player.csv")
    return '"x"'


def generic_line(spec: Command) -> str:
    given = OVERRIDES.get(spec.name, "")
    named = {part.split(":", 1)[0] for part in given.split() if ":" in part}
    rest = [f"{o.name}:{generic_value(o)}" for o in spec.options if o.required and o.name not in named]
    return " ".join(["/" + spec.name, given, *rest]).strip()


def world() -> World:
    w = World()
    w.give_role("amod", "a-mods")
    w.give_role("bmod", "b-mods")
    return w


async def run_lines(session: Session, lines: list[str]) -> None:
    events, errors = parse_transcript(lines)
    assert not errors, errors
    for event in events:
        await session.run(event)


@dataclass
class Bench:
    """A copy of a ruleset's setup: the service on it, the console's world and session (for preludes)."""

    app: App
    world: World
    session: Session
    engine: AsyncEngine
    games: dict[str, int]
    views: dict[str, GameView | None] = field(default_factory=dict)

    def channel_id(self, name: str) -> int:
        return self.world.place(name, None).channel_id or 0

    def ctx(self, name: str, channel: str, n: int) -> Ctx:
        return Ctx(self.world.actor(name), self.world.place(channel, None), f"perm:{n}", self.session.clock.now())

    async def events(self) -> tuple[int, int | None, int]:
        """The events table: how many rows, the last id, and how many of the other game."""
        async with make_sessionmaker(self.engine)() as session:
            count, last, other = (await session.execute(select(
                func.count(Event.id), func.max(Event.id),
                func.count(Event.id).filter(Event.game_id == self.games[OTHER])))).one()
        return count, last, other

    async def exports(self) -> tuple[dict[str, Any], dict[str, Any]]:
        """The full exports of both games, events included."""
        exports = self.app.clerk.exports
        return await exports.export(self.games[GAME]), await exports.export(self.games[OTHER])



def open_bench(db: Path, games: dict[str, int], source_prefix: str = "perm-prelude") -> Bench:
    engine = make_engine(f"sqlite+aiosqlite:///{db}")
    clock = ManualClock(datetime.fromisoformat(START).replace(tzinfo=UTC))
    app = App(Clerk(make_sessionmaker(engine), clock, RandomDice(1)))
    w = world()
    return Bench(app, w, Session(app, clock, lambda _line: None, source_prefix, w), engine, games)


@pytest.fixture(scope="module")
def templates() -> dict[str, tuple[Path, dict[str, int]]]:
    return {}


async def template(ruleset: str, folder: Path, migrated: Path) -> tuple[Path, dict[str, int]]:
    """The ruleset's setup, played once per test run on a copy of the migrated database (test processes share it:
    the first to need it builds it under a lock)."""
    path, ids = folder / f"permissions-{ruleset}.db", folder / f"permissions-{ruleset}.json"
    with open(folder / f"permissions-{ruleset}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not ids.exists():
            shutil.copyfile(migrated, path)
            first = open_bench(path, {}, "perm-setup")
            try:
                await run_lines(first.session, (COMMON_SETUP.format(ruleset=ruleset) + SETUPS[ruleset]).splitlines())
                games = {}
                for name in (GAME, OTHER):
                    game = await first.app.clerk.games.game_in_channel(first.channel_id(name))
                    assert game is not None
                    games[name] = game.id
            finally:
                await first.engine.dispose()
            ids.write_text(json.dumps(games))
    return path, json.loads(ids.read_text())


@pytest.fixture
async def bench_for(tmp_path: Path, tmp_path_factory: pytest.TempPathFactory, sqlite_template: Path,
                    templates: dict[str, tuple[Path, dict[str, int]]]) -> AsyncIterator[Any]:
    """A fresh copy of the ruleset's setup."""
    benches: list[Bench] = []
    base = tmp_path_factory.getbasetemp()
    shared = base.parent if os.environ.get("PYTEST_XDIST_WORKER") else base

    async def make(ruleset: str) -> Bench:
        if ruleset not in templates:
            templates[ruleset] = await template(ruleset, shared, sqlite_template)
        path, games = templates[ruleset]
        db = tmp_path / f"{ruleset}-{len(benches)}.db"
        shutil.copyfile(path, db)
        benches.append(open_bench(db, games))
        return benches[-1]

    yield make
    for bench in benches:
        await bench.engine.dispose()


def test_every_ruleset_has_a_setup_and_every_override_names_a_command() -> None:
    assert set(SETUPS) == set(RULESETS)
    unknown = (set(OVERRIDES) | {k.split(":")[-1] for k in PRELUDES} | READ_ONLY | {
        k.split(":")[-1] for k in (*NOT_THERE, *NO_PAST)}) - set(COMMANDS)
    assert not unknown, unknown
    assert len(CASES) > 60  # the table is read, not empty


async def refusals(bench: Bench, spec: Command, options: dict[str, Any]) -> list[str]:
    """Run ``spec`` as everyone in ``REFUSED``; what went wrong (an answer that is not a clear refusal)."""
    wrong: list[str] = []
    for n, who in enumerate(REFUSED):
        channel = OTHER if who.channel == OTHER else ("gamma" if spec.game == "none" else GAME)
        out = await dispatch(bench.app, bench.ctx(who.name, channel, n), spec.name, options)
        if spec.game == "none":
            expected = f"Only the moderators (members with Manage Server) can use /{spec.name}."
        elif spec.game == "named":  # the game its option names, wherever it is run (/game move)
            expected = (f"Only the moderators of {options['game']} can use /{spec.name}." if who.name != "amod" else
                        f"This channel is already the game channel of {OTHER}; run /{spec.name} in a channel that "
                        "has no game. Nothing was changed.")  # alpha's moderator, in beta's channel
        else:
            if channel not in bench.views:
                bench.views[channel] = await bench.app.clerk.games.game_in_channel(bench.channel_id(channel))
            # a command of another ruleset is refused before its moderators are asked about
            expected = (ruleset_refusal(bench.app, spec, bench.views[channel])
                        or f"Only the moderators of {channel} can use /{spec.name}.")
        if [(o.to, o.ephemeral, o.text) for o in out] != [(Here(), True, expected)]:
            wrong.append(f"/{spec.name} by {who.label}: {[o.text for o in out]}, not {expected!r}")
    return wrong


@pytest.mark.parametrize("ruleset", RULESETS)
async def test_no_refused_moderator_command_changes_either_game(bench_for: Any, ruleset: str) -> None:
    """Every moderator command of the ruleset, one after another on one game, by everyone who may not: the full
    exports of the game and of the other game, and the events table, are as they were."""
    bench: Bench = await bench_for(ruleset)
    before = await bench.events(), await bench.exports()
    wrong: list[str] = []
    for _, spec in sorted(COMMANDS.items()):
        if spec.moderator and ruleset in rulesets_of(spec):
            wrong += await refusals(bench, spec, parse_slash(generic_line(spec), bench.world.user,
                                                              bench.world.role).options)
    assert not wrong, "\n".join(wrong)
    unchanged = (await bench.events(), await bench.exports()) == before
    assert unchanged, "refused commands changed the events table or an export"


@pytest.mark.parametrize(("ruleset", "name"), CASES)
async def test_a_moderator_command_is_refused_to_others_and_done_for_the_moderator(
        bench_for: Any, ruleset: str, name: str) -> None:
    """The positive control: in the state the command acts on (``PRELUDES``, where it is refused to everyone else
    too), the game's moderator runs it and it is done (an event is recorded, in this game only), unless it only
    shows something."""
    spec = COMMANDS[name]
    bench: Bench = await bench_for(ruleset)
    by = BY_RULESET.get((ruleset, name))
    prelude = by[0] if by is not None else PRELUDES.get(f"{ruleset}:{name}", PRELUDES.get(name))
    await run_lines(bench.session, prelude or [])
    line = generic_line(spec) if by is None else f"/{name} {by[1]}"
    options = parse_slash(line, bench.world.user, bench.world.role).options
    events = await bench.events()
    if by is None and prelude is not None:  # not the setup's state: refused there too, nothing recorded
        wrong = await refusals(bench, spec, options)
        assert not wrong, "\n".join(wrong)
        assert await bench.events() == events, f"{line} was refused, yet an event was recorded"

    moderator = "mod" if spec.game == "none" else "amod"  # /game new: members with Manage Server
    out = await dispatch(bench.app, bench.ctx(moderator, "gamma" if spec.game in ("none", "named") else GAME, 99),
                         name, options)  # /game move: to a channel with no game
    texts = " ".join(o.text + (o.card.as_text() if o.card else "") for o in out)
    assert not any(o.text.startswith("Only the moderators") and f"can use /{name}" in o.text for o in out), texts
    after = await bench.events()
    assert after[2] == events[2], f"{line} by {GAME}'s moderator changed {OTHER}"
    if (ruleset, name) in SET_UP_ONLY:
        assert "not being set up any more" in texts and after == events, texts
        return
    if f"{ruleset}:{name}" in NOT_THERE:
        assert texts == NOT_THERE[f"{ruleset}:{name}"] and after == events, texts
    elif f"{ruleset}:{name}" in NO_PAST:
        assert NO_PAST[f"{ruleset}:{name}"] in texts and after == events, texts
    elif name in READ_ONLY:
        assert after == events, f"{line} only shows something, yet the moderator's run recorded an event: {texts}"
    else:
        assert after[0] > events[0], f"{line} by the moderator recorded nothing; it said: {texts}"


async def test_the_moderator_of_one_game_cannot_reach_into_another(bench_for: Any) -> None:
    """From alpha's channel (and from a DM), alpha's moderator names beta with the ``game`` option of every command
    that has one, and aims every moderator command with a player option at beta's player: beta is unchanged."""
    bench: Bench = await bench_for("landsdraad")
    before = (await bench.events())[2], await bench.app.clerk.exports.export(bench.games[OTHER])
    n = 0
    for name, spec in sorted(COMMANDS.items()):
        aimed = spec.moderator and "landsdraad" in rulesets_of(spec) and any(o.kind is UserRef for o in spec.options)
        if spec.option("game") is None and not aimed:
            continue
        options = parse_slash(generic_line(spec), bench.world.user, bench.world.role).options
        options |= {o.name: bench.world.user("bmod") for o in spec.options if o.kind is UserRef}
        if spec.option("game") is not None:
            options["game"] = OTHER
        for channel in (GAME, None) if spec.option("game") is not None else (GAME,):
            n += 1
            await dispatch(bench.app, Ctx(bench.world.actor("amod"), bench.world.place(channel, None), f"reach:{n}",
                                          bench.session.clock.now()), name, options)
            assert (await bench.events())[2] == before[0], f"/{name} {options} by {GAME}'s moderator changed {OTHER}"
    assert n > 20
    assert await bench.app.clerk.exports.export(bench.games[OTHER]) == before[1]
    # the control: beta's own player may vote in beta from a DM, and that is seen as a change
    await dispatch(bench.app, Ctx(bench.world.actor("bmod"), bench.world.place(None, None), "reach:control",
                                  bench.session.clock.now()), "vote", {"choice": "aye", "game": OTHER})
    assert (await bench.events())[2] == before[0] + 1
