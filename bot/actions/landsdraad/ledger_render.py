"""Texts and cards for transfers, audits, embargoes, kanly and perks. Who sees each is decided by the handler
(bot/actions/ledgers.py); ``audit_card`` and the registry cards are public, everything else is private."""

from __future__ import annotations

from bot.actions.outbox import Card
from engine.core.stamps import stamp
from engine.core.words import either
from engine.landsdraad.audit import BASE_FEE, PER_PLAYER, PER_ROUND_BACK
from engine.landsdraad.motions import audit_form
from engine.landsdraad.perks import Perk
from engine.service.landsdraad.audits import AuditView, QuoteView, TransferList, TransferView
from engine.service.landsdraad.perks import ElectorAnswer, PerkGrant, PerksAwarded
from engine.service.landsdraad.registries import KanlyView, Registries
from engine.service.landsdraad.transfer_moves import AppliedTransfer

NEUTRAL = 0x5865F2
CHOAM = 0xC27C0E


def rounds_text(rounds: tuple[int, ...]) -> str:
    """(2, 4) -> ``rounds 2 and 4``; (4,) -> ``round 4``."""
    if len(rounds) == 1:
        return f"round {rounds[0]}"
    return "rounds " + ", ".join(str(r) for r in rounds[:-1]) + f" and {rounds[-1]}"


def fee_text(fee: int, players: int, current: int, requested: tuple[int, ...]) -> str:
    back = sum(current - r for r in requested)
    parts = [f"{BASE_FEE} base", f"{PER_PLAYER} × {players} active player{'s' if players != 1 else ''}"]
    if back:
        parts.append(f"{PER_ROUND_BACK} × {back} for going back ({', '.join(f'{current}−{r}' for r in requested)})")
    return f"{fee} MS = " + " + ".join(parts)


# -- transfers ------------------------------------------------------------------------------------------------

def transfer_receipt(v: TransferView) -> str:
    if v.duplicate:
        return (f"This message reached me twice; your transfer of {v.what} to {v.recipient} in round {v.round} of "
                f"{v.game.name} was recorded once, when it first came. Nothing was changed.")
    return (f"Recorded your transfer of {v.what} to {v.recipient} in round {v.round} of {v.game.name}.\n"
            "Only the moderators see your transfers, unless an audit publishes them.")


def transfer_line(v: TransferView) -> str:
    line = f"#{v.id} · round {v.round}: {v.what} to {v.recipient} ({stamp(v.at, 'f')})"
    if v.applied:
        line += " · applied"
    if v.corrects is not None:
        line += f" · corrects #{v.corrects}"
    if v.corrected_by is not None:
        line += f" · replaced by #{v.corrected_by}"
    if v.note:
        line += f" · note: {v.note}"
    return line


def transfer_recorded_text(v: TransferView) -> str:
    if v.corrects is not None:
        return (f"Entry #{v.id} corrects #{v.corrects}: {v.sender}'s transfer in round {v.round} now reads "
                f"{v.what}" + ("" if v.kind == "cancelled" else f" to {v.recipient}") +
                ". The earlier entry is kept in the ledger; audits show the correction.")
    return f"Recorded entry #{v.id}: {v.sender} transferred {v.what} to {v.recipient} in round {v.round}."


def transfer_list_card(t: TransferList) -> Card:
    where = f" in round {t.round}" if t.round is not None else ""
    if t.player is None:
        lines = "\n".join(f"{v.sender}: {transfer_line(v)}" for v in t.entries) or "none"
        title = f"Transfers of every player{where} ({t.game.name})"
    else:
        lines = "\n".join(transfer_line(v) for v in t.entries) or "none"
        title = f"Transfers by {t.player}{where} ({t.game.name})"
    return Card(title=title, description=lines, color=NEUTRAL,
                footer="Entries are never changed: a correction is a new entry. Only moderators see this list.")


def transfer_notice(v: TransferView, *, how: str) -> str:
    """What the moderators read of a transfer recorded (``how``: ``by DM``, ``recorded by a moderator``, ...): who,
    what, to whom, the round, and whether the ledger can apply it."""
    if v.corrects is not None:
        head = (f"✏️ Transfer #{v.id} corrects #{v.corrects} ({how}): **{v.sender}**'s transfer in round {v.round} of "
                f"{v.game.name} now reads " + ("nothing: it never happened" if v.kind == "cancelled" else
                                               f"**{v.what}** to **{v.recipient}**") + ".")
        if v.note:
            head += f"\nNote: {v.note}"
    else:
        head = (f"📦 Transfer #{v.id} · round {v.round} of {v.game.name} ({how}, {stamp(v.at, 'f')}): "
                f"**{v.sender}** → **{v.recipient}**: {v.what}.")
        if v.note:
            head += f"\nNote: {v.note}"
    return head + "\n" + transfer_ledger_line(v)


def transfer_ledger_line(v: TransferView) -> str:
    """Whether the Apply button moves it, or why it is only recorded."""
    h = v.holding
    if v.kind == "cancelled":
        return "Nothing to apply."
    if v.kind == "funds":
        return "Money is not kept in the ledger: recorded only."
    if h is None:
        return "The ledger does not track that: recorded only."
    if h.homeworld and h.held_by_sender:
        return (f"{h.name} is {v.sender}'s Homeworld: a transfer does not move a Homeworld (use /holding remove and "
                "/holding add if it really changes hands). Recorded only.")
    if not h.held_by_sender:
        return (f"The ledger has the {_kind(h.kind)} {h.name} with {h.holder}, not {v.sender}: recorded only "
                "(/holding remove and /holding add move it by hand).")
    return (f"{h.name} is {'a planet' if h.kind == 'planet' else 'an Elector'} {v.sender} holds in the ledger. "
            f"**Apply** moves it to {v.recipient} (or /transfer apply id:{v.id}).")


def _kind(kind: str) -> str:
    return "Elector" if kind == "elector" else kind


def transfer_applied_text(a: AppliedTransfer, by: str) -> str:
    """For the moderators: what the Apply did."""
    when = "in play now" if a.round_open else "in play (no round open)"
    return (f"✅ {by} applied transfer #{a.entry}: the {_kind(a.kind)} **{a.holding}** moved from {a.sender} to "
            f"{a.recipient} in the ledger of {a.game.name}. {a.sender} now has {a.sender_votes} votes, "
            f"{a.recipient} {a.recipient_votes}; {a.in_play} votes {when}.")


def transfer_applied_dm(a: AppliedTransfer, *, giver: bool) -> str:
    """For each of the two players, privately: the move and their own votes (P0-14: nobody else's)."""
    if giver:
        return (f"The moderators applied your transfer #{a.entry} in {a.game.name}: the {_kind(a.kind)} {a.holding} "
                f"is now {a.recipient}'s in the ledger. You now control {a.sender_votes} votes.")
    return (f"The moderators applied {a.sender}'s transfer #{a.entry} in {a.game.name}: the {_kind(a.kind)} "
            f"{a.holding} is now yours in the ledger. You now control {a.recipient_votes} votes.")


# -- audits ---------------------------------------------------------------------------------------------------

def quote_text(q: QuoteView) -> str:
    return (f"Audit quote for {q.target} in round {q.current} of {q.game.name}: **{q.fee} MS** in all, "
            f"**{q.share} MS** for each of the {q.active} active players.\n"
            f"Fee: {fee_text(q.fee, q.active, q.current, q.requested)}.\n"
            f"It would publish {q.target}'s transfers in {rounds_text(q.rounds)} (the current round is always "
            f"included, at no extra cost).\n"
            + f"Only you see this quote. To call for the audit, post `{audit_form(q.target, q.requested)}` as the "
            "first line of a message in a thread of the game channel.")


def audit_card(view: AuditView) -> Card:
    """The public result of an enacted audit (R0-51, R0-52)."""
    lines = "\n".join(f"Round {t.round}: {t.what} to {t.to}" + (" (corrected by the moderators)" if t.corrected else "")
                      for t in view.transfers) or "no transfers"
    players = len(view.payers)
    return Card(
        title=f"CHOAM audit of {view.target}",
        description=(f"CHOAM's auditors publish every Transfer and Transfer Funds action of {view.target} in "
                     f"{rounds_text(view.rounds)}."),
        fields=(("Transfers", lines, False),
                ("Fee", fee_text(view.fee, players, view.round, view.requested), False),
                ("Each player pays", f"{view.share} MS (all {players} active players share the bill, "
                                     f"{view.target} included)", False)),
        color=CHOAM,
        footer=f"Billed to the Landsdraad in round {view.round}.",
    )


# -- perks ----------------------------------------------------------------------------------------------------

def perk_dm(g: PerkGrant) -> str:
    """The private notice to a perk's holder (R0-72): nobody else is told."""
    head = f"**{g.perk.value}**, round {g.round} of {g.game}"
    if g.perk is Perk.PRO_TEMPORE:
        body = [f"You control the most votes in the Landsdraad ({g.votes}) now that the Auction Phases have closed.",
                "• You may assign one of the Looming Crises to the Roll 5 position: tell the moderator which.",
                "• You may learn how one Elector voted in an earlier round: DM me `Elector: <Name>, round <N>` "
                "(one question this round)." if g.round > 1 else
                "• You could learn how an Elector voted in an earlier round, but this is the first round: there is "
                "none yet."]
    elif g.perk is Perk.CHOAM:
        body = ["You control the second most votes in the Landsdraad.",
                "• You may designate the Roll 6 position for the Looming Crisis: tell the moderator which.",
                "• You receive one free share of CHOAM stock this round."]
    else:
        body = ["You control the third most votes in the Landsdraad."]
        if g.locations:
            body.append("• One free militia unit arrives at a location you control other than your Homeworld: tell "
                        f"the moderator which of {', '.join(g.locations)}.")
        else:
            body.append("• You control no location other than your Homeworld, so no militia unit can be placed "
                        "this round.")
    return "\n".join([head, *body, "This perk is secret: nobody else is told who holds it."])


def perks_card(a: PerksAwarded) -> Card:
    """For the moderator who closed the Auction Phases (ephemeral): who got what, and why a perk went to nobody."""
    fields: list[tuple[str, str, bool]] = []
    for g in a.grants:
        extra = ""
        if g.perk is Perk.MASTER_AT_ARMS:
            extra = (f"; militia at {either(g.locations)}" if g.locations
                     else "; no militia (only a Homeworld)")
        fields.append((g.perk.value, f"{g.player} ({g.votes} votes){extra}", False))
    for perk, why in a.unawarded:
        fields.append((perk.value, f"not awarded: {why}", False))
    ranking = "\n".join(f"{r.rank}. {r.name}: {r.votes}" for r in a.ranking) or "no active players"
    fields.append(("Ranking by votes", ranking, False))
    return Card(title=f"Perks of round {a.round} ({a.game.name})",
                description="Each holder has been told by DM. Holders are never announced.",
                fields=tuple(fields), color=NEUTRAL, footer="Only you see this.")


def elector_text(a: ElectorAnswer) -> str:
    if a.option is None:
        answer = (f"{a.elector} did not vote in round {a.round}: the player who controlled it at the close was not "
                  "in play.")
    elif a.defaulted:
        answer = (f"In round {a.round}, {a.elector} ({a.votes} votes) **abstained**: its controller sent no ballot, "
                  "so the whole block abstained.")
    else:
        answer = f"In round {a.round}, {a.elector} ({a.votes} votes) voted **{a.option.capitalize()}**."
    if a.duplicate:
        return "This message reached me twice; it was answered once. " + answer
    return answer + "\nThat was your Elector question for this round. Only you see this answer."


# -- registries -----------------------------------------------------------------------------------------------

def registries_card(r: Registries, *, embargoes: bool = True, kanly: bool = True) -> Card:
    fields: list[tuple[str, str, bool]] = []
    if embargoes:
        fields.append(("Embargoes", "\n".join(e.line for e in r.embargoes) or "none", False))
    if kanly:
        fields.append(("Kanly", "\n".join(k.line for k in r.kanly) or "none", False))
    return Card(title=f"{r.game.name}: " + " and ".join(n for n, _, _ in fields).lower(), fields=tuple(fields),
                color=NEUTRAL)


def transit_card(kanly: tuple[KanlyView, ...], game: str) -> Card:
    lines = "\n".join(t.line for k in kanly for t in k.transit) or "none"
    return Card(title=f"{game}: forces and assassins en route against a kanly rival", description=lines,
                color=NEUTRAL, footer="Only moderators see this. /kanly arrived id:<n> when they arrive.")
