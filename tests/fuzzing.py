"""Hypothesis settings and strategies shared by the fuzz tests (tests/test_fuzz_*.py, tests/service/test_fuzz_*.py).

The profile is modest and repeatable: ``derandomize=True`` makes every run (and CI) try the same examples, and
``deadline=None`` keeps a slow first example on a busy machine from failing a test. ``CLERK_FUZZ_EXAMPLES``
raises the number of examples for a longer local hunt, e.g.
``CLERK_FUZZ_EXAMPLES=2000 pytest tests/test_fuzz_parsers.py``;
failing examples are not shrunk (shrinking can take minutes) unless ``CLERK_FUZZ_SHRINK=1``.
"""

from __future__ import annotations

import os
import random

from hypothesis import HealthCheck, Phase, settings
from hypothesis import strategies as st

EXAMPLES = int(os.environ.get("CLERK_FUZZ_EXAMPLES", "0"))

SHRINK = bool(os.environ.get("CLERK_FUZZ_SHRINK"))
FUZZ = settings(max_examples=EXAMPLES or 60, deadline=None, derandomize=True, database=None,
                phases=[Phase.explicit, Phase.generate, *([Phase.shrink] if SHRINK else [])],
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
"""Parser properties: pure functions, cheap."""
FUZZ_ROUND_TRIP = settings(FUZZ, max_examples=EXAMPLES or 40)
"""Round trips of valid forms."""
FUZZ_ACTIONS = settings(FUZZ, max_examples=EXAMPLES or 20)
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
