"""A game with a crowd of players, set up through the service (no slash commands): what the burst, crash and race
tests start from. The DMs and slash commands under test still go through the fake Discord."""

from __future__ import annotations

from datetime import datetime

from fakediscord import Channel, FakeDiscord, User

from engine.service import Clerk
from engine.service.landsdraad.roster import RosterRow

CHOICES = ("Aye", "Nay", "Abstain")


def choice(n: int) -> str:
    """What the n-th player of a crowd votes."""
    return CHOICES[n % 3]


async def crowd_game(clerk: Clerk, fake: FakeDiscord, channel: Channel, users: list[User], *,
                     deadline: datetime | None = None, name: str | None = None) -> int:
    """A Landsdraad game in ``channel`` with ``users`` as players (diplomacy n%4+1, so weights differ and a tally
    checks who voted what, not only how many) and round 1 open. Returns the game id."""
    game = await clerk.games.create_game(guild_id=fake.guild_id, channel_id=channel.id, name=name or channel.name,
                                         ruleset="landsdraad", moderator_role_id=None, actor=fake.owner.id)
    rows = [RosterRow(u.id, u.name, diplomacy=n % 4 + 1, command=1, intrigue=1, roll=2) for n, u in enumerate(users)]
    assert await clerk.landsdraad.roster.add_players(game.id, rows, actor=fake.owner.id) == len(users)
    await clerk.landsdraad.rounds.open_round(game.id, crisis="Raise the fleet levy?", deadline=deadline,
                                             actor=fake.owner.id)
    return game.id


async def expected_tally(clerk: Clerk, game_id: int, voted: dict[int, str]) -> tuple[int, int, int]:
    """(aye, nay, abstain) if exactly the ballots in ``voted`` (user id -> choice) count; a player with no ballot
    abstains."""
    weights = {p.user_id: p.votes for p in await clerk.landsdraad.ledger.players(game_id)}
    final = {u: voted.get(u, "Abstain") for u in weights}
    return tuple(sum(weights[u] for u, c in final.items() if c == want) for want in CHOICES)  # type: ignore[return-value]
