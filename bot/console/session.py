"""One console or replay session: events in, every message the bot would send out, with its destination.

The clock is a ManualClock that moves only on ``! time`` and ``! wait``. When it moves, the deadlines it
passes fire in order: the clock is set to each deadline instant and the rounds due then are closed, exactly as
the Discord scheduler would; then it lands on the target time. ``! hold`` stops that (a message can then be
judged at the very instant of a deadline, before the timer fires) until ``! release`` fires what is overdue."""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from bot.actions.commands import App, dispatch
from bot.actions.context import Ctx, Place
from bot.actions.explain_this import EXPLAIN_THIS, explains_posts
from bot.actions.help import takes
from bot.actions.message_commands import TargetMessage, handle_message_command
from bot.actions.messages import close_due, handle_button, handle_channel_message, handle_dm, handle_select, too_late
from bot.actions.outbox import EXPLAINS, POSTED, Button, Here, Outgoing, Select, ToChannel, ToThread, ToUser
from bot.console.slash import OptionError, parse_slash
from bot.console.transcript import Choose, Directive, Explain, Press, Said
from bot.console.world import GUILD_ID, World, stable_id
from engine.core.stamps import utc_text
from engine.service.clock import ManualClock

ARROW = "  → "
_USER_MENTION = re.compile(r"<@!?(\d+)>")
_CHANNEL_MENTION = re.compile(r"<#(\d+)>")
INDENT = "      "
NOTE = "  "
BOT_ID = stable_id("bot", "clerk")
"""The console's stand-in for the bot's own user id (the author of the cards **Explain this** is used on)."""


@dataclass(frozen=True)
class PostedCard:
    """A result card the console showed in a channel or thread, numbered in the session's order (``[Explain this:
    card N]``): where it is, the message id it was recorded under (as Discord's delivery records the id a card got),
    and its text."""

    place: Place
    message_id: int
    text: str


def describe_file(data: bytes) -> str:
    """``PNG 1200×675`` for an image (stable across library versions), else its size in bytes."""
    if data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) >= 24:
        return f"PNG {int.from_bytes(data[16:20], 'big')}×{int.from_bytes(data[20:24], 'big')}"
    return f"{len(data)} bytes"


class ClockError(Exception):
    """A directive that cannot be done now (the clock would go back); ``str()`` says why."""


class ClickError(ClockError):
    """A press of a button that is not there; ``str()`` says why."""


def when(moment: datetime) -> str:
    """``2026-03-01 18:00 UTC``, with seconds when there are any."""
    moment = moment.astimezone(UTC)
    return moment.strftime("%Y-%m-%d %H:%M:%S UTC" if moment.second else "%Y-%m-%d %H:%M UTC")


def done_text(instant: datetime, kinds: set[str], now: datetime, skipped: bool) -> str:
    """What a pass at ``now`` did of the work due at ``instant``: ``deadline``, ``reminder`` or both; ``... of TIME,
    done late`` when it was overdue; a reminder whose deadline had come is said to be skipped, since it is not sent
    (``too_late``; play-test M4.10)."""
    parts = []
    if skipped:
        parts.append(f"reminder of {when(instant)} skipped (not sent: the deadline it reminds of had come)")
        kinds = kinds - {"reminder"}
    if kinds:
        what = " and ".join(sorted(kinds))  # "deadline", "reminder" or "deadline and reminder"
        parts.append(f"{what} of {when(instant)}, done late" if instant < now else what)
    return "; ".join(parts)


def buttons_line(buttons: tuple[Button, ...], *, ids: bool = False) -> str:
    """``[Second with Dorn] [Decline]``; with ``ids`` each label is followed by its custom_id."""
    return " ".join(f"[{b.label}]" + (f" ({b.custom_id})" if ids else "") for b in buttons)


def menu_line(select: Select, *, ids: bool = False) -> str:
    """``[menu: #sirius (Landsdraad) | #arrakis (Landsdraad)]``; with ``ids`` the menu's custom_id follows."""
    return ("[menu: " + " | ".join(o.label for o in select.options) + "]"
            + (f" ({select.custom_id})" if ids else ""))


class Session:
    def __init__(self, app: App, clock: ManualClock, write: Callable[[str], None], source_prefix: str,
                 world: World | None = None, *, show_ids: bool = False, files: Path | None = None,
                 save_files: Path | None = None) -> None:
        self.app = app
        self.files = files or Path(".")
        """Where a relative ``file:`` option's path starts (the transcript's folder; the working directory)."""
        self.save_files = save_files
        """``--files DIR``: every attachment the bot sends is written there (its path printed), else only described."""
        self.saved = 0
        self.clock = clock
        self.write = write
        self.source_prefix = source_prefix
        self.world = world or World()
        self.show_ids = show_ids
        self.held = False
        self.delivered: dict[int, tuple[Said, Ctx]] = {}
        self.pressed: dict[int, Press] = {}
        self.buttons: list[tuple[str | None, Place, tuple[Button, ...]]] = []
        """Messages sent with buttons, oldest first: (to whom, None for everyone in a channel; where; buttons)."""
        self.menus: list[tuple[str | None, Place, Select]] = []
        """Messages sent with a select menu, oldest first, likewise."""
        self.cards: list[PostedCard] = []
        """The result cards shown in a channel or thread, oldest first: card N is ``cards[N - 1]``."""

    async def run(self, event: Said | Directive | Press | Explain) -> None:
        if isinstance(event, Said):
            await self.say(event)
        elif isinstance(event, Explain):
            await self.explain(event, f"{self.source_prefix}:{event.line}")
        elif isinstance(event, Press):
            self.pressed[event.line] = event
            await self.press(event, f"{self.source_prefix}:{event.line}")
        else:
            await self.direct(event)

    # -- button presses ---------------------------------------------------------------------------------------

    def find_button(self, name: str, label: str) -> tuple[Place, Button]:
        """The button ``label`` (or with that custom_id) of the latest message sent to ``name`` that has one."""
        wanted = label.strip().lower()
        for to, place, buttons in reversed(self.buttons):
            if to is not None and to.lower() != name.lower():
                continue
            for b in buttons:
                if b.label.lower() == wanted or b.custom_id == label.strip():
                    return place, b
        raise ClickError(f"no message sent to {name} has a button “{label}”")

    def find_option(self, name: str, option: str) -> tuple[Place, Select, str]:
        """The menu of the latest message sent to ``name`` that offers ``option``, and the option's value."""
        for to, place, select in reversed(self.menus):
            if to is not None and to.lower() != name.lower():
                continue
            found = select.option(option)
            if found is not None:
                return place, select, found.value
        raise ClickError(f"no message sent to {name} has a menu with “{option}”")

    async def press(self, event: Press, source_id: str) -> None:
        if isinstance(event, Choose):
            place, select, value = self.find_option(event.name, event.label)
            ctx = Ctx(self.world.actor(event.name), place, source_id, self.clock.now())
            await self.show(await handle_select(self.app, ctx, select.custom_id, (value,)), ctx)
            return
        place, button = self.find_button(event.name, event.label)
        ctx = Ctx(self.world.actor(event.name), place, source_id, self.clock.now())
        await self.show(await handle_button(self.app, ctx, button.custom_id), ctx)

    # -- Explain this ---------------------------------------------------------------------------------------------

    def find_card(self, number: int) -> PostedCard:
        """Card ``number`` of this session (``[Explain this: card N]``); ClickError saying which numbers there are."""
        if 1 <= number <= len(self.cards):
            return self.cards[number - 1]
        shown = (f"the result cards shown so far are numbered 1 to {len(self.cards)}" if len(self.cards) > 1
                 else "the one result card shown so far is card 1" if self.cards
                 else "no result card has been shown yet")
        raise ClickError(f"there is no card {number}: {shown}, each marked `[{EXPLAIN_THIS}: card N]` (a card shown "
                         "before this session is not numbered; `/why` explains it)")

    async def explain(self, event: Explain, source_id: str) -> None:
        """**Explain this** on card ``event.card`` by ``event.name``, where the card is, through the same entry as
        Discord's message menu (``handle_message_command``)."""
        card = self.find_card(event.card)
        ctx = Ctx(self.world.actor(event.name), card.place, source_id, self.clock.now())
        target = TargetMessage(card.message_id, BOT_ID, "Clerk", True, card.text)
        await self.show(await handle_message_command(self.app, ctx, EXPLAIN_THIS, target), ctx)

    async def _number_card(self, message: Outgoing, text: list[str]) -> PostedCard | None:
        """A result card (``POSTED``, ``EXPLAINS``) sent to a channel or thread, numbered and recorded under a made-up
        message id as the Discord adapter records the id Discord gave it; None for any other message, a card its
        ruleset does not explain, and when no ruleset explains its posts (Discord then has no **Explain this**)."""
        marker = message.extra.get(POSTED) or message.extra.get(EXPLAINS)
        if marker is None or not isinstance(message.to, ToChannel | ToThread) or not explains_posts(self.app):
            return None
        kind, game_id, *_ = marker.split(":")
        front = self.app.front((await self.app.clerk.games.game(int(game_id))).ruleset)
        if front is None or kind not in front.explains_posts:  # a card its ruleset does not explain: no mark
            return None
        number = len(self.cards) + 1
        if isinstance(message.to, ToThread):
            place = Place(GUILD_ID, message.to.channel_id, (await self._thread(message.to))[0])
        else:
            place = Place(GUILD_ID, message.to.channel_id)
        message_id = (stable_id("message", marker) if POSTED in message.extra  # the id remember_post keeps
                      else stable_id("message", f"{self.source_prefix}:card:{number}"))
        card = PostedCard(place, message_id, "\n".join(text))
        self.cards.append(card)
        return card

    # -- what users say ---------------------------------------------------------------------------------------

    async def say(self, said: Said) -> None:
        ctx = Ctx(self.world.actor(said.name), self.world.place(said.channel, said.thread),
                  f"{self.source_prefix}:{said.line}", self.clock.now())
        self.delivered[said.line] = (said, ctx)
        await self.deliver(said, ctx)

    async def deliver(self, said: Said, ctx: Ctx) -> None:
        text = said.text
        if text.startswith("/"):
            game = (await self.app.clerk.games.game_in_channel(ctx.place.channel_id)
                    if ctx.place.channel_id is not None else None)
            try:
                command = parse_slash(text, self.world.user, self.world.role, self.app.routes.commands,
                                      self.world.channel, files=self.files,
                                      applies=(lambda spec: takes(self.app, game.ruleset, spec)) if game else None)
            except OptionError as error:
                await self.show([Outgoing(Here(), str(error), ephemeral=True)], ctx)
                return
            await self.show(await dispatch(self.app, ctx, command.name, command.options), ctx)
        elif said.is_dm:
            await self.show(await handle_dm(self.app, ctx, text), ctx)
        else:  # a message is answered with a message, which everyone there sees: Discord has no ephemeral reply
            out = [dataclasses.replace(o, ephemeral=False) if isinstance(o.to, Here) else o
                   for o in await handle_channel_message(self.app, ctx, text)]  # (bot/discord/delivery.py)
            await self.show(out, ctx)
            hint = next((h for f in self.app.fronts if (h := f.channel_hint(text)) is not None), None)
            if not out and hint is not None:  # a DM form posted in a channel (Front.channel_hint)
                self.note(hint)

    # -- directives -------------------------------------------------------------------------------------------

    async def direct(self, d: Directive) -> None:
        if d.verb == "moderator":
            assert d.name is not None
            self.world.make_moderator(d.name)
        elif d.verb == "role":
            assert d.name is not None and d.role is not None
            self.world.give_role(d.name, d.role)
        elif d.verb == "time":
            assert d.when is not None
            await self.move_to(d.when)
        elif d.verb == "wait":
            assert d.delta is not None
            await self.move_to(self.clock.now() + d.delta)
            self.note(f"(now {when(self.clock.now())})")
        elif d.verb == "hold":
            self.held = True
        elif d.verb == "release":
            self.held = False
            await self.fire(self.clock.now())
        elif d.verb == "redeliver":
            await self.redeliver(d.target)

    async def redeliver(self, target: int | None) -> None:
        if target is None:
            target = max([*self.delivered, *self.pressed], default=None)
        if target is not None and target in self.pressed:
            await self.press(self.pressed[target], f"{self.source_prefix}:{target}")
            return
        if target is None or target not in self.delivered:
            raise ClockError("there is no such earlier message to deliver again"
                             if target is None else f"line {target} is not a message that was delivered")
        said, ctx = self.delivered[target]
        await self.deliver(said, ctx)

    async def move_to(self, target: datetime) -> None:
        now = self.clock.now()
        if target < now:
            raise ClockError(f"the clock cannot go back from {when(now)} to {when(target)}")
        if not self.held:
            await self.fire(target)
        self.clock.set(target)

    async def fire(self, until: datetime) -> None:
        """Close the rounds whose deadlines are at or before ``until``, one deadline instant at a time."""
        due: dict[datetime, set[str]] = {}
        for instant, kind in await self.app.clerk.timed_work():
            if instant <= until:
                due.setdefault(instant, set()).add(kind)
        noted: set[datetime] = set()
        for instant in sorted(due):
            if instant in noted:  # done, and said, by the pass of an earlier instant that was done late
                continue
            now = max(instant, self.clock.now())
            self.clock.set(now)
            pending = [(r[4], too_late(r[4], r[3], now)) for r in await self.app.clerk.reminders.pending_reminders()
                       if r[4] <= now]
            skipped = {i for i, late in pending if late} - {i for i, late in pending if not late}
            out = await close_due(self.app, now)
            covered = [i for i in sorted(due) if i <= now and i not in noted]  # one pass does all work due by now
            noted.update(covered)
            if out or skipped:
                self.note(f"⏰ {when(now)}: " + "; ".join(done_text(i, due[i], now, i in skipped) for i in covered))
                await self.show(out, None)

    # -- output -----------------------------------------------------------------------------------------------

    def save(self, name: str, data: bytes) -> Path:
        """Write an attachment into ``save_files`` under a name no earlier one took (``0003-forecast.png``)."""
        assert self.save_files is not None
        self.save_files.mkdir(parents=True, exist_ok=True)
        self.saved += 1
        path = self.save_files / f"{self.saved:04d}-{Path(name).name}"
        path.write_bytes(data)
        return path

    def named(self, text: str) -> str:
        """A user mention (``<@123>``) as Discord shows it: ``@name``, for the users the console knows; a channel
        mention (``<#123>``) as ``#sirius``, for the channels it knows."""
        text = _CHANNEL_MENTION.sub(lambda m: self.world.channels.get(int(m[1]), m[0]), text)
        return _USER_MENTION.sub(lambda m: f"@{self.world.users[int(m[1])]}" if int(m[1]) in self.world.users
                                 else m[0], text)

    def note(self, text: str) -> None:
        self.write(NOTE + text)

    async def show(self, messages: list[Outgoing], ctx: Ctx | None) -> None:
        """Print each message under its destination, doing the front end's bookkeeping on the way: a thread
        named by ``ToThread`` is found again by its name or made once; a ``Keep`` message is sent once and then
        edited in place."""
        for message in messages:
            lines = utc_text(self.named(message.text)).splitlines() if message.text else []
            if message.card is not None:
                lines += utc_text(message.card.as_text()).splitlines()
            if message.file is not None:
                name, data = message.file
                lines.append(f"[file {name}, {describe_file(data)}]" if self.save_files is None
                             else f"[file {name}, {describe_file(data)}: {self.save(name, data)}]")
                if message.alt:  # the picture in words, as a screen reader on Discord reads it
                    lines.append(f"[alt text: {message.alt}]")
            head = ARROW + await self.destination(message, ctx) + ":"
            if message.buttons:
                lines.append(buttons_line(message.buttons, ids=self.show_ids))
                self.buttons.append(self._recipient(message, ctx))
            if message.select is not None:
                lines.append(menu_line(message.select, ids=self.show_ids))
                to, place, _ = self._recipient(message, ctx)
                self.menus.append((to, place, message.select))
            numbered = await self._number_card(message, lines)
            if numbered is not None:  # Discord's message menu, for `NAME explain: N`
                lines.append(f"[{EXPLAIN_THIS}: card {len(self.cards)}]")
            if len(lines) == 1:
                self.write(f"{head} {lines[0]}")
            else:
                self.write(head)
                for line in lines:
                    self.write(INDENT + line if line else "")
            if POSTED in message.extra:  # a result's announcement has been shown: as the Discord adapter does
                await self.app.clerk.announcements.mark_posted(message.extra[POSTED],
                                                               numbered.message_id if numbered else None)
                if isinstance(message.to, ToChannel):  # where it went, as Discord's message would say (an erratum)
                    await self.app.clerk.announcements.remember_post(
                        message.extra[POSTED], message.to.channel_id, stable_id("message", message.extra[POSTED]))
            if EXPLAINS in message.extra and numbered is not None:  # a card without a marker: Explain this finds it
                where = numbered.place.thread_id or numbered.place.channel_id or 0
                await self.app.clerk.announcements.remember_card(message.extra[EXPLAINS], where, numbered.message_id)

    def _recipient(self, message: Outgoing, ctx: Ctx | None) -> tuple[str | None, Place, tuple[Button, ...]]:
        to = message.to
        if isinstance(to, ToUser):
            return self.world.users.get(to.user_id, f"user {to.user_id}"), Place(None, None), message.buttons
        if isinstance(to, Here) and ctx is not None:
            return ctx.actor.name, ctx.place, message.buttons
        if isinstance(to, ToThread):
            return None, Place(GUILD_ID, to.channel_id, to.thread_id), message.buttons
        channel_id = to.channel_id if isinstance(to, ToChannel) else None
        return None, Place(GUILD_ID, channel_id), message.buttons

    async def destination(self, message: Outgoing, ctx: Ctx | None) -> str:
        """``#sirius``, ``#sirius/ag-election-1 (new thread, pinned)``, ``DM jenny``, ``#sirius (ephemeral to
        bob)``, ...; the console's stand-in for where Discord would show the message."""
        to = message.to
        marks: list[str] = []
        if isinstance(to, ToUser):
            await self._name_user(to.user_id)
            where, channel_id = f"DM {self.world.users.get(to.user_id, f'user {to.user_id}')}", to.user_id
        elif isinstance(to, ToChannel):
            await self._name_channel(to.channel_id)
            where, channel_id = self.world.channels.get(to.channel_id, f"#channel-{to.channel_id}"), to.channel_id
        elif isinstance(to, ToThread):
            channel_id, made = await self._thread(to)
            where = self.world.channels[channel_id]
            if made and to.private:  # the Discord adapter adds its members to it
                names = ", ".join(self.world.users.get(u, f"user {u}") for u in to.members) or "nobody"
                marks.append(f"new private thread, members: {names}")
            elif made:
                marks.append("new thread")
            elif to.private:
                marks.append("private")
        else:
            assert isinstance(to, Here) and ctx is not None, "a reply needs the message it answers"
            if ctx.place.is_dm:
                where, channel_id = f"DM {ctx.actor.name}", ctx.actor.id
            else:
                where = self.world.where(ctx.place)
                channel_id = ctx.place.thread_id or ctx.place.channel_id or 0
                if message.ephemeral:
                    marks.append(f"ephemeral to {ctx.actor.name}")
        if message.keep is not None:
            keep = message.keep
            kept = await self.app.clerk.posts.kept_message(keep.game_id, keep.key)
            if kept is None:
                await self.app.clerk.posts.keep_message(keep.game_id, keep.key, channel_id,
                                                        stable_id("message", f"{keep.game_id}/{keep.key}"))
                if keep.pin:
                    marks.append("pinned")
            else:
                if kept[0] != channel_id:  # the front end edits the message where it is
                    where = self.world.channels.get(kept[0], where)
                marks.append("edits the pinned message" if keep.pin else "edits its earlier message")
        return f"{where} ({', '.join(marks)})" if marks else where

    async def _thread(self, to: ToThread) -> tuple[int, bool]:
        """The thread's id, and whether the bot made it just now (it then remembers it by its name)."""
        await self._name_channel(to.channel_id)
        if to.thread_id is not None:
            self.world.name_thread(to.channel_id, to.thread_id, to.name)
            return to.thread_id, False
        key = "thread:" + to.name
        kept = await self.app.clerk.posts.kept_message(to.game_id, key)
        if kept is not None:
            self.world.name_thread(kept[0], kept[1], to.name)
            return kept[1], False
        thread_id = self.world.thread(to.channel_id, to.name)
        await self.app.clerk.posts.keep_message(to.game_id, key, to.channel_id, thread_id)
        return thread_id, True

    async def _name_user(self, user_id: int) -> None:
        """A player first seen in an earlier console session (not yet typed in this one): named as in their game,
        when that is the console name their id comes from (so typing it speaks as them)."""
        if user_id in self.world.users:
            return
        for game in await self.app.clerk.games.games_of_user(user_id):
            name = (await self.app.clerk.games.player_names(game.id)).get(user_id)
            if name is not None and stable_id("user", name) == user_id:
                self.world.users[user_id] = name
                return

    async def _name_channel(self, channel_id: int) -> None:
        """A game channel first seen in an earlier console session: name it after its game."""
        if channel_id not in self.world.channels:
            game = await self.app.clerk.games.game_in_channel(channel_id)
            if game is not None:
                self.world.channels[channel_id] = f"the game channel of {game.name}"
