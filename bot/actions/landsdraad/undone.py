"""How a restore's notices (``bot/actions/restore_notices.py``) speak of a Landsdraad player's records it undid
(``Front.undone``), and which closes post a result (``Front.reopened``).

Secrecy (rules-spec §1.2.9): a crisis ballot's choice is the moderators' alone, but who has voted is shown to anyone
by ``/round status`` ("who has voted (not how)"), so the channel names who must vote again and counts the ballots;
AG ballots and player-vote supports are public. A transfer is the sender's and the moderators' until an audit
publishes it, and the Pro tempore's question (who holds the perk) is the asker's: the channel says nothing of
either. Each player's own DM says what theirs held."""

from __future__ import annotations

from bot.actions.front import Payload, Undoing
from bot.actions.landsdraad.render import label


def _ballot(p: Payload) -> str:
    declared = f", declaring {p['declared']:,} votes" if isinstance(p.get("declared"), int) else ""
    return f"your crisis ballot in round {p.get('round')}: **{label(p.get('option'))}**{declared}"


def _ballot_again(p: Payload) -> str:
    declared = f", {p['declared']}" if isinstance(p.get("declared"), int) else ""
    return f"DM me `Vote: {label(p.get('option'))}{declared}` (or use /vote)"


def _subject(p: Payload) -> str:
    target = f" ({p['target']})" if p.get("target") else ""
    return f"**{str(p.get('subject') or '').title()}**{target}"


def _transfer_what(p: Payload) -> str:
    if p.get("kind") == "funds" and isinstance(p.get("amount"), int):
        return f"{p['amount']} MS"
    return str(p.get("item") or "")


def _players_own(p: Payload, actor: int | None) -> int | None:
    """A transfer the player sent (``Transfer:``), not one a moderator recorded for them (``/transfer record``)."""
    return None if p.get("by_moderator") else actor


UNDONE: dict[str, Undoing] = {
    "BallotCast": Undoing(_ballot_again, _ballot, ("crisis ballot", "crisis ballots"), named=True,
                          same=lambda p: p.get("round")),
    "AgBallotCast": Undoing(lambda p: f"`AG Vote: {p.get('candidate')}`",
                            lambda p: f"your ballot for **{p.get('candidate')}** in AG election #{p.get('election')}",
                            ("AG ballot", "AG ballots"), named=True, same=lambda p: p.get("election")),
    "AgBallotHeld": Undoing(lambda p: f"`AG Vote: {p.get('candidate')}`",
                            lambda p: (f"your ballot for **{p.get('candidate')}**, held for the AG election the vote "
                                       "of No Confidence would open"),
                            ("AG ballot", "AG ballots"), named=True, same=lambda p: ("held", p.get("vote"))),
    "PlayerVoteSupported": Undoing(lambda p: "`/pv support` (or its `Vote:` line in a thread of the game channel)",
                                   lambda p: f"your support of the player vote {_subject(p)}",
                                   ("player-vote support", "player-vote supports"), named=True),
    "PlayerVoteWithdrawn": Undoing(lambda p: "`/pv withdraw` (or its `Unvote:` line in a thread of the game channel)",
                                   lambda p: f"your withdrawal of support from the player vote {_subject(p)}",
                                   ("withdrawn support", "withdrawn supports"), named=True),
    "TransferRecorded": Undoing(lambda p: f"`Transfer: {_transfer_what(p)} to {p.get('to_name')}`",
                                lambda p: (f"your transfer of {_transfer_what(p)} to {p.get('to_name')} in round "
                                           f"{p.get('round')}"),
                                whose=_players_own),
    "ElectorQueried": Undoing(lambda p: f"`Elector: {p.get('elector')}, round {p.get('asked_round')}`",
                              lambda p: f"your question how {p.get('elector')} voted in round {p.get('asked_round')}"),
}
"""The forms and commands a Landsdraad player sends that a restore can undo (``Front.undone``)."""

REOPENED = {
    "RoundClosed": lambda p: f"round {p.get('round')}",
    "AgElectionClosed": lambda p: f"AG election #{p.get('number')}",
}
"""The closes whose result is posted as a card (``Front.reopened``)."""
