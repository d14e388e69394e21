"""A short Landsdraad game from setup to final scores (issue 4): the three-player scoring vector of
tests/engine/test_r3_10_23_awards_scores_titles.py played through the console, plus one crisis anna voted on
alone (Weathervane 16 VP). Pot 1600; anna 757 + 16 = 773 (Count), boris 530, chen 238. Goals stay private."""

from __future__ import annotations

from pathlib import Path

from .helpers import run_transcript


async def test_a_short_game_from_setup_to_final_scores(tmp_path: Path) -> None:
    run = await run_transcript("victory-short-game.txt", tmp_path)
    doc = run.export
    rows = {r["name"]: r for r in doc["final_scores"]}
    assert {n: (r["total"], r["place"], r["title"]) for n, r in rows.items()} == {
        "anna": (773, 1, "Count"), "boris": (530, 2, None), "chen": (238, 3, None)}
    assert rows["anna"]["categories"] == {"votes": 120, "military": 67, "planets": 53, "assets": 80, "income": 120,
                                          "stock": 80, "wealth": 80}
    assert {a["award"]: a["vp"] for a in rows["anna"]["singular"]}["Weathervane"] == 16
    assert (rows["boris"]["goals"], rows["chen"]["prestige"]) == (80, 10)
    for sent in run.public():
        assert "Hold Deneb" not in sent.text and "Own two mines" not in sent.text, sent  # goals are private (P3-09)
    assert any("1600" in s.text and "Forecast" in s.text for s in run.public()), "the Forecast opens the round"
