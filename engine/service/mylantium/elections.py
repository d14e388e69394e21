"""The Election Round through the service (R1-01..R1-14): the round starts with the lock snapshot (P1-04), Factions
realign by DM until the Primary opens, then choose by DM in the Primary and the General Election until the
deadline (changeable, each told what was recorded). At the close the totals and the winner are public; who chose
what stays with the moderators."""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncSession

from engine.core.disclosure import shown
from engine.core.errors import RuleError
from engine.core.stamps import stamp
from engine.core.text import same_name
from engine.mylantium.alignment import Snapshot, check_realign, take_snapshot
from engine.mylantium.approval import incumbent_party
from engine.mylantium.disclosure import general_options, primary_options
from engine.mylantium.elections import Candidate, check_primary_choice, general, primary
from engine.mylantium.model import Faction, FactionCode, Party
from engine.service.announcements import POST_TOKEN, new_post_token, pending_event, result_pending
from engine.service.clock import utc
from engine.service.ledger import game_view, load_game
from engine.service.mylantium.disclosure import with_disclosure
from engine.service.mylantium.records import candidate_view
from engine.service.mylantium.state import (
    approval_of,
    calm_game,
    candidate_of,
    candidate_rows,
    closing_of,
    election_of,
    faction_of_user,
    faction_rows,
    find_candidate,
    government_of,
    live_chain,
    open_election,
    open_else_latest,
    pure_factions,
    require_calm,
    require_mylantium,
    rules_of,
    suspended,
    window_of,
)
from engine.service.mylantium.views import CandidateView, ChoiceReceipt, MylElectionView, RealignReceipt
from engine.service.owed import OwedWith, owe_in
from engine.service.uow import Duplicate, ServiceBase
from engine.store.models import Game
from engine.store.models.mylantium import MylChoice, MylElection, MylFaction, MylGovernment

LATE = timedelta(minutes=1)
"""An election closed by its deadline later than this after it is reported as closed late (the bot was offline,
play-test S4.2), as a Landsdraad round is."""

STAGES = ("primary", "general")


def _title(stage: str) -> str:
    return "Primary" if stage == "primary" else "General Election"


async def election_view(session: AsyncSession, game: Game, row: MylElection, *,
                        already_closed: bool = False) -> MylElectionView:
    rows = await faction_rows(session, game.id)
    found = await session.execute(select(MylChoice.faction_id).where(MylChoice.election_id == row.id))
    chose = set(found.scalars())
    playing = [r for r in rows if r.in_play]
    chain = await live_chain(session, game.id) if row.status == "open" and row.deadline is not None else None
    held = max(timedelta(0), utc(row.deadline) - utc(chain.opened_at)) if chain is not None and row.deadline else None
    return MylElectionView(
        game=game_view(game), turn=row.turn, stage=row.stage, status=row.status, opened_at=utc(row.opened_at),
        deadline=utc(row.deadline) if row.deadline else None,
        chosen=tuple(FactionCode[r.code].plural for r in playing if r.id in chose),
        waiting=tuple(FactionCode[r.code].plural for r in playing if r.id not in chose),
        result=dict(row.result) if row.result else None, already_closed=already_closed, held_left=held)


async def running_candidates(session: AsyncSession, game: Game) -> tuple[CandidateView, ...]:
    """The candidates running now, as the Primary's tally counts them (``_tally``, ``candidate_of``)."""
    factions = {r.id: r for r in await faction_rows(session, game.id)}
    return tuple(candidate_view(c, factions) for c in await candidate_rows(session, game.id)
                 if c.running and not c.discarded and c.faction_id in factions)


def nominees_of(primary_row: MylElection | None) -> dict[str, str | None]:
    if primary_row is None or not primary_row.result:
        return {p.value: None for p in Party}
    return {p.value: primary_row.result.get("nominees", {}).get(p.value) for p in Party}


async def _tally(session: AsyncSession, game: Game, gov: MylGovernment, row: MylElection) -> dict[str, Any]:
    """The result of an election from its choices and the ledger as it stands now."""
    factions, rows = await pure_factions(session, game.id)
    by_id = {r.id: r for r in rows}
    votes = {f.code: f.votes for f in factions if f.in_play}
    found = await session.execute(select(MylChoice).where(MylChoice.election_id == row.id))
    choices = {FactionCode[by_id[c.faction_id].code]: c.choice for c in found.scalars()
               if c.faction_id in by_id and by_id[c.faction_id].in_play}
    candidates = [candidate_of(c, FactionCode[by_id[c.faction_id].code]) for c in await candidate_rows(session, game.id)
                  if c.faction_id in by_id and not c.discarded]
    kept = {"votes": {c.name: v for c, v in votes.items()}}  # the inputs as counted, for /why (explain.py)
    parties = {f.code: f.party for f in factions}
    if row.stage == "primary":
        result = primary(candidates, choices, votes)
        options = primary_options({c: parties[c] for c in choices}, candidates, rules_of(game).primary_any_party)
        options = {c: o | {choices[c]} for c, o in options.items()}
        return with_disclosure(game, votes, options, {line.name: line.faction_votes for line in result.lines}, {
            **kept,
            "lines": [{"name": line.name, "party": line.party.value, "faction_votes": line.faction_votes,
                       "charisma": line.charisma, "total": line.total} for line in result.lines],
            "nominees": {p.value: n for p, n in result.nominees.items()},
            "ties": {p.value: list(t) for p, t in result.ties.items()},
            "choices": {c.name: n for c, n in choices.items()},
        })
    president = FactionCode[gov.president] if gov.president else None
    incumbent = incumbent_party(president, {f.code: f.party for f in factions})
    if incumbent is None:
        raise RuleError("The incumbent party is not known: record which Faction held the Presidency with "
                        "/government set president:.")
    named = nominees_of(await election_of(session, game.id, row.turn, "primary"))
    nominees: dict[Party, Candidate | None] = {}
    for party in Party:
        name = named.get(party.value)
        match = next((c for c in candidates if c.name == name), None)
        nominees[party] = match
    result_g = general(nominees, {c: Party(p) for c, p in choices.items()}, votes, incumbent,
                       approval_of(gov, game), rules_of(game))
    winner_nominee = nominees.get(result_g.winner)
    totals = {p.value: line.faction_votes for p, line in result_g.lines.items()}
    return with_disclosure(game, votes, general_options({c: parties[c] for c in choices}), totals, {
        **kept, "rounding": rules_of(game).rounding,
        "lines": {p.value: {"faction_votes": line.faction_votes, "charisma": line.charisma,
                            "independent": line.independent, "total": line.total}
                  for p, line in result_g.lines.items()},
        "nominees": {p.value: (n.name if n else None) for p, n in nominees.items()},
        "faction_votes_in_play": result_g.faction_votes_in_play, "independent": result_g.independent,
        "incumbent": incumbent.value, "approval": result_g.approval, "winner": result_g.winner.value,
        "tie": result_g.tie, "president": winner_nominee.faction.name if winner_nominee else None,
        "choices": {c.name: p for c, p in choices.items()},
    })


class Elections(ServiceBase):
    """The Election Round, the Primary and the General Election: ``clerk.mylantium.elections``."""

    async def start_election_round(self, game_id: int, *, actor: int | None, source_id: str | None = None,
                                   answer: OwedWith[tuple[int, dict[str, str]]] | None = None
                                   ) -> tuple[int, dict[str, str]]:
        """The start of an Election Round: a new turn (after the last one's Business Phase), and the locks of R1-12
        from a snapshot of the Factions now (P1-03, P1-04). Returns (turn, {Faction: why it is locked}).
        ``answer``: what it announces (the locks), owed in its transaction (``owe_in``)."""
        async with self._write(game_id, source_id) as uow:
            game = await calm_game(uow.session, game_id)
            gov = await government_of(uow.session, game)
            if await open_election(uow.session, game_id) is not None:
                raise RuleError("An election is open; close it first.")
            if gov.election_started or gov.business_closed:
                if not gov.business_closed:
                    raise RuleError(f"Turn {gov.turn}'s Election Round has already started; a new one starts after "
                                    "its Business Phase (/phase business close).")
                gov.turn += 1
                gov.business_closed = False
            factions, _ = await pure_factions(uow.session, game_id)
            president = FactionCode[gov.president] if gov.president else None
            snapshot = take_snapshot(factions, president)
            gov.election_started = True
            gov.snapshot = {c.name: why for c, why in snapshot.locks.items()}
            await uow.session.flush()
            await uow.record(game_id, "ElectionRoundStarted", actor, {"turn": gov.turn, "locks": gov.snapshot},
                             source_id)
            return await owe_in(uow, answer, (gov.turn, {FactionCode[c].plural: why
                                                         for c, why in gov.snapshot.items()}))

    async def realign(self, game_id: int, *, user_id: int, party: Party, source_id: str | None,
                      answer: OwedWith[RealignReceipt] | None = None) -> RealignReceipt:
        """R1-11..R1-13: by DM at the start of the Election Round; the Faction loses its candidate. ``answer``: its
        answer, owed in the realignment's transaction (``owe_in``)."""
        try:
            async with self._write(game_id, source_id) as uow:
                game, gov, row, me = await _realignable(uow.session, game_id, user_id, party)
                old = Party(row.party)
                row.party, row.realigned_turn = party.value, gov.turn
                discarded = None
                for c in await candidate_rows(uow.session, game_id):
                    if c.faction_id == row.id and not c.discarded:
                        c.discarded, c.running, discarded = True, False, c.name
                await uow.session.flush()
                await uow.record(game_id, "FactionRealigned", user_id,
                                 {"faction": row.code, "from": old.value, "to": party.value, "turn": gov.turn,
                                  "candidate_discarded": discarded}, source_id)
                return await owe_in(uow, answer, RealignReceipt(game_view(game), me.code, old, party, discarded))
        except Duplicate as dup:
            if dup.kind != "FactionRealigned":
                raise RuleError("That message was already handled.") from None
            async with self._read() as session:
                game = await load_game(session, game_id)
                p = dup.payload
                return RealignReceipt(game_view(game), FactionCode[p["faction"]], Party(p["from"]), Party(p["to"]),
                                      p.get("candidate_discarded"), duplicate=True)

    async def open_election(self, game_id: int, *, stage: str, deadline: datetime | None, actor: int | None,
                            source_id: str | None = None,
                            answer: OwedWith[MylElectionView] | None = None) -> MylElectionView:
        """The turn's Primary or General Election opens. ``answer``: what it announces (its card), owed in its
        transaction (``owe_in``)."""
        if stage not in STAGES:
            raise RuleError("An election is the primary or the general.")
        async with self._write(game_id, source_id) as uow:
            game = await calm_game(uow.session, game_id)
            gov = await government_of(uow.session, game)
            if deadline is not None and deadline <= uow.now:
                raise RuleError("The deadline must be in the future.")
            if await open_election(uow.session, game_id) is not None:
                raise RuleError("An election is already open; close it first.")
            if not gov.election_started or gov.business_closed:
                raise RuleError("Start the Election Round first with /election start: Factions may realign until "
                                "the Primary opens.")
            primary_row = await election_of(uow.session, game_id, gov.turn, "primary")
            if stage == "primary" and primary_row is not None:
                raise RuleError(f"Turn {gov.turn}'s Primary has already been held.")
            if stage == "general":
                if primary_row is None or primary_row.status != "closed":
                    raise RuleError("The General Election follows the Primary: open and close the Primary first.")
                if await election_of(uow.session, game_id, gov.turn, "general") is not None:
                    raise RuleError(f"Turn {gov.turn}'s General Election has already been held.")
                if gov.president is None:
                    raise RuleError("The incumbent party is not known: record which Faction held the Presidency "
                                    "with /government set president: first.")
                result = primary_row.result or {}
                for party, tied in (result.get("ties") or {}).items():  # P1-16: the moderator names the nominee
                    if tied and not (result.get("nominees") or {}).get(party):
                        title = Party(party).title
                        raise RuleError(f"The {title} Primary ended in a tie ({', '.join(tied)}) and no {title} "
                                        f"nominee is named yet; once the General Election opens its nominees can no "
                                        f"longer change and the party would run without Charisma. Name the nominee "
                                        f"first: /election nominee party:{title} candidate:<one of them>. "
                                        "Nothing was opened.")
            row = MylElection(game_id=game_id, turn=gov.turn, stage=stage, status="open", opened_at=uow.now,
                              deadline=deadline)
            uow.session.add(row)
            await uow.session.flush()
            await uow.record(game_id, "ElectionOpened", actor,
                             {"turn": gov.turn, "stage": stage,
                              "deadline": deadline.isoformat() if deadline else None}, source_id)
            view = await election_view(uow.session, game, row)
            if stage == "primary":
                view = replace(view, running=await running_candidates(uow.session, game))
            return await owe_in(uow, answer, view)

    async def move_deadline(self, game_id: int, *, deadline: datetime, actor: int | None,
                            source_id: str | None = None,
                            answer: OwedWith[tuple[MylElectionView, datetime | None]] | None = None
                            ) -> tuple[MylElectionView, datetime | None]:
        """Set or move the open election's deadline (play-test U1.2: one opened with the wrong deadline could not be
        corrected). Refused while a Revolution holds it (its time left runs on when play resumes), for a time not
        in the future, and for the deadline it already has. Returns the election and the deadline it had.
        ``answer``: what it announces, owed in its transaction (``owe_in``)."""
        async with self._write(game_id, source_id) as uow:
            game = await calm_game(uow.session, game_id)
            row = await open_election(uow.session, game_id)
            if row is None:
                raise RuleError(f"No election is open in {game.name}; a deadline is given when one opens "
                                "(/election primary open deadline:…, /election general open deadline:…).")
            if deadline <= uow.now:
                raise RuleError("The deadline must be in the future.")
            was = utc(row.deadline) if row.deadline is not None else None
            if was == deadline:
                raise RuleError(f"The {_title(row.stage)} already closes {stamp(deadline)}: nothing was changed.")
            row.deadline = deadline
            await uow.record(game_id, "ElectionDeadlineSet", actor,
                             {"turn": row.turn, "stage": row.stage, "deadline": deadline.isoformat(),
                              "was": was.isoformat() if was else None}, source_id)
            return await owe_in(uow, answer, (await election_view(uow.session, game, row), was))

    async def choose(self, game_id: int, *, user_id: int, stage: str, choice: str, at: datetime,
                     source_id: str | None, answer: OwedWith[ChoiceReceipt] | None = None) -> ChoiceReceipt:
        """A Faction's choice: a candidate in the Primary, a party in the General Election. A new one replaces the
        old until the deadline; one at or after it is refused (P0-15's rule, as for every ballot). ``answer``: its
        receipt, owed in the choice's transaction (``owe_in``)."""
        try:
            async with self._write(game_id, source_id) as uow:
                game, row, faction, value = await _choosable(uow.session, game_id, user_id, stage, choice, at)
                code = FactionCode[faction.code]
                replaced = await _store_choice(uow.session, row, faction, value, at, source_id)
                factions, _ = await pure_factions(uow.session, game_id)
                votes = next(f.votes for f in factions if f.code is code)
                await uow.session.flush()
                await uow.record(game_id, "ChoiceMade", user_id,
                                 {"turn": row.turn, "stage": stage, "faction": code.name, "choice": value,
                                  "replaced": replaced, "at": at.isoformat()}, source_id)
                return await owe_in(uow, answer, ChoiceReceipt(game_view(game), row.turn, stage, code, value,
                                                               replaced, votes,
                                                               utc(row.deadline) if row.deadline else None))
        except Duplicate as dup:
            if dup.kind != "ChoiceMade":
                raise RuleError("That message was already handled.") from None
            p = dup.payload
            async with self._read() as session:
                game = await load_game(session, game_id)
                return ChoiceReceipt(game_view(game), int(p["turn"]), str(p["stage"]), FactionCode[p["faction"]],
                                     str(p["choice"]), p.get("replaced"), 0, None, duplicate=True)

    async def recorded_receipt(self, game_id: int, payload: dict[str, Any]) -> ChoiceReceipt:
        """The receipt of a choice recorded as ``payload`` (its ``ChoiceMade``), as ``choose`` returned it: for a
        choice committed whose receipt was never owed (the bot was killed between the two, play-test S4.5). The
        Faction's votes are as they stand now (they count as they stand at the close)."""
        async with self._read() as session:
            game = await load_game(session, game_id)
            require_mylantium(game)
            code = FactionCode[str(payload["faction"])]
            factions, _ = await pure_factions(session, game_id)
            votes = next((f.votes for f in factions if f.code is code), 0)
            row = await election_of(session, game_id, int(payload["turn"]), str(payload["stage"]))
            deadline = utc(row.deadline) if row is not None and row.deadline else None
            return ChoiceReceipt(game_view(game), int(payload["turn"]), str(payload["stage"]), code,
                                 str(payload["choice"]), payload.get("replaced"), votes, deadline)

    async def refusal(self, game_id: int, *, user_id: int, stage: str, choice: str, at: datetime) -> str | None:
        """Why ``choose`` would refuse this choice now (its refusal's text), or None if it would take it; nothing is
        recorded. An answer's hint is checked with it before it suggests a form (play-test M5.4)."""
        async with self._read() as session:
            try:
                if stage == "realign":
                    await _realignable(session, game_id, user_id, Party(choice))
                else:
                    await _choosable(session, game_id, user_id, stage, choice, at)
            except RuleError as error:
                return str(error)
        return None

    async def close_election(self, game_id: int, *, actor: int | None, source_id: str | None = None,
                             expected: tuple[int, str] | None = None,
                             answer: OwedWith[MylElectionView] | None = None) -> MylElectionView | None:
        """Tally with the Faction Votes as they stand now; ``expected`` (turn, stage) from the deadline makes a late
        or repeated timer a no-op (None). ``answer``: what the close posts that nothing posts again after a kill (a
        result the disclosure check holds back: its moderators' warning and the card saying so), owed in its
        transaction (``owe_in``); a result announced in full is posted again after a kill (``ResultPending``)."""
        try:
            async with self._write(game_id, source_id) as uow:
                game = await load_game(uow.session, game_id)
                require_mylantium(game)
                row = await open_election(uow.session, game_id)
                if expected is not None and (row is None or (row.turn, row.stage) != expected
                                             or await live_chain(uow.session, game_id) is not None):
                    return None  # a chain holds the deadline (resume_election moves it on)
                await require_calm(uow.session, game)
                if row is None:
                    raise RuleError(f"No election is open in {game.name}.")
                gov = await government_of(uow.session, game)
                result = await _tally(uow.session, game, gov, row)
                if expected is not None and row.deadline is not None and uow.now - utc(row.deadline) > LATE:
                    result["due_at"] = utc(row.deadline).isoformat()  # closed late: the bot was offline
                closing = await closing_of(uow.session, game_id, row.turn, row.stage)
                if closing > 1:  # closed again after /election reopen: a new result, announced anew
                    result["closing"] = closing
                result[POST_TOKEN] = new_post_token()  # this close's own: its card's nonce carries it (V2.2)
                if row.stage == "general" and result.get("president"):
                    gov.president = result["president"]
                row.status, row.closed_at, row.result = "closed", uow.now, result
                await uow.session.flush()
                await uow.record(game_id, "ElectionClosed", actor,
                                 {"turn": row.turn, "stage": row.stage, "result": result,
                                  "by_deadline": expected is not None}, source_id)
                if not (result.get("disclosure") or {}).get("held"):  # a held result is announced when released
                    await uow.run(result_pending, game_id, row.stage, row.turn, closing)  # again after a kill
                return await owe_in(uow, answer, await election_view(uow.session, game, row))
        except Duplicate:
            return None

    async def release_result(self, game_id: int, *, stage: str | None, actor: int | None,
                             source_id: str | None = None) -> MylElectionView:
        """An election result of this turn held by the disclosure check (``disclosure: hold``) is released and
        announced in full, as any result is (``ResultPending``, so a kill before the post posts it at start)."""
        async with self._write(game_id, source_id) as uow:
            game = await load_game(uow.session, game_id)
            require_mylantium(game)
            gov = await government_of(uow.session, game)
            held = [row for st in (("primary", "general") if stage is None else (stage,))
                    if (row := await election_of(uow.session, game_id, gov.turn, st)) is not None
                    and shown((row.result or {}).get("disclosure")) == "held"]
            if not held:
                raise RuleError(f"No election result of turn {gov.turn} in {game.name} is held back; there is nothing "
                                "to release.")
            row = held[-1]
            result = dict(row.result or {})
            result["disclosure"] = {**result["disclosure"], "released": True}
            result[POST_TOKEN] = new_post_token()  # the release's card is a new one: a nonce of its own
            row.result = result
            await uow.session.flush()
            await uow.record(game_id, "ResultReleased", actor, {"kind": row.stage, "number": row.turn}, source_id)
            await uow.record(game_id, *pending_event(row.stage, row.turn, int(result.get("closing", 1))))
            return await election_view(uow.session, game, row)

    async def name_nominee(self, game_id: int, *, party: Party, candidate: str, actor: int | None,
                           source_id: str | None = None,
                           answer: OwedWith[MylElectionView] | None = None) -> MylElectionView:
        """The moderator names a party's nominee: after a tied Primary (P1-16 leaves it to the moderator) or to
        correct one, until the General Election opens. ``answer``: what it announces, owed in its transaction
        (``owe_in``)."""
        async with self._write(game_id, source_id) as uow:
            game = await load_game(uow.session, game_id)
            require_mylantium(game)
            gov = await government_of(uow.session, game)
            row = await election_of(uow.session, game_id, gov.turn, "primary")
            if row is None or row.status != "closed" or row.result is None:
                raise RuleError("Nominees are named after this turn's Primary has closed.")
            if await election_of(uow.session, game_id, gov.turn, "general") is not None:
                raise RuleError("The General Election has opened; its nominees can no longer change.")
            cand = await find_candidate(uow.session, game, candidate)
            if cand.party != party.value:
                raise RuleError(f"{cand.name} is a {Party(cand.party).title} candidate.")
            result = dict(row.result)
            if (result.get("nominees") or {}).get(party.value) == cand.name:  # play-test M5.7: not posted twice
                raise RuleError(f"{cand.name} is already the {party.title} nominee; nothing changed.")
            result["nominees"] = {**result.get("nominees", {}), party.value: cand.name}
            result["named_by_moderator"] = sorted({*result.get("named_by_moderator", []), party.value})
            row.result = result
            await uow.record(game_id, "NomineeNamed", actor, {"turn": gov.turn, "party": party.value,
                                                               "candidate": cand.name}, source_id)
            return await owe_in(uow, answer, await election_view(uow.session, game, row))

    async def election_of(self, game_id: int, turn: int, stage: str) -> MylElectionView | None:
        """Turn ``turn``'s ``stage`` (primary, general) election, or None (the result's announcement after a kill)."""
        async with self._read() as session:
            game = await load_game(session, game_id)
            require_mylantium(game)
            row = await election_of(session, game_id, turn, stage)
            return await election_view(session, game, row) if row else None

    async def election(self, game_id: int) -> MylElectionView | None:
        """The open election, else the latest; None before the first."""
        async with self._read() as session:
            game = await load_game(session, game_id)
            require_mylantium(game)
            row = await open_else_latest(session, game_id, await open_election(session, game_id), MylElection,
                                         MylElection.id)
            return await election_view(session, game, row) if row else None

    async def names_candidate(self, game_id: int, name: str) -> bool:
        """Whether one of the game's candidates (not discarded) is called ``name``, case and spaces aside: the exact
        match ``choose`` takes before a start of a name (``find_candidate``)."""
        async with self._read() as session:
            return any(same_name(c.name, name) for c in await candidate_rows(session, game_id) if not c.discarded)

    async def deadline_source(self, game_id: int, turn: int, stage: str) -> str:
        """The source id of the close of turn ``turn``'s ``stage`` election by its deadline: one per close, so an
        election reopened (``/election reopen``) closes again by its new deadline."""
        async with self._read() as session:
            closing = await closing_of(session, game_id, turn, stage)
        return f"myl-election-deadline:{game_id}:{turn}:{stage}" + (f":{closing}" if closing > 1 else "")

    async def pending_elections(self) -> list[tuple[int, int, str, datetime]]:
        """Open Mylantium elections with a deadline: (game id, turn, stage, deadline), soonest first."""
        async with self._read() as session:
            rows = await session.execute(select(MylElection.game_id, MylElection.turn, MylElection.stage,
                                                MylElection.deadline)
                                         .join(Game, Game.id == MylElection.game_id)
                                         .where(MylElection.status == "open", MylElection.deadline.is_not(None),
                                                Game.status != "ended",  # a closed ledger closes nothing more
                                                ~suspended(MylElection.game_id))  # held during a chain
                                         .order_by(MylElection.deadline))
            return [(g, t, s, utc(d)) for g, t, s, d in rows.all() if d is not None]


def _open_for(game: Game, row: MylElection | None, stage: str, at: datetime,
              closed: MylElection | None = None) -> MylElection:
    """The open election if it is ``stage``'s and its deadline has not passed. ``closed``: this turn's ``stage``
    election, when it has closed: a choice after it is told when it closed and that the one sent before stands
    (play-test S5.4, as a late Landsdraad ballot is, P5.4)."""
    if row is None or row.stage != stage:
        now = f" (the {_title(row.stage)} is)" if row is not None else ""
        if closed is not None and closed.status == "closed" and closed.closed_at is not None:
            ended = min(utc(closed.closed_at), utc(closed.deadline)) if closed.deadline else utc(closed.closed_at)
            now = f"; the {_title(row.stage)} is open now" if row is not None else ""
            raise RuleError(f"The {_title(stage)} of turn {closed.turn} in {game.name} closed at {stamp(ended)}{now}: "
                            "a choice sent after it is not taken, and one sent before it, if any, stood.")
        raise RuleError(f"The {_title(stage)} is not open in {game.name}{now}.")
    if row.deadline is not None and at >= utc(row.deadline):
        raise RuleError(f"The {_title(stage)} closed at {stamp(utc(row.deadline))}; your "
                        "choice came too late and your earlier one, if any, stands.")
    return row


async def _choosable(session: AsyncSession, game_id: int, user_id: int, stage: str, choice: str,
                     at: datetime) -> tuple[Game, MylElection, MylFaction, str]:
    """``choose``'s checks: the game, its open election, the chooser's Faction and what it chooses; raises the
    refusal."""
    game = await load_game(session, game_id)
    # a removed Faction's player is told so first, whatever is open (play-test Q4.2); the one lookup of the Faction
    mine = await faction_of_user(session, game, user_id) if game.status != "ended" else None
    if game.status != "ended" and await live_chain(session, game_id) is not None:
        raise RuleError(f"A Revolution is under way and play is suspended until it runs its course "
                        f"(/revolution status). The {_title(stage)}'s deadline is held meanwhile; send "
                        "your choice again once play resumes.")
    game = await calm_game(session, game_id)
    row = await open_election(session, game_id)
    closed = None
    if row is None or row.stage != stage:
        closed = await election_of(session, game_id, (await government_of(session, game)).turn, stage)
    row = _open_for(game, row, stage, at, closed)
    _, faction = mine or await faction_of_user(session, game, user_id)
    if not faction.in_play:
        raise RuleError("Your Faction has withdrawn from the game.")
    return game, row, faction, await _chosen(session, game, faction, stage, choice)


async def _realignable(session: AsyncSession, game_id: int, user_id: int,
                       party: Party) -> tuple[Game, MylGovernment, MylFaction, Faction]:
    """``realign``'s checks (R1-11..R1-13): the game, its government page, the Faction's row and its rules' view;
    raises the refusal."""
    game = await calm_game(session, game_id)
    gov = await government_of(session, game)
    _, row = await faction_of_user(session, game, user_id)
    factions, _ = await pure_factions(session, game_id)
    me = next(f for f in factions if f.code.name == row.code)
    snapshot = Snapshot({FactionCode[c]: why for c, why in gov.snapshot.items()})
    check_realign(me, party, snapshot, await window_of(session, gov), row.realigned_turn == gov.turn)
    return game, gov, row, me


async def _chosen(session: AsyncSession, game: Game, faction: MylFaction, stage: str, choice: str) -> str:
    """What ``faction`` chooses: a candidate's name in the Primary (one it may choose), a party in the General."""
    if stage != "primary":
        return Party(choice).value
    cand = await find_candidate(session, game, choice)
    owner = await session.get(MylFaction, cand.faction_id)
    assert owner is not None
    if not owner.in_play and not cand.running:  # why, not only that (play-test X5.1)
        raise RuleError(f"{cand.name} is not running in this Primary: the {FactionCode[owner.code].plural} have "
                        "withdrawn from the game.")
    check_primary_choice(Party(faction.party), candidate_of(cand, FactionCode[owner.code]), rules_of(game))
    return cand.name


async def _store_choice(session: AsyncSession, row: MylElection, faction: MylFaction, value: str, at: datetime,
                        source_id: str | None) -> str | None:
    """The Faction's choice in ``row``, replacing its earlier one (returned, or None)."""
    found = await session.execute(select(MylChoice).where(MylChoice.election_id == row.id,
                                                          MylChoice.faction_id == faction.id))
    existing = found.scalar_one_or_none()
    replaced = existing.choice if existing else None
    if existing is None:
        existing = MylChoice(election_id=row.id, faction_id=faction.id)
        session.add(existing)
    existing.choice, existing.received_at, existing.source_id = value, at, source_id
    return replaced
