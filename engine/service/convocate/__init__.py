"""The Convocate ruleset in the service layer: its record (``RULESET``, listed in ``engine/service/clerk.py``), its
service object (``clerk.convocate``, ``service.py``) and its export section (``export.py``)."""

from __future__ import annotations

from engine.convocate.rulings import SETTINGS
from engine.service.convocate.export import export_convocate
from engine.service.convocate.service import ConvocateService
from engine.service.convocate.store import NAME
from engine.service.ruleset import Ruleset

RULESET = Ruleset(NAME, "Convocate", SETTINGS, service=ConvocateService, exports=(export_convocate,))
"""Its settings are its rulings (``engine/convocate/rulings.py``): ``/game settings`` shows and changes them, and
``/convocate rulings`` is kept as an alias that lists them with their P-numbers."""

__all__ = ["RULESET", "ConvocateService"]
