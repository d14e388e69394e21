"""Setting up and changing the Convocate board: players, cards, Galactic Factors, Directives and the per-game
rulings. Moderators change anything; a player changes the cards they control (R4-xx data, rules-spec §4.1)."""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Any

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from engine.convocate.board import (
    Board,
    Card,
    Kind,
    PlayerState,
    check_entered_vote,
    check_seat,
    printed_vote,
    sovereignty,
)
from engine.convocate.parsing import parse_faces
from engine.convocate.rulings import SETTINGS, shown, value_of
from engine.convocate.votes import standing_votes, vote_of
from engine.core.errors import NotFoundError, RuleError
from engine.core.text import same_name
from engine.service.convocate.motions import motion_view
from engine.service.convocate.store import Loaded, faces_json, load, open_motion, require_convocate, save
from engine.service.convocate.views import BoardView, CardDone, FactorSet, board_view
from engine.service.ledger import game_view, load_game
from engine.service.membership import games_cache
from engine.service.owed import OwedWith, owe_in
from engine.service.uow import Backend, ServiceBase, UnitOfWork
from engine.store.models import Player
from engine.store.models.convocate import CvPlayer

if TYPE_CHECKING:  # the composition root imports this package; the board part only refers to the Clerk
    from engine.service.clerk import Clerk

CARD_FIELDS = ("controller", "vote", "pallarch", "at", "morality", "penalty", "readied", "on_map", "suppressed",
               "bonus", "face", "faces", "sovereignty")
MODERATOR_ONLY = {"controller"}


def _kind(text: str) -> Kind:
    try:
        return Kind(text.strip().lower().replace(" ", "-"))
    except ValueError:
        kinds = ", ".join(k.value for k in Kind)
        raise RuleError(f"“{text}” is not a kind of card. Kinds: {kinds}.") from None


def _check_place(board: Board, card: Card) -> Card:
    """A Character or Ground Unit stands on a Location, Homeworld or Seat that is on the board."""
    if card.at is None:
        return card
    if card.kind not in (Kind.CHARACTER, Kind.GROUND_UNIT):
        raise RuleError(f"Only Characters and Ground Units stand somewhere; {card.name} is a {card.kind.label}.")
    place = board.card(card.at)
    if not place.kind.place:
        raise RuleError(f"{place.name} is a {place.kind.label}; a card stands on a Location, Homeworld or Seat.")
    return replace(card, at=place.name)


def _check_card(card: Card, printed: int | None, entered: int | None = None) -> Card:
    """``printed``: the Vote to normalise (R4-01); ``entered``: the Vote the command or file typed, if any, which
    must be one the card can print (``check_entered_vote``)."""
    if card.kind is Kind.SEAT:
        if card.sovereignty is None:
            raise RuleError(f"A Convocate Seat belongs to a sovereignty; give {card.name}'s sovereignty.")
        if card.sovereignty.lower() == "emberates":
            raise RuleError("The Emberates hold no Convocate Seat (§6.6).")
        if not card.faces:
            card = replace(card, faces=parse_faces("prime:"))
        if card.face is not None and card.face.lower() not in {f.name for f in card.faces}:
            names = ", ".join(f.name for f in card.faces)
            raise RuleError(f"{card.name} has no “{card.face}” face; its faces are {names}.")
    elif card.faces or card.face:
        raise RuleError("Only a Convocate Seat has faces with GOVT ranges.")
    if card.sovereignty is not None and card.kind not in (Kind.SEAT, Kind.HOMEWORLD):
        raise RuleError("Only Homeworlds and Convocate Seats belong to a sovereignty.")
    if card.kind is not Kind.CHARACTER and (card.morality or card.penalty):
        raise RuleError("Only a Character has a Morality and a Penalty.")
    if entered is not None and (entered >= 0 and not (card.pallarch and card.kind is not Kind.CHARACTER)):
        check_entered_vote(card.kind, entered, card.pallarch)
    vote = printed_vote(card.kind, card.vote if printed is None else printed, card.pallarch)
    return replace(card, vote=vote)


async def event(uow: UnitOfWork, game_id: int, kind: str, actor: int | None, payload: dict[str, Any],
                source_id: str | None) -> None:
    await uow.record(game_id, kind, actor, payload, source_id)


def _setup_view(loaded: Loaded, after: Board) -> BoardView | None:
    """The board ``after`` a change, as ``board`` would read it once committed, while the table is being set up (no
    turn begun: ``setup_summary`` in bot/actions/convocate tells the same; no Motion can be open then); else None."""
    if after.active is not None or after.turn:
        return None
    return board_view(game_view(loaded.game), after, {n: p.user_id for n, p in loaded.players.items()}, None)


async def board_in(session: AsyncSession, game_id: int) -> BoardView:
    """The board as ``board`` reads it, in ``session``'s transaction (after a write of it: ``clerk.followed``)."""
    game = await load_game(session, game_id)
    loaded = await load(session, game)
    row = await open_motion(session, game_id)
    motion = motion_view(loaded, row) if row is not None else None
    return board_view(game_view(game), loaded.board, {n: p.user_id for n, p in loaded.players.items()}, motion)


async def setup_in(session: AsyncSession, game_id: int) -> BoardView | None:
    """The board as the set-up summary shows it, read in ``session``'s transaction (after a write of it:
    ``clerk.followed``), while the table is being set up; else None (``_setup_view``)."""
    loaded = await load(session, await load_game(session, game_id))
    return _setup_view(loaded, loaded.board)


class ConvocateBoardService(ServiceBase):
    """The board and the per-game rulings. ``shared`` is the Clerk, whose membership cache a new player clears."""

    def __init__(self, backend: Backend, shared: Clerk) -> None:
        super().__init__(backend)
        self.shared = shared

    async def board(self, game_id: int) -> BoardView:
        async with self._read() as session:
            return await board_in(session, game_id)

    async def _loaded(self, session: AsyncSession, game_id: int) -> Loaded:
        return await load(session, await load_game(session, game_id))

    async def set_player(self, game_id: int, *, user_id: int, name: str, sovereignty_name: str | None,
                         order: int | None, homeworld: str | None, temp: int | None, actor: int | None,
                         source_id: str | None = None) -> PlayerState:
        """Add a player to the table (or change their sovereignty, turn order, Homeworld, temporary Vote)."""
        async with self._write(game_id, source_id) as uow:
            loaded = await self._loaded(uow.session, game_id)
            board = loaded.board
            existing = next((n for n, p in loaded.players.items() if p.user_id == user_id), None)
            back = next((p for p in loaded.everyone.values() if p.user_id == user_id and p.removed), None)
            rejoined = back is not None
            if back is not None:  # removed with /player remove: seated again on their seat row, a new turn place
                seat_row = (await uow.session.execute(select(CvPlayer).where(CvPlayer.player_id == back.id))
                            ).scalar_one()
                back.removed, back.active = False, True
                if sovereignty_name is not None:
                    back.faction = seat_row.sovereignty = sovereignty(sovereignty_name)[0]
                seat_row.turn_order = order if order is not None else max((p.order for p in board.players),
                                                                          default=0) + 1
                seat_row.homeworld, seat_row.pool, seat_row.temp = None, 0, 0
                loaded.players[back.name], loaded.seats[back.name] = back, seat_row
                existing = back.name
                board = board.with_player(PlayerState(back.name, seat_row.sovereignty, seat_row.turn_order,
                                                      seat_row.directive))
            if existing is None:
                if sovereignty_name is None:
                    raise RuleError("A new player needs their sovereignty.")
                sov, _ = sovereignty(sovereignty_name)
                if any(same_name(n, name) for n in loaded.players):
                    raise RuleError(f"{loaded.game.name} already has a player called {name}.")
                player = Player(game_id=game_id, user_id=user_id, name=name, faction=sov, diplomacy=0, command=0,
                                intrigue=0, roll=1, diplomacy_max=0, intrigue_max=0, misc_votes=0, active=True)
                uow.session.add(player)
                await uow.session.flush()
                number = order if order is not None else max((p.order for p in board.players), default=0) + 1
                seat = CvPlayer(game_id=game_id, player_id=player.id, sovereignty=sov, turn_order=number,
                                directive=None, homeworld=None, pool=0, temp=0)
                uow.session.add(seat)
                loaded.players[name], loaded.seats[name] = player, seat
                state = PlayerState(name, sov, number)
                kind = "ConvocatePlayerAdded"
            else:
                state = board.player(existing)
                if sovereignty_name is not None:
                    state = replace(state, sovereignty=sovereignty(sovereignty_name)[0])
                    loaded.players[existing].faction = state.sovereignty
                if order is not None:
                    state = replace(state, order=order)
                kind = "ConvocatePlayerAdded" if rejoined else "ConvocatePlayerChanged"
            if homeworld is not None:
                place = board.card(homeworld)
                if place.kind is not Kind.HOMEWORLD:
                    raise RuleError(f"{place.name} is a {place.kind.label}, not a Homeworld.")
                state = replace(state, homeworld=place.name)
            check_seat(board, state, order=order, homeworld=homeworld)
            if temp is not None:
                state = replace(state, temp=temp)
            save(uow.session, loaded, board.with_player(state))
            await event(uow, game_id, kind, actor, {"user_id": user_id, "name": state.name,
                                                    "sovereignty": state.sovereignty, "order": state.order,
                                                    "homeworld": state.homeworld, "temp": state.temp,
                                                    **({"rejoined": True} if rejoined else {})}, source_id)
        if kind == "ConvocatePlayerAdded":
            games_cache(self.shared).forget([user_id])  # after the commit: one more game (membership.py)
        return state

    async def add_card(self, game_id: int, *, actor: int, moderator: bool, kind: str, name: str,
                       controller: int | None, owner: int | None, vote: int | None, pallarch: bool,
                       at: str | None, morality: str | None, penalty: str | None, sovereignty_name: str | None,
                       faces: str | None, readied: bool | None, source_id: str | None = None,
                       answer: OwedWith[CardDone] | None = None) -> CardDone:
        """``answer``: what it posts (during set-up the summary, ``CardDone.setup``), owed in its transaction
        (``owe_in``), as for ``set_card`` and ``remove_card``."""
        card_kind = _kind(kind)
        name = " ".join(name.split())
        if not name:
            raise RuleError("A card needs a name.")
        async with self._write(game_id, source_id) as uow:
            loaded = await self._loaded(uow.session, game_id)
            board = loaded.board
            if board.find(name) is not None:
                raise RuleError(f"{board.card(name).name} is already on the board; change it with /card set.")
            me = loaded.by_user(actor) if not moderator else None
            holder = _player(loaded, controller) if controller is not None else me
            if not moderator and holder != me:
                raise RuleError("Players put on the board only cards they control; a moderator adds the others.")
            owner_name = _player(loaded, owner) if owner is not None else holder
            sov = sovereignty(sovereignty_name)[0] if sovereignty_name else None
            if card_kind is Kind.HOMEWORLD and sov is None and holder is not None:
                sov = board.player(holder).sovereignty
            card = Card(name, card_kind, holder, owner_name, vote or 0, pallarch, morality or None, penalty or None, at,
                        True if readied is None else readied, sovereignty=sov,
                        faces=parse_faces(faces) if faces else ())
            card = _check_place(board, _check_card(card, vote if vote is not None else
                                                   (1 if card_kind is Kind.CHARACTER else 0), vote))
            after = board.with_card(card)
            if card_kind is Kind.HOMEWORLD and holder is not None:
                player = after.player(holder)
                if player.homeworld is None and (sov is None or sov == player.sovereignty):
                    after = after.with_player(replace(player, homeworld=card.name))
            save(uow.session, loaded, after)
            await event(uow, game_id, "CardAdded", actor, _card_payload(card), source_id)
            return await owe_in(uow, answer, CardDone(card, _setup_view(loaded, after)))

    async def set_card(self, game_id: int, *, actor: int, moderator: bool, name: str, changes: dict[str, Any],
                       since: int | None = None, source_id: str | None = None,
                       answer: OwedWith[CardDone] | None = None) -> CardDone:
        """``since`` (moderators): a correction, the card should have read so from that turn on; the change of each
        player's Standing Vote it makes is recorded (``errata`` tells the resolved Repeals it changes).
        ``answer``: what it posts (during set-up the summary), owed in its transaction (``owe_in``)."""
        if since is not None and not moderator:
            raise RuleError("Only a moderator corrects a card from an earlier turn (since).")
        unknown = set(changes) - set(CARD_FIELDS)
        if unknown:
            raise RuleError(f"A card has no {', '.join(sorted(unknown))}.")
        if not changes:
            raise RuleError("Nothing to change: give at least one of " + ", ".join(CARD_FIELDS) + ".")
        async with self._write(game_id, source_id) as uow:
            loaded = await self._loaded(uow.session, game_id)
            board = loaded.board
            card = board.card(name)
            if not moderator:
                me = loaded.by_user(actor)
                if card.controller != me:
                    raise RuleError(f"You do not control {card.name}; only its controller or a moderator changes it.")
                if set(changes) & MODERATOR_ONLY:
                    raise RuleError("Only a moderator changes who controls a card.")
            new = card
            for key, value in changes.items():
                if key == "controller":
                    new = replace(new, controller=_player(loaded, value) if value is not None else None)
                elif key == "faces":
                    new = replace(new, faces=parse_faces(value), face=None)
                elif key == "sovereignty":
                    new = replace(new, sovereignty=sovereignty(value)[0])
                elif key == "at":
                    new = replace(new, at=value or None)
                else:
                    new = replace(new, **{key: value})
            new = _check_place(board, _check_card(new, changes.get("vote"), changes.get("vote")))
            changed = board.with_card(new)
            save(uow.session, loaded, changed)
            payload = {"card": card.name, **{k: v for k, v in changes.items()}}
            if since is not None:
                if not 1 <= since <= max(board.turn, 1):
                    raise RuleError(f"since is the turn the card was wrong from: 1 to {max(board.turn, 1)}, not "
                                    f"{since}.")
                before, after = standing_votes(board), standing_votes(board.with_card(new))
                payload.update(since=since, votes_change={p: after.get(p, 0) - before.get(p, 0)
                                                          for p in sorted({*before, *after})
                                                          if after.get(p, 0) != before.get(p, 0)},
                               # what a resolved Repeal's count, card by card, is corrected by (errata)
                               vote_of=[vote_of(card), vote_of(new)], controllers=[card.controller, new.controller],
                               changed=[f for f in CARD_FIELDS if getattr(card, f) != getattr(new, f)])
            await event(uow, game_id, "CardChanged", actor, payload, source_id)
            return await owe_in(uow, answer, CardDone(new, _setup_view(loaded, changed)))

    async def remove_card(self, game_id: int, *, actor: int, moderator: bool, name: str,
                          source_id: str | None = None, answer: OwedWith[CardDone] | None = None) -> CardDone:
        """``answer``: what it posts (during set-up the summary), owed in its transaction (``owe_in``)."""
        async with self._write(game_id, source_id) as uow:
            loaded = await self._loaded(uow.session, game_id)
            card = loaded.board.card(name)
            if not moderator and card.controller != loaded.by_user(actor):
                raise RuleError(f"You do not control {card.name}; only its controller or a moderator removes it.")
            standing = [c.name for c in loaded.board.cards if c.at and c.at.lower() == card.name.lower()]
            if standing:
                raise RuleError(f"{', '.join(standing)} stand{'s' if len(standing) == 1 else ''} on {card.name}; "
                                "move them first.")
            await uow.session.delete(loaded.cards.pop(card.name))
            after = loaded.board.without_card(card.name)
            for p in after.players:
                if p.homeworld == card.name:  # another Homeworld of theirs, if exactly one is (play-test U2.3)
                    theirs = [c.name for c in after.cards if c.kind is Kind.HOMEWORLD and (c.owner or c.controller)
                              == p.name and c.sovereignty in (None, p.sovereignty)]
                    after = after.with_player(replace(p, homeworld=theirs[0] if len(theirs) == 1 else None))
            save(uow.session, loaded, after)
            await event(uow, game_id, "CardRemoved", actor, {"card": card.name}, source_id)
            return await owe_in(uow, answer, CardDone(card, _setup_view(loaded, after)))

    async def set_factor(self, game_id: int, *, name: str, value: int, actor: int | None,
                         source_id: str | None = None, answer: OwedWith[FactorSet] | None = None) -> FactorSet:
        """A moderator sets a Galactic Factor (adding it if new). ``answer``: what it announces (after set-up; during
        it the summary, ``FactorSet.setup``), owed in its transaction (``owe_in``)."""
        wanted = " ".join(name.split())
        if not wanted or len(wanted) > 32:
            raise RuleError("A Galactic Factor's name is 1 to 32 characters.")
        async with self._write(game_id, source_id) as uow:
            loaded = await self._loaded(uow.session, game_id)
            board = loaded.board
            known = next((n for n, _ in board.factors if same_name(n, wanted)), None)
            old = board.factor(known) if known else None
            after = board.with_factor(known or wanted.upper(), value)
            save(uow.session, loaded, after)
            label = known or wanted.upper()
            await event(uow, game_id, "FactorSet", actor, {"factor": label, "from": old, "to": value}, source_id)
            setup = _setup_view(loaded, after)  # while the table is being set up: the summary, owed with it
            return await owe_in(uow, answer, FactorSet(label, old, value, setup is not None, setup))

    async def set_directive(self, game_id: int, *, actor: int, moderator: bool, user_id: int, factor: str,
                            source_id: str | None = None, answer: OwedWith[tuple[str, str | None]] | None = None
                            ) -> tuple[str, str | None]:
        """(player, Directive): a player sets their own current Directive; a moderator anyone's. ``answer``: what it
        answers and announces, owed in its transaction (``owe_in``)."""
        async with self._write(game_id, source_id) as uow:
            loaded = await self._loaded(uow.session, game_id)
            board = loaded.board
            target = _player(loaded, user_id)
            if not moderator and user_id != actor:
                raise RuleError("You set your own Directive; a moderator sets another player's.")
            value = None if factor.strip().lower() in ("none", "-", "") else board.factor_name(factor)
            save(uow.session, loaded, board.with_player(replace(board.player(target), directive=value)))
            await event(uow, game_id, "DirectiveSet", actor, {"player": target, "directive": value}, source_id)
            return await owe_in(uow, answer, (target, value))

    async def rulings(self, game_id: int) -> list[tuple[str, str, str, bool, str]]:
        """(name, ruling, value, is it the default, description) for every Convocate setting."""
        async with self._read() as session:
            game = await load_game(session, game_id)
            require_convocate(game, "/convocate rulings")
            return [(s.name, s.ruling, shown(value_of(game.settings, s.name)), s.name not in game.settings,
                     s.description) for s in SETTINGS.values()]


def _player(loaded: Loaded, user_id: int) -> str:
    found = loaded.find_user(user_id)
    if found is None:
        raise NotFoundError(f"That user is not a player in {loaded.game.name}.")
    return found


def _card_payload(card: Card) -> dict[str, Any]:
    payload: dict[str, Any] = {"card": card.name, "kind": card.kind.value, "controller": card.controller,
                               "vote": card.vote}
    for key in ("pallarch", "morality", "penalty", "at", "sovereignty", "owner"):
        value = getattr(card, key)
        if value and not (key == "owner" and value == card.controller):
            payload[key] = value
    if not card.readied:
        payload["readied"] = False
    if card.faces:
        payload["faces"] = faces_json(card.faces)["faces"]
    return payload
