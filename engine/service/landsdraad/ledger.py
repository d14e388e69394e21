"""The vote ledger (R0-01..R0-07): each player's attributes and holdings, and who controls how many votes and why.
The players' attributes live on the shared ``players`` table; the holdings (electors and planets) are Landsdraad's."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from sqlalchemy import ColumnElement, Select, func, select
from sqlalchemy.ext.asyncio import AsyncSession
from sqlalchemy.orm import Session

from engine.core.errors import NotFoundError, RuleError
from engine.core.text import find_named, typed_back
from engine.landsdraad.model import Attributes, Elector, Planet, Quality, Tier, quality_of
from engine.landsdraad.votes import holding_votes, planet_votes, vote_breakdown
from engine.service.dice import GAME_SCOPE
from engine.service.dice import roll as roll_die
from engine.service.landsdraad.views import HoldingView, PlayerView
from engine.service.landsdraad.votes_asof import KINDS as LEDGER_KINDS
from engine.service.landsdraad.votes_asof import ledger_then
from engine.service.ledger import find_player, load_game, require_player
from engine.service.membership import games_cache
from engine.service.uow import ServiceBase
from engine.store.models import Event, Game, Player
from engine.store.models.landsdraad import Holding, Round


def attributes_of(player: Player) -> Attributes:
    return Attributes(
        diplomacy=player.diplomacy,
        command=player.command,
        intrigue=player.intrigue,
        roll=player.roll,
        diplomacy_max=player.diplomacy_max,
        intrigue_max=player.intrigue_max,
    )


def holding_view(h: Holding) -> HoldingView:
    votes = planet_votes(Planet(h.name, quality_of(h.grade), h.homeworld)) if h.kind == "planet" else h.votes
    return HoldingView(h.kind, h.name, h.grade or None, votes, h.homeworld)


def player_view(player: Player, holdings: Sequence[Holding]) -> PlayerView:
    electors = [Elector(h.name, Tier(h.grade), h.votes) for h in holdings if h.kind == "elector"]
    planets = [Planet(h.name, quality_of(h.grade), h.homeworld) for h in holdings if h.kind == "planet"]
    return PlayerView(
        id=player.id,
        user_id=player.user_id,
        name=player.name,
        faction=player.faction,
        diplomacy=player.diplomacy,
        command=player.command,
        intrigue=player.intrigue,
        roll=player.roll,
        misc=player.misc_votes,
        active=player.active,
        breakdown=vote_breakdown(attributes_of(player), electors, planets, player.misc_votes),
        holdings=tuple(holding_view(h) for h in holdings),
        removed=player.removed,
        diplomacy_max=player.diplomacy_max,
        intrigue_max=player.intrigue_max,
    )


async def holdings_of(session: AsyncSession, player_id: int) -> Sequence[Holding]:
    found = await session.execute(select(Holding).where(Holding.player_id == player_id).order_by(Holding.id))
    return found.scalars().all()


async def view_player(session: AsyncSession, player: Player) -> PlayerView:
    return player_view(player, await holdings_of(session, player.id))


def read_players(session: Session, game_id: int) -> list[PlayerView]:
    players = session.execute(select(Player).where(Player.game_id == game_id).order_by(Player.id)).scalars()
    holdings = session.execute(select(Holding).where(Holding.game_id == game_id).order_by(Holding.id)).scalars()
    by_player: dict[int, list[Holding]] = {}
    for h in holdings:
        by_player.setdefault(h.player_id, []).append(h)
    return [player_view(p, by_player.get(p.id, [])) for p in players]


async def game_players(session: AsyncSession, game_id: int) -> list[PlayerView]:
    return await session.run_sync(read_players, game_id)


PLAIN_VOTES = Player.diplomacy_max * 2 + Player.intrigue_max + Player.roll + Player.misc_votes
"""V(p) of a player who holds nothing, as SQL: ``votes.base_votes`` (2·D_max + I_max + r) plus misc, the
``total_votes`` of a player without holdings (tests/service/test_service_rounds.py checks the two agree). The
database adds it up, so a tally of 10,000 players makes no Python call per player (bench/tally.py)."""


def active_players(game_id: int, *columns: Any) -> Select[Any]:
    """Every active player of ``game_id`` in the order they joined: their id, user id, name, ``PLAIN_VOTES`` and
    ``columns``."""
    return (select(Player.id, Player.user_id, Player.name, PLAIN_VOTES, *columns)
            .where(Player.game_id == game_id, Player.active.is_(True)).order_by(Player.id))


def holding_extras(session: Session, game_id: int) -> dict[int, int]:
    """What each active holder's electors and planets add to V(p) (``votes.holding_votes``), by player id;
    players who hold nothing (or are inactive) are not in it."""
    return holding_extras_where(session, Holding.game_id == game_id)


def holding_extras_where(session: Session, games: ColumnElement[bool]) -> dict[int, int]:
    """``holding_extras`` of every game ``games`` picks (a condition on ``Holding.game_id``), in one statement."""
    rows = session.connection().execute(
        select(Holding.player_id, Holding.kind, Holding.name, Holding.grade, Holding.votes, Holding.homeworld,
               Player.diplomacy)
        .join(Player, Player.id == Holding.player_id)
        .where(games, Player.active.is_(True)).order_by(Holding.id))
    diplomacy: dict[int, int] = {}
    electors: dict[int, list[Elector]] = {}
    planets: dict[int, list[Planet]] = {}
    for player_id, kind, name, grade, votes, homeworld, d in rows:
        diplomacy[player_id] = d
        if kind == "elector":
            electors.setdefault(player_id, []).append(Elector(name, Tier(grade), votes))
        elif kind == "planet":
            planets.setdefault(player_id, []).append(Planet(name, quality_of(grade), homeworld))
    return {p: holding_votes(d, electors.get(p, ()), planets.get(p, ())) for p, d in diplomacy.items()}


def active_votes(session: Session, game_id: int) -> int:
    """Σ V(p) over the active players, read now (the players' part of the votes in play, R0-17): one sum in the
    database and the holders' extras, nothing per player."""
    session.flush()  # what session.execute would autoflush; the plain connection below does not
    plain = session.connection().execute(select(func.coalesce(func.sum(PLAIN_VOTES), 0))
                                         .where(Player.game_id == game_id, Player.active.is_(True))).scalar_one()
    return int(plain) + sum(holding_extras(session, game_id).values())


def correction(game: Game, since: int | None, change: int, idle: bool = False) -> dict[str, int]:
    """What an edit made as a correction adds to its event: the round it should have counted from and the change of
    the player's V(p) it makes (read by ``errata``, which tells the closed results it changes). ``idle``: no round is
    open (``between_rounds``), so ``since`` may also be the next round (a mistake made after the last close)."""
    if since is None:
        return {}
    last = game.current_round + (1 if idle else 0)
    if not 1 <= since <= last:
        rounds = f"1 to {last}" if last > 1 else "1" if last else "none yet"
        nxt = " (the next round counts while none is open)" if idle else ""
        raise RuleError(f"since is the round the change should have counted from: a round of {game.name} "
                        f"({rounds}){nxt}, not {since}.")
    return {"since": since, "votes_change": change}


async def between_rounds(session: AsyncSession, game: Game) -> bool:
    """No round of ``game`` is open: none has opened yet, or the last one has closed."""
    found = await session.execute(select(Round.status).where(Round.game_id == game.id,
                                                             Round.number == game.current_round))
    return found.scalar_one_or_none() != "open"


async def _rebased(session: AsyncSession, game: Game, player: Player, attributes: Attributes, since: int,
                   diplomacy: int | None, intrigue: int | None) -> tuple[Attributes, dict[str, int]]:
    """A Diplomacy or Intrigue corrected with ``since``: it should have been so from round ``since`` on, so a score
    entered after round ``since - 1`` closed that it replaces (a typo) was never held (docs/rulings.md, "A score
    corrected ... is as if entered so"). The highest held of each corrected score is then the highest held up to round
    ``since - 1``'s close (none before round 1) or the corrected score, whichever is higher; the other is as it was.
    Returns the attributes and the highest held, as recorded in the event (``votes_asof`` replays them)."""
    found = await session.execute(select(Event.seq, Event.kind, Event.payload).where(
        Event.game_id == game.id, Event.kind.in_((*LEDGER_KINDS, "RoundClosed"))).order_by(Event.seq))
    events = [(int(seq), str(kind), dict(payload)) for seq, kind, payload in found.all()]
    closes = [seq for seq, kind, p in events if kind == "RoundClosed" and p.get("round") == since - 1]
    then = ledger_then([e for e in events if e[1] in LEDGER_KINDS], player.user_id, closes[-1]) if closes else None
    held = then.attributes if then is not None else None
    d_max = attributes.diplomacy_max if diplomacy is None else max(held.diplomacy_max if held else 0, diplomacy)
    i_max = attributes.intrigue_max if intrigue is None else max(held.intrigue_max if held else 0, intrigue)
    return replace(attributes, diplomacy_max=d_max, intrigue_max=i_max), {"diplomacy": d_max, "intrigue": i_max}


def removal_source(source_id: str) -> str:
    """The source id of the ``HoldingRemoved`` that ``/holding set`` (command ``source_id``) records before its
    ``HoldingAdded`` (an event's source id is unique; the addition has the command's)."""
    return f"{source_id}/removed"


def base_purpose(user_id: int) -> str:
    """The name of a player's base d3 under the game's seed (docs/dice.md)."""
    return f"d3 base roll of user {user_id}"


def _readd_hint(game: Game) -> str:
    """What ``/player add`` of a player already in the game says instead (play-test Y3, Y9): ``/player set`` puts a
    name, faction, score or d3 entered wrong right in place; only the wrong member needs ``/player remove`` then
    ``/player add``."""
    told = ("during set-up the channel is not told and a player removed before the first round opens does not count "
            "for the Pot" if game.current_round == 0 else  # being set up: no round opened yet
            "the channel is told of both, their ballot in an open round is dropped, and a removed player still counts "
            "for the Pot")
    return ("/player set changes their name, faction, Diplomacy, Command, Intrigue, d3 roll, misc votes and whether "
            "they are active (add `since:` to correct votes in rounds already closed). Added as the wrong member? "
            f"/player remove them, then /player add the right one ({told}).")


class LedgerService(ServiceBase):
    """Players (``/player add``, ``/player set``) and their holdings."""

    async def add_player(
        self,
        game_id: int,
        *,
        user_id: int,
        name: str,
        diplomacy: int,
        command: int,
        intrigue: int,
        roll: int | None,
        faction: str | None,
        actor: int | None,
        source_id: str | None = None,
    ) -> PlayerView:
        async with self._write(game_id, source_id) as uow:
            game = await load_game(uow.session, game_id)
            existing = await find_player(uow.session, game_id, user_id)
            if existing is not None and not existing.removed:
                raise RuleError(f"{name} is already a player in {game.name}. " + _readd_hint(game))
            await _name_is_free(uow.session, game, user_id, name)
            rolled = roll is None
            if roll is None:  # from the game's committed seed for the rolls outside rounds (docs/dice.md)
                d3 = await uow.session.run_sync(roll_die, self.dice, game_id, GAME_SCOPE, base_purpose(user_id), 3,
                                                uow.now)
            else:
                d3 = roll
            attributes = Attributes.start(diplomacy, command, intrigue, d3)
            player = existing or Player(game_id=game_id, user_id=user_id, misc_votes=0)
            # a removed player added again comes back on the same row (their history keeps its name): new scores,
            # active, holdings as they were left
            player.name, player.faction = name, faction
            player.diplomacy, player.command, player.intrigue = (
                attributes.diplomacy, attributes.command, attributes.intrigue)
            player.roll, player.diplomacy_max, player.intrigue_max = (
                attributes.roll, attributes.diplomacy_max, attributes.intrigue_max)
            player.active, player.removed = True, False
            if existing is None:
                uow.session.add(player)
            await uow.session.flush()
            payload = {"user_id": user_id, "name": name, "faction": faction, "diplomacy": diplomacy,
                       "command": command, "intrigue": intrigue, "roll": d3, "rolled_by_clerk": rolled}
            if existing is not None:
                payload["rejoined"] = True
            await uow.record(game_id, "PlayerAdded", actor, payload, source_id)
            added = await view_player(uow.session, player) if existing is not None else player_view(player, [])
        games_cache(self).forget([user_id])  # after the commit (membership.py)
        return added

    async def set_player(
        self,
        game_id: int,
        *,
        user_id: int,
        diplomacy: int | None = None,
        command: int | None = None,
        intrigue: int | None = None,
        misc: int | None = None,
        active: bool | None = None,
        since: int | None = None,
        name: str | None = None,
        faction: str | None = None,
        roll: int | None = None,
        actor: int | None,
        source_id: str | None = None,
    ) -> PlayerView:
        """``since``: a correction, the change should have counted from that round on (the closed results it changes
        are told, ``errata``). ``name``, ``faction``: one entered wrong, put right in place (play-test Y9; the event
        keeps the old one as ``was_name``/``was_faction`` for the channel's line); ``faction`` "" clears it.
        ``roll``: the d3 of the base vote (R0-03) entered wrong, a change of V(p) as a score's is."""
        async with self._write(game_id, source_id) as uow:
            game = await load_game(uow.session, game_id)
            idle = since is not None and await between_rounds(uow.session, game)
            player = await require_player(uow.session, game, user_id)
            if since is not None and active is not None:
                raise RuleError("since corrects a player's votes (diplomacy, command, intrigue, roll, misc); leave "
                                "out active, or make the active change on its own without since.")
            if roll is not None and not 1 <= roll <= 3:
                raise RuleError(f"roll is the d3 of the base vote: 1, 2 or 3, not {roll}.")
            if since is not None and all(v is None for v in (diplomacy, command, intrigue, roll, misc)):
                raise RuleError("since corrects a player's votes (diplomacy, command, intrigue, roll, misc); a name "
                                "or faction changes no votes, so leave since out.")
            renamed: dict[str, str | None] = {}
            if name is not None:
                name = name.strip()
                if not name:
                    raise RuleError("name cannot be empty: give the name Clerk should show for them.")
                if name != player.name:
                    await _name_is_free(uow.session, game, user_id, name)
                    renamed = {"name": name, "was_name": player.name}
                    player.name = name
            if faction is not None:
                faction = faction.strip() or None  # an empty faction clears it
                if faction != player.faction:
                    renamed.update({"faction": faction, "was_faction": player.faction})
                    player.faction = faction
            before = (await view_player(uow.session, player)).votes if since is not None else 0
            if misc is not None and misc < 0:
                raise RuleError(f"misc votes must be 0 or more, not {misc}.")
            setup = game.current_round == 0 and any(v is not None for v in (diplomacy, command, intrigue))
            attributes = (attributes_of(player).corrected(diplomacy, command, intrigue) if setup else  # set-up typo
                          attributes_of(player).with_scores(diplomacy, command, intrigue))
            highest: dict[str, int] = {}
            if since is not None and not setup and (diplomacy is not None or intrigue is not None):
                correction(game, since, 0, idle)  # a round of the game, else the refusal, before the ledger is read
                attributes, highest = await _rebased(uow.session, game, player, attributes, since, diplomacy,
                                                     intrigue)
            player.diplomacy, player.command, player.intrigue = (
                attributes.diplomacy, attributes.command, attributes.intrigue)
            player.diplomacy_max, player.intrigue_max = attributes.diplomacy_max, attributes.intrigue_max
            if misc is not None:
                player.misc_votes = misc
            if roll is not None:
                player.roll = roll
            if active is not None:
                player.active = active
            changes: dict[str, object] = {k: v for k, v in {
                "diplomacy": diplomacy, "command": command, "intrigue": intrigue, "roll": roll, "misc": misc,
                "active": active}.items() if v is not None}
            changes.update(renamed)
            if not changes:
                if name is not None or faction is not None:
                    raise RuleError(f"Nothing to change: {player.name}'s name and faction are already so.")
                raise RuleError("Nothing to change: give at least one of name, faction, diplomacy, command, "
                                "intrigue, roll, misc, active.")
            view = await view_player(uow.session, player)
            await uow.record(game_id, "PlayerChanged", actor,
                             {"user_id": user_id, **changes, **({"setup": True} if setup else {}),
                              **({"highest": highest} if highest else {}),
                              **correction(game, since, view.votes - before, idle)},
                             source_id)
            said = tuple((k, renamed.get(f"was_{k}"), renamed.get(k)) for k in ("name", "faction") if k in renamed)
            return replace(view, renamed=said) if said else view

    async def add_holding(
        self,
        game_id: int,
        *,
        user_id: int,
        kind: str,
        name: str,
        grade: str | None,
        votes: int | None,
        homeworld: bool,
        since: int | None = None,
        actor: int | None,
        source_id: str | None = None,
    ) -> PlayerView:
        """``grade``: an Elector's tier or a planet's quality; a Homeworld needs none (it gives no votes and no
        Diplomacy Bonus whatever its quality, R0-04/R0-06), and one given is kept. ``since``: a correction, the
        holding should have been the player's from that round on."""
        kind = kind.strip().lower()
        grade, votes = _checked_holding(kind, grade, votes, homeworld, given_votes=votes is not None)
        async with self._write(game_id, source_id) as uow:
            game = await load_game(uow.session, game_id)
            idle = since is not None and await between_rounds(uow.session, game)
            player = await require_player(uow.session, game, user_id)
            held = list((await uow.session.execute(select(Holding).where(Holding.game_id == game_id))).scalars())
            clash = find_named(held, name, lambda h: h.name)
            if clash is not None:  # a name is one holding in any case (``deneb`` is Deneb), as /holding remove finds it
                raise RuleError(f"{clash.name} is already held in {game.name}; remove it first to move it.")
            home = next((h for h in held if homeworld and h.homeworld and h.player_id == player.id), None)
            if home is not None:  # R0-04 speaks of "their Homeworld": one a player (import play-test)
                raise RuleError(f"{home.name} is already {player.name}'s Homeworld; a player has one Homeworld. "
                                f"Remove {home.name} first to make {name} their Homeworld, or give {name} without "
                                "`homeworld`.")
            before = (await view_player(uow.session, player)).votes if since is not None else 0
            uow.session.add(Holding(game_id=game_id, player_id=player.id, kind=kind, name=name, grade=grade,
                                    votes=votes, homeworld=homeworld))
            await uow.session.flush()
            view = await view_player(uow.session, player)
            payload = {"user_id": user_id, "kind": kind, "name": name, "grade": grade or None, "votes": votes,
                       "homeworld": homeworld, **correction(game, since, view.votes - before, idle)}
            await uow.record(game_id, "HoldingAdded", actor, payload, source_id)
            return view

    async def set_holding(
        self,
        game_id: int,
        *,
        user_id: int,
        name: str,
        tier: str | None = None,
        quality: str | None = None,
        votes: int | None = None,
        homeworld: bool | None = None,
        since: int | None = None,
        actor: int | None,
        source_id: str | None = None,
    ) -> PlayerView:
        """A holding's tier, votes, quality or Homeworld mark entered wrong, put right in place (play-test Y9): what
        ``/holding remove`` then ``/holding add`` would do, recorded so (``HoldingRemoved``, then ``HoldingAdded``
        with ``was``), so every replay of the ledger (``votes_asof``, the errata, the AG recount) reads it as it
        reads those; ``since`` as theirs, on both. Its name and kind stay: a different holding is removed and
        added."""
        async with self._write(game_id, source_id) as uow:
            game = await load_game(uow.session, game_id)
            idle = since is not None and await between_rounds(uow.session, game)
            player = await require_player(uow.session, game, user_id)
            holdings = await holdings_of(uow.session, player.id)
            holding = find_named(holdings, name, lambda h: h.name)
            if holding is None:
                listing = ", ".join(h.name for h in holdings) or "nothing"
                raise NotFoundError(f"{player.name} holds nothing called {typed_back(name)}. They hold: {listing}.")
            kind = holding.kind
            wanted, other = ("tier", quality) if kind == "elector" else ("quality", tier)
            if other is not None:
                raise RuleError(f"{holding.name} is {'an Elector' if kind == 'elector' else 'a planet'}: it has a "
                                f"{wanted}, not a {'quality' if kind == 'elector' else 'tier'}.")
            grade = tier if kind == "elector" else quality
            if grade is None and votes is None and homeworld is None:
                raise RuleError("Nothing to change: give an Elector's tier or votes, or a planet's quality or "
                                "homeworld.")
            new_grade = holding.grade if grade is None else grade
            new_home = holding.homeworld if homeworld is None else homeworld
            if kind == "planet" and grade is None and homeworld is False and not new_grade:
                raise RuleError(f"{holding.name} has no quality (it was entered as a Homeworld): give its quality "
                                "(poor, average or rich) with homeworld:false.")
            new_grade, new_votes = _checked_holding(kind, new_grade, holding.votes if votes is None else votes,
                                                    new_home, given_votes=votes is not None)
            if (new_grade, new_votes, new_home) == (holding.grade, holding.votes, holding.homeworld):
                raise RuleError(f"Nothing to change: {holding.name} is already so.")
            if new_home and not holding.homeworld:
                home = next((h for h in holdings if h.homeworld and h.id != holding.id), None)
                if home is not None:
                    raise RuleError(f"{home.name} is already {player.name}'s Homeworld; a player has one Homeworld.")
            correction(game, since, 0, idle)  # a round of the game, else the refusal, before anything changes
            before = (await view_player(uow.session, player)).votes
            # the row stays (its place in the lists); the events say what a removal and an addition would
            without = player_view(player, [h for h in holdings if h.id != holding.id]).votes
            was = {"grade": holding.grade or None, "votes": holding.votes, "homeworld": holding.homeworld}
            holding.grade, holding.votes, holding.homeworld = new_grade, new_votes, new_home
            await uow.session.flush()
            view = await view_player(uow.session, player)
            await uow.record(game_id, "HoldingRemoved", actor,  # an event's source id is its own: the pair's
                             {"user_id": user_id, "name": holding.name, **correction(game, since, without - before,
                                                                                       idle)},
                             None if source_id is None else removal_source(source_id))
            await uow.record(game_id, "HoldingAdded", actor,
                             {"user_id": user_id, "kind": kind, "name": holding.name, "grade": new_grade or None,
                              "votes": new_votes, "homeworld": new_home, "was": was,
                              **correction(game, since, view.votes - without, idle)}, source_id)
            return view

    async def remove_holding(
        self, game_id: int, *, user_id: int, name: str, since: int | None = None, actor: int | None,
        source_id: str | None = None
    ) -> PlayerView:
        """``since``: a correction, the player should not have held it from that round on."""
        async with self._write(game_id, source_id) as uow:
            game = await load_game(uow.session, game_id)
            idle = since is not None and await between_rounds(uow.session, game)
            player = await require_player(uow.session, game, user_id)
            holdings = await holdings_of(uow.session, player.id)
            holding = find_named(holdings, name, lambda h: h.name)  # in any case, markdown and all
            if holding is None:
                listing = ", ".join(h.name for h in holdings) or "nothing"
                raise NotFoundError(f"{player.name} holds nothing called {typed_back(name)}. They hold: {listing}.")
            before = (await view_player(uow.session, player)).votes if since is not None else 0
            await uow.session.delete(holding)
            await uow.session.flush()
            view = await view_player(uow.session, player)
            await uow.record(game_id, "HoldingRemoved", actor,  # the holding's own name, as its HoldingAdded has it
                             {"user_id": user_id, "name": holding.name,
                              **correction(game, since, view.votes - before, idle)},
                             source_id)
            return view

    async def player(self, game_id: int, user_id: int) -> PlayerView:
        async with self._read() as session:
            game = await load_game(session, game_id)
            return await view_player(session, await require_player(session, game, user_id, "You"))

    async def players(self, game_id: int) -> list[PlayerView]:
        async with self._read() as session:
            return await game_players(session, game_id)


async def _name_is_free(session: AsyncSession, game: Game, user_id: int, name: str) -> None:
    """RuleError if another player of the game (a removed one too: rosters and the log still name them) has this
    name, in any case: players name each other in forms ("AG Vote: Jenny") and results show names, so two players
    of one name could not be told apart (play-test I1.5)."""
    others = select(Player.user_id, Player.name).where(Player.game_id == game.id, Player.user_id != user_id)
    if name.isascii():  # SQL's lower() folds ASCII letters only: an ASCII name is found by the database
        others = others.where(func.lower(Player.name) == name.lower())
    taken = next(((uid, other) for uid, other in (await session.execute(others)).all()
                  if other.lower() == name.lower()), None)
    if taken is not None:
        raise RuleError(f"The name “{name}” is already a player's in {game.name}: {taken[1]} (<@{taken[0]}>). Players' "
                        "names must differ (case does not matter), as players name each other in forms. Give this "
                        "player another `name`.")



def _checked_holding(kind: str, grade: str | None, votes: int | None, homeworld: bool, *,
                     given_votes: bool) -> tuple[str, int]:
    """A holding's grade (lower case; "" for a Homeworld given none) and votes (0 for a planet), or the RuleError
    that says what is wrong (``/holding add``, ``/holding set``). ``given_votes``: the moderator gave votes."""
    grade = (grade or "").strip().lower()
    if kind == "elector":
        if not grade:
            raise RuleError("Give the Elector's tier: weak, average or strong.")
        if grade not in {t.value for t in Tier}:
            raise RuleError(f"An Elector's tier is weak, average or strong, not “{grade}”.")
        if votes is None or votes < 0:
            raise RuleError("An Elector needs its number of votes (0 or more).")
        if homeworld:
            raise RuleError("Only a planet can be a Homeworld.")
        return grade, votes
    if kind == "planet":
        if not grade and not homeworld:
            raise RuleError("Give the planet's quality: poor, average or rich (a Homeworld needs none).")
        if grade and grade not in {q.value for q in Quality}:
            raise RuleError(f"A planet's quality is poor, average or rich, not “{grade}”.")
        if given_votes:
            raise RuleError("A Homeworld gives no votes; leave votes out." if homeworld else
                            "A planet's votes come from its quality (poor 2, average 3, rich 4); leave votes out.")
        return grade, 0
    raise RuleError(f"A holding is an elector or a planet, not “{kind}”.")
