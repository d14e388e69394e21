"""Hypothesis settings and strategies shared by the fuzz tests (tests/test_fuzz_*.py, tests/service/test_fuzz_*.py).

The profile is modest and repeatable: ``derandomize=True`` makes every run (and CI) try the same examples, and
``deadline=None`` keeps a slow first example on a busy machine from failing a test. ``CLERK_FUZZ_EXAMPLES``
raises the number of examples for a longer local hunt, e.g.
``CLERK_FUZZ_EXAMPLES=2000 pytest tests/test_fuzz_parsers.py``;
failing examples are not shrunk (shrinking can take minutes) unless ``CLERK_FUZZ_SHRINK=1``. ``make fuzz`` runs
many random examples (``CLERK_FUZZ_RANDOM=1``) and appends each text that fails a parser property to
``tests/fuzz_corpus.txt`` (``CLERK_FUZZ_CORPUS=1``), which the normal suite replays.
"""

from __future__ import annotations

import ast
import os
import random
from pathlib import Path

from hypothesis import HealthCheck, Phase, settings
from hypothesis import strategies as st

EXAMPLES = int(os.environ.get("CLERK_FUZZ_EXAMPLES", "0"))

SHRINK = bool(os.environ.get("CLERK_FUZZ_SHRINK"))
RANDOM = bool(os.environ.get("CLERK_FUZZ_RANDOM"))
"""``make fuzz``: new random examples each run instead of the repeatable ones."""
FUZZ = settings(max_examples=EXAMPLES or 60, deadline=None, derandomize=not RANDOM, database=None,
                phases=[Phase.explicit, Phase.generate, *([Phase.shrink] if SHRINK else [])],
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
"""Parser properties: pure functions, cheap."""
FUZZ_ROUND_TRIP = settings(FUZZ, max_examples=EXAMPLES or 40)
"""Round trips of valid forms."""
FUZZ_ACTIONS = settings(FUZZ, max_examples=EXAMPLES or 20)
FUZZ_LONG = settings(FUZZ, max_examples=EXAMPLES or 15)
"""The time budget on 4,000-character texts: each example times every parser several times (about 2 s in all on
the loaded 2-core machine)."""
"""Action-level properties: each example runs against the database."""

ZERO_WIDTH = ("\u200b", "\u200c", "\u200d", "\u2060", "\ufeff")
HOSTILE = ("@everyone", "@here", "<@&123>", "<@123>", "<@!123>", "<#901>", "**", "`", "||", "~~", "\u202e", "\x00",
           "\x07", "\r", "\t", "\n", "# ", "> ", "```", ":", "#", "-", ",", "9" * 30, "1" * 5000, "²", "٣", "１４")
"""Fragments that have broken parsers somewhere: mentions, markdown, control and bidi characters, digits of
other scripts, numbers too long for int()."""

WORDS = ("vote", "revote", "re-vote", "Vote", "VOTE", "aye", "nay", "abstain", "yes", "no", "AG Vote", "Motion",
         "Motion of Repeal", "Second", "seconded", "by", "Transfer", "Transfer funds", "to", "Audit quote", "Elector",
         "round", "rounds", "Primary", "General", "Realign", "Contribute", "Coup", "Whig", "Federalist", "Vanguard",
         "Unvote", "No Confidence", "End Embargo", "on", "End Kanly", "between", "and", "End Game", "Audit", "MS",
         "votes", "#sirius", "#republic", "Moved", "Morality", "Targets", "Only", "help", "?", "none", "directive",
         "prime", "..", "d", "h", "m", "UTC", "2026-03-01", "20:00")

fragment = st.one_of(st.sampled_from(WORDS), st.sampled_from(HOSTILE), st.sampled_from(ZERO_WIDTH),
                     st.integers(min_value=-5, max_value=10**12).map(str), st.text(max_size=8))
"""One piece of a message."""

separator = st.sampled_from(["", " ", "  ", ": ", ":", ", ", " - ", "\n", " #", "-", "\u200b", " ** "])

hostile_text = st.one_of(
    st.text(max_size=60),
    st.lists(st.tuples(fragment, separator).map("".join), max_size=12).map("".join),
    st.builds(lambda head, body: head + body, st.sampled_from(WORDS).map(lambda w: w + ":"),
              st.lists(fragment, max_size=6).map(" ".join)),
    st.builds(lambda n: "Vote: Aye " + "x" * n, st.integers(min_value=0, max_value=5000)),
)
"""Text a player might send, or an attacker: plausible forms, broken forms, unicode and very long text."""


def mangle(seed: int, text: str) -> str:
    """``text`` written the way people write: random case, extra spaces, zero-width characters, markdown around
    it, fullwidth characters, a mention of the bot in front. ``normalise`` must undo all of it. (One drawn seed
    drives a ``random.Random``: far cheaper than a Hypothesis draw per character.)"""
    rng = random.Random(seed)
    chars = []
    for ch in text:
        if ch.isalpha() and rng.random() < 0.5:
            ch = ch.swapcase()
        if ch.isascii() and ch.isalnum() and rng.random() < 0.1:
            ch = chr(ord(ch) + 0xFEE0)  # its fullwidth form
        chars.append(ch)
        if rng.random() < 0.12:
            chars.append(rng.choice(ZERO_WIDTH))
    out = "".join(chars)
    if rng.random() < 0.5:
        out = out.replace(" ", "  ")
    wrap = rng.choice(["", "**", "`", "__", "*", "||"])
    out = f"{wrap}{out}{wrap}"
    if rng.random() < 0.3:
        out = "<@4242> " + out
    return rng.choice(["", " ", "\u200b", "\ufeff"]) + out + rng.choice(["", " ", "\n", "\u200b"])


seeds = st.integers(min_value=0, max_value=2**32)
"""The seed of one ``mangle``."""


LONGEST = 4000
"""Discord's longest message: every parser answers any text up to this long within the budget (docs/input.md)."""
RUNS = (" ", "\t", "\x00", "\x0b", "\u2029", "\r\n", "\n", ",", "-", "1", "1,", "1-", " by", " #", ":", "..", "⑳",
        "and ", "round ", "rounds 1", "x", "a-", ".", "!", " to", "<@1>", "*", "__", "\u200b", "²", ";", "#")
"""Separator-like runs: a valid form followed by a long run of one of these is what made parsers backtrack."""
FORMS = ("Vote: Aye", "Revote: Nay, 14 #sirius", "AG Vote: Bob", "Vote to Audit: Bob", "Audit: p2",
         "Audit quote: Bob rounds 1, 3", "Vote: End Kanly between Ann and Bob", "Vote: End Embargo on Bob",
         "Vote: No Confidence", "Transfer: 5 MS to Bob", "Elector: Count Jasek, round 1", "Primary: Lee Adams",
         "Contribute: 5 to the Vanguard", "Coup: yes", "Motion: Tax by Dorn", "Motion of Repeal: X by Y",
         "Second: with Bob #g", "Charisma may change", "weathervane", "prime: 0..4 directive", "1; 2: Rank + 1",
         "1-3 nay, 4 abstain", "24h,2h", "2026-03-01 20:00", "P_A, K_A and J_A", "AG Vote: <@")
long_text = st.one_of(
    st.builds(lambda form, run, tail, size: (form + run * LONGEST)[:size - len(tail)] + tail,
              st.sampled_from(FORMS), st.sampled_from(RUNS), st.sampled_from(["", "x", "x:", ">", ")"]),
              st.integers(min_value=LONGEST // 2, max_value=LONGEST)),
    st.builds(lambda form, runs: (form + "".join(runs))[:LONGEST], st.sampled_from(FORMS),
              st.lists(st.tuples(st.sampled_from(RUNS), st.integers(1, 400)).map(lambda p: p[0] * p[1]),
                       min_size=1, max_size=20)),
    st.text(min_size=LONGEST // 2, max_size=LONGEST),
)
"""Long hostile text (up to Discord's 4,000 characters): valid forms followed by runs of separators, and noise."""

CORPUS = Path(__file__).with_name("fuzz_corpus.txt")


def corpus() -> list[str]:
    """The inputs of ``tests/fuzz_corpus.txt``: past failures, replayed by the normal suite."""
    found: list[str] = []
    for line in CORPUS.read_text(encoding="utf-8").splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        entry = ast.literal_eval(line)
        if isinstance(entry, tuple):
            head, run, times, tail = entry
            entry = head + run * times + tail
        found.append(entry)
    return found


def remember(text: str) -> None:
    """Append ``text`` to the corpus when ``CLERK_FUZZ_CORPUS=1`` (``make fuzz``): a failure a long run finds is
    replayed by every later ``make test``."""
    if os.environ.get("CLERK_FUZZ_CORPUS") == "1" and text not in corpus():
        with CORPUS.open("a", encoding="utf-8") as out:
            out.write(repr(text) + "\n")
