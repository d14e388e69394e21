"""Player Majority Votes (R0-40..R0-44): support in threads, passing at floor(A/2)+1, the moderator's
enactment or veto, and each subject's effect (R0-35, R0-50..R0-53, R0-60, R0-61)."""

from __future__ import annotations

import logging
from dataclasses import dataclass, field, replace
from datetime import datetime
from typing import Any

from sqlalchemy import delete, func, select
from sqlalchemy.ext.asyncio import AsyncSession

from engine.core.errors import ClerkError, NotFoundError, RuleError
from engine.landsdraad.audit import audit_quote
from engine.landsdraad.kanly import end_game_pot
from engine.landsdraad.majority import PlayerVote, State, Subject, needed, vote_title
from engine.landsdraad.motions import Motion, audit_form
from engine.landsdraad.settings import SETTINGS
from engine.service.clock import utc
from engine.service.landsdraad.adjutant import (
    AG,
    ElectionView,
    adjutant_of,
    election_view,
    open_election_row,
    set_adjutant,
    start_election,
)
from engine.service.landsdraad.audits import perform_audit
from engine.service.landsdraad.held_ballots import count_held
from engine.service.landsdraad.registries import end_embargo, end_kanly, resolve_embargo_target, resolve_kanly
from engine.service.landsdraad.victory_scoring import score_ended, void_open_rounds
from engine.service.landsdraad.victory_state import victory_row_for_update
from engine.service.landsdraad.victory_views import FinalOrPending
from engine.service.ledger import game_view, load_game, require_player, require_running
from engine.service.names import find_player_by_name
from engine.service.owed import OwedWith, owe_in
from engine.service.settings import value_of
from engine.service.uow import Duplicate, ServiceBase, SyncUnit, UnitOfWork
from engine.service.views import GameView
from engine.store.models import Game, Player
from engine.store.models.landsdraad import FinalScoreRow, PlayerVoteRow, Round, SupportRow

log = logging.getLogger("clerk.landsdraad.majority")

@dataclass(frozen=True)
class VoteView:
    id: int
    game: GameView
    round: int
    subject: Subject
    target: str
    """What it is about, for people: "", "Bob", "Bob, rounds 2 and 4", "Ann and Bob"."""
    supporters: tuple[str, ...]
    needed: int
    active: int
    status: str
    thread_id: int | None
    post_form: str = ""
    undone: tuple[str, ...] = ()
    """A veto after the enactment (an End Game vote enacted by mistake, play-test Y4): what it put back."""

    @property
    def title(self) -> str:
        return vote_title(self.subject, self.target)

    @property
    def form(self) -> str:
        """What a player posts to support it."""
        return self.post_form

    @property
    def key(self) -> str:
        return f"pv:{self.id}"


@dataclass(frozen=True)
class SupportReceipt:
    vote: VoteView
    player: str
    withdrawn: bool
    just_passed: bool
    already: bool = False


@dataclass(frozen=True)
class Enacted:
    vote: VoteView
    lines: tuple[str, ...]
    """What the enactment did, for the game channel."""
    audit: Any = None
    """For an audit: the AuditView from engine.service.landsdraad.audits.perform_audit (its card is public)."""
    election: int | None = None
    """After No Confidence: the number of the new AG election."""
    game_ended: bool = False
    extra: dict[str, Any] = field(default_factory=dict)
    audited: int | None = None
    """For an audit: the audited player's user id (what picks its card out for **Explain this**)."""
    opened: ElectionView | None = None
    """After No Confidence: the new AG election as the enactment left it (its running count)."""
    final: FinalOrPending | None = None
    """After End Game: the final scores, with the Pot penalty (R3-04), scored in the enactment's transaction; or why
    scoring waits (P3-15). None when the scoring failed (``unscored``)."""
    unscored: str | None = None
    """After End Game, when the scoring was refused (its part undone alone, the enactment standing): the refusal,
    for the moderators. Both None after End Game: the scoring failed otherwise (logged)."""


async def active_count(session: AsyncSession, game_id: int) -> int:
    found = await session.execute(select(func.count()).select_from(Player)
                                  .where(Player.game_id == game_id, Player.active.is_(True)))
    return int(found.scalar_one())


async def vote_view(session: AsyncSession, game: Game, row: PlayerVoteRow) -> VoteView:
    """The supporters shown: the active players supporting it (R0-41: only they count), and once it has passed those
    who carried it (``carried_by``, kept when it passed), a player made inactive or removed since included, so the
    record of an enacted vote shows who carried it (play-test W2: an audit enacted with 3 of 3 was exported and
    listed with 2 supporters once one of them was removed)."""
    who = select(Player.name).join(SupportRow, SupportRow.player_id == Player.id).where(SupportRow.vote_id == row.id)
    carried = row.details.get("carried_by")
    who = who.where(Player.id.in_(carried)) if carried is not None else who.where(Player.active.is_(True))
    names = (await session.execute(who.order_by(SupportRow.at, SupportRow.id))).scalars().all()
    active = await active_count(session, game.id)
    return VoteView(
        id=row.id, game=game_view(game), round=row.round_number, subject=Subject(row.subject),
        target=str(row.details.get("label", "")), supporters=tuple(names),
        needed=row.needed if row.needed is not None and row.status != "open" else needed(active),
        active=active, status=row.status, thread_id=row.thread_id,
        post_form=str(row.details.get("form") or f"Vote: {Subject(row.subject).title}"),
    )


def mark_passed(row: PlayerVoteRow, now: datetime, active: int, supporters: frozenset[int] | set[int]) -> None:
    """R0-42: OPEN -> PASSED at ``now``, with the threshold then and the active players who carried it."""
    row.status, row.passed_at, row.needed = "passed", now, needed(active)
    row.details = {**row.details, "carried_by": sorted(supporters)}


def state_of(row: PlayerVoteRow, supporters: set[int]) -> PlayerVote:
    return PlayerVote(Subject(row.subject), row.target, State(row.status), frozenset(supporters))


async def supporters_of(session: AsyncSession, vote_id: int) -> set[int]:
    """The supporters who count: active players only (R0-41)."""
    rows = await session.execute(select(SupportRow.player_id).join(Player, Player.id == SupportRow.player_id)
                                 .where(SupportRow.vote_id == vote_id, Player.active.is_(True)))
    return set(rows.scalars())


async def _require_adjutant(session: AsyncSession, game: Game, ag: Player, name: str) -> None:
    """``name`` (a player's name, faction or @mention) is the Adjutant General ``ag``; else RuleError saying who is."""
    try:
        named: Player | None = await find_player_by_name(session, game, name)
    except RuleError:
        named = None
    if named is None or named.id != ag.id:
        raise RuleError(f"{name} is not the Adjutant General of {game.name}; {ag.name} is. Post "
                        f"`Vote: No Confidence` (or `Vote: No Confidence in {ag.name}`).")


async def _target(session: AsyncSession, game: Game, motion: Motion) -> tuple[str, dict[str, Any]]:
    """The canonical key of a subject's target (R0-44: each subject and target is its own tally) and details."""

    if motion.subject is Subject.NO_CONFIDENCE:
        ag = await adjutant_of(session, game.id)
        if ag is None:
            raise RuleError("There is no Adjutant General to remove.")
        if motion.names:  # ``Vote: No Confidence in <AG>``, the vote's own title: the name must be the AG's
            await _require_adjutant(session, game, ag, motion.names[0])
        return str(ag.id), {"label": ag.name, "adjutant": ag.id, "form": "Vote: No Confidence"}
    if motion.subject is Subject.END_EMBARGO:
        on = await resolve_embargo_target(session, game, motion.names[0] if motion.names else None)
        target = await session.get(Player, on)
        label = target.name if target else ""
        return str(on), {"label": label, "on": on, "form": f"Vote: End Embargo on {label}"}
    if motion.subject is Subject.END_KANLY:
        p, q = await resolve_kanly(session, game, motion.names)
        first, second = await session.get(Player, p), await session.get(Player, q)
        label = f"{first.name if first else p} and {second.name if second else q}"
        return f"{min(p, q)}:{max(p, q)}", {"label": label, "pair": [p, q], "form": f"Vote: End Kanly between {label}"}
    if motion.subject is Subject.AUDIT:
        player = await find_player_by_name(session, game, motion.names[0])
        quote = audit_quote(game.current_round, await active_count(session, game.id), motion.rounds)
        earlier = [r for r in quote.rounds if r != game.current_round]
        label = player.name + (f", rounds {', '.join(map(str, earlier))} and {game.current_round}" if earlier else "")
        form = audit_form(player.name, earlier)
        return f"{player.id}:{','.join(map(str, quote.rounds))}", {"label": label, "player": player.id,
                                                                    "rounds": list(quote.rounds), "form": form}
    return "", {"label": ""}


class MajorityService(ServiceBase):
    async def support(self, game_id: int, *, user_id: int, motion: Motion, thread_id: int | None, at: datetime,
                      source_id: str | None, answer: OwedWith[SupportReceipt] | None = None) -> SupportReceipt:
        """R0-40/R0-41: each active player counts once; OPEN -> PASSED the moment the majority is reached.
        ``answer``: what the support answers and posts (the running count, the vote passed), owed in its
        transaction (``owe_in``)."""
        try:
            async with self._write(game_id, source_id) as uow:
                receipt = await self._support(uow, game_id, user_id=user_id, motion=motion, thread_id=thread_id,
                                              at=at, source_id=source_id)
                return await owe_in(uow, answer, receipt)
        except Duplicate:
            raise RuleError("That message reached me twice and was counted once, the first time.") from None

    async def _support(self, uow: UnitOfWork, game_id: int, *, user_id: int, motion: Motion, thread_id: int | None,
                       at: datetime, source_id: str | None) -> SupportReceipt:
        game = await load_game(uow.session, game_id)
        require_running(game)
        player = await require_player(uow.session, game, user_id, "You")
        if not player.active:
            raise RuleError(f"You are marked inactive in {game.name}; only active players' support counts.")
        if game.current_round == 0:
            raise RuleError("No round has started yet; player votes belong to a round.")
        if motion.withdraw:
            return await self._withdraw(uow, game, player, motion, source_id)
        key, details = await _target(uow.session, game, motion)
        row = await self._row(uow, game, motion.subject, key)
        if row is None:
            row = PlayerVoteRow(game_id=game_id, round_number=game.current_round,
                                subject=motion.subject.value, target=key, details=details, status="open",
                                opened_at=uow.now, thread_id=thread_id)
            uow.session.add(row)
            await uow.session.flush()
        supporters = await supporters_of(uow.session, row.id)
        if row.status != "open":
            view = await vote_view(uow.session, game, row)
            return SupportReceipt(view, player.name, False, False, already=True)
        if player.id in supporters:
            view = await vote_view(uow.session, game, row)
            return SupportReceipt(view, player.name, False, False, already=True)
        active = await active_count(uow.session, game_id)
        after = state_of(row, supporters).support(player.id, active)
        uow.session.add(SupportRow(vote_id=row.id, player_id=player.id, at=at, source_id=source_id))
        just_passed = after.state is State.PASSED
        if just_passed:
            mark_passed(row, uow.now, active, after.supporters)
        if row.thread_id is None:
            row.thread_id = thread_id
        await uow.session.flush()
        await uow.record(game_id, "PlayerVoteSupported", user_id,
                         {"vote": row.id, "subject": row.subject, "target": details.get("label", ""),
                          "round": row.round_number, "supporters": len(after.supporters),
                          "needed": needed(active), "passed": just_passed}, source_id)
        return SupportReceipt(await vote_view(uow.session, game, row), player.name, False, just_passed)

    async def _row(self, uow: UnitOfWork, game: Game, subject: Subject, key: str) -> PlayerVoteRow | None:
        found = await uow.session.execute(select(PlayerVoteRow).where(
            PlayerVoteRow.game_id == game.id, PlayerVoteRow.round_number == game.current_round,
            PlayerVoteRow.subject == subject.value, PlayerVoteRow.target == key))
        return found.scalar_one_or_none()

    async def _withdraw(self, uow: UnitOfWork, game: Game, player: Player, motion: Motion,
                        source_id: str | None) -> SupportReceipt:
        """Unvote: withdraws support from the open vote on that subject (and target, when named)."""
        rows = (await uow.session.execute(
            select(PlayerVoteRow).join(SupportRow, SupportRow.vote_id == PlayerVoteRow.id).where(
                PlayerVoteRow.game_id == game.id, PlayerVoteRow.round_number == game.current_round,
                PlayerVoteRow.subject == motion.subject.value, SupportRow.player_id == player.id))).scalars().all()
        if motion.names or motion.rounds:
            key, _ = await _target(uow.session, game, motion)
            rows = [r for r in rows if r.target == key]
        if not rows:
            raise RuleError(f"You are not supporting any {motion.subject.title} vote this round.")
        if len(rows) > 1:
            labels = "; ".join(str(r.details.get("label", "")) for r in rows)
            raise RuleError(f"You support several {motion.subject.title} votes ({labels}); name the one to withdraw.")
        row = rows[0]
        state_of(row, await supporters_of(uow.session, row.id)).withdraw(player.id)
        support = (await uow.session.execute(select(SupportRow).where(
            SupportRow.vote_id == row.id, SupportRow.player_id == player.id))).scalar_one()
        await uow.session.delete(support)
        await uow.session.flush()
        await uow.record(game.id, "PlayerVoteWithdrawn", player.user_id,
                         {"vote": row.id, "subject": row.subject, "target": row.details.get("label", "")}, source_id)
        return SupportReceipt(await vote_view(uow.session, game, row), player.name, True, False)

    async def reevaluate_votes(self, game_id: int, *, actor: int | None,
                               source_id: str | None = None) -> list[VoteView]:
        """P0-19 / A0-13: when the number of active players changes, open votes are evaluated again at once;
        returns the votes that passed because of it."""
        async with self._write(game_id, source_id) as uow:
            game = await load_game(uow.session, game_id)
            active = await active_count(uow.session, game_id)
            rows = (await uow.session.execute(select(PlayerVoteRow).where(
                PlayerVoteRow.game_id == game_id, PlayerVoteRow.round_number == game.current_round,
                PlayerVoteRow.status == "open"))).scalars().all()
            passed: list[PlayerVoteRow] = []
            for row in rows:
                supporters = await supporters_of(uow.session, row.id)
                if state_of(row, supporters).reevaluate(active).state is State.PASSED:
                    mark_passed(row, uow.now, active, supporters)
                    passed.append(row)
            if passed:
                await uow.record(game_id, "PlayerVotesReevaluated", actor,
                                 {"active": active, "passed": [r.id for r in passed]}, source_id)
            return [await vote_view(uow.session, game, r) for r in passed]

    async def votes(self, game_id: int, *, round_number: int | None = None) -> list[VoteView]:
        async with self._read() as session:
            game = await load_game(session, game_id)
            number = game.current_round if round_number is None else round_number
            rows = (await session.execute(select(PlayerVoteRow).where(
                PlayerVoteRow.game_id == game_id, PlayerVoteRow.round_number == number)
                .order_by(PlayerVoteRow.id))).scalars().all()
            return [await vote_view(session, game, r) for r in rows]

    async def awaiting(self, game_id: int) -> list[VoteView]:
        """Every vote that has passed and awaits the moderator (R0-42: PASSED until enacted or vetoed; it does not
        expire at its round's end), oldest first: ``/pv list`` shows those of earlier rounds too, and a refused
        ``/pv enact`` names them (play-test W3: a No Confidence passed in round 5 and never enacted vanished from
        ``/pv list`` while ``/ag status`` said it was under way five rounds later)."""
        async with self._read() as session:
            return await _awaiting(session, await load_game(session, game_id))

    async def vote(self, game_id: int, vote_id: int) -> VoteView:
        async with self._read() as session:
            game = await load_game(session, game_id)
            row = await session.get(PlayerVoteRow, vote_id)
            if row is None or row.game_id != game_id:
                raise NotFoundError(f"{game.name} has no player vote #{vote_id}.")
            return await vote_view(session, game, row)

    async def veto(self, game_id: int, *, vote_id: int, actor: int | None, source_id: str | None = None,
                   answer: OwedWith[VoteView] | None = None) -> VoteView:
        """A passed player vote vetoed by the moderator: it has no effect. ``answer``: what it announces (the vote's
        running count, the veto), owed in its transaction (``owe_in``)."""
        async with self._write(game_id, source_id) as uow:
            taken_back = await self._end_game_taken_back(uow, game_id, vote_id)
            if taken_back is not None:
                game, row, undone, payload = taken_back
            else:
                game, row = await self._passed(uow, game_id, vote_id)
                state_of(row, set()).veto()
                undone, payload = (), {}
            row.status, row.decided_at, row.decided_by = "vetoed", uow.now, actor
            await uow.record(game_id, "PlayerVoteVetoed", actor, {"vote": row.id, "subject": row.subject, **payload},
                             source_id)
            view = replace(await vote_view(uow.session, game, row), undone=undone)
            return await owe_in(uow, answer, view)

    async def _end_game_taken_back(self, uow: UnitOfWork, game_id: int, vote_id: int
                                   ) -> tuple[Game, PlayerVoteRow, tuple[str, ...], dict[str, Any]] | None:
        """An End Game vote enacted by mistake (play-test Y4): once the game is reopened (``/game reopen``) the
        moderator may veto it after all. The Pot penalty is lifted and the final scores it posted are withdrawn (the
        game goes on and is scored when it ends again, however it ends); the round it made void stays void (its
        ballots were never counted: the moderators open its crisis again as a new round). None when the vote is not
        such a vote (it is then vetoed as any passed vote is, or refused)."""
        game = await load_game(uow.session, game_id)
        row = await uow.session.get(PlayerVoteRow, vote_id)
        if (row is None or row.game_id != game_id or row.status != "enacted" or row.subject != Subject.END_GAME.value
                or game.status == "ended" or game.settings.get("end_game_penalty_applied") is None):
            return None
        pct = int(game.settings["end_game_penalty_applied"])
        game.settings = {k: v for k, v in game.settings.items() if k != "end_game_penalty_applied"}
        state = await victory_row_for_update(uow.session, game.id)
        scored = state.ended_by is not None
        if scored:
            await uow.session.execute(delete(FinalScoreRow).where(FinalScoreRow.game_id == game.id))
            state.ended_by, state.chancellor_id, state.penalty = None, None, 0
            state.pot, state.unawarded, state.scored_at = None, None, None
        voided = (await uow.session.execute(select(Round.number).where(
            Round.game_id == game.id, Round.status == "void").order_by(Round.number))).scalars().all()
        lines = [f"A moderator enacted it by mistake; the game goes on. The Victory Pot is no longer reduced by "
                 f"{pct}%."]
        if scored:
            lines.append("The final scores it posted are withdrawn: the game is scored again when it ends.")
        if voided:
            lines.append(f"Round {voided[-1]}, which it made void, stays void (its ballots were never counted): the "
                         "moderators open its crisis again as a new round if it is still to be voted.")
        return game, row, tuple(lines), {"after_enactment": True, "penalty_lifted": pct, "scores_withdrawn": scored}

    async def _passed(self, uow: UnitOfWork, game_id: int, vote_id: int) -> tuple[Game, PlayerVoteRow]:
        game = await load_game(uow.session, game_id)
        row = await uow.session.get(PlayerVoteRow, vote_id)
        if row is None or row.game_id != game_id:
            raise NotFoundError(f"{game.name} has no player vote #{vote_id}; /pv list shows them.")
        if row.status != "passed":
            waiting = [v for v in await _awaiting(uow.session, game) if v.id != vote_id]
            now = ("Awaiting you now: " + "; ".join(f"#{v.id} {v.title} (round {v.round})" for v in waiting) + "."
                   if waiting else "No player vote awaits you now.")
            raise RuleError(f"Player vote #{vote_id} ({Subject(row.subject).title}) is {row.status}; only a vote "
                            f"that has passed can be enacted or vetoed. {now}")
        return game, row

    async def enact(self, game_id: int, *, vote_id: int, actor: int | None, source_id: str | None = None,
                    penalty: int | None = None, answer: OwedWith[Enacted] | None = None) -> Enacted:
        """R0-42: nothing takes effect until the moderator enacts it. Then the subject's effect, in the same
        transaction. ``answer``: what it announces (the vote's running count, the enacted or audit card, a new AG
        election's running count), owed in its transaction (``owe_in``); all it needs is read here."""

        async with self._write(game_id, source_id) as uow:
            game, row = await self._passed(uow, game_id, vote_id)
            require_running(game)
            subject = Subject(row.subject)
            if penalty is not None and subject is not Subject.END_GAME:
                raise RuleError("A penalty only applies to an End Game vote.")
            state_of(row, set()).enact()
            row.status, row.decided_at, row.decided_by = "enacted", uow.now, actor
            lines: list[str] = []
            payload: dict[str, Any] = {"vote": row.id, "subject": row.subject, "target": row.details.get("label", "")}
            result = Enacted(vote=await vote_view(uow.session, game, row), lines=())
            result = await self._effect(uow, game, row, penalty, result, lines, payload)
            await uow.record(game_id, "PlayerVoteEnacted", actor, payload, source_id)
            view = await vote_view(uow.session, game, row)
            audited = opened = None
            if result.audit is not None:
                target = await uow.session.get(Player, int(row.details["player"]))
                audited = target.user_id if target is not None else None
            if result.election is not None:
                election = await open_election_row(uow.session, game_id)
                opened = await election_view(uow.session, game, election) if election is not None else None
            final, unscored = await self._scored(uow, game) if result.game_ended else (None, None)
            return await owe_in(uow, answer, Enacted(view, tuple(lines), result.audit, result.election,
                                                     result.game_ended, result.extra, audited, opened, final,
                                                     unscored))

    @staticmethod
    async def _scored(uow: UnitOfWork, game: Game) -> tuple[FinalOrPending | None, str | None]:
        """R0-61, R3-04: the game an End Game vote just ended, scored with its penalty in the enactment's transaction
        (``GameScored`` after ``PlayerVoteEnacted``), so the final table is owed with the enactment; a savepoint: a
        failure of it is undone alone (the game stays ended and unscored, ``/game end`` scores it) and said."""
        name = game.name
        try:
            async with uow.session.begin_nested():
                return await score_ended(uow, game, actor=None, confirm=False, source_id=None,
                                         pending_is_error=False), None
        except ClerkError as error:
            return None, f"{error}"
        except Exception:
            log.exception("scoring %s after its End Game vote failed", name)
            return None, None

    async def _effect(self, uow: UnitOfWork, game: Game, row: PlayerVoteRow, penalty: int | None, result: Enacted,
                      lines: list[str], payload: dict[str, Any]) -> Enacted:
        """The subject's effect: what players read goes in ``lines``, what the event records in ``payload``; returns
        ``result`` with what the front end needs of it (the election opened, the audit, the game's end)."""
        subject = Subject(row.subject)
        if subject is Subject.NO_CONFIDENCE:
            election = await self._no_confidence(uow, game, row)
            lines.append(f"{row.details.get('label')} is no longer Adjutant General. A new election "
                         f"(#{election.number}) is open in the thread `ag-election-{election.number}` and "
                         f"closes at the end of round {game.current_round}: post `AG Vote: <Name>` there or "
                         "DM it to me.")
            counted, lapsed = await count_held(uow.session, game, row, election)
            if counted:
                ballots = ", ".join(f"{voter} → {candidate}" for voter, candidate in counted)
                lines.append(f"The AG ballots cast during the vote count in it, each at the time it was cast: "
                             f"{ballots}.")
            if lapsed:
                lines.append("These held ballots do not count, as the voter or the candidate is no longer an "
                             f"active player: {', '.join(lapsed)}.")
            payload["election"] = election.number
            payload["held_ballots"] = [list(pair) for pair in counted]
            result = Enacted(result.vote, (), election=election.number)
        elif subject is Subject.END_EMBARGO:
            removed = await end_embargo(uow, game, int(row.details["on"]))
            lines += [f"Ended: {line}." for line in removed]
            payload["removed"] = removed
        elif subject is Subject.END_KANLY:
            pair = row.details["pair"]
            ended = await end_kanly(uow, game, (int(pair[0]), int(pair[1])))
            lines.append(f"Kanly between {ended.names[0]} and {ended.names[1]} is over. Forces and assassins "
                         "bound against the rival return home at the start of next round; action points spent "
                         "stay spent.")
            lines += [f"Refund of half the Guild transport fee to {name}: {ms} MS."
                      for name, ms in ended.refunds.items() if ms]
            lines += [f"Embargo removed: {e}." for e in ended.embargoes_removed]
            payload["refunds"] = dict(ended.refunds)
        elif subject is Subject.AUDIT:
            audit = await perform_audit(uow, game, int(row.details["player"]), tuple(row.details["rounds"]), row.id)
            payload["fee"] = audit.fee
            result = Enacted(result.vote, (), audit=audit)
        elif subject is Subject.END_GAME:
            pct = int(value_of(game.settings, "end_game_penalty", SETTINGS)) if penalty is None else penalty
            end_game_pot(1, pct)  # validates the percentage
            await self._end_game(uow, game, pct)
            lines.append(f"The game is over: ended by a player vote before round {game.current_round}'s crisis "
                         f"was resolved. The Victory Pot is reduced by {pct}%.")
            payload["penalty"] = pct
            result = Enacted(result.vote, (), game_ended=True, extra={"penalty": pct})
        return result

    async def _no_confidence(self, uow: UnitOfWork, game: Game, row: PlayerVoteRow) -> Any:
        """R0-35: the AG loses the post; a new election opens at once and closes at the end of the round."""
        current = await adjutant_of(uow.session, game.id)
        if current is not None and current.id == int(row.details["adjutant"]):
            await set_adjutant(uow.session, game.id, None, uow.now)

        if await open_election_row(uow.session, game.id) is not None:
            raise RuleError("An AG election is already open; close it before enacting No Confidence.")
        rnd = (await uow.session.execute(select(Round).where(Round.game_id == game.id,
                                                             Round.number == game.current_round))).scalar_one()
        closes_at = utc(rnd.deadline) if rnd.deadline and rnd.status == "open" else None
        return await start_election(uow, game, reason="no confidence", closes_at=closes_at,
                                    closes_with_round=game.current_round)

    async def _end_game(self, uow: UnitOfWork, game: Game, pct: int) -> None:
        """R0-61: the game ends before the current round's crisis is resolved; the Pot penalty is recorded."""
        uow.end(game)
        game.settings = {**game.settings, "end_game_penalty_applied": pct}
        await void_open_rounds(uow, game)


async def _awaiting(session: AsyncSession, game: Game) -> list[VoteView]:
    rows = (await session.execute(select(PlayerVoteRow).where(
        PlayerVoteRow.game_id == game.id, PlayerVoteRow.status == "passed")
        .order_by(PlayerVoteRow.round_number, PlayerVoteRow.id))).scalars().all()
    return [await vote_view(session, game, r) for r in rows]


def expire_votes(unit: SyncUnit, game: Game, number: int) -> list[str]:
    """R0-42/R0-43: at round end every OPEN player vote of the round expires; support never carries over."""
    rows = unit.session.execute(select(PlayerVoteRow).where(
        PlayerVoteRow.game_id == game.id, PlayerVoteRow.round_number == number,
        PlayerVoteRow.status == "open")).scalars().all()
    for row in rows:
        row.status = "expired"
        row.decided_at = unit.now
    return [vote_title(Subject(r.subject), str(r.details.get("label", ""))) for r in rows]


__all__ = ["AG", "Enacted", "MajorityService", "SupportReceipt", "VoteView", "expire_votes", "require_running"]


async def export_player_votes(session: AsyncSession, game_id: int) -> dict[str, Any]:
    """``player_votes`` [{id, subject, target, round, supporters, needed, status}] (support is public, R0-40)."""
    game = await load_game(session, game_id)
    rows = (await session.execute(select(PlayerVoteRow).where(PlayerVoteRow.game_id == game_id)
                                  .order_by(PlayerVoteRow.round_number, PlayerVoteRow.id))).scalars().all()
    docs = []
    for row in rows:
        v = await vote_view(session, game, row)
        docs.append({"id": v.id, "subject": v.subject.value, "target": v.target or None, "round": v.round,
                     "supporters": list(v.supporters), "needed": v.needed, "status": v.status,
                     "details": {k: val for k, val in row.details.items() if k in ("rounds",)}})
    return {"player_votes": docs}
