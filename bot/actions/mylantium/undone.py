"""How a restore's notices (``bot/actions/restore_notices.py``) speak of a Mylantium Faction player's records it
undid (``Front.undone``), and which closes post a result (``Front.reopened``).

Secrecy (rules-spec §2.2.7, docs/commands.md): a Primary or General Election choice is secret during play, but
``/election status`` shows anyone who has chosen (not what); a contribution is the moderators' until the resolution,
but ``/revolution status`` shows anyone who has contributed (not how much); a realignment and the answer to the coup
offer are announced in the game channel. So the channel counts each and names who must send theirs again; what each
held is said only in its sender's own DM."""

from __future__ import annotations

from bot.actions.front import Payload, Undoing

STAGES = {"primary": ("Primary", "Primary"), "general": ("General Election", "General")}
"""An election's stage: how it is named, and its DM form's keyword."""


def _stage(p: Payload) -> tuple[str, str]:
    stage = str(p.get("stage") or "")
    return STAGES.get(stage, (stage.capitalize(), stage.capitalize()))


def _choice(p: Payload) -> str:
    choice = str(p.get("choice") or "")
    return choice.capitalize() if p.get("stage") == "general" else choice


def _contribution(p: Payload) -> str:
    return (f"your Faction's contribution to attempt {p.get('attempt')} of Revolution #{p.get('chain')}: "
            f"${p.get('to_crt') or 0} to the Counter-Revolutionary Treasury, ${p.get('to_vanguard') or 0} to the "
            "Vanguard")


def _contribute_again(p: Payload) -> str:
    forms = []
    if p.get("to_crt"):
        forms.append(f"`Contribute: {p['to_crt']}`")
    if p.get("to_vanguard"):
        forms.append(f"`Contribute: {p['to_vanguard']} to the Vanguard`")
    return " and ".join(forms) or "`Contribute: 0`"


def _coup(p: Payload) -> str:
    return "yes" if p.get("accept") else "no"


UNDONE: dict[str, Undoing] = {
    "ChoiceMade": Undoing(lambda p: f"`{_stage(p)[1]}: {_choice(p)}`",
                          lambda p: (f"your Faction's choice in the {_stage(p)[0]} of turn {p.get('turn')}: "
                                     f"**{_choice(p)}**"),
                          ("election choice", "election choices"), named=True,
                          same=lambda p: (p.get("turn"), p.get("stage"))),
    "FactionRealigned": Undoing(lambda p: f"`Realign: {str(p.get('to') or '').capitalize()}`",
                                lambda p: (f"your Faction's realignment to the "
                                           f"{str(p.get('to') or '').capitalize()} party in turn {p.get('turn')}"),
                                ("realignment", "realignments"), named=True),
    "ContributionPledged": Undoing(_contribute_again, _contribution, ("contribution", "contributions"), named=True,
                                   same=lambda p: (p.get("chain"), p.get("attempt"))),
    "CoupAnswered": Undoing(lambda p: f"`Coup: {_coup(p)}`",
                            lambda p: f"your answer to the coup offer of Revolution #{p.get('chain')}: **{_coup(p)}**",
                            ("answer to the coup offer", "answers to the coup offer"), named=True,
                            whose=lambda p, actor: actor if p.get("by_player") else None),
}
"""The forms a Mylantium Faction player sends that a restore can undo (``Front.undone``)."""

REOPENED = {
    "ElectionClosed": lambda p: f"the {_stage(p)[0]} of turn {p.get('turn')}",
}
"""The closes whose result is posted as a card (``Front.reopened``)."""
