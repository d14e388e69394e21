"""What the bot tells the players after ``python -m bot restore`` (docs/backup.md, "What a restore undoes"; play-test
V2.1): a restore undoes everything recorded after its backup was taken, ballots the bot had acknowledged included,
and the bot does not take them again by itself. So the restore owes, in the restored database, for the bot to send at
its next start like anything owed (docs/reliability.md):

- a post in the channel of each game the restore undid something in (not a game made after the backup: the
  restored database has no channel for it): the backup's time, what of the players' is undone, counted by its
  ruleset's words, and who must send theirs again, where that is public already; a result posted after it that no
  longer stands; that the moderators' commands are undone too;
- a DM to each player whose own ballots, forms or commands are undone, in a game that still exists: each of them,
  with what it held (their own ballot's choice: in their DM only), and the form to send it again.

Shared code: each ruleset says how its players' events read (``Front.undone``, ``Undoing``) and which closes post a
result (``Front.reopened``); a kind it does not list is nobody's to send again (a moderator's, the bot's own), and a
ruleset that lists nothing gets the channel's post alone. Nothing secret goes to a channel: a kind whose ``counted`` is
None is not spoken of there at all, and names only where ``named`` says who did it is public."""

from __future__ import annotations

import secrets
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime

from bot.actions.admin import split_messages
from bot.actions.front import Front, Undoing
from bot.actions.log_text import sentence
from bot.actions.outbox import Outgoing, ToChannel, ToUser
from bot.actions.wire import encode
from engine.core.stamps import stamp
from engine.service.owed import NOTICE, Owed
from engine.store.restore import NOTICE_NONCE, Record, Undone

NAMES_ROOM = 600
"""The most characters a list of names in a channel's post takes (the rest are counted): the post has two such lists
at most (those DMed, those whose DMs are closed), and Discord's limit is 2,000."""


@dataclass(frozen=True)
class Notices:
    """What a restore tells: the messages, and the players (by name) it would DM whose DMs are closed to the bot."""

    messages: list[Outgoing]
    closed: tuple[str, ...] = ()


def new_token() -> str:
    """This restore's own part of its notices' nonces: six random letters and digits."""
    return secrets.token_hex(3)


def notices(undone: Sequence[Undone], as_of: datetime | None, fronts: Sequence[Front],
            closed: frozenset[int] = frozenset()) -> Notices:
    """The posts and DMs that tell what the restore undid (``undone``, game by game) in the games that still exist;
    ``as_of``: the backup's time (``engine.store.restore.backup_time``); ``closed``: the users whose DMs are closed to
    the bot (told so in the channel, where they are named)."""
    by_name = {front.name: front for front in fronts}
    messages: list[Outgoing] = []
    closed_names: list[str] = []
    for game in undone:
        if game.whole or game.channel_id is None:
            continue  # made after the backup: the restored database has no channel for it, nor any of its players
        told = _Game(game, by_name.get(game.ruleset), as_of, closed)
        messages.append(Outgoing(ToChannel(game.channel_id), told.post()))
        for user_id in told.own:
            messages += told.dms(user_id)
            if user_id in closed:
                closed_names.append(told.name(user_id))
    return Notices(messages, tuple(dict.fromkeys(closed_names)))


def owed_rows(messages: Iterable[Outgoing], token: str, dm_channels: Mapping[int, int]) -> list[Owed]:
    """``messages`` as the outgoing queue's rows (what ``Courier.owe`` would make of them), each with a nonce of this
    restore's own (``NOTICE_NONCE``, ``token``, its number), so Discord does not drop one as the repeat of an earlier
    restore's; a DM names its user's channel when it is known."""
    rows = []
    for n, item in enumerate(messages):
        nonce = f"{NOTICE_NONCE}{token}:{n}"
        if isinstance(item.to, ToChannel):
            rows.append(Owed(f"channel:{item.to.channel_id}", item.to.channel_id, NOTICE, nonce, encode(item)))
        elif isinstance(item.to, ToUser):
            rows.append(Owed(f"user:{item.to.user_id}", dm_channels.get(item.to.user_id), NOTICE, nonce,
                             encode(item)))
    return rows


def _listed(parts: Sequence[str]) -> str:
    return ", ".join(parts[:-1]) + f" and {parts[-1]}" if len(parts) > 1 else parts[0]


def _names(names: Sequence[str]) -> str:
    """``**alice**, **bob** and **carol**``; past ``NAMES_ROOM`` characters, the rest counted."""
    shown = [f"**{n}**" for n in names]
    while len(shown) > 1 and len(", ".join(shown)) > NAMES_ROOM:
        shown.pop()
    rest = len(names) - len(shown)
    return ", ".join(shown) + f" and {rest:,} more players" if rest else _listed(shown)


def _as_of(as_of: datetime | None) -> str:
    """The backup's time, as the notices say it (its newest record: ``backup_time``)."""
    return f"they are as they were on {stamp(as_of)}" if as_of is not None else "they are as they were when it was made"


class _Game:
    """One game's undone records, sorted into the players' own (``own``: user id -> what to send again), the counts
    the channel may give, the results undone and whether the moderators' commands are among them."""

    def __init__(self, game: Undone, front: Front | None, as_of: datetime | None, closed: frozenset[int]) -> None:
        self.game, self.front, self.as_of, self.closed = game, front, as_of, closed
        undoing = front.undone if front is not None else {}
        reopened = front.reopened if front is not None else {}
        own: dict[int, dict[object, tuple[Undoing, Record]]] = {}
        self.results: list[str] = []
        self.moderators = False
        for n, record in enumerate(game.records):
            payload = record.payload
            if record.kind in reopened:
                self.results.append(reopened[record.kind](payload))
            how = undoing.get(record.kind)
            owner = _owner(how, record) if how is not None else None
            if how is not None and owner is not None:
                key = (record.kind, how.same(payload)) if how.same is not None else n
                told = own.setdefault(owner, {})
                told.pop(key, None)  # the latest of the same is told, where it came
                told[key] = (how, record)
            elif record.actor is not None and record.actor not in game.names:
                self.moderators = True  # who is no player of the game and recorded something: a moderator
        self.own = {user: list(items.values()) for user, items in own.items()}
        self.counts: dict[tuple[str, str], int] = {}
        """What the channel counts, in the order the records came."""
        self.named: list[int] = []
        """Who the channel names, in the order they acted."""
        came = {id(record): n for n, record in enumerate(game.records)}
        for user, (how, _) in sorted(((user, item) for user, items in self.own.items() for item in items),
                                     key=lambda told: came[id(told[1][1])]):
            if how.counted is not None:
                self.counts[how.counted] = self.counts.get(how.counted, 0) + 1
                if how.named and user not in self.named:
                    self.named.append(user)

    def name(self, user_id: int) -> str:
        return self.game.names.get(user_id) or f"<@{user_id}>"

    def parted(self) -> str | None:
        """When the backup's records of the game part from the old database's before the backup's end (one of them was
        restored from an earlier backup and played on differently): the time of the first record undone, as the
        notices say it; else None."""
        return stamp(self.game.records[0].at) if self.game.shared is not None and self.game.records else None

    def post(self) -> str:
        """The game channel's post: nothing in it that the channel may not read."""
        if (parted := self.parted()) is not None:
            head = (f"⚠️ **{self.game.game}: my records were restored from a backup**: {_as_of(self.as_of)}, in a "
                    f"history of this game that parts from mine on {parted} (a backup restored before was played on "
                    "differently). What I recorded in this game from then on is undone, though I acknowledged it, and "
                    "what the backup holds from then on stands.")
        else:
            head = (f"⚠️ **{self.game.game}: my records were restored from a backup**: {_as_of(self.as_of)}, and what "
                    "was recorded in this game after that is undone, though I acknowledged it.")
        lines = [head]
        if self.counts:
            counted = [f"{n:,} {one if n == 1 else several}" for (one, several), n in self.counts.items()]
            lines.append(f"Undone: {_listed(counted)}.")
        if self.results:
            results = list(dict.fromkeys(self.results))
            what = "the result" if len(results) == 1 else "the results"
            lines.append(f"Undone too: {what} of {_listed(results)} (a card posted after that no longer stands; the "
                         f"result I post when {'the vote' if len(results) == 1 else 'each vote'} closes again does).")
        told = [u for u in self.named if u not in self.closed]
        if told:
            whom = "you" if len(told) == 1 else "each of you"
            lines.append(f"{_names([self.name(u) for u in told])}: what you sent after that is undone; I am DMing "
                         f"{whom} what it was, to send again.")
        shut = [u for u in self.named if u in self.closed]
        if shut:
            lines.append(f"{_names([self.name(u) for u in shut])}: what you sent after that is undone, and your DMs "
                         "are closed to me, so I cannot tell you what it was: ask a moderator.")
        if self.moderators:
            lines.append("Moderators: your commands after that are undone too; check where the game stands before "
                         "going on.")
        return "\n".join(lines)

    def dms(self, user_id: int) -> list[Outgoing]:
        """The DMs to ``user_id`` (one, unless its lines pass Discord's limit): their own records only."""
        game = self.game.game
        if (parted := self.parted()) is not None:
            head = (f"⚠️ My records of **{game}** were restored from a backup: {_as_of(self.as_of)}, in a history of "
                    f"the game that parts from mine on {parted}, so what you sent there from then on is undone, though "
                    "I acknowledged it. Send again what you still mean:")
        else:
            head = (f"⚠️ My records of **{game}** were restored from a backup: {_as_of(self.as_of)}, so what you sent "
                    "there after that is undone, though I acknowledged it. Send again what you still mean:")
        lines = [f"- {self._yours(how, record)} (sent {stamp(record.at)}) → {how.again(record.payload)}"
                 for how, record in self.own[user_id]]
        if user_id not in self.game.players_now:
            lines.append(f"You are not among the players of {game} in my records as they are now: a moderator must "
                         "add you again before you can.")
        lines.append(f"If you play in more than one game, end a DM form with `#{game}`.")
        return [Outgoing(ToUser(user_id), text) for text in split_messages(head, lines)]

    def _yours(self, how: Undoing, record: Record) -> str:
        if how.yours is not None:
            text = how.yours(record.payload)
        else:
            payload = {k: v for k, v in record.payload.items() if k not in ("proxy", "proxy_for", "note")}
            text = sentence(record.kind, payload, self.game.names,
                            self.front.log_sentences if self.front is not None else None)
        return text + (", entered for you by a moderator" if record.payload.get("proxy") else "")


def _owner(how: Undoing, record: Record) -> int | None:
    """Whose own the record is: the player a moderator entered it for (``/cast-for``), else as its kind says."""
    proxy_for = record.payload.get("proxy_for")
    if record.payload.get("proxy") and isinstance(proxy_for, int):
        return proxy_for
    return how.whose(record.payload, record.actor)
