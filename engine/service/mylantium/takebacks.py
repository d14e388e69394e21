"""A moderator's step of the Election Round taken back (play-test U1.2 "closed by mistake", U1.5): the election that
closed last is reopened (``/election reopen``), and an Election Round started too early is called off (``/election
cancel``). Each undoes exactly what the step did, and only while nothing has been built on it; otherwise it is
refused, naming what stands in the way (docs/rulings.md, "Taking back a step of the Election Round").

* A close set the election's result (the nominees, the winner), and a General Election's the Presidency. A Primary
  is reopened until the General Election opens (it runs on the Primary's nominees); a General Election until the
  turn's Business Phase closes (the President it chose held office in it; the next turn's incumbent party and locks
  come from it). The choices stay and may be changed; the result is withdrawn and the next close counts afresh.
* A start took the realignment locks from a snapshot (P1-03, P1-04) and, after a Business Phase, began a new turn.
  It is called off only before the Primary opens and before any Faction realigns under its locks; happenings
  recorded in the new turn must be taken back first, and changes of VP, approval or Fervor made since count in the
  turn before again, as they would have without the start."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import select, update
from sqlalchemy.ext.asyncio import AsyncSession

from engine.core.disclosure import shown
from engine.core.errors import RuleError
from engine.core.words import plural
from engine.mylantium.model import FactionCode
from engine.service.announcements import jump_link, posted_key
from engine.service.clock import utc
from engine.service.ledger import game_view
from engine.service.mylantium.elections import election_view
from engine.service.mylantium.state import (
    CANCELLED,
    REOPENED,
    calm_game,
    election_of,
    faction_rows,
    government_of,
    open_election,
    round_starts,
)
from engine.service.mylantium.views import ChoiceAgain, Reopened, RoundCalledOff
from engine.service.owed import OwedWith, owe_in
from engine.service.uow import ServiceBase
from engine.store.models import Event, Game, Player, PostedMessage
from engine.store.models.mylantium import MylChain, MylChoice, MylElection, MylGovernment, MylHappening, MylHistory

NOTHING = "Nothing was changed."


def _title(stage: str) -> str:
    return "Primary" if stage == "primary" else "General Election"


def _reason(reason: str | None) -> str | None:
    return reason.strip()[:200] if reason and reason.strip() else None


async def _closed_last(session: AsyncSession, game: Game, gov: MylGovernment) -> MylElection:
    """The election of this turn that closed last, if it may be reopened; raises why not."""
    if not gov.election_started or gov.business_closed:
        if gov.business_closed:
            raise RuleError(f"Turn {gov.turn}'s Business Phase has closed, so its elections stand: the President the "
                            f"General Election chose held office in it, and the next turn's incumbent party and "
                            f"realignment locks come from it. {NOTHING}")
        raise RuleError(f"No election has been held in {game.name} yet; there is nothing to reopen.")
    row = await open_election(session, game.id)
    if row is not None:
        under = (" The Primary cannot be reopened under it: the General Election runs on the Primary's nominees, so a "
                 "Primary is reopened only until the General Election opens." if row.stage == "general" else "")
        raise RuleError(f"The {_title(row.stage)} of turn {gov.turn} is open: nothing has closed to reopen "
                        f"(/election deadline moves its deadline).{under} {NOTHING}")
    general = await election_of(session, game.id, gov.turn, "general")
    found = general if general is not None else await election_of(session, game.id, gov.turn, "primary")
    if found is None or found.status != "closed":
        raise RuleError(f"No election of turn {gov.turn} has closed in {game.name}; there is nothing to reopen.")
    return found


async def _close_event(session: AsyncSession, game_id: int, row: MylElection) -> Event:
    """The ``ElectionClosed`` event of ``row``'s latest close (the one a reopening withdraws)."""
    found = await session.execute(select(Event).where(Event.game_id == game_id, Event.kind == "ElectionClosed")
                                  .order_by(Event.seq.desc()))
    close = next((e for e in found.scalars()
                  if (e.payload.get("turn"), e.payload.get("stage")) == (row.turn, row.stage)), None)
    if close is None:  # never so in a game Clerk ran; a reopening would not know what the close did
        raise RuleError(f"The ledger holds no close of the {_title(row.stage)} of turn {row.turn}, so Clerk cannot "
                        f"tell what reopening it would undo. {NOTHING}")
    return close


async def _president_before(session: AsyncSession, game_id: int, seq: int) -> str | None:
    """The Faction that held the Presidency before the event ``seq``: the last one a moderator set (``GovernmentSet``),
    a General Election's close gave, or a reopening gave back, before it (the only steps that change it)."""
    found = await session.execute(select(Event.kind, Event.payload).where(
        Event.game_id == game_id, Event.seq < seq,
        Event.kind.in_(("GovernmentSet", "ElectionClosed", REOPENED))).order_by(Event.seq))
    president = None
    for kind, p in found.all():
        if kind == "GovernmentSet" and p.get("president"):
            president = p["president"]
        elif kind == "ElectionClosed" and p.get("stage") == "general" and (p.get("result") or {}).get("president"):
            president = p["result"]["president"]
        elif kind == REOPENED and p.get("president"):
            president = p["president"][1]
    return president


async def _choices_again(session: AsyncSession, game_id: int, row: MylElection) -> tuple[ChoiceAgain, ...]:
    """Each Faction in play whose player still plays: its player, and what it chose in ``row`` (for them alone)."""
    chosen = {c.faction_id: c.choice for c in (await session.execute(
        select(MylChoice).where(MylChoice.election_id == row.id))).scalars()}
    players = {p.id: p for p in (await session.execute(select(Player).where(Player.game_id == game_id))).scalars()}
    return tuple(ChoiceAgain(players[f.player_id].user_id, FactionCode[f.code], chosen.get(f.id))
                 for f in await faction_rows(session, game_id)
                 if f.in_play and f.player_id in players and not players[f.player_id].removed)


async def _card(session: AsyncSession, game: Game, row: MylElection) -> str | None:
    place = (await session.execute(select(PostedMessage.channel_id, PostedMessage.message_id).where(
        PostedMessage.game_id == game.id, PostedMessage.key == posted_key(row.stage, row.turn)))).one_or_none()
    return jump_link(game.guild_id, place[0], place[1]) if place is not None else None


class Takebacks(ServiceBase):
    """``clerk.mylantium.takebacks``: ``/election reopen`` and ``/election cancel``."""

    async def reopen_election(self, game_id: int, *, deadline: datetime | None, reason: str | None,
                              actor: int | None, source_id: str | None = None,
                              answer: OwedWith[Reopened] | None = None) -> Reopened:
        """The election of this turn that closed last is open again (a close typed for an open, or made too early):
        its result is withdrawn, a General Election's Presidency goes back to the Faction that held it before the
        close, the choices stay. ``deadline``: its new deadline; None keeps the one it had if still to come (else it
        has none). ``answer``: what the reopening announces, owed in its transaction (``owe_in``)."""
        why = _reason(reason)
        async with self._write(game_id, source_id) as uow:
            session = uow.session
            game = await calm_game(session, game_id)
            gov = await government_of(session, game)
            row = await _closed_last(session, game, gov)
            if deadline is not None and deadline <= uow.now:
                raise RuleError("The deadline must be in the future.")
            result = dict(row.result or {})
            closed = await _close_event(session, game_id, row)
            president = None
            if row.stage == "general":
                before = await _president_before(session, game_id, closed.seq)
                left = result.get("president") or before
                if gov.president != left:
                    now = FactionCode[gov.president].plural if gov.president else "nobody"
                    gave = FactionCode[left].plural if left else "nobody"
                    raise RuleError(f"The Presidency was changed since the General Election closed (/government set "
                                    f"president:): the {now} hold it, and the close gave it to the {gave}. Reopening "
                                    f"would have to undo that change too. Set it back first (/government set "
                                    f"president:{gave}) if it was a mistake, or leave the result as it stands. "
                                    f"{NOTHING}")
                if result.get("president") and before and before != result["president"]:
                    president = (FactionCode[result["president"]], FactionCode[before])
                    gov.president = before
            was = utc(row.deadline) if row.deadline is not None else None
            if deadline is None:
                deadline = was if was is not None and was > uow.now else None
            how = shown(result.get("disclosure"))
            link = await _card(session, game, row) if how != "held" else None
            closed_at = utc(row.closed_at) if row.closed_at is not None else uow.now
            happened = (await session.execute(select(MylHappening.at).where(
                MylHappening.game_id == game_id, MylHappening.turn == row.turn))).scalars().all()
            since = [at for at in happened if utc(at) > closed_at] if row.stage == "general" else []
            row.status, row.closed_at, row.result, row.deadline = "open", None, None, deadline
            await session.flush()
            payload = {"turn": row.turn, "stage": row.stage, "reason": why,
                       "deadline": deadline.isoformat() if deadline else None, "closed_at": closed_at.isoformat(),
                       "withdrawn": closed.seq, "shown": how}
            if president is not None:
                payload["president"] = [president[0].name, president[1].name]
            await uow.record(game_id, REOPENED, actor, payload, source_id)
            view = await election_view(session, game, row)
            return await owe_in(uow, answer, Reopened(view, result, how, link, why, was, president, len(since),
                                                      await _choices_again(session, game_id, row)))

    async def cancel_election_round(self, game_id: int, *, reason: str | None, actor: int | None,
                                    source_id: str | None = None,
                                    answer: OwedWith[RoundCalledOff] | None = None) -> RoundCalledOff:
        """The Election Round started too early (``/election start``) is called off: the turn is as it was before
        the start (the turn before, after its Business Phase; or the first, being set up), and the locks it took are
        withdrawn; the next start takes them afresh. ``answer``: what the calling off announces, owed in its
        transaction (``owe_in``)."""
        why = _reason(reason)
        async with self._write(game_id, source_id) as uow:
            session = uow.session
            game = await calm_game(session, game_id)
            gov = await government_of(session, game)
            if gov.business_closed:
                raise RuleError(f"Turn {gov.turn}'s Business Phase has closed and no Election Round has started since; "
                                f"there is nothing to call off. {NOTHING}")
            starts = await round_starts(session, game_id)
            if not gov.election_started or not starts or starts[-1].payload.get("turn") != gov.turn:
                raise RuleError(f"No Election Round has started in {game.name} yet; there is nothing to call off.")
            turn = gov.turn
            if await election_of(session, game_id, turn, "primary") is not None:
                raise RuleError(f"Turn {turn}'s Primary has opened, so its Election Round has run on from the "
                                f"start: it cannot be called off any more. An election closed by mistake is "
                                f"reopened with /election reopen. {NOTHING}")
            realigned = [FactionCode[f.code].plural for f in await faction_rows(session, game_id)
                         if f.realigned_turn == turn]
            if realigned:
                raise RuleError(f"The {', '.join(realigned)} realigned in turn {turn}'s Election Round, under the "
                                f"locks of its start: it cannot be called off after a realignment. {NOTHING}")
            new_turn = turn > 1  # a start after turn 1 always began its turn (after the last Business Phase)
            if new_turn:
                happened = (await session.execute(select(MylHappening).where(
                    MylHappening.game_id == game_id, MylHappening.turn == turn))).scalars().all()
                if happened:
                    were = "was" if len(happened) == 1 else "were"
                    raise RuleError(f"{plural(len(happened), 'happening')} {were} recorded in turn {turn} since its "
                                    f"start; "
                                    f"without the start they would belong to no turn (turn {turn - 1}'s Business "
                                    f"Phase has closed). Take them back with /event undo first, and record them "
                                    f"again once the Round starts. {NOTHING}")
            locks = {FactionCode[c].plural: str(w) for c, w in (gov.snapshot or {}).items()}
            earlier = starts[:-1]
            gov.snapshot = dict(earlier[-1].payload.get("locks") or {}) if earlier else {}
            relabelled = 0
            if new_turn:
                gov.turn, gov.business_closed = turn - 1, True
                gov.election_started = bool(earlier)
                for table in (MylHistory, MylChain):  # made since the start: in the turn before, as without it
                    moved = await session.execute(update(table).where(table.game_id == game_id, table.turn == turn)
                                                  .values(turn=turn - 1))
                    relabelled += int(getattr(moved, "rowcount", 0) or 0)
            else:
                gov.election_started = False
            await session.flush()
            await uow.record(game_id, CANCELLED, actor,
                             {"turn": turn, "turn_now": gov.turn, "reason": why, "locks": dict(starts[-1].payload.get(
                                 "locks") or {}), "relabelled": relabelled, "started": starts[-1].seq}, source_id)
            return await owe_in(uow, answer, RoundCalledOff(game_view(game), turn, gov.turn, locks, relabelled, why))

