"""A game that has ended is closed (issue 16): every command of the table that is not a reading one is refused in an
ended game of each ruleset (the three shipped ones and the test ruleset, tests/council) with the closed line, and
nothing in the database changes; the event append refuses what comes another way (a DM, a service call); a DM goes
to the sender's running game; ``/game reopen`` and the corrected end. Runs on SQLite, and on PostgreSQL when
TEST_POSTGRES_URL is set."""

from __future__ import annotations

import re
from itertools import count
from typing import Any

import pytest
from council import FRONT as COUNCIL_FRONT
from council import RULESET as COUNCIL_RULESET
from ledger_front import MODERATOR, actor, public, text_of, user
from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncEngine

from bot.actions.commands import App, Command, Role, dispatch
from bot.actions.context import Ctx, Place, UserRef
from bot.actions.messages import handle_dm
from bot.actions.outbox import Here, Outgoing, ToChannel
from bot.actions.rulesets import FRONTS, routes_of
from engine.core.errors import GameClosed
from engine.landsdraad.ballot import parse_ballot
from engine.service import Clerk
from engine.service.clerk import RULESETS
from engine.store.database import make_sessionmaker
from engine.store.models import Base

GUILD = 900
CHANNELS = {"landsdraad": 901, "mylantium": 902, "convocate": 903, "council": 904}
ALICE = actor(21, "alice")
_ids = count(1)

READING = {
    "game export", "game list", "game settings", "log", "help", "why", "verify",
    "ag status", "embargo list", "forecast", "goal list", "kanly list", "me", "prestige list",
    "pv list", "round status", "score", "transfer list", "vp holdings", "vp show",
    "amendment check", "election status", "event list", "faction me", "revolution status", "status",
    "board", "convocate rulings", "motion status",
}
"""The commands that only read a game (``Command.reads``): they still answer once it has ended. ``game settings``
and ``convocate rulings`` read when given no options. ``audit quote`` is not one: after the end no audit can be
called, so the quote is refused with the closed line before it is worked out (play-test W7)."""
CLOSING = {"game end", "game reopen", "game move"}
"""The commands that end, reopen or move a game: they run in an ended game (tested below; the move in
tests/service/test_game_move.py)."""
BOOKKEEPING = {"owed_messages", "posted_messages", "pending_dms", "leases", "closed_dms", "game_marks", "dm_channels",
               "processes"}
"""Tables of delivery (and the running processes), not of any game's ledger."""
CLOSED = re.compile(r"^\S+ ended on \d{4}-\d\d-\d\d \d\d:\d\d UTC; its ledger is closed\. A moderator's /game export "
                    r"has everything\.$")


@pytest.fixture
def app(db_engine: AsyncEngine, clock: Any, dice: Any) -> App:
    clerk = Clerk(make_sessionmaker(db_engine), clock, dice, rulesets=(*RULESETS, COUNCIL_RULESET))
    return App(clerk, fronts=(*FRONTS, COUNCIL_FRONT))


async def run(app: App, who: Any, command: str, channel: int | None, /, **options: Any) -> list[Outgoing]:
    place = Place(GUILD, channel) if channel is not None else Place(None, None)
    return await dispatch(app, Ctx(who, place, f"slash-{next(_ids)}", app.clerk.clock.now()), command, options)


async def dm(app: App, who: Any, text: str) -> list[Outgoing]:
    return await handle_dm(app, Ctx(who, Place(None, None), f"dm-{next(_ids)}", app.clerk.clock.now()), text)


async def ledger(engine: AsyncEngine) -> dict[str, list[tuple[Any, ...]]]:
    """Every row of every table but the delivery bookkeeping."""
    async with make_sessionmaker(engine)() as session:
        return {t.name: sorted(tuple(map(str, r)) for r in (await session.execute(select(t))).all())
                for t in Base.metadata.sorted_tables if t.name not in BOOKKEEPING}


def dummy(option: Any) -> Any:
    if option.choices:
        return option.choices[0]
    if option.kind is UserRef:
        return UserRef(ALICE.id, "alice")
    if option.kind is Role:
        return Role(77)
    if option.kind is bool:
        return True
    if option.kind is int:
        return max(1, option.min_value or 1)
    return "x"


async def ended_game(app: App, ruleset: str) -> int:
    """A game of ``ruleset`` with alice in it (where the ruleset has a command for that), ended."""
    channel = CHANNELS[ruleset]
    await run(app, MODERATOR, "game new", channel, ruleset=ruleset, name=f"g{ruleset}")
    if ruleset == "landsdraad":
        await run(app, MODERATOR, "player add", channel, user=user(ALICE.id, "alice"), diplomacy=3, command=3,
                  intrigue=3, roll=1)
        out = await run(app, MODERATOR, "game end", channel)
    else:
        if ruleset == "convocate":
            await run(app, MODERATOR, "convocate player", channel, user=user(ALICE.id, "alice"), sovereignty="Union")
        out = await run(app, MODERATOR, "game close", channel, reason="the table has finished")
    assert any(isinstance(o.to, ToChannel) for o in out), [text_of(o) for o in out]
    game = await app.clerk.games.game_in_channel(channel)
    assert game is not None and game.ended
    return channel


def test_the_reading_commands_are_the_ones_listed() -> None:
    """A command is refused in an ended game unless it says it only reads: the list here is the table's."""
    commands = routes_of((*FRONTS, COUNCIL_FRONT)).commands
    assert {n for n, c in commands.items() if c.reads} == READING
    assert {n for n, c in commands.items() if c.closing} == CLOSING


@pytest.mark.parametrize("ruleset", ["landsdraad", "mylantium", "convocate", "council"])
async def test_every_command_that_would_change_an_ended_game_is_refused(app: App, db_engine: AsyncEngine,
                                                                        ruleset: str) -> None:
    channel = await ended_game(app, ruleset)
    before = await ledger(db_engine)
    commands: dict[str, Command] = app.routes.commands
    walked = 0
    for name, spec in sorted(commands.items()):
        if spec.game == "none" or name in CLOSING or spec.reads:
            continue
        if spec.ruleset not in (None, ruleset):
            continue  # refused as another ruleset's command (ruleset_refusal), tested elsewhere
        options = {o.name: dummy(o) for o in spec.options if o.required}
        for who in (MODERATOR, ALICE):
            out = await run(app, who, name, channel, **options)
            assert len(out) == 1 and isinstance(out[0].to, Here), (name, [text_of(o) for o in out])
            if who is MODERATOR or not spec.moderator:
                assert CLOSED.match(text_of(out[0])), (name, text_of(out[0]))
        walked += 1
    assert walked >= {"landsdraad": 42, "mylantium": 30, "convocate": 15, "council": 5}[ruleset], walked
    for name in sorted(READING):
        spec = commands[name]
        if spec.ruleset not in (None, ruleset):
            continue
        options = {o.name: dummy(o) for o in spec.options if o.required}
        out = await run(app, MODERATOR, name, channel, **options)
        assert not any(CLOSED.match(text_of(o)) for o in out), (name, [text_of(o) for o in out])
    assert await ledger(db_engine) == before


async def test_the_event_append_refuses_a_change_that_does_not_come_through_dispatch(app: App,
                                                                                     db_engine: AsyncEngine) -> None:
    """The choke point under the commands: a service call on an ended game (what a DM, a press or a menu choice
    reaches) raises GameClosed, and nothing is recorded."""
    channel = await ended_game(app, "landsdraad")
    game = await app.clerk.games.game_in_channel(channel)
    assert game is not None
    before = await ledger(db_engine)
    with pytest.raises(GameClosed, match="its ledger is closed"):
        await app.clerk.landsdraad.ledger.add_player(game.id, user_id=25, name="erin", diplomacy=3, command=3,
                                                     intrigue=3, roll=1, faction=None, actor=MODERATOR.id)
    with pytest.raises(GameClosed):
        await app.clerk.settings.change_setting(game.id, name="end_game_penalty", value="10", actor=1)
    with pytest.raises(GameClosed):
        await app.clerk.landsdraad.ballots.cast_ballot(game.id, user_id=ALICE.id, command=parse_ballot("Vote: Aye"),
                                                       received_at=app.clerk.clock.now(), source_id="dm-x")
    (answer,) = await dm(app, ALICE, "Vote: Aye")
    assert "gl" in answer.text and "its ledger is closed" in answer.text
    # a transfer's Apply button, the round's perks: the same closed line (play-test W7), not a wording of their own
    with pytest.raises(GameClosed, match=CLOSED.pattern):
        await app.clerk.landsdraad.transfer_moves.apply_transfer(game.id, entry_id=1, actor=MODERATOR.id)
    with pytest.raises(GameClosed, match=CLOSED.pattern):
        await app.clerk.landsdraad.perks.auctions_closed(game.id, actor=MODERATOR.id)
    with pytest.raises(GameClosed, match=CLOSED.pattern):
        await app.clerk.landsdraad.victory.set_tracked(game.id, user_id=ALICE.id, values={"income": 5},
                                                       actor=MODERATOR.id)
    assert await ledger(db_engine) == before


@pytest.mark.parametrize("ruleset", ["landsdraad", "mylantium", "convocate"])
async def test_every_dm_form_of_an_ended_game_gets_the_closed_line(app: App, db_engine: AsyncEngine,
                                                                   ruleset: str) -> None:
    """Each DM form ``help`` lists, sent by a player of an ended game, is answered with the one closed line, as a
    command is: not "<game> has ended." (Landsdraad's ``Elector:`` and ``Transfer:`` said that, play-test W7), and
    not a quote worked out for an audit that can no longer be called (``Audit quote:``)."""
    await ended_game(app, ruleset)
    if ruleset == "mylantium":  # a player of the game: alice leads a Faction
        channel = CHANNELS[ruleset]
        await run(app, MODERATOR, "game reopen", channel)
        await run(app, MODERATOR, "faction register", channel, faction="Plutocrats", user=user(ALICE.id, "alice"),
                  party="Whig")
        await run(app, MODERATOR, "game close", channel)
    before = await ledger(db_engine)
    front = app.front(ruleset)
    assert front is not None
    forms = [example for example, _ in front.dm_help]
    assert forms, ruleset
    for form in forms:
        answers = await dm(app, ALICE, form)
        assert answers and CLOSED.match(answers[0].text.splitlines()[0]), (form, [text_of(o) for o in answers])
    assert await ledger(db_engine) == before


async def test_a_dm_goes_to_the_running_game_not_the_ended_one(app: App) -> None:
    """alice plays in an ended game and a running one: her DM ballot counts in the running one, with no menu."""
    await ended_game(app, "landsdraad")
    await run(app, MODERATOR, "game new", 905, ruleset="landsdraad", name="vega")
    await run(app, MODERATOR, "player add", 905, user=user(ALICE.id, "alice"), diplomacy=3, command=3, intrigue=3,
              roll=1)
    await run(app, MODERATOR, "round open", 905, crisis="Piracy")
    (answer,) = await dm(app, ALICE, "Vote: Aye")
    assert answer.select is None and "vega" in answer.text and "Aye" in answer.text, answer.text


async def test_reopen_is_recorded_and_announced_and_the_end_again_posts_a_correction(app: App) -> None:
    channel = await ended_game(app, "landsdraad")
    refused = await run(app, MODERATOR, "player add", channel, user=user(25, "erin"), diplomacy=3, command=3,
                        intrigue=3, roll=1)
    assert CLOSED.match(text_of(refused[0]))
    assert "only the moderators" in text_of((await run(app, ALICE, "game reopen", channel))[0]).lower()
    out = await run(app, MODERATOR, "game reopen", channel, reason="erin joined before the end")
    posted = [text_of(o) for o in out if isinstance(o.to, ToChannel)]
    assert posted == [f"**glandsdraad** was reopened by <@{MODERATOR.id}> to correct a mistake (erin joined before "
                      "the end). It had ended on 2026-03-01 18:00 UTC; the moderators end it again with /game end "
                      "once it is corrected."]
    again = await run(app, MODERATOR, "game reopen", channel)
    assert "has not ended" in text_of(again[0])
    close = await run(app, MODERATOR, "game close", channel)
    assert text_of(close[0]) == "Landsdraad games end with /game end; nothing was changed."
    added = await run(app, MODERATOR, "player add", channel, user=user(25, "erin"), diplomacy=3, command=3,
                      intrigue=3, roll=1)
    assert "erin" in text_of(added[0])
    out = await run(app, MODERATOR, "game end", channel)
    correction = [text_of(o) for o in public(out) if o.text and o.text.startswith("**Correction")]
    assert len(correction) == 1
    assert "the Pot: 1200 → 1400 VP" in correction[0] and "erin: new" in correction[0], correction[0]
    assert "- alice: 240 → 119 VP\n" in correction[0] and "erin: new, 119 VP, 1st, no title" in correction[0]
    game = await app.clerk.games.game_in_channel(channel)
    assert game is not None and game.ended
    log = await app.clerk.games.event_log(game.id)
    kinds = [e.kind for e in log.entries]
    assert kinds[:4] == ["GameEnded", "PlayerAdded", "GameReopened", "GameEnded"]
    assert log.entries[2].payload["reason"] == "erin joined before the end"


async def test_a_closed_mylantium_or_convocate_game_ends_again_with_game_close(app: App) -> None:
    channel = await ended_game(app, "convocate")
    await run(app, MODERATOR, "game reopen", channel)
    await run(app, MODERATOR, "convocate player", channel, user=user(22, "bob"), sovereignty="Kingdom")
    out = await run(app, MODERATOR, "game close", channel)
    post, board = [text_of(o) for o in out if isinstance(o.to, ToChannel)]
    assert post.startswith("**Correction: gconvocate** has ended again") and "reopened: " in post, post
    assert board.startswith("The board of **gconvocate** as it ended:"), board


@pytest.mark.parametrize("ruleset", ["convocate", "mylantium"])
async def test_a_game_closed_by_the_moderators_posts_how_it_ended(app: App, ruleset: str) -> None:
    """The Convocate's politics name no end, so a closed game's result is its public board (who holds political
    control, the Statutes in force, the Factors, a Motion left on the floor); a Mylantium game the moderators close
    shows its government page (VP, approval, Fervor), as a victory or Social Collapse posts theirs (play-test X4.1)."""
    channel = CHANNELS[ruleset]
    await run(app, MODERATOR, "game new", channel, ruleset=ruleset, name="gx")
    if ruleset == "convocate":
        await run(app, MODERATOR, "convocate player", channel, user=user(ALICE.id, "alice"), sovereignty="Union")
        await run(app, MODERATOR, "card add", channel, kind="homeworld", name="Union Prime",
                  controller=user(ALICE.id, "alice"))
    out = await run(app, MODERATOR, "game close", channel, reason="the table has finished")
    closing, final = [o for o in out if isinstance(o.to, ToChannel)]
    assert text_of(closing).startswith("**gx** has ended (the table has finished)")
    assert final.card is not None and final.file is not None
    if ruleset == "convocate":
        assert final.text == "The board of **gx** as it ended:", final.text
        assert "alice (Union): **1**" in final.card.as_text() and "alice (1)" in final.card.as_text()
    else:
        assert final.text == "The government of **gx** as it ended:", final.text
        assert "the game has ended" in final.card.as_text(), final.card.as_text()


async def test_a_motion_sent_by_dm_for_an_ended_convocate_game_gets_the_closed_line(app: App) -> None:
    """``Motion: …`` by DM is pointed to the game channel, but not to one whose game has ended, where it would be
    refused (play-test X4.2): with no running Convocate game it gets the closed line; with one, only that one."""
    await ended_game(app, "convocate")
    (answer,) = await dm(app, ALICE, "Motion: Late Motion by Dorn")
    assert CLOSED.match(answer.text.splitlines()[0]), answer.text
    await run(app, MODERATOR, "game new", 906, ruleset="convocate", name="later")
    await run(app, MODERATOR, "convocate player", 906, user=user(ALICE.id, "alice"), sovereignty="Union")
    (answer,) = await dm(app, ALICE, "Motion: Late Motion by Dorn")
    assert "<#906>" in answer.text and f"<#{CHANNELS['convocate']}>" not in answer.text, answer.text


def test_only_the_unit_of_work_numbers_events() -> None:
    """Every event takes its number from ``games.last_seq`` in ``engine.service.uow.reserve_seqs``, where an ended
    game is refused: no other module may bump it (a new bulk insert of events goes through ``reserve``)."""
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    BUMPS = re.compile(r"\blast_seq\s*[=+]|\.last_seq\b")
    allowed = {"engine/service/uow.py", "engine/store/models/__init__.py"}
    found = {}
    for base in ("engine", "bot", "tests/council"):
        for path in (root / base).rglob("*.py"):
            name = path.relative_to(root).as_posix()
            text = path.read_text(encoding="utf-8")
            uses = [line.strip() for line in text.splitlines() if BUMPS.search(line)]
            uses = [u for u in uses if u != "last_seq=0,"]  # a new game's row starts at 0 (games.create_game)
            if uses and name not in allowed:
                found[name] = uses
    assert not found, found
