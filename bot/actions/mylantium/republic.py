"""The Republic of Mylantium on Discord, part 1: setting the game up (Factions, territories and buildings, military
units, candidates, the government page's facts) and reading it (/status, /faction me, /amendment check). The
Election Round and the Business Phase are in turn.py, revolutions in revolution.py. Every command here belongs to
Mylantium games only, and a Mylantium game takes no Landsdraad command (``Front.exclusive``)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from typing import Any, TypeVar

from bot.actions.commands import App, CommandFlags, Option, require_game, user_option
from bot.actions.context import Ctx, UserRef
from bot.actions.moderators import moderator_target
from bot.actions.mylantium import errata
from bot.actions.mylantium.render import buildings_text, faction_line, government_card, setup_card
from bot.actions.mylantium.revolution import chain_outgoings
from bot.actions.mylantium.turn import history_picture
from bot.actions.outbox import AnswerWith, Card, Outgoing, ToChannel, ToUser, reply
from bot.actions.routes import Routes
from bot.actions.setup import quietly_owed, summary_post
from engine.core.errors import RuleError
from engine.core.text import inert_name
from engine.mylantium.amendments import check_amendment
from engine.mylantium.model import PARTY_CHOICES, Building, faction_code, party_of
from engine.service.followed import Followed
from engine.service.mylantium.errata import ElectionConsequences, consequences_in
from engine.service.mylantium.records import setup_in
from engine.service.mylantium.state import NAME
from engine.service.mylantium.views import (
    CandidateView,
    GovernmentView,
    MylFactionView,
    TerritoryView,
    UnitView,
    VpChange,
)
from engine.service.views import GameView

M: CommandFlags = {"moderator": True, "ruleset": NAME}
KINDS = tuple(b.value for b in Building)
STATUSES = ("on-station", "in-battle", "elsewhere")
ROUTES = Routes()
"""The setup's commands and the government page's."""
command = ROUTES.command
T = TypeVar("T")


FACTION = Option("faction", str, "the Faction, e.g. Plutocrats, Plutocrat or PL", True, autocomplete="faction")
"""A Faction as typed: its name, the rules' plural or its code (``faction_code``, which names the eight and the near
miss when it is none of them); suggested as it is typed (``sources.py``)."""


def _faction(o: dict[str, Any]) -> Any:
    return faction_code(o["faction"])


async def _quietly(app: App, ctx: Ctx, g: GameView, write: Callable[[], Awaitable[T]],
                   said: Callable[[T], tuple[list[Outgoing], ...]], *,
                   joins: Callable[[T], Sequence[int]] | None = None) -> list[Outgoing]:
    """A set-up command's write and what it posts (``said``: its own messages, its public posts), during set-up the
    set-up summary instead of the public posts, made of the government page read in the write's transaction and
    owed there (``quietly_owed``). Before, the summary was read after the commit and owed after it: a kill in between
    left it out of date until the next change."""
    return await quietly_owed(app, ctx, g, write, setup_in, setup_card, said, joins=joins)


async def setup_summary(app: App, game: GameView) -> Card | None:
    """``Front.setup``: a Mylantium game is being set up in turn 1 before its Election Round starts."""
    v = await app.clerk.mylantium.government(game.id)
    return setup_card(v) if v.setting_up else None


# -- Factions -------------------------------------------------------------------------------------------------


@command("faction register", "Give a Faction of the Republic to a player, with its party, VP and treasury.",
         FACTION,
         Option("user", UserRef, "its player", True),
         Option("party", str, "Whig or Federalist", True, PARTY_CHOICES),
         Option("vp", int, "its Victory Points (default 0)", min_value=0),
         Option("treasury", int, "its treasury in $ (default 0)", min_value=0), **M)
async def faction_register(app: App, ctx: Ctx, game: GameView | None, o: dict[str, Any]) -> list[Outgoing]:
    g = require_game(game)
    player = user_option(o, "user")

    def said(f: MylFactionView) -> tuple[list[Outgoing], list[Outgoing]]:
        rule = " (2 votes per port)" if f.per else " (enter its votes with /faction votes)"
        return [reply(f"Registered: {faction_line(f, private=True)}{rule}.", ephemeral=True)], []

    return await _quietly(app, ctx, g, lambda: app.clerk.mylantium.register_faction(
        g.id, code=_faction(o), user_id=player.id, user_name=player.name, party=party_of(o["party"]),
        vp=o.get("vp") or 0, treasury=o.get("treasury") or 0, actor=ctx.actor.id, source_id=ctx.source_id), said,
        joins=lambda _f: (player.id,))


@command("faction set", "Change a Faction's VP, treasury, party (a correction) or whether it is in play.",
         FACTION,
         Option("vp", int, "its Victory Points", min_value=0),
         Option("treasury", int, "its treasury in $ (0 or more)", min_value=0),
         Option("party", str, "Whig or Federalist (a correction, not a realignment)", choices=PARTY_CHOICES),
         Option("in_play", bool, "whether it is still in the game"),
         Option("reason", str, "why its VP changed (kept in the VP history)"),
         Option("user", UserRef, "its player, when it was registered to the wrong member (a correction)"), **M)
async def faction_set(app: App, ctx: Ctx, game: GameView | None, o: dict[str, Any]) -> list[Outgoing]:
    g = require_game(game)
    new = user_option(o, "user") if o.get("user") is not None else None

    def said(change: VpChange) -> tuple[list[Outgoing], ...]:  # owed with the write (``_quietly``)
        note = ""
        if change.decided is not None:
            how = (f"the {change.decided.winner.plural}' victory" if change.decided.winner is not None
                   else "Social Collapse")
            note = (f" {g.name} was decided by {how}, so no Revolution is checked after this change: a reopened "
                    "game is corrected, not played on.")
        if change.idle_candidate is not None:  # play-test M4.11
            since = "the removal" if change.rejoined is not None else "they left play"
            note += (f" Their Candidate {change.idle_candidate} is not running (since {since}); /candidate set "
                     f"name:{change.idle_candidate} running:true puts them back in the elections.")
        if (o.get("vp") is not None and o.get("in_play") is None and not change.faction.in_play
                and change.chain is None and change.faction.vp > 0):  # play-test U1.4: a VP typo withdrew it
            title = change.faction.title
            note += (f" The {title} are still withdrawn from the game: a correction of their VP does not bring "
                     f"them back. If they were withdrawn only because of a mistake (a Revolution crushed after a "
                     f"wrong 0 VP), /faction set faction:{title} in_play:true puts them back in play.")
        dropped = change.choice_dropped
        if dropped is not None:  # play-test U1.1: a choice the corrected party may not make is dropped
            note += (f" Their choice of {dropped} in the open Primary was dropped: as {change.faction.party.title}s "
                     f"they vote in the {change.faction.party.title} Primary. Their player is told by DM to choose "
                     "again.")
        out = [reply(f"Changed: {faction_line(change.faction, private=True)}.{note}", ephemeral=True)]
        if dropped is not None:
            out.append(Outgoing(ToUser(change.faction.user_id), text=(
                f"{g.name}: the moderators corrected your Faction's party: the {change.faction.title} are "
                f"{change.faction.party.title}s. Your choice of {dropped} in the open Primary could not be made by a "
                f"{change.faction.party.title} Faction, so it was dropped: DM me `Primary: <Candidate>` with a "
                f"{change.faction.party.title} candidate before the deadline.")))
        public = [Outgoing(ToChannel(g.channel_id), text=(
            f"The **{change.faction.title}** now have {change.faction.vp} VP."))] if o.get("vp") is not None else []
        if change.party_changed:  # play-test U1.7: which Primary a Faction votes in is public (/status)
            party = change.faction.party.title
            public.append(Outgoing(ToChannel(g.channel_id), text=(
                f"The **{change.faction.title}** are {party}s (a moderator's correction, not a realignment).")))
            # the same words whether or not a choice was dropped: which one a Faction made is secret (P1-19)
        if change.handed is not None:  # play-test U1.3: registered to the wrong member
            old_id, old_name, new_id, new_name = change.handed
            f = change.faction
            public.append(Outgoing(ToChannel(g.channel_id), text=(
                f"The **{f.title}** are played by **{new_name}**, not {old_name} (a moderator's correction).")))
            out.append(Outgoing(ToUser(new_id), text=(
                f"{g.name}: the moderators give you the **{f.title}** ({f.party.title}), registered to another member "
                f"by mistake. /faction me shows your Faction and its treasury; DM me `help` for the forms you can "
                "send.")))
            out.append(Outgoing(ToUser(old_id), text=(
                f"{g.name}: you were registered as the player of the {f.title} by mistake; the moderators have given "
                f"them to their player. You no longer play in {g.name}.")))
        if change.rejoined is not None:
            public.append(Outgoing(ToChannel(g.channel_id), text=(
                f"**{change.rejoined}** is back in **{g.name}**: the {change.faction.title} are in play again."
                + (f" Their Candidate {change.idle_candidate} does not run unless the moderators put them back."
                   if change.idle_candidate is not None else ""))))
        moved = chain_outgoings(app, change.chain) if change.chain is not None else []  # the Revolution's next step
        return out, public, moved

    done: list[VpChange] = []

    async def write() -> VpChange:
        done.append(await app.clerk.mylantium.set_faction(
            g.id, code=_faction(o), vp=o.get("vp"), treasury=o.get("treasury"),
            party=party_of(o["party"]) if o.get("party") else None, in_play=o.get("in_play"), reason=o.get("reason"),
            actor=ctx.actor.id, source_id=ctx.source_id, user_id=new.id if new else None,
            user_name=new.name if new else None))
        return done[-1]

    out = await _quietly(app, ctx, g, write, said, joins=lambda c: (
        c.faction.user_id, *((c.handed[0], c.handed[2]) if c.handed is not None else ())))
    if done[-1].chain is not None:
        app.deadlines_changed()
    return out


@command("faction votes", "A Faction's votes in a territory, or (with building) its votes per building of a kind.",
         FACTION,
         Option("votes", int, "the votes (0 removes the entry)", True, min_value=0),
         Option("territory", str, "the territory the votes are in", autocomplete="territory"),
         Option("building", str, "instead: so many votes per building of this kind in play", choices=KINDS), **M)
async def faction_votes(app: App, ctx: Ctx, game: GameView | None, o: dict[str, Any]) -> list[Outgoing]:
    g = require_game(game)
    if (o.get("territory") is None) == (o.get("building") is None):
        raise RuleError("Give either a territory (the Faction's votes there) or a building kind (votes per "
                        "building in play, like the Plutocrats' 2 per port).")
    return await _quietly(app, ctx, g, lambda: app.clerk.mylantium.set_faction_votes(
        g.id, code=_faction(o), territory=o.get("territory"), votes=o["votes"],
        building=Building(o["building"]) if o.get("building") else None, actor=ctx.actor.id,
        source_id=ctx.source_id), lambda f: ([reply(f"{faction_line(f)}.", ephemeral=True)], []))


@command("faction me", "Your Faction: party, votes, VP and treasury (only you see it).",
         Option("game", str, "the game, if you play in several", autocomplete="game"), game="any", ruleset=NAME,
         reads=True)
async def faction_me(app: App, ctx: Ctx, game: GameView | None, o: dict[str, Any]) -> list[Outgoing]:
    g = require_game(game)
    f = await app.clerk.mylantium.my_faction(g.id, ctx.actor.id)
    candidate = f" Candidate: {f.candidate}." if f.candidate else " No Candidate."
    return [reply(f"{g.name}: {faction_line(f, private=True)}.{candidate}", ephemeral=True)]


# -- territories, buildings, units ------------------------------------------------------------------------------


@command("territory add", "Add a territory of the Republic (Avalon, Bicardia).",
         Option("name", str, "its name", True), **M)
async def territory_add(app: App, ctx: Ctx, game: GameView | None, o: dict[str, Any]) -> list[Outgoing]:
    g = require_game(game)
    return await _quietly(app, ctx, g, lambda: app.clerk.mylantium.add_territory(
        g.id, name=o["name"], actor=ctx.actor.id, source_id=ctx.source_id),
        lambda t: ([reply(f"Territory {t.name} added.", ephemeral=True)], []))


async def _buildings(app: App, ctx: Ctx, game: GameView | None, o: dict[str, Any], remove: bool) -> list[Outgoing]:
    g = require_game(game)
    kind = Building(o["kind"])
    count = o.get("count") or 1
    plain = f"{count} {kind.plural if count > 1 else kind.value}"
    what = (inert_name(o["name"]) or o["name"]) if o.get("name") else plain  # as kept, not as typed (P4.1)
    verb = "pulled down" if remove else "built"

    def said(t: TerritoryView) -> tuple[list[Outgoing], list[Outgoing]]:
        return ([reply(f"{what} {verb} in {t.name}, which now has {buildings_text(t.buildings)}.", ephemeral=True)],
                [Outgoing(ToChannel(g.channel_id),
                          text=f"{t.name}: {what} {verb}. Faction Votes follow (see /status).")])

    return await _quietly(app, ctx, g, lambda: app.clerk.mylantium.change_buildings(
        g.id, territory=o["territory"], kind=kind, count=count, name=o.get("name"), remove=remove, actor=ctx.actor.id,
        source_id=ctx.source_id), said)


@command("building add", "Build ports, cities, temples or villages in a territory.",
         Option("territory", str, "the territory", True, autocomplete="territory"),
         Option("kind", str, "port, city, temple or village", True, KINDS),
         Option("count", int, "how many (default 1)", min_value=1),
         Option("name", str, "the building's name, e.g. Arcadia (one building)"), **M)
async def building_add(app: App, ctx: Ctx, game: GameView | None, o: dict[str, Any]) -> list[Outgoing]:
    return await _buildings(app, ctx, game, o, remove=False)


@command("building remove", "Remove ports, cities, temples or villages from a territory.",
         Option("territory", str, "the territory", True, autocomplete="territory"),
         Option("kind", str, "port, city, temple or village", True, KINDS),
         Option("count", int, "how many (default 1)", min_value=1),
         Option("name", str, "the building's name, when it has one", autocomplete="building"), **M)
async def building_remove(app: App, ctx: Ctx, game: GameView | None, o: dict[str, Any]) -> list[Outgoing]:
    return await _buildings(app, ctx, game, o, remove=True)


@command("unit add", "Add a military unit of the Republic, with its maintenance and purchase cost.",
         Option("name", str, "its name", True),
         Option("territory", str, "where it is", True, autocomplete="territory"),
         Option("maintenance", int, "its maintenance cost in $", True, min_value=0),
         Option("cost", int, "its purchase cost in $", True, min_value=0),
         Option("status", str, "on-station (default), in-battle or elsewhere", choices=STATUSES), **M)
async def unit_add(app: App, ctx: Ctx, game: GameView | None, o: dict[str, Any]) -> list[Outgoing]:
    g = require_game(game)
    return await _quietly(app, ctx, g, lambda: app.clerk.mylantium.add_unit(
        g.id, name=o["name"], territory=o["territory"], maintenance=o["maintenance"], cost=o["cost"],
        status=o.get("status"), actor=ctx.actor.id, source_id=ctx.source_id), _unit_said)


def _unit_said(u: UnitView) -> tuple[list[Outgoing], list[Outgoing]]:
    return [reply(f"Unit {u.name} ({u.territory}, {u.status}): maintenance ${u.maintenance}, cost ${u.cost}.",
                  ephemeral=True)], []


@command("unit set", "Move a military unit, change where it stands or its costs.",
         Option("name", str, "the unit", True, autocomplete="unit"),
         Option("territory", str, "its new territory", autocomplete="territory"),
         Option("status", str, "on-station, in-battle or elsewhere", choices=STATUSES),
         Option("maintenance", int, "its maintenance cost in $", min_value=0),
         Option("cost", int, "its purchase cost in $", min_value=0), **M)
async def unit_set(app: App, ctx: Ctx, game: GameView | None, o: dict[str, Any]) -> list[Outgoing]:
    g = require_game(game)
    return await _quietly(app, ctx, g, lambda: app.clerk.mylantium.set_unit(
        g.id, name=o["name"], territory=o.get("territory"), status=o.get("status"), maintenance=o.get("maintenance"),
        cost=o.get("cost"), actor=ctx.actor.id, source_id=ctx.source_id), _unit_said)


@command("unit remove", "Remove a military unit.", Option("name", str, "the unit", True, autocomplete="unit"), **M)
async def unit_remove(app: App, ctx: Ctx, game: GameView | None, o: dict[str, Any]) -> list[Outgoing]:
    g = require_game(game)
    return await _quietly(app, ctx, g, lambda: app.clerk.mylantium.set_unit(
        g.id, name=o["name"], remove=True, actor=ctx.actor.id, source_id=ctx.source_id),
        lambda u: ([reply(f"Unit {u.name} removed.", ephemeral=True)], []))


# -- candidates -------------------------------------------------------------------------------------------------


@command("candidate add", "A Faction's Candidate, with Charisma 1-13; the party is the Faction's, for good.",
         Option("name", str, "the candidate's name", True),
         Option("faction", str, "the Faction that controls it, e.g. Plutocrats or PL", True, autocomplete="faction"),
         Option("charisma", int, "Charisma, 1 to 13", True, min_value=1, max_value=13), **M)
async def candidate_add(app: App, ctx: Ctx, game: GameView | None, o: dict[str, Any]) -> list[Outgoing]:
    g = require_game(game)

    def said(c: CandidateView) -> tuple[list[Outgoing], list[Outgoing]]:
        return [reply(f"Candidate {c.name} added.", ephemeral=True)], [Outgoing(ToChannel(g.channel_id), text=(
            f"New candidate: **{c.name}** of the {c.faction.plural} ({c.party.title}), Charisma {c.charisma}."))]

    return await _quietly(app, ctx, g, lambda: app.clerk.mylantium.add_candidate(
        g.id, name=o["name"], code=_faction(o), charisma=o["charisma"], actor=ctx.actor.id, source_id=ctx.source_id),
        said)


@command("candidate set", "Change a candidate's Charisma, whether they run in the coming elections, or their name.",
         Option("name", str, "the candidate", True, autocomplete="candidate"),
         Option("charisma", int, "Charisma, 1 to 13", min_value=1, max_value=13),
         Option("running", bool, "whether they run (Charisma counts only while running)"),
         Option("rename", str, "the candidate's right name, when it was misspelt (a correction)"), **M)
async def candidate_set(app: App, ctx: Ctx, game: GameView | None, o: dict[str, Any]) -> list[Outgoing]:
    g = require_game(game)

    def said(c: CandidateView) -> tuple[list[Outgoing], list[Outgoing]]:
        state = "running" if c.running else "not running"
        public = []
        if c.renamed_from is not None:  # play-test U1.7: the candidate's name is public (the opening card, /status)
            public.append(Outgoing(ToChannel(g.channel_id), text=(
                f"The candidate **{c.renamed_from}** of the {c.faction.plural} is **{c.name}** (a moderator's "
                "correction of the name); choices made for them stand.")))
        was = f" (was {c.renamed_from})" if c.renamed_from is not None else ""
        return [reply(f"{c.name}{was}: Charisma {c.charisma}, {state}.", ephemeral=True)], public

    return await _quietly(app, ctx, g, lambda: app.clerk.mylantium.set_candidate(
        g.id, name=o["name"], charisma=o.get("charisma"), running=o.get("running"), rename=o.get("rename"),
        actor=ctx.actor.id, source_id=ctx.source_id), said)


@command("candidate discard", "A Faction loses its Candidate (Events: Losing a Candidate).",
         Option("name", str, "the candidate", True, autocomplete="candidate"), **M)
async def candidate_discard(app: App, ctx: Ctx, game: GameView | None, o: dict[str, Any]) -> list[Outgoing]:
    g = require_game(game)
    return await _quietly(app, ctx, g, lambda: app.clerk.mylantium.set_candidate(
        g.id, name=o["name"], discard=True, actor=ctx.actor.id, source_id=ctx.source_id),
        lambda c: ([reply(f"{c.name} discarded.", ephemeral=True)], [Outgoing(
            ToChannel(g.channel_id), text=f"The {c.faction.plural} have lost their Candidate, {c.name}.")]))


# -- the government page ----------------------------------------------------------------------------------------


@command("government set", "The government page's facts: President's Faction, approval, Fervor, what is in play.",
         Option("president", str, "the Faction that held the Presidency in the last Business Phase, e.g. Plutocrats",
                autocomplete="faction"),
         Option("approval", int, "the Approval Rating (0-100)", min_value=0, max_value=100),
         Option("fervor", int, "Fervor so far (no VP are deducted for it)", min_value=0),
         Option("monopolies", int, "Monopolies in play", min_value=0),
         Option("income_tax", int, "the Income Tax rate in % (there is an Income Tax)", min_value=0, max_value=100),
         Option("no_income_tax", bool, "there is no Income Tax"),
         Option("faction_taxes", int, "Faction Taxes in play", min_value=0),
         Option("tariffs", int, "Tariffs in effect", min_value=0),
         Option("subsidies", int, "subsidies in effect", min_value=0),
         Option("pensions", int, "pensions in effect", min_value=0),
         Option("wars", int, "wars being waged", min_value=0),
         Option("unfunded_last_turn", int, "pensions that went unfunded in the previous turn", min_value=0),
         Option("since", int, "with approval, a correction: the turn the approval was wrong from", min_value=1),
         **M)
async def government_set(app: App, ctx: Ctx, game: GameView | None, o: dict[str, Any]) -> list[Outgoing]:
    g = require_game(game)
    if o.get("income_tax") is not None and o.get("no_income_tax"):
        raise RuleError("Give income_tax or no_income_tax, not both.")
    counts = {k: o.get(k) for k in ("monopolies", "income_tax", "faction_taxes", "tariffs", "subsidies", "pensions",
                                    "wars", "unfunded_last_turn")}
    president = faction_code(o["president"]) if o.get("president") else None
    # a correction (``since``): what it changes in the closed General Elections is told to the moderators privately,
    # read in the write's transaction and owed there with the rest (their place is read before the write)
    place = await moderator_target(app, g) if o.get("since") is not None else None
    source_id = ctx.source_id

    async def read(session: Any, game_id: int) -> tuple[GovernmentView | None, ElectionConsequences | None]:
        return await setup_in(session, game_id), await consequences_in(session, game_id, source_id)

    def said(f: Followed[GovernmentView, tuple[GovernmentView | None, ElectionConsequences | None]]
             ) -> list[Outgoing]:
        summary, found = f.seen  # during set-up the set-up summary, edited in place (as ``quietly_owed``'s)
        return [reply("Recorded. The government page now reads:", card=government_card(f.done), ephemeral=True),
                *([summary_post(g, setup_card(summary))] if summary is not None else []),
                *errata.told_in(place, g, found)]

    answered: AnswerWith[Followed[GovernmentView, tuple[GovernmentView | None, ElectionConsequences | None]]] = (
        AnswerWith(ctx.answering, said))
    return answered.out(await app.clerk.followed.write(g.id, lambda: app.clerk.mylantium.set_government(
        g.id, president=president, approval=o.get("approval"), fervor=o.get("fervor"), counts=counts,
        no_income_tax=bool(o.get("no_income_tax")), since=o.get("since"), actor=ctx.actor.id,
        source_id=source_id), read, source_id=source_id, answer=answered.owed))


@command("status", "The government page: Faction Votes, the Independent Vote, approval, Fervor, VP.",
         ruleset=NAME, reads=True, public=True)
async def status(app: App, ctx: Ctx, game: GameView | None, o: dict[str, Any]) -> list[Outgoing]:
    g = require_game(game)
    chart = await history_picture(app, g)  # the approval and Fervor over the turns (public, rules-spec §2.2.7)
    return [reply(card=government_card(await app.clerk.mylantium.government(g.id)), file=chart.file, alt=chart.alt)]


async def final_page(app: App, game: GameView) -> list[Outgoing]:
    """``Front.final_post``: the government page as a game the moderators closed ended (play-test X4.1): every
    Faction's VP, in play or withdrawn, approval and Fervor (all public, rules-spec §2.2.7; never a treasury)."""
    chart = await history_picture(app, game)
    return [Outgoing(ToChannel(game.channel_id), f"The government of **{game.name}** as it ended:",
                     card=government_card(await app.clerk.mylantium.government(game.id)), file=chart.file,
                     alt=chart.alt)]


@command("amendment check", "Whether an amendment may be proposed (never about Charisma or the "
                            "Independent Vote).", Option("text", str, "the amendment", True), ruleset=NAME, reads=True)
async def amendment_check(app: App, ctx: Ctx, game: GameView | None, o: dict[str, Any]) -> list[Outgoing]:
    require_game(game)
    try:
        check_amendment(o["text"])
    except RuleError as error:
        return [reply(f"Refused: {error}")]
    return [reply(AMENDMENT_UNSURE)]


AMENDMENT_UNSURE = ("I found no mention of Charisma or the Independent Vote in it. That is all I can check: an "
                    "amendment may not remove or change how they work, whatever words it uses (a candidate's "
                    "personal following is Charisma), so the moderators judge whether this one does.")
"""Findings 4.9: the check reads words, not what an amendment does, so it never says nothing stops one."""
