"""The round result as a PNG bar chart (issue 7): Aye / Nay / Abstain, the temporary factions' share of each bar
marked. One golden image, compared byte for byte; regenerate it after a deliberate change of the picture with
``CLERK_REGEN_IMAGES=1 pytest tests/test_result_chart.py`` and LOOK at it before committing."""

from __future__ import annotations

import os
import struct
from pathlib import Path

from bot.actions.landsdraad.charts import result_png, result_shares
from engine.service.landsdraad.views import FactionView, ResultView, RoundView
from engine.service.views import GameView

GOLDEN = Path(__file__).resolve().parent / "golden" / "result_chart.png"
REGENERATE = os.environ.get("CLERK_REGEN_IMAGES") == "1"


def fixed_result() -> ResultView:
    game = GameView(1, 10, 20, "sirius", "landsdraad", None, 3)
    factions = (FactionView("Hawks", 20, "aye", None, vote="aye"),
                FactionView("Doves", 9, "d6", "1-3 nay, 4-6 aye", roll=2, vote="nay"),
                FactionView("Merchants", 6, "abstain", None, vote="abstain"))
    rnd = RoundView(game, 3, "Piracy in Sirius: send the fleet?", "closed", None, 93, factions)
    return ResultView(rnd, "passed", aye=48, nay=31, abstain=14, in_play=93, needed=40, factions=factions)


def size(png: bytes) -> tuple[int, int]:
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = struct.unpack(">II", png[16:24])
    return width, height


def test_result_shares_split_each_option_into_players_and_factions() -> None:
    assert result_shares(fixed_result()) == [("aye", "Aye", 28, 20), ("nay", "Nay", 22, 9),
                                             ("abstain", "Abstain", 8, 6)]


def test_result_png_is_1000_by_500_and_deterministic_without_factions_too() -> None:
    plain = ResultView(fixed_result().round, "failed", aye=0, nay=0, abstain=0, in_play=0, needed=1)
    png = result_png(plain, title="sirius, round 3: FAILED")
    assert size(png) == (1000, 500)
    assert png == result_png(plain, title="sirius, round 3: FAILED")
    assert result_shares(plain) == [("aye", "Aye", 0, 0), ("nay", "Nay", 0, 0), ("abstain", "Abstain", 0, 0)]


def test_result_png_matches_the_golden_image() -> None:
    png = result_png(fixed_result(), title="sirius, round 3: the measure PASSED")
    if REGENERATE:
        GOLDEN.parent.mkdir(exist_ok=True)
        GOLDEN.write_bytes(png)
    assert GOLDEN.exists(), f"no {GOLDEN.name}; create it with CLERK_REGEN_IMAGES=1 and look at it"
    assert png == GOLDEN.read_bytes(), f"the result chart changed; look at it and regenerate {GOLDEN.name}"
