"""The secrecy scanner: what a game holds that must never be posted in a channel or thread, read from the game's
database, and a check of the bot's public messages against it.

The secrets (rules-spec §1.2.9, §2.2.7, P0-16, P1-19, R0-72, P3-09, docs/rulings.md "What the scan calls a leak"):

* a player's crisis ballot, every one they cast (``BallotCast``: the option, and the one it replaced): MOD;
  only the outcome and the totals are public;
* how an Elector voted, asked by the Chancellor Pro tempore (``ElectorQueried``): PRIVATE to the asker;
* who holds a perk (``perks``): PRIVATE to the holder, never announced;
* a player's victory goals (``victory_goals``): PRIVATE to the player;
* a Faction's contribution to a Revolution (``ContributionPledged``): MOD until resolution, then only totals;
* an audit quote (R0-53, "Audit quote" table row): PRIVATE to whoever asked. Quotes are not stored, so any
  public line that names a player and a quote counts.

A secret is a pair: who (a player's or Faction's names) and what (the choice, the perk, the amount). A public line
leaks it when it names both close together in one sentence; a goal leaks when its description is posted at all.
Matching pairs, not single words, keeps the scan free of false alarms ("Aye" in a tally, a perk's name in /help),
while a ballot written as ``jenny: Aye``, ``jenny voted Nay`` or ``Nay: bob, jenny`` is caught.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass

from replay.helpers import Sent, sent_messages
from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncEngine

from engine.landsdraad.perks import Perk
from engine.mylantium.model import FactionCode
from engine.service.landsdraad.perks import PERK_KEYS
from engine.store.database import make_sessionmaker
from engine.store.models import Event, Game, Player
from engine.store.models.landsdraad import PerkRow, VictoryGoal
from engine.store.models.mylantium import MylFaction

OPTION_WORDS = {"aye": ("aye", "ayes"), "nay": ("nay", "nays"), "abstain": ("abstain", "abstains", "abstained")}
"""How a crisis choice may be written in a sentence that ties it to a player."""
PERK_WORDS = {perk: (perk.value, perk.value.split(maxsplit=1)[-1] if perk is Perk.PRO_TEMPORE else perk.value)
              for perk in Perk}
"""A perk by its full name, and the Pro tempore also without ``Chancellor``."""


@dataclass(frozen=True)
class Secret:
    kind: str
    game: str
    who: tuple[str, ...]
    """Names that identify whose secret it is (any one of them); empty: the ``what`` alone is secret."""
    what: tuple[str, ...]
    """Words or phrases that state the secret (any one of them)."""

    def describe(self) -> str:
        return f"{self.kind} of {self.who[0] if self.who else '?'} in {self.game}: {self.what[0]}"


@dataclass(frozen=True)
class Leak:
    secret: Secret
    sent: Sent
    line: str

    def __str__(self) -> str:
        return f"{self.secret.describe()} posted in {self.sent.where}: {self.line!r}"


def _words(phrases: tuple[str, ...]) -> re.Pattern[str]:
    """Any of ``phrases`` as whole words (``$30`` does not match ``$300``; ``aye`` does not match ``ayes``)."""
    alternatives = "|".join(re.escape(p) for p in sorted(set(phrases), key=len, reverse=True))
    return re.compile(rf"(?<![\w$]){alternatives}(?!\w)", re.IGNORECASE)


NEAR = 40
"""How many characters may stand between the who and the what of a secret for a line to tie them together."""
SENTENCE_END = re.compile(r"[.;!?](?:\s|$)")


def found_in(secret: Secret, line: str) -> bool:
    """Whether ``line`` states ``secret``: its what, and (for a secret with a who) one of its names near it, in the
    same sentence (``alice: Nay``, ``alice voted Nay``, ``Nay: bob, alice``; not ``alice joined. Vote: Nay``)."""
    whats = [m.span() for m in _words(secret.what).finditer(line)]
    if not secret.who:
        return bool(whats)
    for who in _words(secret.who).finditer(line):
        for start, end in whats:
            between = line[who.end():start] if who.end() <= start else line[end:who.start()]
            if len(between) <= NEAR and not SENTENCE_END.search(between):
                return True
    return False


def leaks(sent: list[Sent], secrets: list[Secret]) -> list[Leak]:
    """Every public line (a channel or thread, not a DM, not an ephemeral reply) that states a secret."""
    found: list[Leak] = []
    for message in sent:
        if not message.public:
            continue
        for line in message.text.splitlines():
            found += [Leak(s, message, line) for s in secrets if found_in(s, line)]
    return found


async def assert_nothing_secret_posted(output: str, engine: AsyncEngine) -> None:
    """The check every golden transcript gets: its public messages state none of the secrets of its games (read
    from the database the transcript ran on; the engine is disposed)."""
    try:
        secrets = await secrets_in(engine)
    finally:
        await engine.dispose()
    found = leaks(sent_messages(output), secrets)
    assert not found, "secrets posted in public:\n" + "\n".join(map(str, found))


async def secrets_in(engine: AsyncEngine) -> list[Secret]:
    """Every secret of every game in the database."""
    async with make_sessionmaker(engine)() as session:
        games = {g.id: g.name for g in (await session.execute(select(Game))).scalars()}
        players = list((await session.execute(select(Player))).scalars())
        name_of = {(p.game_id, p.user_id): p.name for p in players}
        by_id = {p.id: p for p in players}
        events = list((await session.execute(select(Event).order_by(Event.id))).scalars())
        perks = list((await session.execute(select(PerkRow))).scalars())
        goals = list((await session.execute(select(VictoryGoal))).scalars())
        factions = list((await session.execute(select(MylFaction))).scalars())
    found: list[Secret] = []
    faction_names: dict[tuple[int, str], tuple[str, ...]] = {}
    for f in factions:
        code = FactionCode[f.code]
        faction_names[(f.game_id, f.code)] = (code.value, code.value + "s", by_id[f.player_id].name)
    for e in events:
        payload = e.payload if isinstance(e.payload, dict) else json.loads(e.payload)
        game = games[e.game_id]
        if e.kind == "BallotCast":
            who = name_of[(e.game_id, payload["user_id"])]
            for option in {payload["option"], payload.get("replaced")} - {None}:
                found.append(Secret("crisis ballot", game, (who,), OPTION_WORDS[option]))
        elif e.kind == "ElectorQueried":
            found.append(Secret("Elector's vote", game, (payload["elector"],), OPTION_WORDS[payload["option"]]))
        elif e.kind == "ContributionPledged":
            who = faction_names[(e.game_id, payload["faction"])]
            for amount in {payload["to_crt"], payload["to_vanguard"]} - {0}:
                found.append(Secret("contribution", game, who, (f"${amount}",)))
    keys = {key: perk for perk, key in PERK_KEYS.items()}
    for row in perks:
        holder = by_id[row.player_id]
        found.append(Secret("perk", games[row.game_id], (holder.name,), PERK_WORDS[keys[row.perk]]))
    for goal in goals:
        found.append(Secret("goal", games[goal.game_id], (), (goal.description,)))
    for player in players:  # a quote is never stored: whoever asked, a quote naming any player is private
        found.append(Secret("audit quote", games[player.game_id], (player.name,), ("quote", "quoted")))
    return found
