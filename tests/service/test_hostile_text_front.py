"""Hostile text at the front door (issues 14 and 21), through ``handle_dm``, ``handle_channel_message`` and
``dispatch`` against a real Clerk on SQLite:

- a DM or thread post of up to 4,000 characters is answered within 20x the time of a short valid ballot DM
  (which commits), measured in the same test (the minimum of repetitions, re-measured before failing);
- a mention too long for ``int()`` is refused, not crashed, and nothing is recorded;
- runs of spaces and tabs in a thread vote are collapsed as docs/input.md says;
- long texts of slash options keep their newlines; Discord names lose their bidi controls."""

from __future__ import annotations

import time
from typing import Any

from conftest import Table
from fuzzing import LONGEST, corpus
from ledger_front import CHANNEL, GUILD, MODERATOR, actor, dm, slash, text_of, user
from test_fuzz_front import APOLOGY, counts, playing

from bot.actions.commands import App
from bot.actions.context import Ctx, Place, UserRef
from bot.actions.messages import handle_channel_message
from bot.actions.outbox import Here, Outgoing

ALICE = actor(10, "Alice")
THREAD = 7001
RATIO = 20
LONG_MENTION = "<@" + "⑳" * 2200 + ">"
"""Within Discord's 4,000 characters; NFKC makes it 4,400 digits, past int()'s 4,300 (issue 21)."""


def _answer(out: list[Outgoing]) -> str:
    return "\n".join(text_of(o) for o in out if isinstance(o.to, Here))


async def _post(table: Table, text: str, who: Any = ALICE) -> str:
    ctx = Ctx(who, Place(GUILD, CHANNEL, THREAD), table.source(), table.clock.now())
    return _answer(await handle_channel_message(App(table.clerk), ctx, text))


async def _least(send: Any, text: str, repeat: int) -> float:
    best = float("inf")
    for _ in range(repeat):
        start = time.process_time()
        await send(text)
        best = min(best, time.process_time() - start)
    return best


def _padded(head: str, run: str, tail: str = "x") -> str:
    return head + run * ((LONGEST - len(head) - len(tail)) // len(run)) + tail


LONG_DMS = [*corpus(), _padded("Audit quote: p2", " "), _padded("Elector: Count Jasek, round 1", " "),
            _padded("Vote: Aye", "\t"), _padded("Transfer: 5 MS to Bob", " #"), _padded("AG Vote: Bob", " "),
            _padded("Primary: Lee", " "), _padded("Second: yes", " "), _padded("Vote: Aye", "\u200b", "#x")]
LONG_POSTS = [_padded("Audit: p2", " "), _padded("Vote to Audit: Bob", "\x00"), _padded("Vote: End Kanly", " "),
              _padded("Vote: End Embargo on Bob", "\u2029"), _padded("AG Vote: Bob", "\t"),
              _padded("Motion: Tax by Dorn", " "), _padded("Vote: Aye", "a-")]


async def test_a_long_hostile_dm_or_post_is_answered_within_20x_a_short_ballot(table: Table) -> None:
    await playing(table)
    await table.clerk.landsdraad.adjutant.open_election(table.game_id, deadline=None, actor=1, source_id="ag-1")
    await dm(table.clerk, ALICE, "Vote: Aye")

    async def send_dm(text: str) -> None:
        answer = _answer(await dm(table.clerk, ALICE, text))
        assert answer.strip() and APOLOGY not in answer, (text[:40], answer)

    async def send_post(text: str) -> None:
        assert APOLOGY not in await _post(table, text), text[:40]

    slow = []
    for send, texts in ((send_dm, LONG_DMS), (send_post, LONG_POSTS)):
        for text in texts:
            for _ in range(3):
                unit = await _least(send_dm, "Vote: Aye", 3)  # the ballot stays: a transaction, like a receipt
                spent = await _least(send, text, 2)
                if spent <= RATIO * unit:
                    break
            else:
                slow.append(f"{text[:30]!r} x{len(text)}: {spent * 1e3:.1f} ms > {RATIO} x {unit * 1e3:.2f} ms")
    assert not slow, slow


async def test_a_mention_too_long_for_int_is_refused_and_nothing_is_recorded(table: Table) -> None:
    await playing(table)
    await table.clerk.landsdraad.adjutant.open_election(table.game_id, deadline=None, actor=1, source_id="ag-1")
    before = await counts(table)
    for text in (f"AG Vote: {LONG_MENTION}", f"Audit quote: {LONG_MENTION}", f"Transfer: 5 MS to {LONG_MENTION}"):
        answer = _answer(await dm(table.clerk, ALICE, text))
        assert APOLOGY not in answer and "Nothing was recorded" in answer, answer
        assert "not a Discord user" in answer, answer
    for text in (f"AG Vote: {LONG_MENTION}", f"Audit: {LONG_MENTION}", f"Vote: End Embargo on {LONG_MENTION}"):
        answer = await _post(table, text)
        assert APOLOGY not in answer and "Nothing was recorded" in answer, answer
        assert "not a Discord user" in answer, answer
    assert await counts(table) == before


async def test_runs_of_spaces_in_a_thread_vote_are_collapsed(table: Table) -> None:
    await playing(table)
    await table.player(12, "Ann", 2, 2, 2)
    for text in ("Vote: End  Game", "Vote: No  Confidence", "Vote:  End  Embargo  on  Bob",
                 "Vote:\tEnd Embargo on\tBob", "Vote: End Kanly  between Ann and Bob"):
        answer = await _post(table, text)
        assert "I couldn't read" not in answer and "takes nothing after it" not in answer, (text, answer)
        assert APOLOGY not in answer, answer
    counted = await _post(table, "Vote: End  Game", actor(11, "Bob"))
    assert "Nothing was recorded" not in counted and "End Game" in counted, counted


async def test_long_texts_of_slash_options_keep_their_newlines(table: Table) -> None:
    await playing(table)
    await slash(table.clerk, MODERATOR, "goal add", player=user(10, "Alice"), description="Own 4\nAgri Fiefs", vp=3)
    (goal,) = await table.clerk.landsdraad.victory.goals(table.game_id, user_id=10)
    assert goal.description == "Own 4\nAgri Fiefs"
    receipt = await table.clerk.landsdraad.victory.award_prestige(table.game_id, user_id=10, vp=2,
                                                                  reason="Bloodiest\nAmbush", actor=1)
    assert receipt.award.reason == "Bloodiest\nAmbush"
    await slash(table.clerk, MODERATOR, "transfer record", sender=user(10, "Alice"), to=user(11, "Bob"),
                what="Planet\nDeneb", note="seen\nin the thread")
    listing = await table.clerk.landsdraad.audits.transfers(table.game_id, user_id=10)
    assert [(e.item, e.note) for e in listing.entries] == [("Planet\nDeneb", "seen\nin the thread")]


def test_a_discord_name_loses_its_bidi_and_format_characters() -> None:
    """A name with U+202E (right-to-left override) would reorder the rest of a public line Clerk posts."""
    assert UserRef(5, "Eve\u202eevil\u2066x\u200b").name == "Eveevilx"
    assert actor(5, "\u202e").name == "?"
    assert UserRef(5, "").name == ""


async def test_a_player_added_with_a_bidi_name_is_shown_without_it(table: Table) -> None:
    out = await slash(table.clerk, MODERATOR, "player add", user=UserRef(44, "Mal\u202eory"), diplomacy=2,
                      command=2, intrigue=2)
    assert all("\u202e" not in text_of(o) for o in out)
    assert any("Malory" in text_of(o) for o in out), [text_of(o) for o in out]
