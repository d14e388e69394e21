"""A small fake Discord server for end-to-end tests of the real discord.py client (see server.py)."""

from fakediscord.payloads import Channel, Role, User
from fakediscord.records import Interaction, Sent
from fakediscord.server import TOKEN, Attachment, FakeDiscord
from fakediscord.waiting import HANG, until

__all__ = ["HANG", "TOKEN", "Attachment", "Channel", "FakeDiscord", "Interaction", "Role", "Sent", "User", "until"]
