"""What players read about the Adjutant General and player-majority votes. All of it is public (R0-30, R0-40),
except the Court Gossip note, which goes to the AG alone."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from bot.actions.outbox import Card
from bot.actions.render import NEUTRAL, PASSED, deadline_text
from engine.core.stamps import stamp
from engine.service.landsdraad.adjutant import AgVoteReceipt, ElectionView, Standing
from engine.service.landsdraad.held_ballots import HeldVote
from engine.service.landsdraad.majority import Enacted, SupportReceipt, VoteView

FORMS_HELP = ("Post `AG Vote: <Name>` here (a player's name, faction or @mention; your own name is fine), "
              "or DM it to me. One ballot each; posting a new name changes it.")


def election_card(e: ElectionView, now: datetime) -> Card:
    if e.status == "open":
        if e.closes_at is not None:
            closes = deadline_text(e.closes_at, now)
        else:
            closes = f"at the end of round {e.closes_with_round}"
        title = f"{e.game.name}: Adjutant General election #{e.number}"
    else:
        closes = "closed"
        title = f"{e.game.name}: Adjutant General election #{e.number} (closed)"
    unit = "votes" if e.weighted else "ballots"
    standings = "\n".join(f"{i}. **{s.candidate}**: {s.votes} {unit if s.votes != 1 else unit[:-1]} "
                          f"(last at {stamp(s.last_at, 'f')})" for i, s in enumerate(e.standings, 1))
    standings = standings or "no ballots yet"
    ballots = "\n".join(f"{voter} → {candidate}" for voter, candidate, _ in e.ballots) or "none yet"
    fields = [("Standings", standings, False), ("Ballots", ballots, False)]
    if e.status == "open":
        fields.append(("Closes", closes, True))
    if e.status != "open":
        fields.insert(0, ("Adjutant General", e.winner or "nobody (no ballots were cast)", True))
    reason = " after a vote of No Confidence" if e.reason == "no confidence" else ""
    counted = ("one ballot per active player, each weighing its voter's votes (setting `ag_weighted`)" if e.weighted
               else "one ballot per active player")
    description = f"Elected{reason} by {counted}; a tie goes to the candidate whose last ballot came first."
    if e.status == "open":
        description += "\n" + FORMS_HELP
    return Card(title=title, description=description, fields=tuple(fields), color=NEUTRAL if e.status == "open"
                else PASSED)


def election_result_card(e: ElectionView) -> Card:
    if e.winner is None:
        return Card(title=f"{e.game.name}: no Adjutant General elected",
                    description=f"Election #{e.number} closed with no ballots. Until there is an AG, every player's "
                                "income is docked 300 MS at the end of each round.", color=NEUTRAL)
    standings = ", ".join(f"{s.candidate} {s.votes}" for s in e.standings)
    tied = [s for s in e.standings if s.votes == e.standings[0].votes]
    why = ""
    if len(tied) > 1:  # R0-31: say why the winner won, or the result looks arbitrary
        minute = tied[0].last_at.replace(second=0, microsecond=0)
        others = ", ".join(f"{s.candidate}'s " + ("in the same minute, received later"
                                                  if s.last_at.replace(second=0, microsecond=0) == minute
                                                  else f"at {stamp(s.last_at, 'f')}") for s in tied[1:])
        why = (f" A tie: it goes to the candidate whose last ballot came first, {tied[0].candidate}'s at "
               f"{stamp(tied[0].last_at, 'f')} (before {others}).")
    return Card(title=f"{e.game.name}: {e.winner} is the Adjutant General",
                description=f"Election #{e.number} closed. Result: {standings}.{why}", color=PASSED)


def standing_line(standings: Sequence[Standing]) -> str:
    """Who leads an open AG election; at a tie, who would win it now (R0-31, in words). ``standings`` come ordered
    by the rule: votes, then the candidate whose last ballot came first."""
    if not standings:
        return ""
    leader = standings[0]
    tied = [s.candidate for s in standings if s.votes == leader.votes]
    if len(tied) == 1:
        return f" {leader.candidate} leads with {leader.votes}."
    names = ", ".join(tied[:-1]) + f" and {tied[-1]}"
    return (f" {names} are tied at {leader.votes}; {leader.candidate} would win the tie if it closed now (a tie goes "
            "to the candidate whose last vote came first).")


def ag_receipt_text(r: AgVoteReceipt) -> str:
    if r.duplicate:
        return "That ballot reached me twice; it was counted once. Nothing changed."
    lead = standing_line(r.election.standings)
    if r.unchanged:
        return f"You already vote for {r.candidate}; your ballot keeps its original time.{lead}"
    if r.changed_from:
        return f"AG ballot changed: {r.voter} → **{r.candidate}** (was {r.changed_from}).{lead}"
    return f"AG ballot recorded: {r.voter} → **{r.candidate}**.{lead}"


def held_receipt_text(r: HeldVote) -> str:
    """An AG ballot cast while a No Confidence vote is under way: kept for the election its enactment opens."""
    if r.duplicate:
        return "That ballot reached me twice; it was counted once. Nothing changed."
    if r.unchanged:
        return f"You already vote for {r.candidate}; your held ballot keeps its original time."
    was = f" (changed from {r.changed_from})" if r.changed_from else ""
    return (f"No AG election is open yet, so I am holding your AG ballot for **{r.candidate}**{was}: if "
            f"{r.vote_title} is enacted, it counts in the election that opens then, at the time you cast it; if the "
            "vote is vetoed or expires, it lapses. A new `AG Vote:` replaces it.")


def unvote_form(form: str) -> str:
    """``Vote: End Embargo on bob`` -> ``Unvote: End Embargo on bob``; ``Audit: bob rounds 2`` -> ``Unvote: Audit:
    bob rounds 2`` (naming the vote exactly, since a player may support several audits)."""
    head, _, rest = form.partition(":")
    return f"Unvote: {rest.strip()}" if head.strip().lower() == "vote" else f"Unvote: {form}"


def vote_card(v: VoteView) -> Card:
    supporters = ", ".join(v.supporters) or "nobody yet"
    state = {
        "open": f"open: {len(v.supporters)} of the {v.needed} needed ({v.active} active players; a majority of all "
                "active players)",
        "passed": "PASSED: awaiting the moderator (/pv enact or /pv veto)",
        "enacted": "enacted by the moderator",
        "vetoed": "vetoed by the moderator",
        "expired": "expired at the end of the round (support never carries over)",
    }[v.status]
    fields = [(f"Supporters ({len(v.supporters)})", supporters, False)]
    if v.status == "open":  # once decided, telling players how to support it only misleads
        fields.append(("How", f"Post `{v.form}` as the first line of a message in a thread of the game "
                              f"channel, or use `/pv support`; `{unvote_form(v.form)}` withdraws.", False))
    return Card(title=f"Player vote #{v.id}: {v.title} (round {v.round})", description=state,
                fields=tuple(fields), color=PASSED if v.status in ("passed", "enacted") else NEUTRAL)


def support_text(r: SupportReceipt) -> str:
    v = r.vote
    if r.already:
        if v.status == "open":
            return f"You already support {v.title} ({len(v.supporters)} of {v.needed})."
        return f"{v.title} is already {v.status}; more support changes nothing."
    if r.withdrawn:
        return f"{r.player} withdrew support from {v.title}: {len(v.supporters)} of {v.needed}."
    if r.just_passed:
        return (f"{r.player} supports {v.title}: {len(v.supporters)} of {v.needed}. "
                "It has PASSED and awaits the moderator.")
    return f"{r.player} supports {v.title}: {len(v.supporters)} of {v.needed}."


def passed_card(v: VoteView) -> Card:
    return Card(title=f"Player vote passed: {v.title}",
                description=(f"{len(v.supporters)} of {v.active} active players support it (needed {v.needed}). "
                             "Nothing takes effect until a moderator enacts it: "
                             f"`/pv enact vote:{v.id}` or `/pv veto vote:{v.id}`."),
                fields=(("Supporters", ", ".join(v.supporters), False),), color=PASSED)


def enacted_card(e: Enacted) -> Card:
    v = e.vote
    lines = "\n".join(e.lines) or "Enacted."
    return Card(title=f"Enacted: {v.title}", description=lines, color=PASSED)


def vetoed_card(v: VoteView) -> Card:
    if v.undone:  # an End Game vote enacted by mistake, vetoed after all once the game was reopened (play-test Y4)
        return Card(title=f"Vetoed after all: {v.title}",
                    description=f"The moderator vetoed player vote #{v.id}, which had been enacted. "
                                + " ".join(v.undone), color=NEUTRAL)
    return Card(title=f"Vetoed: {v.title}",
                description=f"The moderator vetoed player vote #{v.id}; it has no effect.", color=NEUTRAL)
