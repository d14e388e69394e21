"""How a restore's notices (``bot/actions/restore_notices.py``) speak of a Convocate player's records it undid
(``Front.undone``).

Secrecy (rules-spec §4.2.9, docs/commands.md "What is announced where"): everything on the board is public (commits,
pushes, Statutes and their Sections, Directives, Motions and every answer to an offer to second, Repeals, phases;
``/board`` shows the cards), so the channel counts each and names who must do theirs again. A Motion's resolution is
its second's: undone with it. What each was is said in its sender's DM, in ``/log``'s words where nothing more is
needed."""

from __future__ import annotations

from bot.actions.front import Payload, Undoing


def _cards(p: Payload) -> str:
    return ", ".join(str(card[0]) for card in p.get("cards") or () if card)


def _direction(p: Payload) -> str:
    return "up" if isinstance(p.get("to"), int) and isinstance(p.get("from"), int) and p["to"] > p["from"] else "down"


def _steps(p: Payload) -> int:
    return abs(p["to"] - p["from"]) if isinstance(p.get("to"), int) and isinstance(p.get("from"), int) else 1


UNDONE: dict[str, Undoing] = {
    "VotesCommitted": Undoing(lambda p: f"`/commit cards:{_cards(p)}`" + (f" `add:{p['added']}`" if p.get("added")
                                                                          else ""),
                              lambda p: f"your commit of {_cards(p) or 'Votes'} to your Resource Pool",
                              ("commit", "commits"), named=True),
    "FactorPushed": Undoing(lambda p: f"`/push factor:{p.get('factor')} direction:{_direction(p)} steps:{_steps(p)}`",
                            lambda p: f"your push of {p.get('factor')} from {p.get('from')} to {p.get('to')}",
                            ("push of a Factor", "pushes of Factors"), named=True),
    "StatuteDeclared": Undoing(lambda p: f"`/statute declare statute:{p.get('statute')}` (with its Character, "
                                         "Section and Sections)",
                               lambda p: (f"your declaration of the Statute **{p.get('statute')}** with "
                                          f"{p.get('character')} on {p.get('seat')}, Section {p.get('section')}"),
                               ("Statute declared", "Statutes declared"), named=True),
    "StatuteSectionChanged": Undoing(lambda p: f"`/statute section statute:{p.get('statute')} section:{p.get('to')}`",
                                     lambda p: (f"your change of the Statute **{p.get('statute')}** to Section "
                                                f"{p.get('to')}"),
                                     ("Section changed", "Sections changed"), named=True),
    "StatuteDestroyed": Undoing(lambda p: f"`/statute destroy statute:{p.get('statute')}`",
                                lambda p: f"your destruction of the Statute **{p.get('statute')}**",
                                ("Statute destroyed", "Statutes destroyed"), named=True),
    "DirectiveSet": Undoing(lambda p: f"`/directive factor:{p.get('directive')}`",
                            lambda p: f"your Directive: {p.get('directive')}",
                            ("Directive set", "Directives set"), named=True),
    "MotionMoved": Undoing(lambda p: (f"`Motion: {p.get('name')} by {p.get('convocant')}` in the game channel, with "
                                      "its further lines (or `/motion move`)"),
                           lambda p: f"your Motion #{p.get('motion')} **{p.get('name')}** by {p.get('convocant')}",
                           ("Motion moved", "Motions moved"), named=True),
    "RepealMoved": Undoing(lambda p: (f"`Motion of Repeal: {p.get('statute')} by {p.get('convocant')}` in the game "
                                      "channel (or `/repeal`)"),
                           lambda p: (f"your Motion of Repeal #{p.get('motion')} against **{p.get('statute')}** by "
                                      f"{p.get('convocant')}"),
                           ("Motion of Repeal", "Motions of Repeal"), named=True),
    "MotionSeconded": Undoing(lambda p: f"`Second: {p.get('convocant')}`, when the offer is with you",
                              lambda p: f"your second of Motion #{p.get('motion')} with {p.get('convocant')}",
                              ("second", "seconds"), named=True),
    "SecondDeclined": Undoing(lambda p: "`Second: no`, when the offer is with you",
                              lambda p: f"your decline of the offer to second Motion #{p.get('motion')}",
                              ("decline to second", "declines to second"), named=True),
    "PhaseAdvanced": Undoing(lambda p: "`/phase next`", None, ("Phase ended", "Phases ended"), named=True),
    "CardAdded": Undoing(lambda p: f"`/card add` of {p.get('card')}", None, ("card added", "cards added"),
                         named=True),
    "CardChanged": Undoing(lambda p: f"`/card set` of {p.get('card') or p.get('name')}", None,
                           ("card changed", "cards changed"), named=True),
    "CardRemoved": Undoing(lambda p: f"`/card remove` of {p.get('card')}", None, ("card removed", "cards removed"),
                           named=True),
}
"""The commands and forms a Convocate player sends that a restore can undo (``Front.undone``). A moderator's (who is
no player of the game) are left to the channel's line for the moderators."""
