"""One console or replay session: events in, every message the bot would send out, with its destination.

The clock is a ManualClock that moves only on ``! time`` and ``! wait``. When it moves, the deadlines it
passes fire in order: the clock is set to each deadline instant and the rounds due then are closed, exactly as
the Discord scheduler would; then it lands on the target time. ``! hold`` stops that (a message can then be
judged at the very instant of a deadline, before the timer fires) until ``! release`` fires what is overdue."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime

from bot.actions.commands import App, dispatch
from bot.actions.context import Ctx
from bot.actions.messages import close_due, handle_dm
from bot.actions.outbox import Here, Outgoing, ToChannel, ToUser
from bot.console.slash import OptionError, parse_slash
from bot.console.transcript import Directive, Said
from bot.console.world import World
from engine.landsdraad.ballot import looks_like_ballot
from engine.service.clock import ManualClock

ARROW = "  → "
INDENT = "      "
NOTE = "  "


class ClockError(Exception):
    """A directive that cannot be done now (the clock would go back); ``str()`` says why."""


def when(moment: datetime) -> str:
    """``2026-03-01 18:00 UTC``, with seconds when there are any."""
    moment = moment.astimezone(UTC)
    return moment.strftime("%Y-%m-%d %H:%M:%S UTC" if moment.second else "%Y-%m-%d %H:%M UTC")


class Session:
    def __init__(self, app: App, clock: ManualClock, write: Callable[[str], None], source_prefix: str,
                 world: World | None = None) -> None:
        self.app = app
        self.clock = clock
        self.write = write
        self.source_prefix = source_prefix
        self.world = world or World()
        self.held = False
        self.delivered: dict[int, tuple[Said, Ctx]] = {}

    async def run(self, event: Said | Directive) -> None:
        if isinstance(event, Said):
            await self.say(event)
        else:
            await self.direct(event)

    # -- what users say ---------------------------------------------------------------------------------------

    async def say(self, said: Said) -> None:
        ctx = Ctx(self.world.actor(said.name), self.world.place(said.channel, said.thread),
                  f"{self.source_prefix}:{said.line}", self.clock.now())
        self.delivered[said.line] = (said, ctx)
        await self.deliver(said, ctx)

    async def deliver(self, said: Said, ctx: Ctx) -> None:
        text = said.text
        if text.startswith("/"):
            try:
                command = parse_slash(text, self.world.user, self.world.role)
            except OptionError as error:
                self.show([Outgoing(Here(), str(error), ephemeral=True)], ctx)
                return
            self.show(await dispatch(self.app, ctx, command.name, command.options), ctx)
        elif said.is_dm:
            self.show(await handle_dm(self.app, ctx, text), ctx)
        elif looks_like_ballot(text):
            self.note("(no reply: Clerk does not read ballots in channels; DM it, or use /vote)")

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
            target = max(self.delivered, default=None)
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
        instants = sorted({d for _, _, d in await self.app.clerk.pending_deadlines() if d <= until})
        for instant in instants:
            now = max(instant, self.clock.now())
            self.clock.set(now)
            out = await close_due(self.app, now)
            for message in out:
                await self._name_channel(message)
            if out:
                self.note(f"⏰ {when(now)}: " + (f"closing what was due at {when(instant)}" if instant < now
                                                  else "deadline"))
                self.show(out, None)

    async def _name_channel(self, message: Outgoing) -> None:
        """A game channel first seen in an earlier console session: name it after its game."""
        to = message.to
        if isinstance(to, ToChannel) and to.channel_id not in self.world.channels:
            game = await self.app.clerk.game_in_channel(to.channel_id)
            if game is not None:
                self.world.channels[to.channel_id] = f"the game channel of {game.name}"

    # -- output -----------------------------------------------------------------------------------------------

    def note(self, text: str) -> None:
        self.write(NOTE + text)

    def show(self, messages: list[Outgoing], ctx: Ctx | None) -> None:
        for message in messages:
            lines = message.text.splitlines() if message.text else []
            if message.card is not None:
                lines += message.card.as_text().splitlines()
            if message.file is not None:
                name, data = message.file
                lines.append(f"[file {name}, {len(data)} bytes]")
            head = ARROW + self.destination(message, ctx) + ":"
            if len(lines) == 1:
                self.write(f"{head} {lines[0]}")
            else:
                self.write(head)
                for line in lines:
                    self.write(INDENT + line if line else "")

    def destination(self, message: Outgoing, ctx: Ctx | None) -> str:
        to = message.to
        if isinstance(to, ToUser):
            return f"DM {self.world.users.get(to.user_id, f'user {to.user_id}')}"
        if isinstance(to, ToChannel):
            return self.world.channels.get(to.channel_id, f"#channel-{to.channel_id}")
        assert isinstance(to, Here) and ctx is not None, "a reply needs the message it answers"
        if ctx.place.is_dm:
            return f"DM {ctx.actor.name}"
        where = self.world.where(ctx.place)
        return f"{where} (ephemeral to {ctx.actor.name})" if message.ephemeral else where
