"""The charts of every ruleset (issue 17): the Mylantium Primary and General Election by where the votes came from,
approval and Fervor over the turns, the Convocate board (Standing Vote per player and the Galactic Factors' track),
and the Landsdraad Forecast as what one more of each thing is worth. Each is rendered once in this module, compared
with its golden image (tests/golden_images.py: robust to font and antialiasing builds), and its alt text says the
same in words. Where each is attached is in the golden transcripts (``[file ...]`` and ``[alt text: ...]``)."""

from __future__ import annotations

import base64
import dataclasses
import io
import struct
from datetime import UTC, datetime
from fractions import Fraction
from functools import cache

import numpy as np
import pytest
from golden_images import assert_looks_like_golden, assert_matches_golden, pixels
from matplotlib.image import imsave

from bot.actions.convocate import charts as convocate_charts
from bot.actions.landsdraad import charts as landsdraad_charts
from bot.actions.mylantium import charts as mylantium_charts
from bot.actions.outbox import Outgoing, ToChannel
from bot.actions.wire import decode, encode
from bot.discord.delivery import message_parts
from engine.convocate.board import Board, Card, Kind, PlayerState
from engine.landsdraad.victory import Category, Holdings, Table, final_scores, forecast
from engine.service.convocate.views import BoardView, board_view
from engine.service.landsdraad.views import ResultView, RoundView
from engine.service.mylantium.views import HistoryView, MylElectionView, history_points
from engine.service.views import GameView

MYL = GameView(1, 10, 20, "republic", "mylantium", None, 2)
CONVOCATE = GameView(2, 10, 30, "senate", "convocate", None, 0)
CLOSED = datetime(2026, 3, 2, 18, tzinfo=UTC)


def size(png: bytes) -> tuple[int, int]:
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = struct.unpack(">II", png[16:24])
    return width, height


def primary() -> MylElectionView:
    """A Primary with a Whig tie (Faction Votes against Charisma) and a Federalist nominee."""
    return MylElectionView(MYL, 2, "primary", "closed", CLOSED, None, (), (), result={
        "lines": [{"name": "Eugene Debs", "party": "whig", "faction_votes": 14, "charisma": 6, "total": 20},
                  {"name": "Ada Lovelace", "party": "whig", "faction_votes": 9, "charisma": 11, "total": 20},
                  {"name": "Hank Rearden", "party": "federalist", "faction_votes": 22, "charisma": 4, "total": 26},
                  {"name": "Gus Fring", "party": "federalist", "faction_votes": 0, "charisma": 8, "total": 8}],
        "nominees": {"federalist": "Hank Rearden"}, "ties": {"whig": ["Eugene Debs", "Ada Lovelace"]},
        "choices": {"Plutocrat": "Eugene Debs"}})


def general() -> MylElectionView:
    """TV1-S02's split: I = 22, the incumbent Federalists get 60% → 13, the Whigs 9."""
    return MylElectionView(MYL, 2, "general", "closed", CLOSED, None, (), (), result={
        "lines": {"whig": {"faction_votes": 23, "charisma": 6, "independent": 9, "total": 38},
                  "federalist": {"faction_votes": 22, "charisma": 4, "independent": 13, "total": 39}},
        "nominees": {"whig": "Eugene Debs", "federalist": "Hank Rearden"}, "faction_votes_in_play": 45,
        "independent": 22, "incumbent": "federalist", "approval": 60, "winner": "federalist", "tie": False})


def history() -> HistoryView:
    return HistoryView(MYL, 4, ((0, 50), (1, 56), (2, 48), (3, 31), (4, 35)),
                       ((0, 0), (1, 0), (2, 2), (3, 5), (4, 5)))


def board(temp: int = -1) -> BoardView:
    """Three players (alice with political control, carol with a temporary −1) and three Factors."""
    b = Board(players=(PlayerState("alice", "Union", 1, temp=1), PlayerState("bob", "Kingdom", 2),
                       PlayerState("carol", "Republic", 3, temp=temp)),
              cards=(Card("Union Prime", Kind.HOMEWORLD, "alice", vote=1),
                     Card("Aurel Vance", Kind.CHARACTER, "alice", vote=2, pallarch=True),
                     Card("Korhal", Kind.HOMEWORLD, "bob", vote=1), Card("Ironhold", Kind.LOCATION, "bob", vote=2),
                     Card("Tribune", Kind.HOMEWORLD, "carol", vote=1), Card("Quill", Kind.CHARACTER, "carol", vote=1)),
              factors=(("GOVT", 2), ("TRADE", -1), ("MILITARY", 0)))
    return board_view(CONVOCATE, b, {"alice": 1, "bob": 2, "carol": 3}, None)


@cache
def drawn() -> dict[str, bytes]:
    """Every chart of this module, drawn once (matplotlib is slow)."""
    return {
        "primary": mylantium_charts.election_png(primary()),
        "general": mylantium_charts.election_png(general()),
        "history": mylantium_charts.history_png(history()),
        "board": convocate_charts.board_png(board()),
        "forecast": landsdraad_charts.forecast_png(forecast(tv3_s07()), title="sirius: Victory Point Forecast, "
                                                                               "round 3"),
        "scores": landsdraad_charts.scores_png(final_scores(tv3_s07(), confirmed=True), title="sirius: final scores"),
    }


def tv3_s07() -> Table:
    return Table(tuple(Holdings(i, f"Player {i}", votes=15, units={"militia": 15}, planets=3, assets={"ore_mine": 15},
                                income=12000, stock=30, wealth=30000) for i in range(10)), joined=10)


@pytest.mark.parametrize(("kind", "golden", "shape"), [
    ("primary", "mylantium_primary.png", (1000, 500)),
    ("general", "mylantium_general.png", (1000, 500)),
    ("history", "mylantium_history.png", (1000, 500)),
    ("board", "convocate_board.png", (1000, 489)),
    ("forecast", "forecast_chart.png", (1200, 675)),
    ("scores", "scores_table.png", (1380, 426)),
])
def test_each_chart_kind_matches_its_golden_image(kind: str, golden: str, shape: tuple[int, int]) -> None:
    png = drawn()[kind]
    assert size(png) == shape
    assert b"matplotlib" not in png  # no Software chunk: the bytes depend on the input only
    assert_matches_golden(png, golden)


def test_the_golden_comparison_tells_a_changed_chart_from_a_rebuilt_font() -> None:
    """A different election is not the golden one; a copy with a few pixels nudged (as hinting would) is."""
    result = dict(general().result or {})
    result["lines"] = {**result["lines"], "whig": {"faction_votes": 40, "charisma": 6, "independent": 9, "total": 55}}
    other = mylantium_charts.election_png(MylElectionView(MYL, 2, "general", "closed", CLOSED, None, (), (),
                                                          result={**result, "winner": "whig"}))
    with pytest.raises(AssertionError, match="pixels changed"):
        assert_looks_like_golden(other, "mylantium_general.png")
    nudged = pixels(drawn()["general"]).copy()
    nudged[200:210, 400:410] = 0.5  # a hundred pixels: less than any label, more than hinting moves
    out = io.BytesIO()
    imsave(out, nudged, format="png")
    assert out.getvalue() != drawn()["general"]
    assert_looks_like_golden(out.getvalue(), "mylantium_general.png")


def test_the_primary_alt_text_says_each_total_its_sources_and_the_nominees() -> None:
    alt = mylantium_charts.election_alt(primary())
    assert alt.startswith("Bar chart of the Primary of turn 2 in republic.")
    assert "Eugene Debs (Whig) 20 votes: 14 Faction Votes and 6 Charisma" in alt
    assert "Gus Fring (Federalist) 8 votes: 0 Faction Votes and 8 Charisma" in alt
    assert "Whigs tied: Eugene Debs and Ada Lovelace." in alt and "Federalist nominee: Hank Rearden." in alt
    assert "Plutocrat" not in alt  # which Faction chose whom is not shown, in the card or the picture


def test_the_general_alt_text_says_the_independent_vote_and_the_winner() -> None:
    alt = mylantium_charts.election_alt(general())
    assert ("Federalists (Hank Rearden) 39 votes: 22 Faction Votes, 4 Charisma and 13 of the Independent Vote"
            in alt)
    assert alt.endswith("The Federalists win.")


def test_the_history_alt_text_reads_turn_by_turn() -> None:
    alt = mylantium_charts.history_alt(history())
    assert "Approval: start 50%, turn 1 56%, turn 2 48%, turn 3 31%, turn 4 35%." in alt
    assert "Fervor: start 0, turn 1 0, turn 2 2, turn 3 5, turn 4 5." in alt


def test_history_points_carry_each_turns_last_value() -> None:
    assert history_points([], 50, 1) == ((0, 50), (1, 50))
    changes = [(1, -20, 30), (1, -3, 27), (3, 10, 37)]  # nothing changed in turn 2
    assert history_points(changes, 37, 3) == ((0, 50), (1, 27), (2, 27), (3, 37))


def test_the_board_alt_text_says_each_vote_control_and_the_factors() -> None:
    alt = convocate_charts.board_alt(board())
    assert "alice 4 votes (Union Prime 1, Aurel Vance 2, temporary effects 1)" in alt
    assert "carol 1 vote (Tribune 1, Quill 1, temporary effects −1)" in alt
    assert "alice has political control." in alt
    assert alt.endswith("Galactic Factors on the −4 to +4 track: GOVT +2, TRADE −1, MILITARY 0.")
    tied = convocate_charts.board_alt(board_view(CONVOCATE, Board(players=(PlayerState("a", "Union", 1),
                                                                          PlayerState("b", "Kingdom", 2))), {}, None))
    assert "Nobody has political control: a and b are tied." in tied


def test_an_empty_board_and_an_election_without_candidates_still_draw() -> None:
    empty = board_view(CONVOCATE, Board(factors=()), {}, None)
    assert size(convocate_charts.board_png(empty))[0] == 1000
    assert "no players yet" in convocate_charts.board_alt(empty)
    nobody = MylElectionView(MYL, 1, "primary", "closed", CLOSED, None, (), (), result={"lines": [], "nominees": {},
                                                                                        "ties": {}})
    assert size(mylantium_charts.election_png(nobody)) == (1000, 500)
    assert "No candidates ran." in mylantium_charts.election_alt(nobody)


def test_the_forecast_shows_what_one_more_of_each_is_worth() -> None:
    """TV3-S07: a Planet 10 VP, a vote 3, a thousand MS of income 2.5 (1 VP = 400 MS), of wealth 1; never more than
    the whole category (one MS in play is not worth a thousand times the category)."""
    lines = {line.category: line for line in forecast(tv3_s07()).lines}
    assert landsdraad_charts.one_more(lines[Category.PLANETS]) == 10
    assert landsdraad_charts.one_more(lines[Category.VOTES]) == 3
    assert landsdraad_charts.one_more(lines[Category.INCOME]) == Fraction(5, 2)
    assert landsdraad_charts.one_more(lines[Category.WEALTH]) == 1
    lone = {line.category: line for line in forecast(Table((Holdings(1, "a", income=1),), joined=1)).lines}
    assert landsdraad_charts.one_more(lone[Category.INCOME]) == lone[Category.INCOME].vp
    assert landsdraad_charts.one_more(lone[Category.VOTES]) is None  # nothing in play yet
    assert landsdraad_charts.two_decimals(Fraction(300, 104)) == "2.88"
    assert landsdraad_charts.two_decimals(Fraction(5, 2)) == "2.5"


def test_the_round_chart_has_no_legend_when_no_temporary_faction_voted() -> None:
    """The legend tells the players' share from the factions' only when there are factions; else the bottom-left
    corner, where it stands, is blank."""
    game = GameView(1, 10, 20, "sirius", "landsdraad", None, 3)
    rnd = RoundView(game, 3, "Piracy", "closed", None, 40, ())
    plain = landsdraad_charts.result_png(ResultView(rnd, "passed", aye=25, nay=10, abstain=5, in_play=40, needed=18),
                                         title="sirius, round 3: PASSED")
    corner = pixels(plain)[-45:, :400]
    assert np.all(corner == 1), "a legend is drawn though no temporary faction voted"


def test_alt_text_goes_to_discord_as_the_attachments_description_and_survives_the_outbox() -> None:
    item = Outgoing(ToChannel(20), text="result", file=("general-2.png", drawn()["general"]),
                    alt=mylantium_charts.election_alt(general()))
    assert message_parts(item)["file"].description == item.alt
    again, _ = decode(encode(item))
    assert again.alt == item.alt and again.file == item.file
    long = Outgoing(ToChannel(20), file=("x.png", b"\x89PNG"), alt="x" * 2000)
    assert len(message_parts(long)["file"].description) == 1024  # Discord's limit for a description
    bare = decode(encode(Outgoing(ToChannel(20), file=("a.json", base64.b64decode("e30=")))))[0]
    assert bare.alt == "" and message_parts(bare)["file"].description is None


def test_the_landsdraad_charts_alt_texts_say_the_same_in_words() -> None:
    from test_result_chart import fixed_result

    alt = landsdraad_charts.result_alt(fixed_result(), title="sirius, round 3: the measure PASSED")
    assert alt == ("Bar chart of sirius, round 3: the measure PASSED. Aye 48 (players 28, temporary factions 20), "
                   "Nay 31 (players 22, temporary factions 9), Abstain 14 (players 8, temporary factions 6). Needed "
                   "to pass: 40 (a majority of Aye + Nay = 79; abstentions do not count); 93 votes in play.")
    nobody = dataclasses.replace(fixed_result(), outcome="failed", aye=0, nay=0, abstain=93, needed=1)
    assert landsdraad_charts.needed_text(nobody) == "1 Aye (nobody voted Aye or Nay; abstentions do not count)"
    assert "Needed to pass: 1 Aye (nobody voted Aye or Nay; abstentions do not count); 93" in (
        landsdraad_charts.result_alt(nobody, title="sirius, round 3: the measure FAILED"))  # not "cannot pass"
    f = landsdraad_charts.forecast_alt(forecast(tv3_s07()), title="sirius's Victory Point Forecast, round 3")
    assert f.startswith("Bar chart of sirius's Victory Point Forecast, round 3: what one more of each is worth if "
                        "the game ended now (Pot 3000 VP): a Planet +10 VP, a vote +3 VP, 1,000 MS of income +2.5 VP")
    assert f.endswith("Singular awards: 750 VP in all (22 awards, 30–90 VP each).")
    early = landsdraad_charts.forecast_alt(forecast(Table((Holdings(1, "a", votes=3),), joined=1)), title="x")
    assert "Nothing in play yet in Military, Planets, Assets, Income, Stock, Wealth" in early


def test_the_final_table_alt_text_lists_each_place() -> None:
    from engine.landsdraad.victory import final_scores

    table = Table(tuple(Holdings(i, n, votes=v) for i, (n, v) in enumerate((("ann", 30), ("bo", 10)))), joined=2)
    alt = landsdraad_charts.scores_alt(final_scores(table), title="the final scores of sirius")
    assert alt == "Table of the final scores of sirius (Pot 1400 VP): 1. ann 227 VP; 2. bo 52 VP."
