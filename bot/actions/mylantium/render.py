"""What players of a Mylantium game read: the government page, elections, receipts, the Business Phase breakdown,
the revolution chain and how a reminder reads (``REMINDERS``). Secrets (who chose what, treasuries, contributions
before resolution, P1-19) never enter a public card."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from typing import Any

from bot.actions.front import ReminderText
from bot.actions.outbox import Card
from bot.actions.render import deadline_line, deadline_text
from engine.core.durations import format_remaining, format_utc
from engine.core.stamps import stamp
from engine.core.words import plural
from engine.mylantium.approval import Change
from engine.mylantium.model import FactionCode, Party
from engine.mylantium.revolution import Attempt
from engine.service.mylantium.views import (
    BusinessView,
    ChainView,
    ChoiceReceipt,
    GovernmentView,
    MylElectionView,
    MylFactionView,
    PledgeReceipt,
    RealignReceipt,
    TerritoryView,
)
from engine.service.reminders import Reminder

NEUTRAL = 0x5865F2
GOLD = 0xF1C40F
RED = 0xE74C3C
FORMS = {"primary": "`Primary: <Candidate>`", "general": "`General: Whig` or `General: Federalist`"}
TITLES = {"primary": "Primary", "general": "General Election"}


def _reminded(reminder: Reminder) -> str:
    return f"The {TITLES[reminder.kind]} of turn {reminder.number} of {reminder.game.name}"


REMINDERS = {stage: ReminderText(_reminded, f"DM me {FORMS[stage]}", f"the {TITLES[stage]} of turn",
                                 voted="your Faction has not chosen") for stage in ("primary", "general")}
"""How a reminder of a Primary and of a General Election reads (``Front.reminders``)."""


SINGULAR = {"ports": "port", "cities": "city", "temples": "temple", "villages": "village"}


def buildings_text(buildings: Mapping[str, int]) -> str:
    """``3 ports, 1 city, 0 temples, 0 villages``."""
    return ", ".join(f"{n} {SINGULAR.get(k, k) if n == 1 else k}" for k, n in buildings.items())


def signed(n: int) -> str:
    return f"{n:+d}"


def votes_text(f: MylFactionView) -> str:
    parts = ", ".join(f"{t} {n}" for t, n in f.votes.items() if n) or "none"
    return f"{f.national} ({parts})"


def faction_line(f: MylFactionView, *, private: bool = False) -> str:
    gone = " — withdrawn" if not f.in_play else ""
    money = f", treasury ${f.treasury}" if private else ""
    return f"**{f.title}** ({f.player}, {f.party.title}): {votes_text(f)} votes, {f.vp} VP{money}{gone}"


def government_card(v: GovernmentView) -> Card:
    """The government page (PUBLIC, rules-spec §2.2.7): no treasuries."""
    president = f"the {v.president.plural}" if v.president else "not recorded (/government set president:)"
    incumbent = v.incumbent.title if v.incumbent else "unknown"
    approval = f"{v.approval}%" + (" (the starting value)" if v.approval_default else "")
    ip = v.in_play
    tax = f"{ip['income_tax']}%" if ip["income_tax"] is not None else "none"
    in_play = (f"Monopolies {ip['monopolies']}, Income Tax {tax}, Faction Taxes {ip['faction_taxes']}, Tariffs "
               f"{ip['tariffs']}, subsidies {ip['subsidies']}, pensions {ip['pensions']}, wars {ip['wars']}")
    if ip["unfunded_last_turn"]:
        in_play += f"; {plural(ip['unfunded_last_turn'], 'pension')} went unfunded last turn"
    fields: list[tuple[str, str, bool]] = [
        ("Approval Rating", approval, True),
        ("Revolutionary Fervor", str(v.fervor), True),
        ("Presidency (incumbent party)", f"{president} ({incumbent})", True),
        ("Faction Votes", "\n".join(faction_line(f) for f in v.factions) or "no Factions yet", False),
        ("National Faction Votes in play (F)", str(v.faction_votes), True),
        ("Independent Vote (F/2)", str(v.independent), True),
        ("Victory Points in play (S)", str(v.total_vp), True),
    ]
    if v.candidates:
        fields.append(("Candidates", "\n".join(
            f"{c.name} ({c.faction.plural}, {c.party.title}), Charisma {c.charisma}"
            + (" — discarded" if c.discarded else "" if c.running else " — not running") for c in v.candidates),
            False))
    if v.territories:
        fields.append(("Territories", "\n".join(
            f"{t.name}: {buildings_text(t.buildings)}" for t in v.territories), False))
    if v.units:
        fields.append(("Military units", "\n".join(
            f"{u.name} ({u.territory}, {u.status.replace('-', ' ')}): maintenance ${u.maintenance}, cost ${u.cost}"
            for u in v.units), False))
    fields.append(("In play", in_play, False))
    if v.revolution:
        fields.append(("Revolution", f"under way: {v.revolution}; play is suspended", False))
    return Card(f"{v.game.name}: the government of Mylantium, turn {v.turn}", v.stage, tuple(fields), NEUTRAL)


def setup_card(v: GovernmentView) -> Card:
    """The set-up summary (``bot/actions/setup.py``): the government page as set up so far, each territory with the
    names of its buildings. PUBLIC, like the page it is made from."""
    page = government_card(v)
    fields = tuple((name, "\n".join(_named(t) for t in v.territories), inline) if name == "Territories"
                   else (name, value, inline) for name, value, inline in page.fields)
    return Card(f"{v.game.name}: the Republic of Mylantium, being set up", "Set-up so far (this message is updated as "
                "the moderators add to it; /election start begins the first Election Round).", fields, NEUTRAL)


def _named(t: TerritoryView) -> str:
    names = "; ".join(f"{k}: {', '.join(n)}" for k, n in t.names.items() if n)
    return f"{t.name}: {buildings_text(t.buildings)}" + (f" ({names})" if names else "")


def locks_text(game: str, turn: int, locks: Mapping[str, str]) -> str:
    lines = [f"**{game}: the Election Round of turn {turn} begins.** Factions may realign until the Primary opens: "
             "DM me `Realign: Whig` or `Realign: Federalist` (once a turn; a realigning Faction loses its Candidate)."]
    if locks:
        lines.append("Locked from this snapshot:")
        lines += [f"  {name}: {why}" for name, why in locks.items()]
    return "\n".join(lines)


def running_text(e: MylElectionView) -> str:
    """A Primary's candidates by party (play-test M5.2): ``Whig: Lee Adams (Plutocrats, Charisma 7), ...``."""
    lines = []
    for party in Party:
        names = [f"{c.name} ({c.faction.plural}, Charisma {c.charisma})" for c in e.running if c.party is party]
        lines.append(f"{party.title}: {', '.join(names) or 'nobody is running'}")
    return "\n".join(lines)


def election_opened_card(e: MylElectionView, now: datetime) -> Card:
    running = (("Candidates running", running_text(e), False),) if e.stage == "primary" else ()
    return Card(f"{e.game.name}: the {e.title} of turn {e.turn} is open", "", (
        ("How to choose", f"Each Faction's player DMs me {FORMS[e.stage]}; you can change it until the deadline. "
                          "Choices are secret; only the totals are announced.", False), *running,
        ("Deadline", deadline_text(e.deadline, now).replace("the round", "the election"), True)), NEUTRAL)


def election_status_card(e: MylElectionView, now: datetime) -> Card:
    fields = [("Chosen", ", ".join(e.chosen) or "nobody yet", False),
              ("Waiting for", ", ".join(e.waiting) or "nobody", False)]
    if e.status == "open" and e.game.ended_at is not None:  # play-test X4.4: neither open nor due any more
        fields.append(("Stopped", f"the game ended {stamp(e.game.ended_at)} before this {e.title} closed; its "
                                  "choices were never counted", False))
        return Card(f"{e.game.name}: the {e.title} of turn {e.turn} (stopped when the game ended)", "",
                    tuple(fields), NEUTRAL)
    if e.status == "open" and e.held_left is not None:
        fields.append(("Deadline", f"held while a Revolution suspends play: {format_remaining(e.held_left)} left, "
                                   "which runs on once play resumes", True))
    elif e.status == "open":
        fields.append(("Deadline", deadline_text(e.deadline, now).replace("the round", "the election"), True))
    return Card(f"{e.game.name}: the {e.title} of turn {e.turn} ({e.status})", "", tuple(fields), NEUTRAL)


OFFLINE_DMS = ("The choices DMed to the bot while it was offline were read when it started again: those sent before "
               "the deadline are counted.")
"""Said under a result closed late (play-test S4.2): Discord does not send the bot the DMs of a time it was offline;
it reads them back at start before it closes the election (bot/discord/catch_up.py, as under a Landsdraad round's,
play-test R3.2)."""


def close_notes(r: Mapping[str, Any]) -> str:
    """The notes under a result: closed again after the moderators reopened it (``/election reopen``), and closed
    at its deadline while the bot was offline; empty for a first close in time."""
    notes = ""
    if int(r.get("closing", 1)) > 1:
        notes += ("\n\nCounted afresh: the moderators reopened this election, and the result of its earlier close is "
                  "withdrawn.")
    due = r.get("due_at")
    if due:
        notes += f"\n\nClosed at its deadline {stamp(datetime.fromisoformat(due))} (the bot was offline). {OFFLINE_DMS}"
    return notes


def result_card(e: MylElectionView) -> Card:
    r: Mapping[str, Any] = e.result or {}
    if e.stage == "primary":
        fields: list[tuple[str, str, bool]] = []
        for party in Party:
            lines = [f"{line['name']}: **{line['total']}** = Faction Votes {line['faction_votes']} + Charisma "
                     f"{line['charisma']}" for line in r.get("lines", []) if line["party"] == party.value]
            nominee = r.get("nominees", {}).get(party.value)
            tie = r.get("ties", {}).get(party.value)
            if tie:
                lines.append(f"Tied: {', '.join(tie)}. The moderators name the nominee (/election nominee).")
            elif nominee:
                lines.append(f"Nominee: **{nominee}**")
            fields.append((f"{party.title} Primary", "\n".join(lines) or "no candidates", False))
        fields.append(("Independent Vote", "none: it votes only in the General Election", False))
        return Card(f"{e.game.name}: the Primary of turn {e.turn}", "Totals by candidate (Charisma counts only "
                                                                  "for candidates running)." + close_notes(r),
                    tuple(fields), GOLD)
    lines = r.get("lines", {})
    incumbent = Party(r["incumbent"])
    fields = []
    for party in Party:
        line = lines.get(party.value, {})
        nominee = r.get("nominees", {}).get(party.value) or "no nominee"
        fields.append((f"{party.title} ({nominee})",
                       f"**{line.get('total', 0)}** = Faction Votes {line.get('faction_votes', 0)} + Charisma "
                       f"{line.get('charisma', 0)} + Independent {line.get('independent', 0)}", False))
    winner = Party(r["winner"])
    split = (f"I = F/2 = {r['faction_votes_in_play']}/2 → {r['independent']}; the incumbent "
             f"{incumbent.title}s get {r['approval']}% → {lines[incumbent.value]['independent']}, the "
             f"{incumbent.other.title}s the remaining {lines[incumbent.other.value]['independent']}")
    fields.append(("Independent Vote", split, False))
    outcome = f"The **{winner.title}s** win"
    outcome += " the tie, which keeps the incumbent party in power." if r.get("tie") else "."
    if r.get("president"):
        outcome += (f" The Presidency goes to their nominee, {r['nominees'][winner.value]} (the "
                    f"{FactionCode[r['president']].plural}).")
    return Card(f"{e.game.name}: the General Election of turn {e.turn}", outcome + close_notes(r), tuple(fields), GOLD)


def choice_text(r: ChoiceReceipt, now: datetime, written: str | None = None) -> str:
    """The receipt of a Primary or General choice. ``written``: the candidate's name as the player wrote it; when it
    is only a start of the name recorded (``Lee Adam``), the receipt says so beside the name (play-test M5.3)."""
    title = "Primary" if r.stage == "primary" else "General Election"
    if r.duplicate:
        return (f"This message reached me twice; it was recorded once, when it first came (the {r.faction.plural} "
                f"chose **{r.choice.capitalize()}**). Nothing was changed.")
    shown = r.choice if r.stage == "primary" else Party(r.choice).title
    head = f"Recorded for the {r.faction.plural} in the {title} of {r.game.name}: **{shown}**"
    notes = []
    if written is not None and " ".join(written.lower().split()) != " ".join(r.choice.lower().split()):
        notes.append(f"you wrote “{written.strip()}”")
    if r.replaced is not None:
        old = r.replaced if r.stage == "primary" else Party(r.replaced).title
        notes.append("unchanged" if r.replaced == r.choice else f"was {old}")
    if notes:
        head += f" ({'; '.join(notes)})"
    return (f"{head}. Your {r.votes} Faction Votes go to it, counted as they stand at the close.\n"
            + deadline_line(r.deadline, now, "Send a new choice to change it until then.", "election"))


def realign_text(r: RealignReceipt) -> str:
    if r.duplicate:
        return "This message reached me twice; the realignment was made once. Nothing was changed."
    lost = (f" Your Candidate {r.discarded} is discarded; the moderators handle the replacement."
            if r.discarded else "")
    return (f"The {r.faction.plural} of {r.game.name} are now **{r.new.title}s** (were {r.old.title}s).{lost}")


def realigned_public(r: RealignReceipt) -> str:
    lost = f"; their Candidate {r.discarded} is discarded" if r.discarded else ""
    return f"The **{r.faction.plural}** have realigned: {r.old.title} → **{r.new.title}**{lost}."


def changes_text(changes: tuple[Change, ...]) -> str:
    return "\n".join(f"{signed(c.delta)}: {c.cause}" for c in changes) or "no change"


def business_card(b: BusinessView) -> Card:
    approval = changes_text(b.approval_changes)
    if b.approval_raw != b.approval_end:
        approval += f"\n{b.approval_start} → {b.approval_raw}, clamped to {b.approval_end}"
    fervor_total = sum(c.delta for c in b.fervor_changes)
    lost = ", ".join(f"{code.plural} −{n}" for code, n in b.lost.items() if n) or "nobody"
    vp = ", ".join(f"{code.plural} {n}" for code, n in b.vp.items())
    fields = (
        (f"Approval Rating: {b.approval_start}% → {b.approval_end}%", approval, False),
        (f"Revolutionary Fervor {signed(fervor_total)}: now {b.fervor_end}", changes_text(b.fervor_changes), False),
        ("VP lost to Fervor (1 per point, never below 0)", lost, False),
        (f"VP now (S = {b.total_vp})", vp or "no Factions in play", False),
    )
    return Card(f"{b.game.name}: the Business Phase of turn {b.turn} is closed", "", fields, NEUTRAL)


def attempt_text(a: Attempt, game: str, resumed: str | None = None, fervor: int | None = None) -> str:
    """One attempt of a chain as far as it has gone, without what was announced before (``resumed``): PUBLIC, with
    no treasury before the resolution (P1-19)."""
    v = a.vanguard
    parts: list[str] = []
    if resumed is None:
        first = a.forestalled if a.coup and a.forestalled else v
        parts.append(f"**Revolution in {game}!** The {first.plural} have fallen to 0 VP and are the Vanguard.")
    if resumed in (None, "coup"):
        if a.coup:
            forestalled = a.forestalled.plural if a.forestalled else "Vanguard"
            parts.append(f"**Military coup!** The Brass Hats forestall the {forestalled}' Revolution and become the "
                         "Vanguard; they collect their money and are not compared with the VP in play, and "
                         "nobody is given counter-revolutionary money.")
        else:
            if a.coup_declined:
                parts.append("The Brass Hats do not attempt a coup.")
            if a.s is not None and a.begun:
                parts.append(f"The {v.plural}' treasury, with what they draw for a Revolution, is greater than the "
                             f"{a.s} VP in play: the Revolution has begun.")
            elif a.s is not None:
                parts.append(f"The {v.plural}' treasury, with what they draw for a Revolution, is not greater than "
                             f"the {a.s} VP in play: they are crushed before an uprising begins and withdraw from the "
                             "game (no Fervor).")
            given = [c.plural for c, money in a.bonus.items() if money > 0]  # $0 is not given money (play-test M4.6)
            if given:
                parts.append(f"The counter-revolutionary {', '.join(given)} are given money.")
            elif a.bonus:
                who = ", ".join(c.plural for c in a.bonus)
                parts.append(f"Nobody is given counter-revolutionary money: the {who} have nothing it is counted "
                             "from in play.")
    if a.outcome in ("won", "put down"):
        what = "coup" if a.coup else "Revolution"
        head = f"**The {v.plural}' {what}:** " if resumed == "contributions" else ""
        extra = f" (${a.for_vanguard} of it contributed)" if a.for_vanguard else ""
        parts.append(f"{head}the Counter-Revolutionary Treasury holds ${a.crt}; the Vanguard has "
                     f"${a.vanguard_total}{extra}.")
        if a.outcome == "won":
            parts.append(f"The {v.plural} are victorious: they install {v.government}. **They win the game.**")
        else:
            lost = ", ".join(f"{c.plural} −{n}" for c, n in a.lost.items() if n) or "nobody had any to lose"
            to = f" to {fervor}" if fervor is not None else ""
            parts.append(f"The {what} is put down: the {v.plural} withdraw from the game, and Revolutionary Fervor "
                         f"rises by {a.fervor}{to}; each Faction in play loses {a.fervor} VP at once (never below 0): "
                         f"{lost}.")
    return " ".join(parts)


def _fervor_after(c: ChainView, a: Attempt) -> int | None:
    """The Fervor just after attempt ``a`` was resolved: the Fervor now less what later attempts of the chain added."""
    if c.fervor is None:
        return None
    return c.fervor - sum(b.fervor for b in c.chain.attempts if b.number > a.number)


def chain_texts(c: ChainView, now: datetime) -> list[str]:
    """The public announcements of what a chain step did, newest last."""
    out = [called_off_text(c)] if c.called_off is not None else []
    out += [attempt_text(a, c.game.name, c.resumed if a.number == c.first_new else None, _fervor_after(c, a))
            for a in c.chain.attempts[c.first_new - 1:]]
    current = c.chain.current
    if c.chain.ended == "collapse":
        vp = sum(f.vp for f in c.factions if f.in_play)
        out.append(f"**Social Collapse.** The Victory Points in play have fallen to {vp}, below 10: the Republic has "
                   "broken down and its neighbours intervene to restore order. The game ends with **no winner**.")
    elif c.chain.ended == "won" and c.chain.winner is not None:
        out.append(f"**{c.game.name} has ended:** the {c.chain.winner.plural} have overthrown the government.")
    earlier = c.resumed is not None or c.called_off is not None  # the chain was running before this step
    if c.chain.ended is not None:
        pass
    elif current is not None and c.chain.waiting.value == "coup":
        out.append(f"Play is suspended. The Brass Hats are asked whether they attempt a military coup before the "
                   f"{current.vanguard.plural}' Revolution goes on.")
    elif current is not None and c.chain.waiting.value == "contributions":
        out.append("Every other Faction now sends its contribution to the Counter-Revolutionary Treasury by DM "
                   f"(`Contribute: <amount>`), secret until the result. Deadline: {deadline_text(c.deadline, now)}; "
                   "a Faction that sends nothing gives $0.")
    elif c.chain.attempts or c.called_off is not None:
        out.append("No Faction in play is at 0 VP any more: the Revolution has run its course and play resumes.")
        if c.election is not None and earlier:
            out.append(f"The {c.election.title}'s deadline runs on with the time it had left when the Revolution "
                       f"began: it now closes {stamp(c.election.deadline)}.")
        gone = [a.vanguard for a in c.chain.attempts if a.outcome in ("crushed", "put down")]
        if c.election is not None and c.election.title == "Primary" and gone:  # play-test X1.1 (stop_candidates)
            out.append(f"A Faction that has withdrawn has no Candidate in the Primary: the Candidate of the "
                       f"{', '.join(code.plural for code in dict.fromkeys(gone))} no longer runs, a choice made for "
                       "them is dropped, and a Faction that made one chooses again (`Primary: <Candidate>`).")
    if current is not None and not earlier and c.election is not None and c.election.left is not None:
        out.append(f"The {c.election.title}'s deadline is held while play is suspended: it had "
                   f"{format_remaining(c.election.left)} left, which runs on once play resumes. Choices sent meanwhile "
                   "are not recorded; send them again then.")
    return out


def called_off_text(c: ChainView) -> str:
    """An attempt called off by a correction: no amounts (treasuries are never public)."""
    o = c.called_off
    assert o is not None
    what = (f"The {o.vanguard.plural}' Revolution is called off" if o.begun else
            f"The Revolution the {o.vanguard.plural} were about to attempt is called off")
    undone = (": the money its beginning gave is taken back and no contribution to it is paid" if o.begun
              else " before it was funded or compared with the VP in play")
    return (f"The {o.vanguard.plural} are no longer at 0 VP (a moderator's correction). {what}{undone}; "
            "the Vanguard is chosen again from the Factions as they stand.")


def called_off_notice(c: ChainView, code: FactionCode) -> str:
    """To the Brass Hats' player (their coup offer lapses) or to a contributor (their pledge is not paid)."""
    o = c.called_off
    assert o is not None
    head = f"{c.game.name}: the {o.vanguard.plural} are no longer at 0 VP, so their Revolution is called off"
    if not o.begun:
        return f"{head}, and the coup offer before it lapses; nothing you answer to it counts."
    back = o.took_back.get(code)
    if code is o.vanguard:
        return f"{head}." + (f" The ${back} it drew is taken back from your treasury." if back else "")
    given = f" The ${back} of counter-revolutionary money you were given is taken back." if back else ""
    return f"{head}: no contribution to it is paid.{given}"


def coup_offer_text(c: ChainView) -> str:
    current = c.chain.current
    who = current.vanguard.plural if current else "a Faction"
    return (f"{c.game.name}: the {who} have fallen to 0 VP and a Revolution is about to be attempted. As the Brass "
            "Hats you may attempt a **military coup** first: you would become the Vanguard, collect 3× the "
            "maintenance of the units on station or in battle, and face a Counter-Revolutionary Treasury at once; "
            "if yours is greater you win the game, otherwise you withdraw and Fervor rises by 3. Press a "
            "button below, or reply `Coup: yes` or `Coup: no`.")


def coup_offer_in_channel_text(user_id: int) -> str:
    """The coup offer's stand-in in the game channel when the Brass Hats' player's DMs are closed to the bot
    (play-test S4.4): that the offer is made is public already; how to answer it without the DM's buttons."""
    return (f"<@{user_id}> (the Brass Hats): I cannot DM you the coup offer (your DMs are closed to me). DM me "
            "`Coup: yes` or `Coup: no`, or ask a moderator to answer for you with `/revolution coup`. Play stays "
            "suspended until it is answered.")


def contribution_request_text(c: ChainView, code: FactionCode, now: datetime) -> str:
    current = c.chain.current
    assert current is not None
    faction = next(f for f in c.factions if f.code is code)
    bonus = current.bonus.get(code)
    given = f" You were given ${bonus} of counter-revolutionary money." if bonus else ""
    against = "the Brass Hats' coup" if current.coup else f"the {current.vanguard.plural}' Revolution"
    return (f"{c.game.name}: {against} is under way.{given} Your treasury: ${faction.treasury}. DM me "
            "`Contribute: <amount>` for the Counter-Revolutionary Treasury (or `Contribute: <amount> to the "
            "Vanguard`); a new one replaces the old. Money given is never returned. Deadline: "
            f"{deadline_text(c.deadline, now)}; nothing sent counts as $0. Only the moderators see it "
            "until the result, and then only the totals.")


def _was(r: PledgeReceipt) -> str:
    """What the pledge replaced. With a Vanguard part before or now, each part by name (play-test M5.8): a bare
    "(was $20)" after "$20 to the Treasury and $5 to the Brass Hats" reads as if the $5 replaced the $20."""
    if r.replaced is None:
        return ""
    crt, vanguard = r.replaced
    if not vanguard and not r.to_vanguard:
        return f" (was ${crt})"

    def money(n: int) -> str:
        return f"${n}" if n else "nothing"
    return f" (was {money(crt)} to the Counter-Revolutionary Treasury and {money(vanguard)} to the {r.vanguard.plural})"


def pledge_text(r: PledgeReceipt, now: datetime) -> str:
    if r.duplicate:
        return "This message reached me twice; it was recorded once. Nothing was changed."
    parts = [f"${r.to_crt} to the Counter-Revolutionary Treasury"]
    if r.to_vanguard:
        parts.append(f"${r.to_vanguard} to the {r.vanguard.plural}")
    left = r.treasury - r.to_crt - r.to_vanguard
    return (f"Contribution recorded for the {r.faction.plural} in {r.game.name}: {' and '.join(parts)}{_was(r)}. It is "
            f"paid when the Revolution is resolved, leaving ${left} of your ${r.treasury}. Deadline: "
            f"{deadline_text(r.deadline, now)}.")


def chain_status_card(c: ChainView, now: datetime, *, moderator: bool) -> Card:
    fields: list[tuple[str, str, bool]] = []
    for a in c.chain.attempts:
        fields.append((f"Attempt {a.number}: the {a.vanguard.plural}" + (" (coup)" if a.coup else ""),
                       a.outcome or ("waiting" if c.chain.current is a else "—"), False))
    for o in c.chain.called_off:
        fields.append((f"Called off: the {o.vanguard.plural}' attempt", "no longer at 0 VP after a moderator's "
                       "correction, before it was resolved", False))
    current = c.chain.current
    if current is not None and c.chain.waiting.value == "contributions":
        fields.append(("Contributions from", ", ".join(f.plural for f in c.pledged) or "nobody yet", False))
        fields.append(("Deadline", deadline_text(c.deadline, now), True))
        if moderator:
            fields.append(("Moderators", "/revolution resolve closes the contributions now; /revolution deadline "
                                         "moves the deadline.", False))
    elif current is not None:
        fields.append(("Waiting for", "the Brass Hats' answer to the coup offer (`Coup: yes|no` by DM, or "
                                      "/revolution coup)", False))
    state = {"won": "the game has ended", "collapse": "Social Collapse: the game has ended"}.get(
        c.chain.ended or "", "under way" if current is not None else "over")
    return Card(f"{c.game.name}: revolution #{c.number} ({state})", "", tuple(fields), RED)


def remaining(deadline: datetime | None, now: datetime) -> str:
    return format_remaining(deadline - now) if deadline else "no deadline"


__all__ = ["format_utc", "remaining"]
