"""docs/backup.md end to end: ``python -m bot backup`` while the real bot runs on the fake Discord, more ballots
and a close after it, ``python -m bot restore`` (refused while the bot runs), and the bot started again on the
restored database tells the game's channel and the player whose ballot was undone (once, not again at the next
start), answers ``/game export`` with exactly the bytes it answered at the moment of the backup, and posts the result
of the round closed again as a new card (play-test V2.2)."""

from __future__ import annotations

import asyncio
import json
import os
from pathlib import Path

import pytest
from alembic.script import ScriptDirectory
from fakediscord import Channel, Sent
from sqlalchemy.engine import make_url

from bot.__main__ import main
from engine.service import Clerk
from engine.service.clock import RandomDice
from engine.store.database import make_engine, make_sessionmaker
from engine.store.migrate import alembic_config, upgrade

from .clerkbot import Harness


async def new_game(h: Harness) -> int:
    """sirius with alice and bob and round 1 open, made through the service: what `/round open` adds (its
    Forecast chart, slow to draw) is not what this test is about. Its id."""
    game = await h.clerk.games.create_game(guild_id=h.fake.guild_id, channel_id=h.game.id, name="sirius",
                                           ruleset="landsdraad", moderator_role_id=None, actor=h.mod.id)
    for user, roll in ((h.alice, 3), (h.bob, 1)):
        await h.clerk.landsdraad.ledger.add_player(game.id, user_id=user.id, name=user.name, diplomacy=3,
                                                   command=2, intrigue=2, roll=roll, faction=None, actor=h.mod.id)
    await h.clerk.landsdraad.rounds.open_round(game.id, crisis="Raise the fleet levy?", deadline=None, actor=h.mod.id)
    return game.id


async def export(h: Harness) -> bytes:
    """The JSON file the moderator's ``/game export`` sends."""
    answer = await h.run(h.mod, "game export", h.game)
    [(name, data)] = answer.first.files
    assert name == "sirius.json"
    return bytes(data)


async def test_a_backup_taken_while_the_bot_runs_restores_to_the_same_game_export(
        sqlite_bot: Harness, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    h = sqlite_bot
    database = Path(str(make_url(h.url).database))
    monkeypatch.setenv("DATABASE_URL", h.url)
    monkeypatch.setenv("CLERK_CONFIG", os.devnull)  # no settings (not a developer's config.toml)
    (tmp_path / "backups").mkdir()
    backup = str(tmp_path / "backups" / "clerk.db")
    game_id = await new_game(h)
    await h.fake.reply_to(await h.fake.dm(h.alice, "Vote: Aye"))
    await h.fake.reply_to(await h.fake.dm(h.bob, "Vote: Nay, 3"))

    # in a thread, so the bot's event loop runs on during the backup, as it would in its own process
    assert await asyncio.to_thread(main, ["backup", backup]) == 0
    at_backup = await export(h)
    await h.fake.reply_to(await h.fake.dm(h.alice, "Revote: Nay"))  # acknowledged after the backup
    await h.run(h.mod, "round close", h.game)  # and a close after it, its card posted
    live = await export(h)
    refused = main(["restore", backup])
    await h.stop()
    assert main(["restore", backup]) == 0
    await upgrade(engine := make_engine(h.url))  # what `python -m bot run` does at start
    await engine.dispose()
    await h.start()

    def told(messages: list[Sent]) -> list[Sent]:
        return [m for m in messages if "restored from a backup" in m.content]
    # the restore's notices (play-test V2.1's "Left"), owed in the restored database and sent at this start
    [post] = await h.fake.wait_for(lambda: told(h.fake.messages(h.game)), "the restore's post in #sirius")
    [dm] = await h.fake.wait_for(lambda: told(h.fake.dms(h.alice)), "the restore's DM to alice")
    restored = await export(h)
    # Closed again at once, well within the few minutes Discord keeps a nonce (the fake: the whole test): the card
    # of this close is a new message, not the first close's returned by Discord for a repeated nonce (play-test V2.2)
    again = await h.run(h.mod, "round close", h.game)

    assert restored == at_backup  # byte for byte: nothing in the export depends on when or where it was made
    assert restored != live
    ballots = [e["payload"]["option"] for e in json.loads(restored)["events"] if e["kind"] == "BallotCast"]
    assert ballots == ["aye", "nay"]
    [first], [second] = json.loads(live)["rounds"], json.loads(await export(h))["rounds"]
    assert (first["result"]["outcome"], second["result"]["outcome"]) == ("failed", "passed")
    assert again.first.content == "Round 1 closed: passed. The result is posted."
    cards = [s.embed["title"] for s in h.fake.messages(h.game) if s.embeds and "the measure" in s.embed["title"]]
    assert cards == ["sirius, round 1: the measure FAILED", "sirius, round 1: the measure PASSED"], cards
    # each close's card has a nonce of its own: its marker with the close's token (docs/reliability.md)
    tokens = [r["result"]["post_token"] for r in (first, second)]
    assert sorted(n for c, n in h.fake.nonces if c == h.game.id and n.startswith("round:")) == sorted(
        f"round:{game_id}:1.{token}" for token in tokens)
    printed = capsys.readouterr()
    HEAD = ScriptDirectory.from_config(alembic_config()).get_current_head()
    assert refused == 1
    assert printed.err == (f"clerk: restore failed, the database was not changed: {database} is in use (is the bot "
                           "running?); stop the bot, then restore\n")
    [kept] = database.parent.glob("clerk.db.before-restore-*")
    lines = printed.out.splitlines()
    lines = lines[next(n for n, line in enumerate(lines) if line.startswith("clerk: restored ")):]
    if len(lines) == 5:  # a receipt owed when the backup was taken went to Discord just after: marked so, not resent
        assert lines.pop(1) == ("clerk: 1 message the backup still owed went to Discord after it was taken: marked as "
                                "the old database has it, so the bot does not send it again.")
    restored_line, undid, sirius, tell = lines
    assert restored_line == (
        f"clerk: restored {backup} to {database}: {database.stat().st_size} bytes, 1 game, "
        f"{len(json.loads(restored)['events'])} events (schema revision {HEAD}, integrity ok); the old database is "
        f"kept as {kept}. Start the bot.")
    # alice's revote, acknowledged after the backup, is named as undone (play-test V2.1)
    assert undid == f"clerk: the restore undid what the old database (kept as {kept}) recorded after the backup:"
    assert sirius.startswith("  sirius: 4 events from ")  # the close named with what it undid (V2.1)
    assert sirius.endswith(" UTC (BallotCast 1, RoundClosed 1, ResultPending 1, ResultPosted 1); players who acted: "
                           "alice")
    assert tell.startswith("clerk: those ballots and commands were acknowledged but are not in the restored database")
    assert ("At its next start it tells them: a post in the channel of sirius says what was undone, and a DM to each "
            "player whose own ballots or forms are undone there says what to send again (2 messages owed; ") in tell
    # the channel: what is undone, counted, and who must vote again (public: /round status shows who has voted), never
    # how anyone voted; the DM: alice's own revote, and the form to send it again
    assert post.content.startswith("⚠️ **sirius: my records were restored from a backup**: they are as they were on "
                                   "<t:")
    assert post.content.endswith(
        "and what was recorded in this game after that is undone, though I acknowledged it.\n"
        "Undone: 1 crisis ballot.\n"
        "Undone too: the result of round 1 (a card posted after that no longer stands; the result I post when the vote "
        "closes again does).\n"
        "**alice**: what you sent after that is undone; I am DMing you what it was, to send again.\n"
        "Moderators: your commands after that are undone too; check where the game stands before going on.")
    assert "Aye" not in post.content and "Nay" not in post.content
    assert "- your crisis ballot in round 1: **Nay** (sent <t:" in dm.content
    assert dm.content.endswith(") → DM me `Vote: Nay` (or use /vote)\n"
                               "If you play in more than one game, end a DM form with `#sirius`.")
    assert not told(h.fake.dms(h.bob))  # bob sent nothing after the backup
    nonces = sorted(n for _, n in h.fake.nonces if n.startswith("undo:"))
    assert len(nonces) == 2 and len({n.rsplit(":", 1)[0] for n in nonces}) == 1  # this restore's own
    # a second start sends them no second time (they were marked sent), and Discord was not asked again
    repeats = h.fake.nonce_repeats
    await h.restart()
    await h.settle()
    assert len(told(h.fake.messages(h.game))) == 1 and len(told(h.fake.dms(h.alice))) == 1
    assert sorted(n for _, n in h.fake.nonces if n.startswith("undo:")) == nonces
    assert h.fake.nonce_repeats == repeats


async def test_a_card_posted_after_the_backup_of_a_close_it_holds_is_not_posted_again_after_the_restore(
        sqlite_bot: Harness, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """Round 1 closes and the bot stops before its card is posted (the close's ``ResultPending`` committed, nothing
    owed yet: a kill); the backup is taken then, and the next start posts the card and, before it, the moderators'
    warning of the ballots its totals give away (the recovery), and records them posted. Restored minutes later, past
    the few minutes in which Discord drops a repeated nonce, the backup still held the result as pending: the bot
    posted both a second time at its first start. The restore records them posted as the old database did, so each
    is posted once, and nothing is said to be undone."""
    h = sqlite_bot
    monkeypatch.setenv("DATABASE_URL", h.url)
    monkeypatch.setenv("CLERK_CONFIG", os.devnull)  # no settings (not a developer's config.toml)
    backup = str(tmp_path / "clerk-backup.db")
    game_id = await new_game(h)
    await h.fake.reply_to(await h.fake.dm(h.alice, "Vote: Aye"))
    await h.stop()
    engine = make_engine(h.url)  # the close as a bot killed after its commit leaves it: its card not owed yet
    try:
        await Clerk(make_sessionmaker(engine), h.clock, RandomDice(7)).landsdraad.rounds.close_round(game_id,
                                                                                                     actor=h.mod.id)
    finally:
        await engine.dispose()
    assert main(["backup", backup]) == 0

    def cards() -> list[Sent]:
        return [s for s in h.fake.messages(h.game) if s.embeds and "the measure" in s.embed["title"]]

    def warnings() -> list[Sent]:
        return [s for s in h.fake.sent if s.kind == "message" and "the totals of round 1 of sirius" in s.content]
    await h.start()  # the recovery posts the card and records it posted
    # each in its own lane: on a loaded machine the card may come first
    await h.fake.wait_for(lambda: cards() and warnings(), "round 1's card and the moderators' warning")
    await h.settle()
    assert len(cards()) == 1 and len(warnings()) == 1
    await h.stop()
    assert main(["restore", backup]) == 0
    h.fake.nonces.clear()  # minutes later: Discord no longer knows the card's nonce
    await h.start()
    await h.settle()

    assert [s.embed["title"] for s in cards()] == ["sirius, round 1: the measure PASSED"]
    assert len(warnings()) == 1
    assert not [m for m in h.fake.messages(h.game) if "restored from a backup" in m.content]
    lines = capsys.readouterr().out.splitlines()
    assert ("clerk: 2 messages the backup still owed went to Discord after it was taken: marked as the old database "
            "has them, so the bot does not send them again.") in lines
    assert lines[-1] == "clerk: the old database recorded nothing after the backup: nothing was undone."


async def test_a_kept_message_posted_again_after_the_backup_is_the_one_edited_after_the_restore(
        sqlite_bot: Harness, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The set-up summary, one message edited in place, posted again at the foot of the channel by ``/game announce``
    after the backup (the first one edited to point to it). Restored as the backup had it, the bot edited the first
    one back into a summary at the next addition and left the newer one as it was: two summaries, one stale. The
    restore keeps where the old database had it: the newer one is edited."""
    h = sqlite_bot
    monkeypatch.setenv("DATABASE_URL", h.url)
    monkeypatch.setenv("CLERK_CONFIG", os.devnull)  # no settings (not a developer's config.toml)
    backup = str(tmp_path / "clerk-backup.db")
    await h.run(h.mod, "game new", h.game, ruleset="landsdraad", name="sirius")
    await h.run(h.mod, "player add", h.game, user=h.alice, diplomacy=4, command=2, intrigue=2, roll=3)
    assert main(["backup", backup]) == 0
    await h.run(h.mod, "game announce", h.game)
    await h.stop()
    assert main(["restore", backup]) == 0
    await h.start()
    await h.run(h.mod, "player add", h.game, user=h.carol, diplomacy=2, command=3, intrigue=1, roll=1)
    await h.settle()

    summaries = [p for p in h.fake.messages(h.game) if p.embeds and "being set up" in p.embed["title"]]
    assert len(summaries) == 1 and "carol" in summaries[0].text()
    assert h.fake.messages(h.game)[0].content.startswith("The set-up summary was posted again")


def lost_reports(h: Harness) -> list[Sent]:
    """The moderators' reports that a game channel was deleted (bot/discord/lost_channels.py), by DM to the creator."""
    return [m for m in h.fake.dms(h.mod) if "its game channel" in m.content and "was deleted" in m.content]


async def test_a_game_moved_after_the_backup_stays_in_the_channel_its_players_use_now_after_the_restore(
        sqlite_bot: Harness, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """#sirius is deleted after the backup and the game moved to #sirius-again (``/game move``); alice revotes there.
    Restored as the backup had it, the game was back in the deleted channel: the restore's post about what it undid
    was held there and the moderators told a second time that the channel was deleted, and the next announcement
    too. The move is a fact of Discord, like a message posted: the restore keeps it (its ``GameMoved`` the restored
    ledger's next event, so the export agrees with the games row), and its post goes to the channel the players use."""
    h = sqlite_bot
    monkeypatch.setenv("DATABASE_URL", h.url)
    monkeypatch.setenv("CLERK_CONFIG", os.devnull)  # no settings (not a developer's config.toml)
    backup = str(tmp_path / "clerk-backup.db")
    game_id = await new_game(h)
    await h.fake.reply_to(await h.fake.dm(h.alice, "Vote: Aye"))
    assert await asyncio.to_thread(main, ["backup", backup]) == 0
    await h.fake.delete_channel(h.game)
    await h.fake.wait_for(lambda: lost_reports(h), "the moderators told #sirius was deleted")
    new = h.fake.add_channel("sirius-again")
    await h.run(h.mod, "game move", new, game="sirius")
    await h.fake.reply_to(await h.fake.dm(h.alice, "Revote: Nay"))  # undone by the restore
    await h.settle()
    moved = [e for e in json.loads(await export_in(h, new))["events"] if e["kind"] == "GameMoved"]
    await h.stop()
    assert main(["restore", backup]) == 0
    await h.start()

    def told(messages: list[Sent]) -> list[Sent]:
        return [m for m in messages if "restored from a backup" in m.content]
    [post] = await h.fake.wait_for(lambda: told(h.fake.messages(new)), "the restore's post in #sirius-again")
    await h.fake.wait_for(lambda: told(h.fake.dms(h.alice)), "the restore's DM to alice")
    await h.settle()

    assert (await h.clerk.games.game(game_id)).channel_id == new.id
    events = json.loads(await export_in(h, new))["events"]
    assert events[-1]["kind"] == "GameMoved" and [e for e in events if e["kind"] == "GameMoved"] == moved
    assert [e["seq"] for e in events] == list(range(1, len(events) + 1))
    assert "Moderators: your commands after that are undone too" not in post.content  # the move is not undone
    assert len(lost_reports(h)) == 1  # not told again that #sirius was deleted
    assert await h.clerk.outbox.held_count(h.game.id) == 0
    await h.run(h.mod, "round close", new)  # the game's commands and announcements are in #sirius-again
    await h.settle()
    assert [s for s in h.fake.messages(new) if s.embeds and "the measure" in s.embed["title"]]
    lines = capsys.readouterr().out.splitlines()
    assert "GameMoved" not in "\n".join(lines)  # not undone
    [sirius] = [line for line in lines if line.startswith("  sirius: ")]
    assert sirius.endswith(" UTC (BallotCast 1); players who acted: alice"), sirius
    assert (f"clerk: sirius was moved from channel {h.game.id} to channel {new.id} after the backup (/game move): the "
            "restored database keeps the move (recorded as it was), as its players are there now: the bot posts for it "
            "there.") in lines


async def export_in(h: Harness, channel: Channel) -> bytes:
    answer = await h.run(h.mod, "game export", channel)
    [(_, data)] = answer.first.files
    return bytes(data)
