"""The commands every game has, whatever its ruleset: ``/game new``, ``/game settings``, ``/game export`` (JSON, or
CSV files), several games in a server (``/game list``) and their moderators (``/game moderators``), the audit trail
``/log``."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Mapping
from datetime import UTC, datetime
from typing import Any

from bot.actions.commands import App, Channel, Option, Role, require_game
from bot.actions.context import Ctx, UserRef
from bot.actions.log_text import Sentence, sentence
from bot.actions.message_commands import made_unread, reading_lines
from bot.actions.moderators import moderator_target, thread_name
from bot.actions.outbox import AnswerWith, Outgoing, ToChannel, reply
from bot.actions.routes import Routes
from bot.actions.spreadsheet import csv_bytes
from bot.actions.suggest_sources import Asking, Suggestion, source
from bot.actions.wire import decode, retarget
from engine.core.errors import RuleError
from engine.core.settings import shown
from engine.core.words import plural
from engine.core.zones import zone
from engine.service.clerk import RULESETS
from engine.service.games import LogEntry, LogPage, Moved
from engine.service.settings import MODERATOR_CHANNEL, TIMEZONE
from engine.service.views import GameView

ROUTES = Routes()
"""The commands every game has (``bot/actions/rulesets.py`` merges them with the rulesets')."""
ROUTES.group("game", "Start, end, export and configure a game")
command = ROUTES.command

SUMMARY_MAX = 200
"""Characters of an event's sentence in /log."""


@command("game new", "Start a game; this channel becomes its game channel.",
         Option("ruleset", str, ", ".join(r.name for r in RULESETS[:-1]) + f" or {RULESETS[-1].name}", True,
                tuple(r.name for r in RULESETS), lists_rulesets=True),
         Option("name", str, "the game's name, e.g. sirius", True),
         Option("moderator_role", Role, "the role whose members moderate (default: members with Manage Server)"),
         moderator=True, game="none", public=True)
async def game_new(app: App, ctx: Ctx, _: GameView | None, o: dict[str, Any]) -> list[Outgoing]:
    if ctx.place.is_dm or ctx.place.channel_id is None or ctx.place.guild_id is None:
        raise RuleError("Run /game new in the server channel that should become the game channel.")
    if ctx.place.thread_id is not None:
        raise RuleError("Run /game new in a channel, not in a thread.")
    role = o.get("moderator_role")
    game = await app.clerk.games.create_game(guild_id=ctx.place.guild_id, channel_id=ctx.place.channel_id,
                                             name=o["name"], ruleset=o["ruleset"],
                                             moderator_role_id=int(role) if role is not None else None,
                                             actor=ctx.actor.id, source_id=ctx.source_id)
    who = f"the members of {role_text(int(role))}" if role is not None else "members with Manage Server"  # T5.7
    front = app.front(game.ruleset)
    start = front.next_steps if front is not None else ""
    reading = "".join(f"\n{line}" for line in reading_lines(app, game.ruleset))  # no Message Content intent
    await made_unread(app, game)  # said here: a later start without the intent does not say it again (R4.3)
    return [reply(f"New {title_of(app, game.ruleset)} game **{game.name}**: this is its game channel. Moderators "
                  f"are {who}. {start}" + reading)]



@command("game export", "Download the game as JSON, or CSV for spreadsheets (moderators; it includes the secret "
         "ballots).", Option("format", str, "json (default) or csv (two files: events and players)",
                             choices=("json", "csv")), moderator=True, reads=True)
async def game_export(app: App, ctx: Ctx, game: GameView | None, o: dict[str, Any]) -> list[Outgoing]:
    g = require_game(game)
    if (o.get("format") or "json").lower() == "csv":
        return await export_csv(app, g)
    doc = await app.clerk.exports.export(g.id)
    data = await asyncio.to_thread(export_json, doc)  # a long game's is megabytes: written off the event loop
    where = (await app.clerk.games.listing(g.id)).where  # its ruleset's own unit: not "round 0" of a turn (T5.6)
    return [reply(f"Export of {g.name} ({where}).", ephemeral=True, file=(f"{g.name}.json", data))]


def title_of(app: App, ruleset: str) -> str:
    """A ruleset's name for players (``Ruleset.title``: ``Landsdraad``), not the one typed (``landsdraad``)."""
    return next((r.title for r in app.clerk.backend.rulesets if r.name == ruleset), ruleset.capitalize())


def export_json(doc: dict[str, Any]) -> bytes:
    return json.dumps(doc, indent=2, ensure_ascii=False).encode()


@command("game settings", "Show the game's settings, or change one (moderators).",
         Option("setting", str, "the setting to change (each ruleset has its own)", autocomplete="setting"),
         Option("value", str, "its new value"),
         Option(MODERATOR_CHANNEL, Channel, "the private channel for what only moderators see (transfers, ...)"),
         Option(TIMEZONE, str, "the time zone of deadlines typed as local times, e.g. Europe/Berlin"),
         reads=lambda o: all(o.get(k) is None for k in ("setting", "value", MODERATOR_CHANNEL, TIMEZONE)))
async def game_settings(app: App, ctx: Ctx, game: GameView | None, o: dict[str, Any]) -> list[Outgoing]:
    g = require_game(game)
    if all(o.get(k) is None for k in ("setting", "value", MODERATOR_CHANNEL, TIMEZONE)):
        moderators = (f"**moderators** = {role_text(g.moderator_role_id)}: who moderates the game "
                      "(changed with /game moderators)")
        channel = await app.clerk.settings.moderator_channel(g.id)
        private = (f"**{MODERATOR_CHANNEL}** = " + (f"<#{channel}>" if channel is not None else
                                                   f"none (default: a private thread “{thread_name(g)}”)")
                   + ": where Clerk posts what only the moderators see")
        zone = await app.clerk.settings.timezone(g.id)
        private += (f"\n**{TIMEZONE}** = {zone or 'none (default: UTC)'}: the zone of a deadline typed as a local "
                    "time without one (Discord shows every time in each reader's own zone)")
        try:
            rows = await app.clerk.settings.settings(g.id)
        except RuleError as none:
            return [reply(f"Settings of {g.name}:\n{moderators}\n{private}\n{none}", ephemeral=True)]
        lines = [moderators, private] + [f"**{name}** = {shown(value)}{' (default)' if default else ''}: {about}"
                                         for name, value, default, about in rows]
        front = app.front(g.ruleset)
        if front is not None and front.settings_note:
            lines.append(front.settings_note)
        return [reply(f"Settings of {g.name}:\n" + "\n".join(lines), ephemeral=True)]
    if not ctx.actor.moderates(g.moderator_role_id):
        raise RuleError(f"Only the moderators of {g.name} can change its settings.")
    if o.get(MODERATOR_CHANNEL) is not None or o.get("setting") == MODERATOR_CHANNEL:
        return await set_moderator_channel(app, ctx, g, o)
    if o.get(TIMEZONE) is not None or o.get("setting") == TIMEZONE:
        return await set_timezone(app, ctx, g, o)
    if o.get("setting") is None or o.get("value") is None:
        raise RuleError("Give both `setting` and `value` to change a setting, or neither to see them all.")
    return await change_setting(app, ctx, g, o["setting"], o["value"])


@source("setting")
async def setting_names(asking: Asking) -> list[Suggestion]:
    """The settings of the game's own ruleset, then the two every game has: not a fixed list of choices, which
    Discord would show alike in every game, 25 names of three rulesets (a play-test of moderators, T4.5)."""
    try:
        rows = await asking.app.clerk.settings.settings(asking.game.id)
    except RuleError:  # a ruleset with no settings of its own
        rows = []
    return [*(Suggestion(f"{name}: {about}"[:100], name) for name, _, _, about in rows),
            Suggestion(f"{TIMEZONE}: the zone of deadlines typed as local times", TIMEZONE),
            Suggestion(f"{MODERATOR_CHANNEL}: where Clerk posts what only the moderators see", MODERATOR_CHANNEL)]


async def change_setting(app: App, ctx: Ctx, g: GameView, setting: str, value: str) -> list[Outgoing]:
    """A moderator changes one of the game's settings: recorded, told to the moderator and the channel, and followed
    by what the ruleset says it changes (``Front.after_setting``: a Convocate Repeal recount), read in the change's
    transaction; all of it owed there (``clerk.followed``; the moderators' place is read before the write). Also what
    a ruleset's own alias of /game settings runs (``/convocate rulings``), so both are one path."""
    front = app.front(g.ruleset)
    after = front.after_setting if front is not None else None
    place = await moderator_target(app, g) if after is not None else None

    async def then(session: Any, changed: tuple[str, Any, Any]) -> tuple[tuple[str, Any, Any], Any]:
        return changed, (await after.read(session, g.id, changed[0]) if after is not None else None)

    def said(done: tuple[tuple[str, Any, Any], Any]) -> list[Outgoing]:
        (name, old, new), found = done
        old, new = shown(old), shown(new)
        return [reply(f"{g.name}: {name} changed from {old} to {new}.", ephemeral=True),
                Outgoing(ToChannel(g.channel_id), text=f"The moderators changed the setting **{name}** from {old} to "
                                                       f"{new}."),
                *(after.said(g, place, found) if after is not None and place is not None and found is not None
                  else [])]

    answered: AnswerWith[tuple[tuple[str, Any, Any], Any]] = AnswerWith(ctx.answering, said)
    return answered.out(await app.clerk.followed.follow(g.id, lambda: app.clerk.settings.change_setting(
        g.id, name=setting, value=value, actor=ctx.actor.id, source_id=ctx.source_id), then, source_id=ctx.source_id,
        answer=answered.owed))


async def set_moderator_channel(app: App, ctx: Ctx, g: GameView, o: dict[str, Any]) -> list[Outgoing]:
    """``moderator_channel:#mods`` sets it; ``setting:moderator_channel value:none`` goes back to the private thread.
    Only the moderators are told (the players need not know where the moderators talk)."""
    channel = o.get(MODERATOR_CHANNEL)
    if channel is None and str(o.get("value") or "").strip().lower() not in ("none", "off", "thread"):
        raise RuleError(f"Choose the channel with `{MODERATOR_CHANNEL}:#channel`, or `setting:{MODERATOR_CHANNEL} "
                        "value:none` for a private thread of the game channel.")
    if channel is not None and o.get("setting") not in (None, MODERATOR_CHANNEL):
        raise RuleError(f"Change one setting at a time: `{MODERATOR_CHANNEL}` or `{o['setting']}`.")
    old, new = await app.clerk.settings.set_moderator_channel(g.id, channel_id=int(channel) if channel else None,
                                                              actor=ctx.actor.id, source_id=ctx.source_id)

    def shown(value: int | None) -> str:
        return f"<#{value}>" if value is not None else f"a private thread “{thread_name(g)}” of the game channel"

    needs = " Clerk needs View Channel and Send Messages there." if new is not None else ""
    return [reply(f"{g.name}: what only the moderators see (transfers, ...) now goes to {shown(new)} (before: "
                  f"{shown(old)}).{needs}", ephemeral=True)]


async def set_timezone(app: App, ctx: Ctx, g: GameView, o: dict[str, Any]) -> list[Outgoing]:
    """``timezone:Europe/Berlin`` (or ``setting:timezone value:Europe/Berlin``); ``none`` goes back to UTC. Told
    to the moderator only: the players see every time in their own zone on Discord whatever it is."""
    given = o.get(TIMEZONE)
    if given is not None and o.get("setting") not in (None, TIMEZONE):
        raise RuleError(f"Change one setting at a time: `{TIMEZONE}` or `{o['setting']}`.")
    value = given if given is not None else o.get("value")
    if value is None or not str(value).strip():
        raise RuleError(f"Give the zone: `/game settings {TIMEZONE}:Europe/Berlin` (an IANA name), or "
                        f"`setting:{TIMEZONE} value:none` for UTC.")
    old, new = await app.clerk.settings.set_timezone(g.id, value=str(value), actor=ctx.actor.id,
                                                     source_id=ctx.source_id)
    now = app.clerk.clock.now()
    example = (f" (it is {now.astimezone(zone(new)):%Y-%m-%d %H:%M} there now)" if new is not None else "")
    return [reply(f"{g.name}: a deadline typed as a local time without a zone (`2026-03-01 20:00`) is now read as "
                  f"{new or 'UTC'} time{example}; before: {old or 'UTC'}. A duration (`24h`), a time with its zone "
                  "(`... UTC`, `... Europe/Berlin`) or a Discord timestamp (`<t:1767268800:F>`) works as before, and "
                  "Discord shows every time in each reader's own zone." + fixed_offset_note(new, now),
                  ephemeral=True)]


def fixed_offset_note(name: str | None, now: datetime) -> str:
    """For a zone that keeps one offset all year but is not UTC (``EST``, ``MST``): that it has no summer time, so
    a moderator who meant a place's clocks names the place (play-test T4.9)."""
    if name is None or "/" in name or name.upper() in ("UTC", "GMT", "UCT", "ZULU", "UNIVERSAL"):
        return ""  # a place follows its own clocks; UTC is meant to have none
    here = zone(name)
    offsets = {datetime(now.year, month, 15, 12, tzinfo=UTC).astimezone(here).utcoffset() for month in (1, 7)}
    if len(offsets) != 1:  # a rule-based zone such as CET: it has summer time
        return ""
    return (f" Note: {name} keeps one offset all year, with no summer time; for the clocks of a place, give its name "
            "(`America/New_York`, `Europe/Berlin`).")


def role_text(role_id: int | None) -> str:
    return f"<@&{role_id}>" if role_id is not None else "members with Manage Server"


@command("game list", "The games of this server (in a DM: your own games) with channel, ruleset, round and status.",
         game="none", reads=True, public=True)
async def game_list(app: App, ctx: Ctx, _: GameView | None, o: dict[str, Any]) -> list[Outgoing]:
    if ctx.place.guild_id is not None:
        listings = await app.clerk.games.games_in_guild(ctx.place.guild_id)
        head, none = "Games of this server", "No games in this server yet; a moderator starts one with /game new."
    else:
        listings = await app.clerk.games.listings(await app.clerk.games.games_of_user(ctx.actor.id))
        head, none = "Your games", "You are not a player in any game."
    if not listings:
        return [reply(none, ephemeral=ctx.place.guild_id is None)]
    lines = [f"**{g.game.name}** in <#{g.game.channel_id}>: {title_of(app, g.game.ruleset)}, "
             f"{g.where if g.setting_up else f'{g.progress}, {g.status}'}, "  # not "round 0, active" (T5.6)
             f"{g.players} player{'' if g.players == 1 else 's'}"
             for g in listings]
    return [reply(f"{head}:\n" + "\n".join(lines))]


@command("game moderators", "Change the role whose members moderate this game (moderators).",
         Option("role", Role, "the new moderator role (leave out for members with Manage Server)"),
         moderator=True)
async def game_moderators(app: App, ctx: Ctx, game: GameView | None, o: dict[str, Any]) -> list[Outgoing]:
    g = require_game(game)
    role = o.get("role")
    if role is not None and int(role) == g.guild_id:  # @everyone's id is the server's (play-test T4.8)
        raise RuleError("@everyone would make every player a moderator of this game, able to read /log and "
                        "/game export, which hold every secret ballot. Choose a role only the moderators hold. Nothing "
                        "was changed.")

    def said(changed: tuple[int | None, int | None]) -> list[Outgoing]:  # owed in the change's transaction
        old, new = changed
        text = f"The moderators of {g.name} are now {role_text(new)} (before: {role_text(old)})."
        yours = "" if ctx.actor.moderates(new) else (  # handed over on purpose, or a slip: said either way (T4.8)
            f" You no longer moderate {g.name}: you do not hold "
            f"{role_text(new) if new is not None else 'Manage Server'} (a member with Manage Server can change it "
            "back).")
        return [reply(text + yours, ephemeral=True), Outgoing(ToChannel(g.channel_id), text=text)]

    answered = AnswerWith(ctx.answering, said)
    return answered.out(await app.clerk.games.set_moderator_role(
        g.id, role_id=int(role) if role is not None else None, actor=ctx.actor.id, source_id=ctx.source_id,
        answer=answered.owed))


@command("game move", "Move a game to this channel: its old one was deleted, or you want another (moderators).",
         Option("game", str, "the game's name", True, autocomplete="game"),
         moderator=True, game="named", closing=True)
async def game_move(app: App, ctx: Ctx, game: GameView | None, o: dict[str, Any]) -> list[Outgoing]:
    """Run in the channel that becomes the game's (play-test R4.2): recorded (``GameMoved``); announcements go here
    from now on, and what could not be posted in a deleted old channel is posted here: owed again for this channel
    in the move's transaction, with what the move announces (``AnswerWith``), when the front end lets the handler
    owe so (``Ctx.answering``), else after it (``App.game_moved``)."""
    g = require_game(game)
    if ctx.place.is_dm or ctx.place.channel_id is None:
        raise RuleError("Run /game move in the server channel that should become the game channel.")
    if ctx.place.thread_id is not None:
        raise RuleError("Run /game move in a channel, not in a thread: a game channel holds the game's threads.")
    here = ctx.place.channel_id

    def said(moved: Moved, held: int) -> list[Outgoing]:
        from_where = f"<#{moved.old}>" + (" (deleted)" if moved.lost else "")
        posted = (f" {plural(held, 'message')} that could not be posted there {'is' if held == 1 else 'are'} posted "
                  "here now." if held else "")
        out = [reply(f"{g.name} moved here from {from_where}. Its announcements, threads and commands are here from "
                     f"now on.{posted}", ephemeral=True),
               Outgoing(ToChannel(here), text=f"**{g.name}** is played in this channel from now on (moved from "
                                              f"{from_where} by the moderators).")]
        if not moved.lost:  # the old channel is still there: its readers learn where the game went
            out.append(Outgoing(ToChannel(moved.old), text=f"**{g.name}** moved to <#{here}>."))
        return out

    answering = ctx.answering
    answered: AnswerWith[Moved] = AnswerWith(answering, lambda moved: said(moved, len(moved.released)))
    moved = await app.clerk.games.move(g.id, channel_id=here, actor=ctx.actor.id, source_id=ctx.source_id,
                                       release=(lambda owed: retarget(owed, here)) if answering is not None else None,
                                       answer=answered.owed)
    if answering is None:  # nothing owed with the move: what was held is released now, in a write of its own
        return said(moved, await app.game_moved(moved.old, here))
    # queued before what the move announces, as their rows come first (owed before it)
    answering.owed.extend((decode(row.owed.body)[0], row) for row in moved.released)
    return answered.out(moved)


# -- the audit trail ------------------------------------------------------------------------------------------------

def who(entry: LogEntry, asker: Ctx | None = None) -> str:
    """The actor by name: a player's name, the asker's own name, else a Discord mention (shown as a name)."""
    if entry.actor is None:
        return "Clerk"
    if entry.actor_name:
        return entry.actor_name
    if asker is not None and entry.actor == asker.actor.id:
        return asker.actor.name
    return f"<@{entry.actor}>"


def log_lines(page: LogPage, sentences: Mapping[str, Sentence] | None = None, asker: Ctx | None = None) -> list[str]:
    return [f"`#{e.seq}` {e.at:%Y-%m-%d %H:%M} **{who(e, asker)}** {e.kind}"
            + (f": {s}" if (s := sentence(e.kind, e.payload, page.names, sentences, SUMMARY_MAX)) else "")
            for e in page.entries]


def front_sentences(app: App, ruleset: str) -> Mapping[str, Sentence]:
    front = app.front(ruleset)
    return front.log_sentences if front is not None else {}


@command("log", "The audit trail of the game, newest first (moderators; only you see it).",
         Option("round", int, "only events of this round", min_value=0),
         Option("player", UserRef, "only what this player did or what concerns them"),
         Option("page", int, "the page (15 events a page)", min_value=1),
         moderator=True, reads=True)
async def log(app: App, ctx: Ctx, game: GameView | None, o: dict[str, Any]) -> list[Outgoing]:
    g = require_game(game)
    player = o.get("player")
    assert player is None or isinstance(player, UserRef)
    page = await app.clerk.games.event_log(g.id, round_number=o.get("round"), user_id=player.id if player else None,
                                           page=o.get("page") or 1)
    filters = [f for f in (f"round {o['round']}" if o.get("round") is not None else "",
                           f"player {player.name}" if player else "") if f]
    head = f"Log of {g.name}{' (' + ', '.join(filters) + ')' if filters else ''}: {plural(page.total, 'event')}, " \
           f"page {page.page} of {page.pages}"
    if not page.entries:
        stranger = (f" {player.name} is not a player in {g.name}, and nothing recorded names them." if player
                    and player.id not in page.names else "")  # said, not left to guess (play-test T5.5)
        return [reply(f"{head}. Nothing recorded.{stranger}", ephemeral=True)]
    lines = log_lines(page, front_sentences(app, g.ruleset), ctx)
    return [reply(t, ephemeral=True) for t in split_messages(head, lines)]


def split_messages(head: str, lines: list[str], limit: int = 2000) -> list[str]:
    """``head`` and the lines in as few messages of at most ``limit`` characters as they fit in (a line too long
    on its own is cut)."""
    messages: list[str] = []
    current = head
    for line in lines:
        line = line if len(line) < limit else line[: limit - 2] + "…"
        if len(current) + 1 + len(line) > limit:
            messages.append(current)
            current = line
        else:
            current = f"{current}\n{line}" if current else line
    if current:
        messages.append(current)
    return messages


# -- CSV export -----------------------------------------------------------------------------------------------------

EVENT_COLUMNS = ("seq", "at", "kind", "actor", "actor_name", "summary", "payload")


def events_csv(doc: dict[str, Any], names: dict[int, str],
               sentences: Mapping[str, Sentence] | None = None) -> bytes:
    rows = [{"seq": e["seq"], "at": e["at"], "kind": e["kind"], "actor": e["actor"] if e["actor"] is not None else "",
             "actor_name": names.get(e["actor"], "") if e["actor"] is not None else "Clerk",
             "summary": sentence(e["kind"], e["payload"] or {}, names, sentences, limit=10_000),
             "payload": json.dumps(e["payload"], ensure_ascii=False, sort_keys=True)}
            for e in doc.get("events", [])]
    return csv_bytes(EVENT_COLUMNS, rows)


async def export_csv(app: App, g: GameView) -> list[Outgoing]:
    """The events, then each front's files (``Front.export_files``: the sections they read are in every game's
    export, so every front's files come with every game)."""
    doc = await app.clerk.exports.export(g.id)
    where = (await app.clerk.games.listing(g.id)).where
    names = await app.clerk.games.player_names(g.id)
    sentences = front_sentences(app, g.ruleset)

    def written() -> list[Outgoing]:  # a long game's rows are megabytes: written off the event loop
        out = [reply(f"Export of {g.name} ({where}) for spreadsheets: the events "
                     "(docs/export.md says what each column holds).", ephemeral=True,
                     file=(f"{g.name}-events.csv", events_csv(doc, names, sentences)))]
        for front in app.fronts:
            for files in front.export_files:
                out += files(g, doc, names)
        return out

    return await asyncio.to_thread(written)
