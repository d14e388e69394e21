"""The Adjutant General election and Player Majority Votes on Discord: slash commands, the thread forms
(``AG Vote: <Name>``, ``Vote: No Confidence`` …), DM ``AG Vote:``, and the announcements they make."""

from __future__ import annotations

import dataclasses
import re
from typing import Any

from bot.actions.commands import App, Option, game_of_user, require_game
from bot.actions.context import Ctx
from bot.actions.deadlines import game_deadline, read_as
from bot.actions.landsdraad.ledger_render import audit_card
from bot.actions.landsdraad.politics_render import (
    ag_receipt_text,
    election_card,
    election_result_card,
    enacted_card,
    held_receipt_text,
    passed_card,
    support_text,
    vetoed_card,
    vote_card,
)
from bot.actions.landsdraad.ruleset import RULESET, commands_on
from bot.actions.landsdraad.victory_posts import Charted, charted_cards, final_posts, unscored_post
from bot.actions.outbox import EXPLAINS, POSTED, AnswerWith, Keep, Outgoing, ToChannel, ToThread, marked, reply
from bot.actions.routes import Routes, first_line
from bot.metrics import ballot_recorded
from engine.core.errors import NotFoundError, ParseError, RuleError
from engine.core.stamps import due_text
from engine.core.text import split_game_tag
from engine.landsdraad.ballot import looks_like_ballot, parse_ballot
from engine.landsdraad.motions import AG_NO_COLON, AgVote, Motion, parse_motion
from engine.service.announcements import card_tag, posted_marker
from engine.service.landsdraad.adjutant import AgVoteReceipt, ElectionView
from engine.service.landsdraad.held_ballots import HeldVote
from engine.service.landsdraad.majority import Enacted, SupportReceipt, VoteView
from engine.service.views import GameView

ROUTES = Routes()
"""The commands and forms of this module (the package's ``ROUTES`` merges them)."""
command = commands_on(ROUTES)
dm_form = ROUTES.dm_form
thread_form = ROUTES.thread_form


def tally_outgoing(app: App, e: ElectionView) -> Outgoing:
    """The election's one pinned tally message in its thread, edited in place."""
    return Outgoing(ToThread(e.game.channel_id, e.thread_name, e.game.id), card=election_card(e, app.clerk.clock.now()),
                    keep=Keep(e.game.id, e.tally_key, pin=True))


def election_closed(app: App, e: ElectionView) -> list[Outgoing]:
    """The final tally and the result card; the card carries its announcement marker (``ag:<game>:<n>``, marked
    posted once Discord has it; its nonce adds the close's token, ``marked``), however the election closed: at its
    deadline, by ``/ag close`` or with the round (recovery.py)."""
    return [tally_outgoing(app, e), Outgoing(ToChannel(e.game.channel_id), card=election_result_card(e),
                                             extra=marked(POSTED, posted_marker("ag", e.game.id, e.number),
                                                          e.post_token))]


def election_opened(app: App, e: ElectionView) -> list[Outgoing]:
    why = " after the vote of No Confidence" if e.reason == "no confidence" else ""
    closes = (f"It closes at the end of round {e.closes_with_round}" if e.closes_at is None
              else f"It closes {election_card(e, app.clerk.clock.now()).fields[-1][1]}")
    return [tally_outgoing(app, e),
            Outgoing(ToChannel(e.game.channel_id),
                     text=f"**Adjutant General election #{e.number}** is open{why}, in the thread "
                          f"`{e.thread_name}`: post `AG Vote: <Name>` there or DM it to me. {closes}.")]


# -- the Adjutant General -------------------------------------------------------------------------------------


@command("ag open", "Open the Adjutant General election in a thread (at most 96 h; default 96 h).",
         Option("deadline", str, "a duration such as 48h, a time or a Discord timestamp; at most 96 h from now"),
         moderator=True)
async def ag_open(app: App, ctx: Ctx, game: GameView | None, o: dict[str, Any]) -> list[Outgoing]:
    g = require_game(game)
    read = await game_deadline(app, g.id, o["deadline"]) if o.get("deadline") else None
    # the announcement and the running count, owed in the opening's transaction (``AnswerWith``)
    answered: AnswerWith[ElectionView] = AnswerWith(ctx.answering, lambda e: [
        reply(f"AG election #{e.number} is open.{read_as(o.get('deadline'), read)}", ephemeral=True),
        *election_opened(app, e)])
    e = await app.clerk.landsdraad.adjutant.open_election(g.id, deadline=read.when if read else None,
                                                          actor=ctx.actor.id, source_id=ctx.source_id,
                                                          answer=answered.owed)
    app.deadlines_changed()
    return answered.out(e)


@command("ag close", "Close the open AG election now and announce the result.", moderator=True)
async def ag_close(app: App, ctx: Ctx, game: GameView | None, o: dict[str, Any]) -> list[Outgoing]:
    g = require_game(game)
    e = await app.clerk.landsdraad.adjutant.close_election(g.id, actor=ctx.actor.id, source_id=ctx.source_id)
    if e is None:
        raise RuleError("That was already done.")
    app.deadlines_changed()
    return [reply(f"AG election #{e.number} closed.", ephemeral=True), *election_closed(app, e)]


@command("ag extend", "Move the open AG election's deadline (after No Confidence: at most 24 h past round end).",
         Option("until", str, "a duration from now such as 12h, a time or a Discord timestamp", True), moderator=True)
async def ag_extend(app: App, ctx: Ctx, game: GameView | None, o: dict[str, Any]) -> list[Outgoing]:
    g = require_game(game)
    read = await game_deadline(app, g.id, o["until"])
    answered: AnswerWith[ElectionView] = AnswerWith(ctx.answering, lambda e: [  # as /ag open's
        reply(f"AG election #{e.number} now closes at {due_text(read.when, app.clerk.clock.now())}."
              f"{read_as(o['until'], read)}", ephemeral=True),
        tally_outgoing(app, e)])
    e = await app.clerk.landsdraad.adjutant.extend_election(g.id, until=read.when, actor=ctx.actor.id,
                                                            source_id=ctx.source_id, answer=answered.owed)
    app.deadlines_changed()
    return answered.out(e)


@command("ag status", "The AG election's standings and ballots, and who holds the office.", reads=True, public=True)
async def ag_status(app: App, ctx: Ctx, game: GameView | None, o: dict[str, Any]) -> list[Outgoing]:
    g = require_game(game)
    holder = await app.clerk.landsdraad.adjutant.adjutant(g.id)
    e = await app.clerk.landsdraad.adjutant.election(g.id)
    office = f"Adjutant General of {g.name}: {holder[1] if holder else 'nobody'}."
    held = await app.clerk.landsdraad.adjutant.held(g.id)
    if held is not None:  # R0-35: ballots cast before the official removal stay valid
        title, ballots = held
        cast = ", ".join(f"{voter} → {candidate}" for voter, candidate in ballots) or "none yet"
        earlier = [v for v in await app.clerk.landsdraad.majority.awaiting(g.id)
                   if v.title == title and v.round != g.current_round]
        state = (f"passed in round {earlier[-1].round} and awaits the moderator (`/pv enact vote:{earlier[-1].id}` "
                 f"or `/pv veto vote:{earlier[-1].id}`)" if earlier else "is under way")
        office += (f" A vote of {title} {state}; AG ballots cast now are held for the election its enactment "
                   f"would open ({len(ballots)} held: {cast}).")
    if e is None:
        return [reply(office + " There has been no election yet (a moderator opens one with /ag open).")]
    card = election_card(e, app.clerk.clock.now())
    if e.status == "open":  # who has not voted yet (every active player has one ballot, R0-30)
        voters = {voter for voter, _, _ in e.ballots}
        waiting = [p.name for p in await app.clerk.landsdraad.ledger.players(g.id) if p.active and p.name not in voters]
        card = dataclasses.replace(card, fields=(*card.fields, (f"Not yet voted ({len(waiting)})",
                                                                ", ".join(waiting) or "nobody", False)))
    return [reply(office, card=card)]


async def _ag_vote(app: App, ctx: Ctx, game: GameView, candidate: str) -> list[Outgoing]:
    def said(receipt: AgVoteReceipt | HeldVote) -> list[Outgoing]:
        if isinstance(receipt, HeldVote):
            return [reply(held_receipt_text(receipt))]
        changed = not receipt.duplicate and not receipt.unchanged  # the running count brought up to date
        return [reply(ag_receipt_text(receipt)), *([tally_outgoing(app, receipt.election)] if changed else [])]

    # the receipt and the running count, owed in the ballot's transaction (play-test S4.5)
    answered = AnswerWith(ctx.answering, said)
    receipt = await app.clerk.landsdraad.adjutant.cast_ag_vote(game.id, user_id=ctx.actor.id, candidate=candidate,
                                                               at=ctx.at, source_id=ctx.source_id,
                                                               answer=answered.owed)
    if not isinstance(receipt, HeldVote) and not receipt.duplicate:
        ballot_recorded("landsdraad", "ag")
    return answered.out(receipt)


@command("ag vote", "Vote for the Adjutant General (like posting `AG Vote: <Name>`).",
         Option("candidate", str, "a player's name, faction or @mention", True, autocomplete="player"), game="any")
async def ag_vote_command(app: App, ctx: Ctx, game: GameView | None, o: dict[str, Any]) -> list[Outgoing]:
    return await _ag_vote(app, ctx, require_game(game), o["candidate"])


def _is_ag_vote(line: str) -> bool:
    return line.lower().replace(" ", "").startswith("agvote:")


def landsdraad_game(game: GameView, text: str) -> GameView:
    """The game of a thread form, if it plays Landsdraad; a refusal that says so otherwise."""
    if game.ruleset != RULESET:
        raise RuleError(f"“{first_line(text)[:100]}” is a Landsdraad form; {game.name} plays "
                        f"{game.ruleset.capitalize()} (DM me `help` for its forms).")
    return game


@thread_form(_is_ag_vote)
async def ag_vote_in_thread(app: App, ctx: Ctx, game: GameView, text: str) -> list[Outgoing]:
    game = landsdraad_game(game, text)
    parsed = parse_motion(first_line(text))
    assert isinstance(parsed, AgVote)
    return await _ag_vote(app, ctx, game, parsed.candidate)


@thread_form(lambda line: AG_NO_COLON.match(line) is not None, anywhere=True, proxy=False)
async def ag_vote_without_colon(app: App, ctx: Ctx, game: GameView, text: str) -> list[Outgoing]:
    """``AG vote Jenny`` in a game channel or its threads: when it names a player of a Landsdraad game (by name or
    @mention), a hint with the form meant, nothing counted; other chat that starts so stays unanswered."""
    found = AG_NO_COLON.match(first_line(text))
    assert found is not None
    candidate = found["name"].strip()
    mention = re.fullmatch(r"<@!?(\d+)>", candidate)
    names = await app.clerk.games.player_names(game.id) if game.ruleset == RULESET else {}
    if not any(name.lower() == candidate.lower() or (mention and int(mention[1]) == user)
               for user, name in names.items()):
        return []
    where = "here" if ctx.place.thread_id is not None else "in the election's thread"
    return [reply(f"Did you mean `AG Vote: {candidate[:60]}`? An Adjutant General vote needs the colon; post it "
                  f"{where} or DM it to me. Nothing was recorded.")]


@dm_form(_is_ag_vote)
async def ag_vote_by_dm(app: App, ctx: Ctx, text: str) -> list[Outgoing]:
    line, named = split_game_tag(first_line(text))
    parsed = parse_motion(line)
    assert isinstance(parsed, AgVote)
    game = await game_of_user(app, ctx.actor.id, named, "landsdraad", what="`AG Vote:`", example=line[:60], form=line)
    return await _ag_vote(app, ctx, game, parsed.candidate)


async def form_open(app: App, game: GameView, user_id: int, form: str) -> str | None:
    """``Front.dm_open``: a crisis ballot is open in a game with a round open, an `AG Vote:` in one with an Adjutant
    General election open; the other DM forms are not judged (a transfer, a quote)."""
    line = first_line(form)
    if _is_ag_vote(line):
        election = await app.clerk.landsdraad.adjutant.election(game.id)
        return None if election is not None and election.status == "open" else "no Adjutant General election is open"
    try:
        parse_ballot(line)
    except ParseError:
        return None
    try:
        rnd = await app.clerk.landsdraad.rounds.round_of(game.id)
    except NotFoundError:
        return "no round has opened yet"
    return None if rnd.status == "open" else "no round is open"


# -- player-majority votes ---------------------------------------------------------------------------------------


def count_outgoing(v: VoteView, ctx_thread: int | None) -> Outgoing:
    """The running count, one message kept in the vote's thread."""
    thread = v.thread_id or ctx_thread
    target = ToThread(v.game.channel_id, f"player-votes-round-{v.round}", v.game.id, thread_id=thread)
    return Outgoing(target, card=vote_card(v), keep=Keep(v.game.id, v.key))


def support_outgoings(r: SupportReceipt, ctx: Ctx) -> list[Outgoing]:
    out = [reply(support_text(r))]
    if not r.already:
        out.append(count_outgoing(r.vote, ctx.place.thread_id))
    if r.just_passed:
        out.append(Outgoing(ToChannel(r.vote.game.channel_id), card=passed_card(r.vote)))
    return out


def _is_motion(line: str) -> bool:
    try:
        return isinstance(parse_motion(line), Motion)
    except ParseError:
        return True


@thread_form(_is_motion)
async def motion_in_thread(app: App, ctx: Ctx, game: GameView, text: str) -> list[Outgoing]:
    game = landsdraad_game(game, text)
    motion = parse_motion(first_line(text))
    assert isinstance(motion, Motion)
    return await _supported(app, ctx, game, motion)


@thread_form(lambda line: looks_like_ballot(line) and parse_motion(line) is None, anywhere=True, proxy=False)
async def crisis_ballot_in_public(app: App, ctx: Ctx, game: GameView, text: str) -> list[Outgoing]:
    return [reply("Crisis ballots are secret: DM me `Vote: Aye|Nay|Abstain` (or use /vote) instead. This message "
                  "was NOT counted, and you may want to delete it.")]


def _motion_from_option(subject: str, withdraw: bool) -> Motion:
    text = subject.strip()
    lowered = text.lower()
    if not (lowered.startswith("vote") or lowered.startswith("audit") or lowered.startswith("unvote")):
        text = f"Vote: {text}"
    parsed = parse_motion(text)
    if not isinstance(parsed, Motion):
        raise RuleError("Give a subject players can vote on: No Confidence, End Embargo [on <Name>], "
                        "Audit: <Player> [rounds 1-3], End Kanly [between <P> and <Q>] or End Game.")
    return Motion(parsed.subject, parsed.names, parsed.rounds, withdraw)


@command("pv support", "Support a player-majority vote (for servers where the bot cannot read thread posts).",
         Option("subject", str, "No Confidence · End Embargo on Bob · Audit: Bob rounds 1-3 · "
                                "End Kanly between A and B · End Game", True))
async def pv_support(app: App, ctx: Ctx, game: GameView | None, o: dict[str, Any]) -> list[Outgoing]:
    return await _support(app, ctx, require_game(game), o["subject"], withdraw=False)


@command("pv withdraw", "Withdraw your support from a player-majority vote (like `Unvote: <subject>`).",
         Option("subject", str, "the subject, e.g. No Confidence", True))
async def pv_withdraw(app: App, ctx: Ctx, game: GameView | None, o: dict[str, Any]) -> list[Outgoing]:
    return await _support(app, ctx, require_game(game), o["subject"], withdraw=True)


async def _support(app: App, ctx: Ctx, g: GameView, subject: str, *, withdraw: bool) -> list[Outgoing]:
    """``/pv support`` and ``/pv withdraw``: the caller's support of ``subject``, given or withdrawn."""
    return await _supported(app, ctx, g, _motion_from_option(subject, withdraw=withdraw))


async def _supported(app: App, ctx: Ctx, g: GameView, motion: Motion) -> list[Outgoing]:
    """The caller's support of ``motion`` recorded: the answer, and the running count and the vote passed, owed in
    the support's transaction (``AnswerWith``: a kill after its commit loses none of them, play-test S4.5)."""
    answered: AnswerWith[SupportReceipt] = AnswerWith(ctx.answering, lambda r: support_outgoings(r, ctx))
    receipt = await app.clerk.landsdraad.majority.support(g.id, user_id=ctx.actor.id, motion=motion,
                                                          thread_id=ctx.place.thread_id, at=ctx.at,
                                                          source_id=ctx.source_id, answer=answered.owed)
    return answered.out(receipt)


@command("pv list", "This round's player votes, their counts and states, and earlier ones awaiting the moderator.",
         reads=True, public=True)
async def pv_list(app: App, ctx: Ctx, game: GameView | None, o: dict[str, Any]) -> list[Outgoing]:
    g = require_game(game)
    votes = await app.clerk.landsdraad.majority.votes(g.id)
    earlier = [v for v in await app.clerk.landsdraad.majority.awaiting(g.id) if v.round != g.current_round]
    text = (f"Player votes, round {g.current_round}:\n" + "\n".join(
        f"#{v.id} {v.title}: {v.status}, {len(v.supporters)} of {v.needed}" for v in votes) if votes
        else f"No player votes in round {g.current_round} of {g.name} yet.")
    if earlier:  # R0-42: a passed vote waits for the moderator past its round (play-test W3)
        text += ("\nPassed in an earlier round and never enacted or vetoed (the game has ended):\n" if g.ended else
                 "\nPassed in an earlier round, still awaiting the moderator (`/pv enact` or `/pv veto`):\n"
                 + "\n".join(f"#{v.id} {v.title} (round {v.round}): passed, {len(v.supporters)} of {v.needed}"
                             for v in earlier))
    return [reply(text)]


@command("pv enact", "Enact a player vote that has passed; its effect happens now.",
         Option("vote", int, "the vote's number (#3 → 3); /pv list shows them", True, min_value=1),
         Option("penalty", int, "End Game only: the Victory Pot penalty in percent (default: the game's setting)",
                min_value=0, max_value=100),
         moderator=True)
async def pv_enact(app: App, ctx: Ctx, game: GameView | None, o: dict[str, Any]) -> list[Outgoing]:
    """What the enactment announces is owed in its transaction (``AnswerWith``); after End Game (R0-61) that is the
    final table too, the game scored with its Pot penalty (R3-04) in the same transaction, its chart drawn off the
    event loop after the commit and added to its row before it is queued (``charted_cards``). No Forecast: one is
    posted at each round's start (R3-08), and no player vote's enactment starts a round."""
    g = require_game(game)
    cards: list[Charted] = []

    def said(en: Enacted) -> list[Outgoing]:
        cards.clear()
        return [reply(f"Enacted player vote #{en.vote.id}.", ephemeral=True), *enacted_outgoings(app, en, cards)]

    answered = AnswerWith(ctx.answering, said)
    enacted = await app.clerk.landsdraad.majority.enact(g.id, vote_id=o["vote"], actor=ctx.actor.id,
                                                        source_id=ctx.source_id, penalty=o.get("penalty"),
                                                        answer=answered.owed)
    app.deadlines_changed()
    return await charted_cards(app, answered, answered.out(enacted), cards)


def enacted_outgoings(app: App, enacted: Enacted, cards: list[Charted]) -> list[Outgoing]:
    """What an enactment announces, made of its result alone (in its transaction: ``AnswerWith``): the vote's running
    count, the enacted card (an audit's card), a new AG election's running count, and after End Game the final
    table (its card in ``cards``, for its chart) or why it waits or failed."""
    v = enacted.vote
    out = [count_outgoing(v, None)]
    if enacted.audit is not None:
        a = enacted.audit
        out.append(Outgoing(ToChannel(v.game.channel_id), card=audit_card(a),
                            extra={EXPLAINS: card_tag("audit", v.game.id, a.round, enacted.audited)}))
    else:
        out.append(Outgoing(ToChannel(v.game.channel_id), card=enacted_card(enacted)))
    if enacted.opened is not None:
        out.append(tally_outgoing(app, enacted.opened))  # the enacted card already announces it in the channel
    if enacted.game_ended:
        out += final_posts(enacted.final, cards) if enacted.final is not None else \
            [unscored_post(v.game, enacted.unscored)]
    return out


@command("pv veto", "Veto a player vote that has passed; it has no effect.",
         Option("vote", int, "the vote's number; /pv list shows them", True, min_value=1), moderator=True)
async def pv_veto(app: App, ctx: Ctx, game: GameView | None, o: dict[str, Any]) -> list[Outgoing]:
    g = require_game(game)
    answered: AnswerWith[VoteView] = AnswerWith(ctx.answering, lambda v: [  # owed in the veto's transaction
        reply(f"Vetoed player vote #{v.id}.", ephemeral=True), count_outgoing(v, None),
        Outgoing(ToChannel(v.game.channel_id), card=vetoed_card(v))])
    v = await app.clerk.landsdraad.majority.veto(g.id, vote_id=o["vote"], actor=ctx.actor.id, source_id=ctx.source_id,
                                                 answer=answered.owed)
    return answered.out(v)


async def ag_may_count(app: App, ctx: Ctx, game: GameView, text: str) -> bool:
    """``Count as vote`` on another player's message: the Adjutant General may count a player-majority vote
    (``Vote: No Confidence``, ``Audit: ...``) for its author; a moderator may count anything
    (``Front.message_commands``)."""
    if not _is_motion(first_line(text)) or _is_ag_vote(first_line(text)):
        return False
    ag = await app.clerk.landsdraad.adjutant.adjutant(game.id)
    return ag is not None and ag[0] == ctx.actor.id
