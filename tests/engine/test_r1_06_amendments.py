"""R1-06: "The Constitution does not explicitly discuss Charisma and the Independent Vote. Thus, a constitutional
amendment may not eliminate or change the workings of Charisma and the Independent Vote described above."."""

from __future__ import annotations

import pytest

from engine.core.errors import RuleError
from engine.mylantium.amendments import check_amendment, protected_topics


@pytest.mark.parametrize(("amendment", "rejected"), [
    ("Independent Vote = one-quarter of Faction Votes", True),
    ("Charisma capped at 5", True),
    ("Income Tax cap 40%", False),
])
def test_TV1_I16_an_amendment_touching_charisma_or_the_independent_vote_is_rejected(amendment: str,
                                                                                    rejected: bool) -> None:
    """TV1-I16 (R1-06)."""
    if rejected:
        with pytest.raises(RuleError, match="no amendment can touch them"):
            check_amendment(amendment)
    else:
        check_amendment(amendment)


def test_what_is_touched_is_named() -> None:
    assert protected_topics("abolish charisma and the independent voters") == ("Charisma", "the Independent Vote")
    assert protected_topics("the Independents shall vote with the President") == ("the Independent Vote",)
    assert protected_topics("Independence Day is a holiday") == ()
