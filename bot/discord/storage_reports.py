"""When the database stops taking writes (full, read-only, locked past the wait, gone: ``engine.store.faults``), the
moderators of each game whose command was refused are told once, and once more when its writes work again
(``engine.service.storage_health``); not once per refused ballot. Told as the permission reports are: a DM to the
game's creator and the server's owner, else the server's system channel (``permission_reports.tell_moderators``).
Reading who to tell needs only a read, which the faults above leave working."""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass, field

import discord

from bot.discord.permission_reports import tell_moderators
from bot.tasks import cancel_and_wait
from engine.service import Clerk
from engine.service.storage_health import StorageNotice

log = logging.getLogger("clerk.discord.storage")


def notice_text(game: str, notice: StorageNotice) -> str:
    if notice.failing:
        return (f"⚠️ Moderators of **{game}**: I cannot save anything right now: {notice.fault.what} "
                f"(the database said: {notice.fault.detail}). Until it is fixed, ballots and commands are refused "
                "with an answer asking the player to send them again in a minute; nothing is counted or lost "
                "silently. I will tell you once I can save again, and I recover by myself, without a restart.")
    return (f"✅ Moderators of **{game}**: I can save again; ballots and commands are recorded as usual. Players "
            "whose ballots were refused in the meantime were told so and may need to send them again.")


@dataclass
class StorageReports:
    client: discord.Client
    clerk: Clerk
    sent: list[tuple[int, bool]] = field(default_factory=list)
    """(game id, failing) of each notice delivered, in order (for the tests and the log)."""
    _tasks: set[asyncio.Task[None]] = field(default_factory=set)

    def __post_init__(self) -> None:
        self.clerk.storage.listen(self.notice)

    def notice(self, notice: StorageNotice) -> None:
        """Called by ``StorageHealth`` on the event loop; the DMs go out in a task of their own."""
        task = asyncio.get_running_loop().create_task(self._tell(notice), name=f"clerk-storage-{notice.game_id}")
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def stop(self) -> None:
        """Cancel the notices still being sent, and wait until they have ended (the bot is closing)."""
        await cancel_and_wait(list(self._tasks))

    async def _tell(self, notice: StorageNotice) -> None:
        try:
            game = await self.clerk.games.game(notice.game_id)
            if await tell_moderators(self.client, self.clerk, game.guild_id, game.id,
                                     notice_text(game.name, notice)):
                self.sent.append((game.id, notice.failing))
            else:
                log.warning("could not tell anyone of %s that its writes %s", game.name,
                            "fail" if notice.failing else "work again")
        except Exception as error:  # never let a notice's failure surface elsewhere; one line, no traceback
            log.warning("could not send the storage notice for game %s: %s", notice.game_id, error)
