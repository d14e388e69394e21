"""What a restore tells, in each ruleset's words (bot/actions/restore_notices.py, ``Front.undone``; docs/backup.md
"What a restore undoes"): the game channel's post counts the players' undone ballots and forms and names who must
send theirs again where that is public, and never says what any of them held; each player's DM says what their own
held and the form to send again. rules-spec's secrecy matrices: a crisis ballot's, an election choice's and a
contribution's content are never in a channel, nor that a transfer or the Pro tempore's question was made."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from bot.actions.outbox import ToChannel, ToUser
from bot.actions.restore_notices import notices, owed_rows
from bot.actions.rulesets import FRONTS
from engine.core.stamps import utc_text
from engine.store.restore import Record, Undone

AT = datetime(2026, 3, 1, 18, 5, tzinfo=UTC)
AS_OF = datetime(2026, 3, 1, 18, 0, tzinfo=UTC)
NAMES = {11: "alice", 12: "bob", 13: "carol"}
MOD = 1


def game(ruleset: str, *records: tuple[str, int | None, dict[str, Any]], now: frozenset[int] = frozenset(NAMES),
         whole: bool = False) -> Undone:
    return Undone("g", len(records), "", "", (), (), whole, 7, ruleset, None if whole else 501,
                  tuple(Record(kind, actor, payload, AT) for kind, actor, payload in records), NAMES, now)


def told(*games: Undone, closed: frozenset[int] = frozenset()) -> tuple[str, dict[int, str], tuple[str, ...]]:
    """The channel's post, and each user's DMs as one text."""
    out = notices(games, AS_OF, FRONTS, closed)
    posts = [utc_text(m.text) for m in out.messages if isinstance(m.to, ToChannel)]
    dms: dict[int, str] = {}
    for m in out.messages:
        if isinstance(m.to, ToUser):
            dms[m.to.user_id] = dms.get(m.to.user_id, "") + utc_text(m.text)
    return "\n".join(posts), dms, out.closed


def test_landsdraad_names_the_voters_counts_the_ballots_and_keeps_choices_and_transfers_to_their_senders() -> None:
    post, dms, _ = told(game(
        "landsdraad",
        ("BallotCast", 11, {"round": 2, "user_id": 11, "option": "aye", "declared": None, "replaced": None}),
        ("BallotCast", 11, {"round": 2, "user_id": 11, "option": "nay", "declared": 14, "replaced": "aye"}),
        ("AgBallotCast", 12, {"election": 1, "voter": "bob", "candidate": "carol"}),
        ("TransferRecorded", 13, {"round": 2, "kind": "funds", "amount": 500, "to_name": "bob"}),
        ("TransferRecorded", MOD, {"round": 2, "kind": "item", "item": "Planet Deneb", "to_name": "bob",
                                   "by_moderator": True}),
        ("ElectorQueried", 13, {"round": 2, "asked_round": 1, "elector": "Count Jasek", "option": "aye"}),
        ("BallotCast", MOD, {"round": 2, "user_id": 12, "option": "abstain", "proxy": True, "proxy_for": 12}),
        ("RoundClosed", None, {"round": 2}),
    ))

    assert "Undone: 2 crisis ballots and 1 AG ballot." in post  # alice's revote is one ballot, told once
    assert "**alice** and **bob**: what you sent after that is undone" in post
    assert "Undone too: the result of round 2 (" in post
    assert "Moderators: your commands after that are undone too" in post  # the moderator's transfer and /cast-for
    for secret in ("aye", "nay", "abstain", "Aye", "Nay", "Abstain", "carol", "ransfer", "500", "Deneb", "Elector",
                   "Jasek"):
        assert secret not in post, secret  # carol only transferred and asked: not named, not counted
    assert dms[11].count("\n- ") == 1  # the revote, not the ballot it replaced
    assert ("- your crisis ballot in round 2: **Nay**, declaring 14 votes (sent 2026-03-01 18:05 UTC) → DM me "
            "`Vote: Nay, 14` (or use /vote)") in dms[11]
    assert ("- your ballot for **carol** in AG election #1 (sent 2026-03-01 18:05 UTC) → `AG Vote: carol`\n"
            "- your crisis ballot in round 2: **Abstain**, entered for you by a moderator (sent 2026-03-01 18:05 "
            "UTC) → DM me `Vote: Abstain` (or use /vote)") in dms[12]
    assert ("- your transfer of 500 MS to bob in round 2 (sent 2026-03-01 18:05 UTC) → `Transfer: 500 MS to bob`\n"
            "- your question how Count Jasek voted in round 1 (sent 2026-03-01 18:05 UTC) → `Elector: Count Jasek, "
            "round 1`") in dms[13]
    assert "Deneb" not in dms[13] and MOD not in dms


def test_mylantium_names_who_chose_or_contributed_and_says_what_only_in_their_dms() -> None:
    post, dms, _ = told(game(
        "mylantium",
        ("ChoiceMade", 11, {"turn": 3, "stage": "primary", "faction": "BH", "choice": "Lee Adams"}),
        ("ChoiceMade", 12, {"turn": 3, "stage": "general", "faction": "PL", "choice": "whig"}),
        ("ContributionPledged", 13, {"chain": 1, "attempt": 2, "faction": "GR", "to_crt": 20, "to_vanguard": 5}),
        ("CoupAnswered", 11, {"chain": 1, "accept": True, "by_player": True}),
        ("ElectionClosed", MOD, {"turn": 3, "stage": "general"}),
    ))

    assert ("Undone: 2 election choices, 1 contribution and 1 answer to the coup offer." in post)
    assert "**alice**, **bob** and **carol**: what you sent after that is undone" in post
    assert "Undone too: the result of the General Election of turn 3 (" in post
    for secret in ("Lee", "Adams", "Whig", "whig", "$", "Vanguard", "yes"):
        assert secret not in post, secret
    assert "your Faction's choice in the Primary of turn 3: **Lee Adams** (sent " in dms[11]
    assert ") → `Primary: Lee Adams`" in dms[11] and ") → `Coup: yes`" in dms[11]
    assert ") → `General: Whig`" in dms[12]
    assert ("your Faction's contribution to attempt 2 of Revolution #1: $20 to the Counter-Revolutionary Treasury, $5 "
            "to the Vanguard (sent 2026-03-01 18:05 UTC) → `Contribute: 20` and `Contribute: 5 to the Vanguard`"
            ) in dms[13]


def test_convocate_names_every_public_move_and_a_moderator_is_told_in_the_channel() -> None:
    post, dms, _ = told(game(
        "convocate",
        ("MotionMoved", 11, {"motion": 4, "name": "Tax Reform", "mover": "alice", "convocant": "Dorn"}),
        ("MotionSeconded", 12, {"motion": 4, "player": "bob", "convocant": "Kista"}),
        ("FactorPushed", 13, {"player": "carol", "factor": "TRADE", "from": 0, "to": 2, "costs": [5, 6], "pool": 1}),
        ("PhaseAdvanced", 13, {"ended": ["carol", "action"], "started": ["carol", "admin"], "turn": 2}),
        ("FactorSet", MOD, {"factor": "GOVT", "from": 0, "to": 1}),
    ))

    assert "Undone: 1 Motion moved, 1 second, 1 push of a Factor and 1 Phase ended." in post
    assert "**alice**, **bob** and **carol**: what you sent after that is undone" in post
    assert "Moderators: your commands after that are undone too" in post
    assert ") → `Motion: Tax Reform by Dorn` in the game channel" in dms[11]
    assert "your second of Motion #4 with Kista" in dms[12] and "`Second: Kista`, when the offer is with you" in dms[12]
    assert ") → `/push factor:TRADE direction:up steps:2`" in dms[13]
    assert ") → `/phase next`" in dms[13]  # /log's sentence says what the step was


def test_a_player_no_longer_in_the_game_and_a_closed_dm_and_a_game_made_after_the_backup() -> None:
    ballot = {"round": 1, "option": "aye"}
    post, dms, closed = told(
        game("landsdraad", ("BallotCast", 11, ballot), ("BallotCast", 13, ballot), now=frozenset({13})),
        game("landsdraad", ("BallotCast", 12, ballot), whole=True), closed=frozenset({13}))

    assert post.count("my records were restored") == 1  # the game made after the backup has no channel: nothing
    assert "**alice**: what you sent after that is undone; I am DMing you what it was" in post
    assert ("**carol**: what you sent after that is undone, and your DMs are closed to me, so I cannot tell you what "
            "it was: ask a moderator.") in post
    assert "You are not among the players of g in my records as they are now: a moderator must add you again" in dms[11]
    assert "You are not among" not in dms[13] and 12 not in dms
    assert closed == ("carol",)  # the host is told; her DM is owed all the same (sent if she opens her DMs)


def test_a_long_list_is_cut_to_fit_discord_and_each_message_has_a_nonce_of_this_restore() -> None:
    names = {1000 + n: f"player-with-a-long-name-{n}" for n in range(200)}
    records = tuple(Record("BallotCast", user, {"round": 1, "option": "nay"}, AT) for user in names)
    many = Undone("g", len(records), "", "", (), (), False, 7, "landsdraad", 501, records, names, frozenset(names))
    out = notices([many], AS_OF, FRONTS)

    post = out.messages[0].text
    assert len(post) < 2000 and post.count("**player-with-a-long-name-") < 200 and " more players: what you" in post
    rows = owed_rows(out.messages, "abc123", {1000: 9000})
    assert [r.nonce for r in rows] == [f"undo:abc123:{n}" for n in range(201)]
    assert (rows[0].lane, rows[0].channel_id) == ("channel:501", 501)
    assert (rows[1].lane, rows[1].channel_id) == ("user:1000", 9000) and rows[2].channel_id is None
    assert max(len(r.nonce) for r in rows) <= 25  # Discord's limit on a nonce, and the queue's column
