"""The DM forms of a Mylantium game, text -> command: ``Primary: <Candidate>``, ``General: <Party>``,
``Realign: <Party>``, ``Contribute: <amount>`` and ``Coup: yes|no``; near misses get a suggestion."""

from __future__ import annotations

import pytest

from engine.core.errors import ParseError
from engine.mylantium.forms import (
    CoupAnswer,
    GeneralChoice,
    Pledge,
    PrimaryChoice,
    Realign,
    looks_like_form,
    parse_form,
)
from engine.mylantium.model import FactionCode, Party, faction_code, party_of


@pytest.mark.parametrize(("text", "expected"), [
    ("Primary: Lee Adams", PrimaryChoice("Lee Adams")),
    ("primary:lee #mylantium", PrimaryChoice("lee", "mylantium")),
    ("General: Whig", GeneralChoice(Party.WHIG)),
    ("GENERAL: the Federalist Party", GeneralChoice(Party.FEDERALIST)),
    ("Realign: Federalists #rep", Realign(Party.FEDERALIST, "rep")),
    ("Contribute: 20", Pledge(20)),
    ("Contribute: $20", Pledge(20)),
    ("Contribute: 0", Pledge(0)),
    ("Contribute: 15 to the Vanguard", Pledge(15, to_vanguard=True)),
    ("Contribute: 15 to the CRT", Pledge(15)),
    ("Coup: yes", CoupAnswer(True)),
    ("coup: No.", CoupAnswer(False)),
    # play-test M5.3: a closing full stop is forgiven, as in `Coup:` and `Contribute:`
    ("General: whig.", GeneralChoice(Party.WHIG)),
    ("Primary: Lee Adams.", PrimaryChoice("Lee Adams")),
    ("Realign: Federalist!", Realign(Party.FEDERALIST)),
])
def test_the_forms(text: str, expected: object) -> None:
    assert looks_like_form(text)
    assert parse_form(text) == expected


@pytest.mark.parametrize(("text", "suggestion"), [
    ("Primery: Lee", "Primary: Lee"),
    ("Generl: Whig", "General: Whig"),
    ("General: Wig", "General: Whig"),
    ("Realign: Federalst", "Realign: Federalist"),
    ("Contribte: 20", "Contribute: 20"),
    ("Coup: yess", "Coup: yes"),
])
def test_near_misses_get_a_suggestion(text: str, suggestion: str) -> None:
    assert looks_like_form(text)
    with pytest.raises(ParseError) as caught:
        parse_form(text)
    assert caught.value.suggestion == suggestion
    assert "I couldn't read" in str(caught.value)


@pytest.mark.parametrize("text", ["Contribute: twenty", "Contribute: -5", "Contribute: 5 to Bob", "Primary:",
                                  "Coup: maybe", "General: Tory"])
def test_unreadable_forms_are_refused(text: str) -> None:
    with pytest.raises(ParseError):
        parse_form(text)


@pytest.mark.parametrize("text", ["Vote: Aye", "Revote: Nay", "AG Vote: Alice", "Transfer: 500 MS to Bob",
                                  "Audit quote: Bob", "hello there", "Elector: Count Jasek, round 3", ""])
def test_landsdraad_forms_and_chat_are_not_ours(text: str) -> None:
    assert not looks_like_form(text)


def test_faction_and_party_names() -> None:
    assert faction_code("Brass Hats") is FactionCode.BH
    assert faction_code("bh") is FactionCode.BH
    assert faction_code("the Snake Handlers") is FactionCode.SH
    assert party_of("Feds") is Party.FEDERALIST
    with pytest.raises(ParseError) as caught:
        faction_code("Grangr")
    assert caught.value.suggestion == "Granger"


@pytest.mark.parametrize(("text", "meant"), [("Vote: Debs", "Primary: Debs"), ("vote whig", "General: Whig"),
                                             ("Yes", "Coup: yes"), ("no.", "Coup: no"), ("20", "Contribute: 20"),
                                             ("Vote: Debs #r", "Primary: Debs #r"), ("hello there", None),
                                             # a sentence, or the key beside the colon
                                             ("I vote for Lee Adams", "Primary: Lee Adams"),
                                             ("I vote for the Whigs!", "General: Whig"),
                                             ("Vote; Debs", "Primary: Debs"), ("vote for", None),
                                             ("primary kit", "Primary: kit"), ("Coup; yes #r", "Coup: yes #r"),
                                             ("contribute 20", "Contribute: 20"), ("realign", None),
                                             # play-test M5.4: the separator is not part of the name
                                             ("Primary - Lee Adams", "Primary: Lee Adams"),
                                             ("primary = kit", "Primary: kit")])
def test_the_form_an_unread_dm_meant(text: str, meant: str | None) -> None:
    """Issue 17: what the answer to a DM no form read suggests to a player of Mylantium."""
    from engine.mylantium.forms import meant_form

    assert meant_form(text) == meant


def test_extra_words_after_a_party_say_what_was_read_and_what_was_not() -> None:
    """Play-test M5.3: `General: whig, please` is refused as the crisis ballot's `vote: nay please` is: "I read Whig
    in …, but not “please”", suggesting the form alone; a closing full stop alone is forgiven."""
    with pytest.raises(ParseError) as caught:
        parse_form("General: whig, please")
    assert str(caught.value).startswith("I read Whig in “General: whig, please”, but not “please”.\nDid you mean "
                                        "“General: Whig”?")
    with pytest.raises(ParseError) as party:
        parse_form("Realign: the Federalist party now!")
    assert party.value.understood == "Federalist" and party.value.problem == "“now”"
    assert parse_form("General: whig.") == GeneralChoice(Party.WHIG)
    with pytest.raises(ParseError) as wig:
        parse_form("General: Wig please")
    assert wig.value.understood is None and "“Wig please” is not a Party" in str(wig.value)


@pytest.mark.parametrize("text", ['Primary: "Lee Adams"', "Primary: “Lee Adams”", "Primary: “Lee Adams”."])
def test_quotation_marks_around_a_candidate_are_read_through(text: str) -> None:
    """Play-test Q5.1: `Primary: "Lee Adams"` was "no candidate called “"Lee Adams"”. Did you mean Lee Adams?"."""
    assert parse_form(text) == PrimaryChoice("Lee Adams")


@pytest.mark.parametrize("text", ["Coup: No thanks", "Coup: no, thanks", "Coup: yes please"])
def test_a_coup_answer_with_thanks_or_please_is_read(text: str) -> None:
    """Play-test Q5.5: `Coup: No thanks` was refused while the Convocate's `Second: no thanks` is a decline."""
    assert isinstance(parse_form(text), CoupAnswer)


@pytest.mark.parametrize("text", ["Primary: none", "Primary: abstain", "General: nobody"])
def test_choosing_nobody_says_a_choice_cannot_be_taken_back(text: str) -> None:
    """Play-test Q5.6: `Primary: none` got only "rep has no candidate called “none”"."""
    with pytest.raises(ParseError, match="a choice cannot be taken back, only replaced by another"):
        parse_form(text)


def test_a_contribution_to_a_faction_by_name_says_to_write_the_vanguard() -> None:
    """Play-test Q5.3: `Contribute: 5 to the Proles` (the Vanguard) was refused with "“to Proles”: the money goes to
    the Counter-Revolutionary Treasury or to the Vanguard"."""
    with pytest.raises(ParseError, match="if the Proles are, write `to the Vanguard`"):
        parse_form("Contribute: 5 to the Proles")
