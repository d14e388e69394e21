"""Corrections with their consequences (issue 19): which closed crisis rounds would have come out differently under
the ledger as corrected, and the erratum a moderator posts for one of them.

A closed round is counted again from what its close recorded (``RoundClosed``: every voter's V(p) and ballot; the
round's temporary factions and rolls) with the weights the corrections change, by ``engine.landsdraad.errata``
(``crisis.resolve``, the close's own function). The corrections that change a closed round's weights are the
corrected transfers that the ledger applied (``TransferApplied`` moved an Elector or planet): under the corrected
entry the holding is with its recipient from the entry's round on, with its sender before, or with the sender
throughout when the correction cancels the transfer or makes it move something else (docs/rulings.md), worth to
each what it was worth at the Diplomacy the close read. The closed weighted AG elections are counted again by
``ag_errata`` from the same reading of each chain of corrections (``_Ledger.corrected``, handed over as
``ag_errata.HoldingMove``). Nothing recorded is changed: an erratum is a new post and a new event
(``ErratumPosted``)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from engine.core.errors import NotFoundError, RuleError
from engine.landsdraad.close_weights import rows_of
from engine.landsdraad.errata import (
    ClosedRound,
    Recount,
    Voter,
    WeightChange,
    consequences,
    holder_in,
    holding_worth,
    recount,
)
from engine.landsdraad.model import Option
from engine.landsdraad.tally import Tally
from engine.landsdraad.transfers import holding_named
from engine.service.announcements import jump_link, posted_key
from engine.service.landsdraad.ag_errata import AgCorrection, HoldingMove, ag_after, ag_differing
from engine.service.landsdraad.audits import latest_versions
from engine.service.landsdraad.ledger import removal_source
from engine.service.landsdraad.round_close import disclosed
from engine.service.landsdraad.round_state import faction_of, read_factions
from engine.service.landsdraad.transfer_moves import APPLIED
from engine.service.landsdraad.votes_asof import KINDS, ledger_then
from engine.service.ledger import game_view, read_game
from engine.service.owed import OwedWith, owe_in
from engine.service.uow import ServiceBase
from engine.service.views import GameView
from engine.store.models import Event, Player, PostedMessage
from engine.store.models.landsdraad import Holding, Round, TransferRow

ERRATUM = "ErratumPosted"
NEVER_APPLIED = "it was never applied to the ledger, so no closed round counted it"
EDITS = (APPLIED, "PlayerChanged", "HoldingAdded", "HoldingRemoved")
"""Moderators' edits of the ledger; one with ``since`` is a correction: it should have counted from that round on."""
MOVES = (APPLIED, "HoldingAdded", "HoldingRemoved")
"""Events after which a holding is where they put it (a later transfer, a moderator's edit), whatever a correction
of an earlier transfer says."""

HOW_TO_CORRECT = ("(A change counts from now on unless it says from when: `since:N` on /player set, /holding add or "
                  "/holding remove makes it a correction from round N on; /transfer correct corrects a transfer.)")
"""What the refusal of an erratum with nothing to correct adds: a moderator who changed the ledger after the fact
without ``since`` has not corrected the past."""


@dataclass(frozen=True)
class Consequences:
    """What a correction changes in the closed results: only those that would have come out differently."""

    game: GameView
    subject: str
    recounts: tuple[Recount, ...]
    names: Mapping[int, str]
    """Players' names by user id (for the changes)."""
    note: str | None = None
    """Why no closed result could have read the correction (it was never applied to the ledger, ...)."""
    never_applied: bool = False
    """The corrected transfer was never applied to the ledger: no close read it."""
    ag_recounts: tuple[AgCorrection, ...] = ()
    """The closed weighted AG elections the correction changes (``ag_errata``)."""


@dataclass(frozen=True)
class Erratum:
    """An erratum posted for a closed round: the corrected tally and the original result card's place."""

    game: GameView
    recount: Recount
    channel_id: int | None
    message_id: int | None
    disclosure: Mapping[str, Any] | None = None
    """What the disclosure check found in the corrected totals (moderators only): as a close's ``disclosure``."""

    @property
    def link(self) -> str | None:
        """The Discord jump link of the original result card (None if Clerk did not keep where it went)."""
        return jump_link(self.game.guild_id, self.channel_id, self.message_id)


@dataclass(frozen=True)
class AgErratum:
    """An erratum posted for a closed weighted AG election: its recount and the original result card's place."""

    game: GameView
    correction: AgCorrection
    channel_id: int | None
    message_id: int | None

    @property
    def link(self) -> str | None:
        return jump_link(self.game.guild_id, self.channel_id, self.message_id)


def tally_of(result: Mapping[str, Any]) -> Tally:
    return Tally(aye=int(result["aye"]), nay=int(result["nay"]), abstain=int(result["abstain"]))


def closed_rounds(session: Session, game_id: int) -> dict[int, tuple[ClosedRound, int]]:
    """Round number -> what its close recorded and posted, and the id of its ``RoundClosed`` event."""
    rows = {r.number: r for r in session.execute(select(Round).where(Round.game_id == game_id,
                                                                     Round.status == "closed")).scalars()}
    found: dict[int, tuple[ClosedRound, int]] = {}
    for event in session.execute(select(Event).where(Event.game_id == game_id, Event.kind == "RoundClosed")
                                 .order_by(Event.id)).scalars():
        p = event.payload
        rnd = rows.get(int(p["round"]))
        if rnd is None or "weights" not in p:  # a close that did not record its voters cannot be counted again
            continue
        voters = tuple(Voter(int(user_id), str(name), int(votes), Option(ballot) if ballot else None)
                       for user_id, name, votes, ballot in rows_of(p))
        factions = tuple(faction_of(f) for f in read_factions(session, rnd.id))
        rolls = {str(k): int(v) for k, v in (p.get("rolls") or {}).items()}
        found[rnd.number] = (ClosedRound(rnd.number, voters, factions, rolls, tally_of(p["result"])), event.id)
    return found


@dataclass(frozen=True)
class _Corrected:
    """A chain of corrections of a transfer that moved ``holding`` from ``sender`` to ``taker`` (event ``applied``),
    as it now stands: with ``recipient`` from round ``since`` on (None: with the sender throughout); ``until`` the
    later move of the holding that ends the correction's reach; ``start`` the seq from which it counts in round
    ``since`` itself (``ag_errata.HoldingMove``)."""

    holding: str
    sender: int
    taker: int
    recipient: int | None
    since: int
    applied: Event
    until: Event | None
    start: int


@dataclass(frozen=True)
class _Described:
    """An Elector or planet as the ledger had it: what its worth to a holder is read from (``holding_worth``)."""

    kind: str
    grade: str | None
    votes: int
    homeworld: bool


class _Ledger:
    """What the corrections are read against, read once: entries, applies, moves, holdings and players."""

    def __init__(self, session: Session, game_id: int) -> None:
        self.rows = {r.id: r for r in session.execute(select(TransferRow).where(TransferRow.game_id == game_id))
                     .scalars()}
        moves = list(session.execute(select(Event).where(Event.game_id == game_id, Event.kind.in_(EDITS))
                                     .order_by(Event.id)).scalars())
        self.edits = [e for e in moves if e.payload.get("since") is not None]
        moves = [e for e in moves if e.kind in MOVES]
        self.moves = moves
        self.applied = {int(e.payload["id"]): e for e in moves if e.kind == APPLIED}
        self.holdings = {h.name: h for h in session.execute(select(Holding).where(Holding.game_id == game_id))
                         .scalars()}
        players = list(session.execute(select(Player).where(Player.game_id == game_id)).scalars())
        self.user_of = {p.id: p.user_id for p in players}
        self.diplomacy = {p.user_id: p.diplomacy for p in players}
        self.names = {p.user_id: p.name for p in players}
        self.recorded = {int(e.payload["id"]): int(e.seq) for e in session.execute(select(Event).where(
            Event.game_id == game_id, Event.kind == "TransferRecorded")).scalars()}
        """Entry id -> the seq of the event that recorded it."""
        self._session, self._game_id = session, game_id
        self._events: list[tuple[int, str, dict[str, Any]]] | None = None
        self._seqs: dict[int, int] = {}

    def diplomacy_at(self, user: int, event_id: int) -> int:
        """User ``user``'s Diplomacy as the ledger's events had it at event ``event_id`` (a round's close: what the
        close read, as the AG recount's ``votes_asof`` rebuild has it); as it is now when the events do not have
        their start."""
        if self._events is None:
            rows = self._session.execute(select(Event.id, Event.seq, Event.kind, Event.payload).where(
                Event.game_id == self._game_id, Event.kind.in_((*KINDS, "RoundClosed"))).order_by(Event.seq))
            self._events = []
            for i, seq, kind, payload in rows.all():
                self._seqs[int(i)] = int(seq)
                if kind in KINDS:
                    self._events.append((int(seq), str(kind), dict(payload)))
        then = ledger_then(self._events, user, self._seqs.get(event_id, 0)) if event_id in self._seqs else None
        return then.attributes.diplomacy if then is not None else self.diplomacy.get(user, 0)

    def as_moved(self, name: str, applied: Event) -> _Described | None:
        """Holding ``name`` as it was when event ``applied`` moved it: what every close the correction reaches read
        (a later move of it, ``/holding remove`` or ``add`` among them, ends that reach), so what it is now, or
        whether it is in the ledger at all, does not enter a closed round's recount. From its ``HoldingAdded``
        before the move; from the ledger's holding of that name only when the events do not have it."""
        added = [e for e in self.moves if e.kind == "HoldingAdded" and e.id < applied.id
                 and e.payload.get("name") == name]
        if added:
            p = added[-1].payload
            return _Described(str(p["kind"]), p.get("grade"), int(p.get("votes") or 0), bool(p.get("homeworld")))
        now = self.holdings.get(name)
        if now is None:
            return None
        return _Described(now.kind, now.grade, now.votes, now.homeworld)

    def chain(self, root: int) -> list[TransferRow]:
        """Every entry of the chain of corrections that starts at entry ``root``, oldest first."""
        members = {root}
        for row in sorted(self.rows.values(), key=lambda r: r.id):
            if row.corrects_id in members:
                members.add(row.id)
        return [self.rows[i] for i in sorted(members)]

    def root(self, entry_id: int) -> int:
        row = self.rows[entry_id]
        while row.corrects_id is not None and row.corrects_id in self.rows:
            row = self.rows[row.corrects_id]
        return row.id

    def corrected(self, root: int) -> _Corrected | None:
        """How the chain starting at ``root`` as it now stands places the holding its applied move moved; None when
        no entry of the chain was applied (it moved nothing)."""
        chain = self.chain(root)
        applied = [self.applied[r.id] for r in chain if r.id in self.applied]
        if not applied:
            return None
        move = applied[0].payload
        name = str(move["holding"])
        moved = self.as_moved(name, applied[0])
        kind = moved.kind if moved is not None else str(move.get("kind") or "")
        latest = latest_versions(chain)[root]
        recipient: int | None = None
        if (latest.kind == "item" and latest.item and latest.to_id is not None
                and holding_named(latest.item, [(kind, name)]) is not None):
            recipient = self.user_of.get(latest.to_id)
        until = next((e for e in self.moves if e.id > applied[0].id and e.id not in {a.id for a in applied}
                      and (e.payload.get("holding") == name or e.payload.get("name") == name)), None)
        moved_round = latest.round_number != self.rows[root].round_number
        start = 0 if moved_round else self.recorded.get(root, 0)
        return _Corrected(name, int(move["from"]), int(move["to"]), recipient, latest.round_number, applied[0],
                          until, start)

    def changes(self, root: int, rounds: Mapping[int, tuple[ClosedRound, int]]
                ) -> tuple[list[WeightChange], str | None]:
        """The weight changes, round by round, of the chain starting at ``root`` as it now stands."""
        placed = self.corrected(root)
        if placed is None:
            return [], NEVER_APPLIED
        name, sender, taker, recipient = placed.holding, placed.sender, placed.taker, placed.recipient
        holding = self.as_moved(name, placed.applied)
        if holding is None:
            return [], f"{name} is not in the ledger's events, so its worth to a holder is unknown"
        found: list[WeightChange] = []
        for number, (_, closed_id) in sorted(rounds.items()):
            if placed.until is not None and closed_id > placed.until.id:
                continue
            if self.restated(name, number, closed_id):
                continue
            held = taker if closed_id > placed.applied.id else sender
            should = holder_in(number, sender, recipient, placed.since)
            if held == should:
                continue
            why = f"{name} with {self.names.get(should, should)}, not {self.names.get(held, held)}"
            for user, sign in ((held, -1), (should, 1)):
                worth = holding_worth(self.diplomacy_at(user, closed_id), holding.kind, holding.grade,
                                      holding.votes, holding.homeworld)
                found.append(WeightChange(number, user, sign * worth, why))
        return found, None

    def restated(self, name: str, number: int, closed_id: int) -> bool:
        """Whether a ledger edit made as a correction (``/holding remove`` or ``add`` with ``since``) of holding
        ``name`` reaches round ``number`` (closed by event ``closed_id``): it says where the holding was in that
        round itself, and counts its own change there (``edit_changes``), so a corrected transfer of the holding does
        not count its move there too (docs/rulings.md: the moderator's moving it by hand with ``since:`` after, or
        before, ``/transfer correct`` is not counted twice)."""
        return any(e.kind in ("HoldingAdded", "HoldingRemoved") and e.payload.get("name") == name
                   and int(e.payload["since"]) <= number and closed_id < e.id for e in self.edits)

    def ag_move(self, root: int) -> HoldingMove | None:
        """The chain starting at ``root`` as the AG recount reads it (``ag_errata``, in event seqs)."""
        placed = self.corrected(root)
        if placed is None:
            return None
        return HoldingMove(placed.holding, placed.sender, placed.recipient, placed.since, placed.start,
                           placed.until.seq if placed.until is not None else None)

    def roots(self) -> list[int]:
        """The first entry of every chain of corrections (the entries that were corrected)."""
        return sorted({self.root(r.id) for r in self.rows.values() if r.corrects_id is not None})

    def ag_moves(self) -> list[HoldingMove]:
        """Every corrected transfer that had moved a holding, as the AG recount reads it."""
        return [m for m in (self.ag_move(root) for root in self.roots()) if m is not None]

    def edit_changes(self, edit: Event, rounds: Mapping[int, tuple[ClosedRound, int]]) -> list[WeightChange]:
        """An edit made as a correction (``since``): its change of V(p) in each round from ``since`` on that closed
        before it."""
        p = edit.payload
        user, since, change = int(p["user_id"]), int(p["since"]), int(p.get("votes_change", 0))
        why = f"{self.names.get(user, user)}: {edit_words(edit)} from round {since}"
        return [WeightChange(number, user, change, why) for number, (_, closed_id) in sorted(rounds.items())
                if number >= since and closed_id < edit.id and change]

    def every_change(self, rounds: Mapping[int, tuple[ClosedRound, int]]) -> list[WeightChange]:
        """The changes of every corrected transfer and every edit made as a correction: the ledger as corrected so
        far."""
        return ([c for root in self.roots() for c in self.changes(root, rounds)[0]]
                + [c for e in self.edits for c in self.edit_changes(e, rounds)])


def edit_words(edit: Event) -> str:
    """``diplomacy 4, misc 2``, ``Lankiveil added``, ``Lankiveil removed``."""
    p = edit.payload
    if edit.kind == "PlayerChanged":
        return ", ".join(f"{'d3' if k == 'roll' else k} {p[k]}" for k in ("diplomacy", "command", "intrigue", "roll",
                                                                          "misc") if k in p)
    if edit.kind == "HoldingAdded" and p.get("was"):  # /holding set: removed and added again as corrected
        return f"{p.get('name')} set to {holding_words(p)}"
    return f"{p.get('name')} {'added' if edit.kind == 'HoldingAdded' else 'removed'}"


def holding_words(p: Mapping[str, Any]) -> str:
    """``rich planet``, ``Homeworld``, ``strong Elector, 4 votes`` of a ``HoldingAdded``'s payload."""
    if p.get("kind") == "elector":
        return f"{p.get('grade')} Elector, {p.get('votes')} votes"
    return "Homeworld" if p.get("homeworld") else f"{p.get('grade')} planet"


def after_edit(session: Session, game_id: int, source_id: str) -> Consequences | None:
    """What the ledger edit of command ``source_id`` changes in the closed results; None if it was no correction
    (no ``since``)."""
    game = read_game(session, game_id)
    made = list(session.execute(select(Event).where(  # /holding set's removal has a source id of its own
        Event.game_id == game_id, Event.source_id.in_((source_id, removal_source(source_id))),
        Event.kind.in_(EDITS)).order_by(Event.seq)).scalars())
    if not made or made[-1].payload.get("since") is None:
        return None
    found = made[-1]  # /holding set records a removal and an addition: the addition says what it set
    ledger = _Ledger(session, game_id)
    rounds = closed_rounds(session, game_id)
    mine = [c for e in made for c in ledger.edit_changes(e, rounds)]
    subject = f"The correction of {ledger.names.get(int(found.payload['user_id']), '?')} ({edit_words(found)} " \
              f"from round {found.payload['since']})"
    stated = stated_totals(session, game_id)
    recounts = consequences([r for r, _ in rounds.values()], ledger.every_change(rounds), {c.round for c in mine},
                            stated)
    ag = tuple(ag_after(session, game_id, ledger.ag_moves(), edit_seq=[e.seq for e in made]))
    return Consequences(game_view(game), subject, tuple(recounts), ledger.names, ag_recounts=ag)


def after_correction(session: Session, game_id: int, entry_id: int) -> Consequences:
    game = read_game(session, game_id)
    ledger = _Ledger(session, game_id)
    if entry_id not in ledger.rows:
        raise NotFoundError(f"{game.name} has no transfer #{entry_id}.")
    row = ledger.rows[entry_id]
    subject = f"Transfer #{entry_id}" + (f" (correcting #{row.corrects_id})" if row.corrects_id else "")
    rounds = closed_rounds(session, game_id)
    root = ledger.root(entry_id)
    mine, note = ledger.changes(root, rounds)
    stated = stated_totals(session, game_id)
    found = consequences([r for r, _ in rounds.values()], ledger.every_change(rounds), {c.round for c in mine},
                         stated)
    move = ledger.ag_move(root)
    ag = () if move is None else tuple(ag_after(session, game_id, ledger.ag_moves(), move=move))
    return Consequences(game_view(game), subject, tuple(found), ledger.names, note, note == NEVER_APPLIED, ag)


def ag_recounted(session: Session, game_id: int) -> list[AgCorrection]:
    """Every closed weighted AG election that comes out differently under every correction made so far."""
    return ag_differing(session, game_id, _Ledger(session, game_id).ag_moves())


def recounted(session: Session, game_id: int, number: int) -> Recount:
    game = read_game(session, game_id)
    rounds = closed_rounds(session, game_id)
    if number not in rounds:
        what = f"{game.name} has no round {number}" if number > game.current_round else (
            f"Round {number} of {game.name} has not closed")
        raise NotFoundError(f"{what}; an erratum corrects a closed round's result (closed: "
                            f"{', '.join(str(n) for n in sorted(rounds)) or 'none yet'}).")
    return recount(rounds[number][0], _Ledger(session, game_id).every_change(rounds),
                   stated_totals(session, game_id).get(number))


def erratum_disclosure(session: Session, game_id: int, found: Recount) -> dict[str, Any] | None:
    """The disclosure check of an erratum (docs/rulings.md): its corrected totals against every voter's corrected
    V(p), as a close's (``round_close.disclosed``, the same function): None when they give no ballot away."""
    closed = closed_rounds(session, game_id)[found.round][0]
    if found.outcome is None:
        return None
    cast = [(v.name, found.weights.get(v.user_id, v.votes), v.ballot.value if v.ballot is not None else None)
            for v in closed.voters]
    return disclosed(read_game(session, game_id), cast, found.outcome)


def stated_totals(session: Session, game_id: int) -> dict[int, Tally]:
    """The corrected totals of the latest erratum posted for each closed round that has one (``Recount.stated``)."""
    found = session.execute(select(Event.payload).where(Event.game_id == game_id, Event.kind == ERRATUM)
                            .order_by(Event.id)).scalars()
    return {int(p["round"]): tally_of(p["corrected"]) for p in found if p.get("round") is not None}


def numbers(t: Tally) -> dict[str, Any]:
    return {"aye": t.aye, "nay": t.nay, "abstain": t.abstain, "outcome": "passed" if t.passed else "failed"}


class ErrataService(ServiceBase):
    async def after_correction(self, game_id: int, *, entry_id: int) -> Consequences:
        """The closed rounds and weighted AG elections that transfer correction ``entry_id`` makes come out
        differently (read only)."""
        async with self._read() as session:
            return await session.run_sync(after_correction, game_id, entry_id)

    async def after_edit(self, game_id: int, *, source_id: str | None) -> Consequences | None:
        """The closed rounds that the ledger edit recorded by ``source_id`` changes, if it was made as a correction
        (``since``); None otherwise (read only)."""
        if source_id is None:
            return None
        async with self._read() as session:
            return await session.run_sync(after_edit, game_id, source_id)

    async def recount(self, game_id: int, number: int) -> Recount:
        """Closed round ``number`` counted again under every correction made so far (read only)."""
        async with self._read() as session:
            return await session.run_sync(recounted, game_id, number)

    async def post_erratum(self, game_id: int, *, number: int, actor: int | None,
                           source_id: str | None = None, answer: OwedWith[Erratum] | None = None) -> Erratum:
        """``/round erratum``: the corrected tally of closed round ``number``, recorded (``ErratumPosted``) with the
        place of the original result card. Refused when the round comes out as the players last read it: as posted,
        with no erratum, or as the latest erratum said. One posted after another replaces it; when the round comes out
        as first posted again, it withdraws it (``restores``, docs/rulings.md). ``answer``: what it posts (the
        erratum, the moderators' disclosure warning), owed in its transaction (``owe_in``)."""
        async with self._write(game_id, source_id) as uow:
            session = uow.session
            game = await session.run_sync(read_game, game_id)
            found = await session.run_sync(recounted, game_id, number)
            if not found.stale and found.stated is None:
                raise RuleError(f"Round {number} of {game.name} comes out as posted under the corrected ledger; "
                                f"there is nothing to correct. {HOW_TO_CORRECT}")
            if not found.stale:
                raise RuleError(f"An erratum for round {number} with these numbers was posted already; it is not "
                                "posted twice.")
            place = (await session.execute(select(PostedMessage.channel_id, PostedMessage.message_id).where(
                PostedMessage.game_id == game_id, PostedMessage.key == posted_key("round", number)))).one_or_none()
            disclosure = await session.run_sync(erratum_disclosure, game_id, found)
            erratum = Erratum(game_view(game), found, place[0] if place else None, place[1] if place else None,
                              disclosure)
            payload: dict[str, Any] = {"round": number, "posted": numbers(found.posted),
                                       "corrected": numbers(found.corrected),
                                       "outcome_changed": found.outcome_changed, "link": erratum.link}
            if found.stated is not None:  # it replaces the latest erratum; ``restores``: it withdraws it
                payload.update(stated=numbers(found.stated), restores=found.restores)
            if disclosure is not None:
                payload["disclosure"] = disclosure
            await uow.record(game_id, ERRATUM, actor, payload, source_id)
            return await owe_in(uow, answer, erratum)

    async def post_ag_erratum(self, game_id: int, *, number: int | None, actor: int | None,
                              source_id: str | None = None, answer: OwedWith[AgErratum] | None = None
                              ) -> AgErratum:
        """``/ag erratum``: the recount of closed weighted AG election ``number`` (None: the latest that comes out
        differently) under every correction made so far, recorded (``ErratumPosted`` with ``election``) with the
        place of the original result card. Refused when nothing (or that election) comes out differently, or the
        same erratum was posted already. The office is not changed. ``answer``: the erratum's post, owed in its
        transaction (``owe_in``)."""
        async with self._write(game_id, source_id) as uow:
            session = uow.session
            game = await session.run_sync(read_game, game_id)
            found = await session.run_sync(ag_recounted, game_id)
            if not found:
                raise RuleError(f"No closed Adjutant General election of {game.name} comes out differently under "
                                f"the corrected ledger; there is nothing to correct. {HOW_TO_CORRECT}")
            chosen = found[-1] if number is None else next((r for r in found if r.number == number), None)
            if chosen is None:
                raise RuleError(f"AG election {number} of {game.name} does not come out differently under the "
                                "corrected ledger; there is nothing to correct (those that do: "
                                f"{', '.join(str(r.number) for r in found)}).")
            corrected = [list(s) for s in chosen.recounted]
            earlier = [e for e in (await session.execute(select(Event).where(
                Event.game_id == game_id, Event.kind == ERRATUM).order_by(Event.id))).scalars()
                if e.payload.get("election") == chosen.number]
            if earlier and earlier[-1].payload.get("corrected") == corrected:
                raise RuleError(f"An erratum for AG election {chosen.number} with these standings was posted "
                                "already; it is not posted twice.")
            place = (await session.execute(select(PostedMessage.channel_id, PostedMessage.message_id).where(
                PostedMessage.game_id == game_id, PostedMessage.key == posted_key("ag", chosen.number)))
                ).one_or_none()
            erratum = AgErratum(game_view(game), chosen, place[0] if place else None, place[1] if place else None)
            await uow.record(game_id, ERRATUM, actor,
                             {"election": chosen.number, "posted": [list(s) for s in chosen.posted],
                              "corrected": corrected, "winner_changed": chosen.winner_changed,
                              "link": erratum.link}, source_id)
            return await owe_in(uow, answer, erratum)
