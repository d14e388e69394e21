"""Every number a Landsdraad transcript posted, rebuilt by ``/why`` (issue 19): after the replay, on the same
database, each round's result card, each audit's fee and share, each voter's weight at each close of every round
(rebuilt from the ledger as of that close) and each player's votes now are asked of ``/why``'s explainers
(``bot.actions.why.explain``, as a moderator) and compared with what was posted; the last final table of each game
against ``/why score`` and the Forecast ``/forecast`` posts now against ``/why forecast``. Called from
``test_transcripts.py`` on the replay it already made (one replay per transcript)."""

from __future__ import annotations

import json
import re
from datetime import UTC, datetime
from typing import Any

import pytest
from databases import Migrated
from sqlalchemy import text

from bot.actions.commands import App
from bot.actions.context import Actor, Ctx, Place, UserRef
from bot.actions.front import WhyAsk
from bot.actions.why import explain
from bot.console.cli import clerk_on
from engine.core.derivation import Derivation
from engine.core.errors import RuleError
from engine.landsdraad.close_weights import entries_of
from engine.service.clock import ManualClock

from .helpers import sent_messages

RESULT = re.compile(r"\*\*(?P<game>[^*]+), round (?P<n>\d+): the measure (?P<outcome>PASSED|FAILED)\*\*\n"
                    r"(?:(?!\*\*).*\n)*?Aye: (?P<aye>\d+)\nNay: (?P<nay>\d+)\nAbstain: (?P<abstain>\d+)\n"
                    r"Votes in play: (?P<in_play>\d+)\nNeeded to pass: (?P<needed>\d+)")
AUDIT = re.compile(r"\*\*CHOAM audit of (?P<target>[^*]+)\*\*\n(?:.*\n)*?Fee: (?P<fee>\d+) MS.*\n"
                   r"Each player pays: (?P<share>\d+) MS.*\nBilled to the Landsdraad in round (?P<round>\d+)")
FINAL = re.compile(r"\*\*(?P<game>[^*\n]+): final scores\*\*\n(?P<body>(?:.*\n?)*)")
ROW = re.compile(r"^\*\*(?P<place>\d+)\w\w\*\* (?P<name>.+): (?P<total>\d+) VP(?:, (?P<title>.+))?$", re.MULTILINE)
AG_CARD = re.compile(r"\*\*(?P<game>[^*\n]+): (?P<winner>[^*\n]+) is the Adjutant General\*\*\n"
                     r"Election #(?P<n>\d+) closed\. Result: (?P<standings>[^.\n]+)\.")
MODERATOR = Actor(1, "why-check", manages_server=True)


def posted_finals(output: str) -> dict[str, dict[str, tuple[object, ...]]]:
    """The last final table posted of each game: player -> (total, place, title, categories, awards, goals,
    prestige) as the card shows them (categories in their order, awards as (title, VP))."""
    found: dict[str, dict[str, tuple[object, ...]]] = {}
    for card in (FINAL.match(m.text + "\n") for m in sent_messages(output)):
        if card is None:
            continue
        body, rows = card["body"], {}
        for row in ROW.finditer(body):
            name = row["name"]
            mine = re.search(re.escape(f"{name} ({row['place']}") + r"\w\w, \d+ VP\):\n  (?P<cats>.+)\n"
                             r"(?:  Awards: (?P<awards>.+)\n)?  Goals (?P<goals>\d+) · Prestige (?P<prestige>\d+)",
                             body)
            assert mine, f"no line of {name} in {card['game']}'s final scores"
            cats = tuple(int(c.rsplit(" ", 1)[1]) for c in mine["cats"].split(" · "))
            awards = tuple((a.rsplit(" ", 1)[0], int(a.rsplit(" ", 1)[1]))
                           for a in (mine["awards"].split(", ") if mine["awards"] else ()))
            rows[name] = (int(row["total"]), int(row["place"]), row["title"], cats, awards, int(mine["goals"]),
                          int(mine["prestige"]))
        found[card["game"]] = rows
    return found


def posted_results(output: str) -> list[tuple[str, int, tuple[object, ...]]]:
    """(game, round, (outcome, aye, nay, abstain, in play, needed)) of every result card the output shows."""
    return [(m["game"], int(m["n"]), (m["outcome"].lower(), int(m["aye"]), int(m["nay"]), int(m["abstain"]),
                                      int(m["in_play"]), int(m["needed"])))
            for m in RESULT.finditer(output.replace("\n      ", "\n"))]


async def ask(app: App, game_id: int, what: str, number: int | None = None, player: UserRef | None = None
              ) -> Derivation:
    game = await app.clerk.games.game(game_id)
    ctx = Ctx(MODERATOR, Place(game.guild_id, game.channel_id), None, datetime.now(UTC))
    return await explain(app, ctx, game, WhyAsk(what, number, player))


async def check_why(output: str, db: Migrated) -> int:
    """Ask ``/why`` of every number ``output`` posted in the Landsdraad games of ``db``; how many were checked."""
    engine = db.engine()
    try:
        async with engine.connect() as c:
            games = {str(n): int(i) for i, n in (await c.execute(text(
                "SELECT id, name FROM games WHERE ruleset = 'landsdraad'"))).all()}
            closes = [(int(g), p if isinstance(p, dict) else json.loads(p))
                      for g, p in (await c.execute(text(
                          "SELECT game_id, payload FROM events WHERE kind = 'RoundClosed' ORDER BY id"))).all()]
            players = [(int(g), int(u), str(n)) for g, u, n in (await c.execute(text(
                "SELECT game_id, user_id, name FROM players"))).all()]
            void = {(int(g), int(n)) for g, n in (await c.execute(text(
                "SELECT game_id, number FROM rounds WHERE status = 'void'"))).all()}
    finally:
        await engine.dispose()
    if not games:
        return 0
    checked = 0
    async with clerk_on(db.url, ManualClock(datetime.now(UTC)), 0, db.options) as app:
        for name, number, posted in posted_results(output):
            if name in games and (games[name], number) in void:  # /round void withdrew it (play-test Y6)
                with pytest.raises(RuleError, match=f"Round {number} of {name} is void"):
                    await ask(app, games[name], "result", number)
                checked += 1
            elif name in games:
                found = await ask(app, games[name], "result", number)
                assert found.value == posted, f"{name} round {number}: /why says {found.value}, posted {posted}"
                checked += 1
        names = {(g, u): n for g, u, n in players}
        for name, rows in posted_finals(output).items():
            for (game_id, user_id), player in names.items():
                if game_id == games.get(name) and player in rows:
                    found = await ask(app, game_id, "score", None, UserRef(user_id, player))
                    assert isinstance(found.value, tuple)
                    total, place, title, cats, awards, goals, prestige = found.value
                    shown = (total, place, title, cats, tuple((a.title, vp) for a, vp in awards), goals, prestige)
                    assert shown == rows[player], f"{player}'s final score: /why says {shown}, posted {rows[player]}"
                    checked += 1
        for game_id in games.values():  # the Forecast as /forecast would post it now
            view = await app.clerk.landsdraad.victory.forecast(game_id)
            found = await ask(app, game_id, "forecast")
            assert found.value == (view.forecast.pot, tuple(line.text() for line in view.forecast.lines))
            checked += 1
        for m in AG_CARD.finditer(output.replace("\n      ", "\n")):  # each AG election's result card
            if m["game"] in games:
                found = await ask(app, games[m["game"]], "ag", int(m["n"]))
                posted_ag = tuple((c.rsplit(" ", 1)[0], int(c.rsplit(" ", 1)[1])) for c in m["standings"].split(", "))
                assert found.value == posted_ag, f"AG election {m['n']}: /why says {found.value}, posted {posted_ag}"
                assert found.result.startswith(f"{m['winner']} elected"), found.result
                checked += 1
        for m in AUDIT.finditer(output.replace("\n      ", "\n")):
            for (game_id, user_id), name in names.items():
                if name == m["target"] and game_id in games.values():
                    found = await ask(app, game_id, "audit", int(m["round"]), UserRef(user_id, name))
                    assert found.value == (int(m["fee"]), int(m["share"])), f"audit of {name}: {found.value}"
                    checked += 1
        for game_id, payload in closes:
            if game_id not in games.values() or (game_id, int(payload["round"])) in void:  # withdrawn (Y6)
                continue
            for weight in entries_of(payload):
                who = UserRef(int(weight["user_id"]), str(weight["name"]))
                found = await ask(app, game_id, "votes", int(payload["round"]), who)
                assert found.value == weight["votes"]
                # every past round, not only the latest: the breakdown rebuilt from the ledger as of that close
                # (whatever changed since) makes the weight that close counted
                assert len(found.parts) == 1, f"{who.name} in round {payload['round']}: not rebuilt ({found.note})"
                rebuilt = found.parts[0].value
                assert rebuilt == weight["votes"], f"{who.name}, round {payload['round']}: {rebuilt} {weight['votes']}"
                checked += 1
        for (game_id, user_id), name in names.items():
            if game_id in games.values():
                player = await app.clerk.landsdraad.ledger.player(game_id, user_id)
                found = await ask(app, game_id, "votes", None, UserRef(user_id, name))
                assert found.value == player.votes, f"{name}: /why says {found.value}, the ledger {player.votes}"
                checked += 1
    return checked


def posted_count(output: str) -> dict[str, Any]:
    """How many result and audit cards ``output`` shows (a test that the patterns still match the cards)."""
    flat = output.replace("\n      ", "\n")
    return {"results": len(posted_results(output)), "audits": len(AUDIT.findall(flat)),
            "finals": sum(len(rows) for rows in posted_finals(output).values())}
