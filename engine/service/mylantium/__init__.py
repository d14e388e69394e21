"""The Republic of Mylantium in the service layer: its record (``RULESET``, listed in ``engine/service/clerk.py``)
and its use cases, ``clerk.mylantium`` (``MylantiumService``: the moderators' setup, and the parts of a turn,
``elections``, ``business`` and ``revolutions``); its reminder forms (a Primary, a General Election) in
``reminders``."""

from __future__ import annotations

from engine.mylantium.settings import SETTINGS
from engine.service.mylantium.export import export_mylantium
from engine.service.mylantium.reminders import FORMS
from engine.service.mylantium.service import MylantiumService
from engine.service.mylantium.state import NAME
from engine.service.ruleset import Ruleset

RULESET = Ruleset(NAME, "Mylantium", SETTINGS, service=MylantiumService, exports=(export_mylantium,), reminders=FORMS)

__all__ = ["NAME", "RULESET", "MylantiumService"]
