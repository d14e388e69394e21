"""``python -m bot backup PATH`` and ``python -m bot restore BACKUP``: the command-line side of
engine/store/backup.py and engine/store/restore.py (docs/backup.md)."""

from __future__ import annotations

import sys
from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path

from bot.settings import Settings
from engine.store.backup import BackupError, BackupReport, backup_sqlite, is_sqlite, pg_dump_advice, sqlite_file
from engine.store.restore import (
    Restored,
    Settled,
    Tell,
    Told,
    Undone,
    delivery_state,
    owes_messages,
    restore_sqlite,
)


def run_backup(settings: Settings, path: str) -> int:
    url = settings.database_url
    if not is_sqlite(url):
        print(f"clerk: {pg_dump_advice(url, path)}", file=sys.stderr)
        return 2
    try:
        report = backup_sqlite(url, path)
    except BackupError as error:
        print(f"clerk: backup failed, nothing was written to {path}: {error}", file=sys.stderr)
        return 1
    print(f"clerk: backed up {sqlite_file(url)} to {report.path}: {_holds(report)}")
    return 0


def run_restore(settings: Settings, path: str) -> int:
    url = settings.database_url
    if not is_sqlite(url):
        print(f"clerk: {pg_dump_advice(url, path, 'restore')}", file=sys.stderr)
        return 2
    try:
        restored = restore_sqlite(url, path, datetime.now(), _teller(settings), _settle)
    except BackupError as error:
        print(f"clerk: restore failed, the database was not changed: {error}", file=sys.stderr)
        return 1
    report, aside, already_sent = restored.report, restored.aside, restored.already_sent
    kept = f"; the old database is kept as {aside}" if aside else ""
    print(f"clerk: restored {path} to {report.path}: {_holds(report)}{kept}. Start the bot.")
    if already_sent:
        many, them = (f"{already_sent} messages", "them") if already_sent != 1 else ("1 message", "it")
        print(f"clerk: {many} the backup still owed went to Discord after it was taken: marked as the old database "
              f"has {them}, so the bot does not send {them} again.")
    for move in restored.moves:
        moved = f"clerk: {move.game} was moved from channel {move.was} to channel {move.channel_id} after the backup"
        if move.kept:
            print(f"{moved} (/game move): the restored database keeps the move (recorded as it was), as its players "
                  "are there now: the bot posts for it there.")
        else:
            print(f"{moved} (/game move), but {move.why}: the restored database has it in channel {move.was}, as the "
                  "backup has it. Run /game move in the channel it should be played in.")
    if restored.unsettled is not None:
        print(f"clerk: could not check what the old database posted after the backup ({restored.unsettled}): at its "
              "next start the bot may post again a result card posted after the backup was taken, and post a kept "
              "message (a running count, a set-up summary) again instead of editing it.")
    if restored.carried:
        many = f"{restored.carried} messages" if restored.carried != 1 else "1 message"
        print(f"clerk: {many} of an earlier restore, which the old database still owed (the bot was not started on "
              "it since), are owed again: the bot sends them at its next start.")
    if aside is not None:
        _undone(aside, restored)
    return 0


def _settle(restored: Path, old: Path) -> Settled:
    """What the old database posted after the backup and tracks outside the outgoing queue, kept in the restored one
    (bot/actions/restore_settle.py), imported only for a restore."""
    from bot.actions.restore_settle import settle_posted

    return settle_posted(restored, old)


def _teller(settings: Settings) -> Tell:
    """What the restore owes in the restored database about what it undid (bot/actions/restore_notices.py): the
    rulesets' fronts, the shipped ones and config.toml's, are imported only when there is something to tell."""
    def tell(restored: Path, undone: Sequence[Undone], as_of: datetime | None) -> Told:
        try:
            if not owes_messages(restored):
                return Told(failed="the backup is older than the bot's outgoing queue (schema revision 0009), so "
                                   "nothing can be left in it for the bot to send")
            from bot.actions.restore_notices import new_token, notices, owed_rows
            from bot.plugins import load_plugins
            from engine.service.owed import owe_in_file

            closed, channels = delivery_state(restored)
            told = notices(undone, as_of, load_plugins(settings.plugins).all_fronts, closed)
            owed = owe_in_file(restored, datetime.now(UTC), owed_rows(told.messages, new_token(), channels))
        except Exception as error:  # the restore is not refused for it: the host is told to tell them instead
            return Told(failed=f"the messages could not be made ({type(error).__name__}: {error})")
        return Told(owed, told.closed)
    return tell


def _undone(aside: Path, restored: Restored) -> None:
    """What the restore undid, game by game (play-test V2.1): ballots and commands acknowledged after the backup are
    not in the restored database; the bot tells the players and the games' channels at its next start, from what the
    restore owed in it."""
    undone = restored.undone
    if undone is None:  # the restore is done; only the comparison failed
        print(f"clerk: could not compare the old database with the backup ({restored.unread}); what was recorded "
              f"after the backup is in {aside}")
        return
    if not undone:
        print("clerk: the old database recorded nothing after the backup: nothing was undone.")
        return
    print(f"clerk: the restore undid what the old database (kept as {aside}) recorded after the backup:")
    for game in undone:
        print(f"  {game.line()}")
    told = restored.told or Told(failed="nothing was asked to tell them")
    if told.failed is not None:
        print("clerk: those ballots and commands were acknowledged but are not in the restored database, and the bot "
              "will not take them again by itself (a DM it answered is not read back); it cannot tell them either: "
              f"{told.failed}. Tell these games' moderators, and the players named, to send them again "
              "(docs/backup.md, \"What a restore undoes\").")
        return
    told_games = [game for game in undone if not game.whole]
    made_after = [game.game for game in undone if game.whole]
    if told_games:
        many = f"{told.messages} messages" if told.messages != 1 else "1 message"
        print("clerk: those ballots and commands were acknowledged but are not in the restored database, and the bot "
              "will not take them again by itself (a DM it answered is not read back). At its next start it tells "
              f"them: a post in the channel of {_games(told_games)} says what was undone, and a DM to each player "
              f"whose own ballots or forms are undone there says what to send again ({many} owed; docs/backup.md, "
              "\"What a restore undoes\").")
    if made_after:
        they = "it" if len(made_after) == 1 else "them"
        print(f"clerk: {_listed(made_after)} {'was' if len(made_after) == 1 else 'were'} made after the backup: the "
              f"restored database has no channel for {they} nor any of {'its' if they == 'it' else 'their'} players, "
              f"so the bot tells nobody there; tell {'its' if they == 'it' else 'their'} moderators and players "
              f"yourself.")
    if told.closed:
        names = ", ".join(told.closed)
        print(f"clerk: the DMs of {names} are closed to the bot, so it does not DM them: their games' channels name "
              "them where that is public; tell them yourself what to send again.")


def _listed(names: Sequence[str]) -> str:
    return ", ".join(names[:-1]) + f" and {names[-1]}" if len(names) > 1 else names[0]


def _games(games: Sequence[Undone]) -> str:
    return (f"{games[0].game}" if len(games) == 1 else f"each of {_listed([g.game for g in games])}")


def _holds(report: BackupReport) -> str:
    games = f"{report.games} game{'s' if report.games != 1 else ''}"
    events = f"{report.events} event{'s' if report.events != 1 else ''}"
    return f"{report.size} bytes, {games}, {events} (schema revision {report.revision}, integrity ok)"
