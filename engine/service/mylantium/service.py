"""The Republic of Mylantium through the service (``clerk.mylantium``): Factions and their players, territories and
buildings, military units, candidates and the government page, set up by the moderators (the document leaves most
numbers to the GM, A1-09). The turn's parts are the objects it is made of: ``elections``, ``business`` and
``revolutions``."""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime
from typing import TYPE_CHECKING, Any

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from engine.core.errors import RuleError
from engine.core.text import find_named, same_name, typed_back
from engine.mylantium.business import InPlay
from engine.mylantium.elections import check_charisma, check_primary_choice
from engine.mylantium.forms import NOBODY
from engine.mylantium.model import Building, FactionCode, Party, default_base
from engine.service.ledger import find_player, game_view, load_game
from engine.service.membership import games_cache
from engine.service.mylantium.business import Business
from engine.service.mylantium.elections import Elections
from engine.service.mylantium.errata import ElectionErrata
from engine.service.mylantium.explain import Explain
from engine.service.mylantium.history import add_history, record
from engine.service.mylantium.records import (
    candidate_view,
    find_territory,
    find_unit,
    government_view,
    one_faction_view,
    territory_view,
    unit_status,
    unit_view,
    writable,
)
from engine.service.mylantium.removal import RemovalService
from engine.service.mylantium.revolution import Revolutions, chain_after_vp_change, decided_by
from engine.service.mylantium.state import (
    COLUMNS,
    approval_of,
    candidate_of,
    candidate_rows,
    faction_by_code,
    faction_of_user,
    faction_rows,
    find_candidate,
    government_of,
    in_play_of,
    open_election,
    require_calm,
    require_mylantium,
    round_starts,
    rules_of,
    set_in_play,
    stop_candidates,
    territory_rows,
    unit_rows,
)
from engine.service.mylantium.takebacks import Takebacks
from engine.service.mylantium.views import (
    CandidateView,
    GovernmentView,
    HistoryView,
    MylFactionView,
    TerritoryView,
    UnitView,
    VpChange,
    history_points,
)
from engine.service.ruleset import RulesetService
from engine.service.uow import Backend
from engine.store.models import Game, Player
from engine.store.models.mylantium import (
    MylCandidate,
    MylChoice,
    MylElection,
    MylFaction,
    MylHistory,
    MylTerritory,
    MylUnit,
)

if TYPE_CHECKING:  # the composition root builds this service; it is only referred to here
    from engine.service.clerk import Clerk



def check_treasury(treasury: int) -> None:
    """A treasury is money on hand, $0 or more (docs/rulings.md): the rules know no debt, and a contribution is
    "between 0 and the Faction's treasury" (R1-44)."""
    if treasury < 0:
        raise RuleError(f"A treasury is $0 or more, not ${treasury}: the rules know money in a treasury, not debt.")

async def _drop_cross_party_choice(session: AsyncSession, game: Game, row: MylFaction) -> str | None:
    """A Faction's party corrected while a Primary is open (play-test U1.1): its choice there of a candidate the
    corrected party may not choose (another party's, unless ``primary_choice: any``) could not have been made, so it
    is dropped and the Faction chooses again. Returns the candidate it had chosen, or None."""
    election = await open_election(session, game.id)
    if election is None or election.stage != "primary":
        return None
    found = await session.execute(select(MylChoice).where(MylChoice.election_id == election.id,
                                                          MylChoice.faction_id == row.id))
    choice = found.scalar_one_or_none()
    if choice is None:
        return None
    cand = await find_candidate(session, game, choice.choice, live=False)
    owner = await session.get(MylFaction, cand.faction_id)
    assert owner is not None
    try:
        check_primary_choice(Party(row.party), candidate_of(cand, FactionCode[owner.code]), rules_of(game))
    except RuleError:
        await session.delete(choice)
        return choice.choice
    return None


async def _hand_over(session: AsyncSession, game: Game, row: MylFaction, code: FactionCode, user_id: int,
                     user_name: str) -> tuple[int, str, int, str]:
    """``/faction set user:`` (play-test U1.3): a Faction registered to the wrong member goes to its player. The
    Faction keeps everything it has (party, VP, treasury, votes, Candidate, its choice in an open election); only who
    plays it changes. Refused to a member who plays another Faction of the game (one each), and while a Revolution
    suspends play (its offers and requests went to the player by DM). Returns (old user, old name, new user, name)."""
    await require_calm(session, game)
    player = await session.get(Player, row.player_id)
    assert player is not None
    if player.user_id == user_id:
        raise RuleError(f"{player.name} already plays the {code.plural} in {game.name}: nothing was changed.")
    other = await find_player(session, game.id, user_id)
    if other is not None:
        gone = " (removed)" if other.removed else ""
        raise RuleError(f"{other.name} already plays the {other.faction}{gone} in {game.name}, and each player "
                        f"controls one Faction. Give the {other.faction} to their right player first (/faction set "
                        f"faction:{other.faction} user:…). Nothing was changed.")
    was = (player.user_id, player.name)
    player.user_id, player.name = user_id, user_name
    return was[0], was[1], user_id, user_name


async def _rename(session: AsyncSession, game: Game, row: MylCandidate, new: str) -> str:
    """``/candidate set rename:`` (play-test U1.7): a misspelt candidate's name corrected, the same candidate (its
    Faction, party, Charisma stay). Choices made for them in this turn's elections follow the name, and so does this
    turn's Primary's nominee until its General Election has closed (the General reads its nominees by name); a
    result already closed keeps the name it was posted with. Refused for an empty name, one that reads as nobody,
    and one another candidate of the game has (a discarded one too). Returns the new name."""
    name = " ".join(new.split())
    if not name:
        raise RuleError("A candidate needs a name.")
    if name.lower() in NOBODY:
        raise RuleError(f"A candidate cannot be called “{name}”: `Primary: {name}` reads as choosing nobody. Give "
                        "another name.")
    if name == row.name:
        raise RuleError(f"The candidate is called {row.name} already: nothing was changed.")
    clash = next((c for c in await candidate_rows(session, game.id) if c.id != row.id and same_name(c.name, name)),
                 None)
    if clash is not None:
        gone = " (discarded)" if clash.discarded else ""
        raise RuleError(f"{game.name} already has a candidate called {clash.name}{gone}; names tell candidates apart. "
                        "Nothing was changed.")
    old, row.name = row.name, name
    gov = await government_of(session, game)
    elections = (await session.execute(select(MylElection).where(MylElection.game_id == game.id,
                                                                 MylElection.turn == gov.turn))).scalars().all()
    for election in elections:
        found = await session.execute(select(MylChoice).where(MylChoice.election_id == election.id,
                                                              MylChoice.choice == old))
        for choice in found.scalars():
            choice.choice = name
    primary = next((e for e in elections if e.stage == "primary"), None)
    general = next((e for e in elections if e.stage == "general"), None)
    if primary is not None and primary.result and (general is None or general.status != "closed"):
        result = dict(primary.result)
        result["nominees"] = {p: name if n == old else n for p, n in (result.get("nominees") or {}).items()}
        result["ties"] = {p: [name if n == old else n for n in t] for p, t in (result.get("ties") or {}).items()}
        primary.result = result
    await session.flush()
    return name


class MylantiumService(RulesetService):
    """The moderators' setup of the Republic, and the parts of a turn."""

    def __init__(self, backend: Backend, shared: Clerk) -> None:
        super().__init__(backend, shared)
        self.elections = Elections(backend)
        self.errata = ElectionErrata(backend)
        self.business = Business(backend)
        self.revolutions = Revolutions(backend)
        self.removal = RemovalService(backend)
        """``/player remove``: the player's Faction withdraws (``engine/service/mylantium/removal.py``)."""
        self.explain = Explain(backend)
        """``/why``: derivations of posted numbers (``engine/service/mylantium/explain.py``)."""
        self.takebacks = Takebacks(backend)
        """``/election reopen`` and ``/election cancel`` (``engine/service/mylantium/takebacks.py``)."""

    async def game_deadlines(self) -> list[tuple[int, datetime]]:
        """The deadlines of open Mylantium elections and of contributions to a Revolution, with their games."""
        return [(g, d) for g, *_, d in await self.elections.pending_elections()] + [
            (g, d) for g, *_, d in await self.revolutions.pending_contributions()]

    # -- Factions ---------------------------------------------------------------------------------------------

    async def register_faction(self, game_id: int, *, code: FactionCode, user_id: int, user_name: str, party: Party,
                               vp: int, treasury: int, actor: int | None,
                               source_id: str | None = None) -> MylFactionView:
        if vp < 0:
            raise RuleError("VP cannot be negative.")
        check_treasury(treasury)
        async with self._write(game_id, source_id) as uow:
            game = await writable(uow, game_id)
            existing = await find_player(uow.session, game_id, user_id)
            if existing is not None and existing.removed:
                raise RuleError(f"{existing.name} was removed from {game.name}; /faction set faction:"
                                f"{existing.faction} in_play:true brings them back with their Faction.")
            if existing is not None:
                raise RuleError(f"{user_name} already plays the {existing.faction} in {game.name}; each player "
                                f"controls one Faction. If the {existing.faction} were registered to them by "
                                f"mistake, /faction set faction:{existing.faction} user:… gives them to their player.")
            clash = await uow.session.execute(select(MylFaction).where(MylFaction.game_id == game_id,
                                                                       MylFaction.code == code.name))
            if clash.scalar_one_or_none() is not None:
                raise RuleError(f"The {code.plural} already have a player in {game.name}. To give them to another "
                                f"member (a correction), use /faction set faction:{code.plural} user:…; /faction set "
                                "also corrects their VP, treasury and party.")
            player = Player(game_id=game_id, user_id=user_id, name=user_name, faction=code.plural, diplomacy=0,
                            command=0, intrigue=0, roll=1, diplomacy_max=0, intrigue_max=0, misc_votes=0, active=True)
            uow.session.add(player)
            await uow.session.flush()
            base = default_base(code)
            row = MylFaction(game_id=game_id, player_id=player.id, code=code.name, party=party.value, vp=vp,
                             treasury=treasury, in_play=True, per={k.value: v for k, v in base.per.items()},
                             entered={})
            uow.session.add(row)
            await uow.session.flush()
            await government_of(uow.session, game)
            await uow.record(game_id, "FactionRegistered", actor,
                             {"faction": code.name, "user_id": user_id, "name": user_name, "party": party.value,
                              "vp": vp, "treasury": treasury}, source_id)
            registered = await one_faction_view(uow.session, game, row)
        games_cache(self.shared).forget([user_id])  # after the commit: one more game (membership.py)
        return registered

    async def set_faction(self, game_id: int, *, code: FactionCode, vp: int | None = None,
                          treasury: int | None = None, party: Party | None = None, in_play: bool | None = None,
                          reason: str | None = None, actor: int | None, source_id: str | None = None,
                          user_id: int | None = None, user_name: str | None = None) -> VpChange:
        """A moderator's correction or award (how VP are earned is not in the document, A1-09). A change of VP is
        followed at once by the checks of R1-50 and R1-40. A change of party here is a correction, not a
        realignment (Clerk applies no lock to it)."""
        changes = {k: v for k, v in {"vp": vp, "treasury": treasury, "party": party.value if party else None,
                                     "in_play": in_play}.items() if v is not None}
        if not changes and user_id is None:
            raise RuleError("Nothing to change: give vp, treasury, party, in_play or user.")
        if vp is not None and vp < 0:
            raise RuleError("VP cannot be negative.")
        if treasury is not None:
            check_treasury(treasury)
        async with self._write(game_id, source_id) as uow:
            game = await writable(uow, game_id)
            row = await faction_by_code(uow.session, game, code)
            gov = await government_of(uow.session, game)
            handed = None
            if user_id is not None:
                handed = await _hand_over(uow.session, game, row, code, user_id, user_name or str(user_id))
                changes.update({"user_id": user_id, "name": handed[3], "was_user_id": handed[0], "was": handed[1]})
            if vp is not None and vp != row.vp:
                cause = reason.strip() if reason and reason.strip() else "set by the moderators"
                add_history(uow.session, game_id, gov.turn, f"vp:{code.name}", cause, vp - row.vp, vp, uow.now)
                row.vp = vp
            if treasury is not None:
                row.treasury = treasury
            dropped = None
            party_changed = party is not None and party.value != row.party
            if party is not None and party.value != row.party:
                row.party = party.value
                dropped = await _drop_cross_party_choice(uow.session, game, row)
                if dropped is not None:
                    changes["choice_dropped"] = True  # which one is in the choice's own event (secret)
            elif party is not None:
                row.party = party.value
            back = bool(in_play) and not row.in_play
            if in_play is not None:
                if row.in_play and not in_play:  # out of play: its Candidate stops running (play-test X1.1)
                    await stop_candidates(uow.session, game_id, [row])
                row.in_play = in_play
            player = await uow.session.get(Player, row.player_id)
            rejoined = bool(in_play) and player is not None and player.removed
            if rejoined and player is not None:  # a removed player comes back with their Faction (/player remove)
                player.removed, player.active = False, True
                changes["rejoined"] = True
            idle = None
            if rejoined or back:  # its Candidate stopped running when it left play and does not run again by itself
                idle = next((c.name for c in await candidate_rows(uow.session, game_id)
                             if c.faction_id == row.id and not c.discarded and not c.running), None)
            await uow.session.flush()
            chain = await chain_after_vp_change(uow, game) if vp is not None or in_play is not None else None
            decided = await decided_by(uow.session, game_id) if vp is not None or in_play is not None else None
            await record(uow, game_id, "FactionChanged", actor,
                             {"faction": code.name, **changes, "reason": reason,
                              "chain": chain.number if chain else None}, source_id)
            view = await one_faction_view(uow.session, game, row)
        if rejoined and player is not None:
            games_cache(self.shared).forget([player.user_id])
        if handed is not None:  # after the commit: one game less for one, one more for the other (membership.py)
            games_cache(self.shared).forget([handed[0], handed[2]])
        return VpChange(view, chain, collapse=bool(chain and chain.chain.ended == "collapse"),
                        decided=decided if chain is None else None,
                        rejoined=player.name if rejoined and player is not None else None, idle_candidate=idle,
                        choice_dropped=dropped, handed=handed, party_changed=party_changed)

    async def set_faction_votes(self, game_id: int, *, code: FactionCode, territory: str | None,
                                votes: int, building: Building | None = None, actor: int | None,
                                source_id: str | None = None) -> MylFactionView:
        """R1-02: the votes a Faction has in a territory (entered by the moderator), or with ``building`` its
        votes per building of that kind in play (the Plutocrat's 2 per port). 0 removes the entry."""
        if votes < 0:
            raise RuleError("Faction Votes cannot be negative.")
        async with self._write(game_id, source_id) as uow:
            game = await writable(uow, game_id)
            row = await faction_by_code(uow.session, game, code)
            if building is not None:
                per = dict(row.per)
                per.pop(building.value, None)
                row.per = {**per, **({building.value: votes} if votes else {})}
                payload: dict[str, Any] = {"faction": code.name, "per": building.value, "votes": votes}
            else:
                if territory is None:
                    raise RuleError("Give the territory, or a building kind for a rule such as 2 per port.")
                name = (await find_territory(uow, game, territory)).name
                entered = dict(row.entered)
                entered.pop(name, None)
                row.entered = {**entered, **({name: votes} if votes else {})}
                payload = {"faction": code.name, "territory": name, "votes": votes}
            await uow.record(game_id, "FactionVotesSet", actor, payload, source_id)
            return await one_faction_view(uow.session, game, row)

    async def my_faction(self, game_id: int, user_id: int) -> MylFactionView:
        async with self._read() as session:
            game = await load_game(session, game_id)
            require_mylantium(game)
            _, row = await faction_of_user(session, game, user_id)
            return await one_faction_view(session, game, row)

    # -- territories, buildings and units -------------------------------------------------------------------------

    async def add_territory(self, game_id: int, *, name: str, actor: int | None,
                            source_id: str | None = None) -> TerritoryView:
        name = " ".join(name.split())
        if not name:
            raise RuleError("A territory needs a name.")
        async with self._write(game_id, source_id) as uow:
            game = await writable(uow, game_id)
            if any(same_name(t.name, name) for t in await territory_rows(uow.session, game_id)):
                raise RuleError(f"{game.name} already has a territory called {name}.")
            row = MylTerritory(game_id=game_id, name=name, ports=0, cities=0, temples=0, villages=0, names={})
            uow.session.add(row)
            await uow.session.flush()
            await uow.record(game_id, "TerritoryAdded", actor, {"name": name}, source_id)
            return territory_view(row)

    async def change_buildings(self, game_id: int, *, territory: str, kind: Building, count: int,
                               name: str | None, remove: bool, actor: int | None,
                               source_id: str | None = None) -> TerritoryView:
        """Build (or pull down) ``count`` buildings of a kind in a territory; a named one is listed by name."""
        if count < 1:
            raise RuleError("The count is 1 or more.")
        if name is not None and count != 1:
            raise RuleError("A named building is one building; leave the count out.")
        async with self._write(game_id, source_id) as uow:
            game = await writable(uow, game_id)
            row = await find_territory(uow, game, territory)
            column = COLUMNS[kind]
            have = int(getattr(row, column))
            names = {k: list(v) for k, v in row.names.items()}
            listed = names.setdefault(kind.value, [])
            if remove:
                if have < count:
                    raise RuleError(f"{row.name} has {have} {kind.plural}; {count} cannot be removed.")
                if name is not None:
                    match = find_named(listed, name, str)
                    if match is None:
                        raise RuleError(f"{row.name} has no {kind.value} called {typed_back(name)}. Named: "
                                        f"{', '.join(listed) or 'none'}.")
                    listed.remove(match)
                    name = match  # recorded as it was kept, not as typed (``**Arcadia**`` finds Arcadia, P4.1)
                setattr(row, column, have - count)
            else:
                if name is not None:
                    if any(same_name(n, name) for n in listed):
                        raise RuleError(f"{row.name} already has a {kind.value} called {name.strip()}.")
                    listed.append(name.strip())
                setattr(row, column, have + count)
            row.names = {k: v for k, v in names.items() if v}
            await uow.session.flush()
            await uow.record(game_id, "BuildingsRemoved" if remove else "BuildingsAdded", actor,
                             {"territory": row.name, "kind": kind.value, "count": count, "name": name}, source_id)
            return territory_view(row)

    async def add_unit(self, game_id: int, *, name: str, territory: str, maintenance: int, cost: int,
                       status: str | None, actor: int | None, source_id: str | None = None) -> UnitView:
        name = " ".join(name.split())
        if not name:
            raise RuleError("A unit needs a name.")
        if maintenance < 0 or cost < 0:
            raise RuleError("Maintenance and purchase cost are $0 or more.")
        where = unit_status(status)
        async with self._write(game_id, source_id) as uow:
            game = await writable(uow, game_id)
            place = (await find_territory(uow, game, territory)).name
            if any(same_name(u.name, name) for u in await unit_rows(uow.session, game_id)):
                raise RuleError(f"{game.name} already has a unit called {name}.")
            row = MylUnit(game_id=game_id, name=name, territory=place, maintenance=maintenance, cost=cost,
                          status=where.value)
            uow.session.add(row)
            await uow.session.flush()
            await uow.record(game_id, "UnitAdded", actor, {"name": name, "territory": place,
                                                            "maintenance": maintenance, "cost": cost,
                                                            "status": where.value}, source_id)
            return unit_view(row)

    async def set_unit(self, game_id: int, *, name: str, territory: str | None = None, status: str | None = None,
                       maintenance: int | None = None, cost: int | None = None, remove: bool = False,
                       actor: int | None, source_id: str | None = None) -> UnitView:
        async with self._write(game_id, source_id) as uow:
            game = await writable(uow, game_id)
            row = await find_unit(uow, game, name)
            if remove:
                await uow.session.delete(row)
                await uow.session.flush()
                await uow.record(game_id, "UnitRemoved", actor, {"name": row.name}, source_id)
                return unit_view(row)
            changes: dict[str, Any] = {}
            if territory is not None:
                row.territory = changes["territory"] = (await find_territory(uow, game, territory)).name
            if status is not None:
                row.status = changes["status"] = unit_status(status).value
            for label, value in (("maintenance", maintenance), ("cost", cost)):
                if value is not None:
                    if value < 0:
                        raise RuleError(f"{label} is $0 or more.")
                    setattr(row, label, value)
                    changes[label] = value
            if not changes:
                raise RuleError("Nothing to change: give territory, status, maintenance or cost.")
            await uow.record(game_id, "UnitChanged", actor, {"name": row.name, **changes}, source_id)
            return unit_view(row)

    # -- candidates -------------------------------------------------------------------------------------------

    async def add_candidate(self, game_id: int, *, name: str, code: FactionCode, charisma: int, actor: int | None,
                            source_id: str | None = None) -> CandidateView:
        """R1-03, R1-10: a Candidate takes its Faction's party now, for good. A Faction has one Candidate."""
        name = " ".join(name.split())
        if not name:
            raise RuleError("A candidate needs a name.")
        if name.lower() in NOBODY:  # `Primary: None` reads as choosing nobody, so nobody could choose them (Q5.6)
            raise RuleError(f"A candidate cannot be called “{name}”: `Primary: {name}` reads as choosing nobody, so no "
                            "Faction could choose them. Give another name.")
        check_charisma(charisma)
        async with self._write(game_id, source_id) as uow:
            game = await writable(uow, game_id)
            faction = await faction_by_code(uow.session, game, code)
            if not faction.in_play:
                raise RuleError(f"The {code.plural} have withdrawn from the game.")
            rows = await candidate_rows(uow.session, game_id)
            if any(same_name(c.name, name) for c in rows):
                raise RuleError(f"{game.name} already has a candidate called {name}.")
            live = [c for c in rows if c.faction_id == faction.id and not c.discarded]
            if live:
                raise RuleError(f"The {code.plural} already have a Candidate, {live[0].name}; discard them first "
                                "(/candidate discard).")
            row = MylCandidate(game_id=game_id, faction_id=faction.id, name=name, party=faction.party,
                               charisma=charisma, running=True, discarded=False)
            uow.session.add(row)
            await uow.session.flush()
            await uow.record(game_id, "CandidateAdded", actor, {"name": name, "faction": code.name,
                                                                 "party": faction.party, "charisma": charisma},
                             source_id)
            return candidate_view(row, {faction.id: faction})

    async def set_candidate(self, game_id: int, *, name: str, charisma: int | None = None,
                            running: bool | None = None, discard: bool = False, rename: str | None = None,
                            actor: int | None, source_id: str | None = None) -> CandidateView:
        """A candidate's Charisma, whether they run, their discard, or (``rename``) the correction of a misspelt
        name (play-test U1.7): the same candidate under the right name (``_rename``)."""
        async with self._write(game_id, source_id) as uow:
            game = await writable(uow, game_id)
            row = await find_candidate(uow.session, game, name)
            was = row.name
            changes: dict[str, Any] = {}
            if rename is not None:
                changes["renamed"] = await _rename(uow.session, game, row, rename)
            if charisma is not None:
                check_charisma(charisma)
                row.charisma = changes["charisma"] = charisma
            if running is not None:
                row.running = changes["running"] = running
            if discard:
                row.discarded = changes["discarded"] = True
                row.running = False
            if not changes:
                raise RuleError("Nothing to change: give charisma, running or rename, or discard the candidate.")
            factions = {f.id: f for f in await faction_rows(uow.session, game_id)}
            await uow.record(game_id, "CandidateChanged", actor, {"name": was, **changes}, source_id)
            view = candidate_view(row, factions)
            return replace(view, renamed_from=was) if rename is not None else view

    # -- the government page --------------------------------------------------------------------------------------

    async def set_government(self, game_id: int, *, president: FactionCode | None = None, approval: int | None = None,
                             fervor: int | None = None, counts: dict[str, int | None] | None = None,
                             no_income_tax: bool = False, since: int | None = None, actor: int | None,
                             source_id: str | None = None) -> GovernmentView:
        """The moderator's facts: the Faction that held the Presidency in the last Business Phase (R1-20), the
        Approval Rating (P1-20), Fervor before the bot kept it, and what is in play. ``since`` (with ``approval``):
        a correction, the approval was off by as much from that turn on (``errata`` tells what it changes)."""
        if since is not None and approval is None:
            raise RuleError("since corrects the Approval Rating from that turn on: give approval with it.")
        wanted = {k: v for k, v in (counts or {}).items() if v is not None}
        if president is None and approval is None and fervor is None and not wanted and not no_income_tax:
            raise RuleError("Nothing to change.")
        async with self._write(game_id, source_id) as uow:
            game = await writable(uow, game_id)
            await require_calm(uow.session, game)
            gov = await government_of(uow.session, game)
            payload: dict[str, Any] = {}
            if president is not None:
                await faction_by_code(uow.session, game, president)
                gov.president = payload["president"] = president.name
            if approval is not None:
                if not 0 <= approval <= 100:
                    raise RuleError(f"An Approval Rating is between 0 and 100, not {approval}.")
                old = approval_of(gov, game)
                gov.approval = payload["approval"] = approval
                if since is not None:
                    if not 1 <= since <= gov.turn:
                        raise RuleError(f"since is the turn the approval was wrong from: 1 to {gov.turn}, not "
                                        f"{since}.")
                    payload.update(since=since, approval_change=approval - old)
                add_history(uow.session, game_id, gov.turn, "approval", "set by the moderators", approval - old,
                            approval, uow.now)
            if fervor is not None:
                if fervor < 0:
                    raise RuleError("Fervor is 0 or more.")
                add_history(uow.session, game_id, gov.turn, "fervor", "set by the moderators (no VP deducted)",
                            fervor - gov.fervor, fervor, uow.now)
                gov.fervor = payload["fervor"] = fervor
            unfunded = wanted.pop("unfunded_last_turn", None)
            if unfunded is not None:
                if unfunded < 0:
                    raise RuleError("unfunded_last_turn is 0 or more.")
                gov.unfunded_last_turn = payload["unfunded_last_turn"] = unfunded
            if wanted or no_income_tax:
                state = in_play_of(gov)
                values = {**state.__dict__, **wanted}
                if no_income_tax:
                    values["income_tax"] = None
                set_in_play(gov, InPlay(**values))
                payload.update(wanted)
                if no_income_tax:
                    payload["income_tax"] = None
            await uow.session.flush()
            await record(uow, game_id, "GovernmentSet", actor, payload, source_id)
            return await government_view(uow.session, game)

    async def government(self, game_id: int) -> GovernmentView:
        async with self._read() as session:
            game = await load_game(session, game_id)
            require_mylantium(game)
            return await government_view(session, game)

    async def history(self, game_id: int) -> HistoryView:
        """The approval and Fervor over the turns (the history chart), read from every recorded change."""
        async with self._read() as session:
            return await history_in(session, game_id)


async def history_in(session: AsyncSession, game_id: int) -> HistoryView:
    """The approval and Fervor over the turns (the history chart), read from every recorded change in ``session``'s
    transaction (the Business Phase's close reads it in its own, so its card's chart is of the turn as it closed:
    ``clerk.followed``)."""
    game = await load_game(session, game_id)
    require_mylantium(game)
    gov = await government_of(session, game)
    logged = await session.execute(select(MylHistory).where(MylHistory.game_id == game_id,
                                                            MylHistory.measure.in_(("approval", "fervor")))
                                   .order_by(MylHistory.id))
    starts = await round_starts(session, game_id)  # one called off is as if never made
    started = starts[0].seq if starts else None
    changes: dict[str, list[tuple[int, int, int]]] = {"approval": [], "fervor": []}
    for h in logged.scalars():
        before_play = started is None or (h.event_seq is not None and h.event_seq < started)
        if not changes[h.measure] and h.turn == 1 and before_play and \
                h.cause.startswith("set by the moderators"):
            continue  # set during set-up: the real start (P1-20), not a change in play (play-test M4.4)
        changes[h.measure].append((h.turn, h.delta, h.value))
    return HistoryView(game_view(game), gov.turn,
                       history_points(changes["approval"], approval_of(gov, game), gov.turn),
                       history_points(changes["fervor"], gov.fervor, gov.turn))
