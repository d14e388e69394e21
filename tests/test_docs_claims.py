"""What the docs say of the command table, the option limits, the transcripts, the command line and the settings file
is what the code does (play-test D, docs/playtests/docs-2026-12-07.md: each of these had drifted). Pure reads of the
docs and the tables: no database, no replay. tests/test_docs_commands.py checks that every command and option is
named in docs/commands.md; tests/test_docs_why.py the `/why` subjects."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from bot.__main__ import main
from bot.actions.commands import COMMON
from bot.actions.option_text import LONG_TEXTS, NAMES, OWN_LIMITS, TEXT_LIMIT, checked
from bot.actions.rulesets import COMMANDS
from bot.settings import load_settings
from engine.core.errors import ParseError
from engine.core.settings import shown
from engine.core.text import normalise
from engine.landsdraad.ballot import parse_ballot
from engine.service.clerk import RULESETS

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"


def read(name: str) -> str:
    return (DOCS / name).read_text(encoding="utf-8")


def paragraph(text: str, start: str) -> str:
    """The paragraph of ``text`` that begins with ``start`` (up to the next blank line)."""
    at = text.index(start)
    end = text.find("\n\n", at)
    return text[at:end if end >= 0 else None]


def named(text: str) -> set[str]:
    """The commands a text names as `` `/name` `` (a group's subcommand as written: `` `/game list` ``)."""
    return {m for m in re.findall(r"`/([a-z -]+?)`", text) if m in COMMANDS}


def test_the_commands_every_game_has_are_those_the_docs_list() -> None:
    """docs/commands.md listed 8 of the 16 commands every game takes (``COMMON``), and the Mylantium section 2."""
    text = paragraph(read("commands.md"), "Slash commands work in the game channel")
    every_game = text[text.index("`/game new`"):text.index("belong to every game")]
    assert named(every_game) == set(COMMON)


def test_the_commands_that_work_in_a_dm_are_those_the_docs_list() -> None:
    """docs/commands.md said `/vote`, `/me`, `/game list` and `/help` work in a DM; 14 do (``Command.in_dms``)."""
    text = paragraph(read("commands.md"), "Slash commands work in the game channel")
    in_dms = text[text.index("These work in a DM"):text.index("`/game new`")]
    assert named(in_dms) == {name for name, spec in COMMANDS.items() if spec.in_dms}


def test_what_an_ended_game_still_answers_is_every_command_that_reads() -> None:
    """"Reading stays open: ..." left out `/verify`. A command that reads only without options (``reads`` a
    predicate: `/game settings`, `/convocate rulings`) is listed with "without options"."""
    text = paragraph(read("commands.md"), "Reading stays open:")
    reads = {name for name, spec in COMMANDS.items() if spec.reads is True or callable(spec.reads)}
    assert reads <= named(text) | {"game end"}
    assert "without options" in text


def test_the_option_limits_in_the_docs_are_the_code_s() -> None:
    """docs/commands.md and docs/input.md gave `crisis` 1000 characters; it takes 4000 (``OWN_LIMITS``). input.md's
    table names every option that is a name Clerk keeps and every long text, and its example refusal is the one
    the code gives."""
    input_md = read("input.md")
    names_row = next(line for line in input_md.splitlines() if line.startswith("| name Clerk keeps and shows"))
    assert {f"`/{command} {option}`" for command, option in NAMES} <= set(re.findall(r"`/[a-z -]+ [a-z_]+`", names_row))
    texts_row = next(line for line in input_md.splitlines() if line.startswith("| long text"))
    assert {f"`{option}`" for option in LONG_TEXTS} <= set(re.findall(r"`[a-z_]+`", texts_row))
    for (_command, option), limit in OWN_LIMITS.items():
        assert f"`{option}` ({limit}" in texts_row
        assert f"a `{option}` {limit}" in read("commands.md")
    example = re.search(r"e\.g\. \*(`[a-z_]+` of /([a-z -]+?) is too long: .*?)\*", input_md, re.S)
    assert example is not None
    option, command = example[1].split("`")[1], example[2]
    with pytest.raises(Exception) as refused:
        checked(COMMANDS[command], {option: "x" * (TEXT_LIMIT + 1)})
    assert " ".join(example[1].split()) == str(refused.value)


def test_every_transcript_is_in_the_transcripts_doc() -> None:
    """docs/transcripts.md listed 12 of the 42 transcripts; a moderator looking for an example found the rest only by
    listing the folder."""
    text = read("transcripts.md")
    missing = [p.name for p in sorted((ROOT / "tests" / "transcripts").glob("*.txt")) if f"({'../tests/transcripts/'}"
               f"{p.name})" not in text]
    assert missing == []


@pytest.mark.parametrize("command", ["console", "replay"])
def test_the_command_line_options_are_in_the_transcripts_doc(command: str, capsys: pytest.CaptureFixture[str]) -> None:
    """docs/transcripts.md's usage lines left out `--files` and `--from`."""
    with pytest.raises(SystemExit):
        main([command, "--help"])
    options = set(re.findall(r"--[a-z]+", capsys.readouterr().out)) - {"--help"}
    usage = next(line for line in read("transcripts.md").splitlines() if line.startswith(f"python -m bot {command}"))
    assert options and options <= set(re.findall(r"--[a-z]+", usage))


def test_every_setting_of_the_example_config_is_one_clerk_reads(tmp_path: Path) -> None:
    """config.example.toml "documents every setting": each one, uncommented, loads (an unknown one stops the bot)."""
    example = (ROOT / "config.example.toml").read_text(encoding="utf-8")
    settings = re.findall(r"^#? ?([a-z_]+ = .+)$", example, re.M)
    assert len(settings) >= 10
    config = tmp_path / "config.toml"
    config.write_text("\n".join(settings) + "\n", encoding="utf-8")
    loaded = load_settings(config, env={})
    assert loaded.seed == 42 and loaded.health_port == 8080 and loaded.plugins == ()


BALLOTS = [  # (as the docs write it, option, declared count, game)
    ("Vote: Aye", "aye", None, None), ("Vote: Nay", "nay", None, None), ("Vote: Abstain", "abstain", None, None),
    ("Vote: Aye, 14", "aye", 14, None), ("Vote: Aye (14)", "aye", 14, None), ("Vote: Aye 14 votes", "aye", 14, None),
    ("Revote: Nay", "nay", None, None), ("Vote: Aye #sirius", "aye", None, "sirius"),
    ("Vote: Aye #sirius, 14", "aye", 14, "sirius"), ("vote aye", "aye", None, None),
    ("Ｖｏｔｅ： ａｙｅ， １４", "aye", 14, None), ("**Vote: Aye**", "aye", None, None),
    ("> Vote: Aye", "aye", None, None),
    (">>> Vote: Aye", "aye", None, None), ("“Vote: Nay”", "nay", None, None), ('"Vote: Nay"', "nay", None, None),
    ("<@123> Vote: Aye", "aye", None, None),
]
NEAR_MISSES = [("Vote: Ayy", "Vote: Aye"), ("Yes", "Vote: Yes"), ("Vote; Nay", "Vote: Nay"),
               ("I vote nay", "Vote: Nay"), ("AG vote Jenny", "AG Vote: Jenny"), ("audit bob", "Audit quote: bob"),
               ("vote: nay please", "Vote: Nay")]


def in_the_docs(example: str) -> bool:
    return any(f"`{example}`" in " ".join(read(name).split()) for name in ("commands.md", "input.md"))


@pytest.mark.parametrize(("typed", "option", "declared", "game"), BALLOTS)
def test_each_crisis_ballot_the_docs_show_reads_as_they_say(typed: str, option: str, declared: int | None,
                                                            game: str | None) -> None:
    """The DM examples of docs/commands.md ("Crisis ballots by DM") and docs/input.md (what is normalised) are read as
    the ballot they stand for. ``(#rep)`` in brackets: tests/engine/test_game_tag.py (play-test D4.2)."""
    assert in_the_docs(typed), f"{typed} is no longer in the docs: update this list"
    ballot = parse_ballot(normalise(typed))
    assert (ballot.option.value, ballot.declared, ballot.game) == (option, declared, game)


@pytest.mark.parametrize(("typed", "meant"), NEAR_MISSES)
def test_each_near_miss_the_docs_show_is_refused_with_their_suggestion(typed: str, meant: str) -> None:
    """docs/commands.md: "`Vote: Ayy` → `Vote: Aye`, ...: none of these is counted"."""
    assert in_the_docs(typed) and in_the_docs(meant)
    with pytest.raises(ParseError) as refused:
        parse_ballot(normalise(typed))
    assert refused.value.suggestion == meant


def test_every_setting_of_every_ruleset_is_documented_with_its_default() -> None:
    """Each `/game settings` setting is in docs/commands.md, its default given just after its name (`ag_weighted`,
    `audit_share_rounding` and `perk_ties` had none)."""
    doc = " ".join(read("commands.md").split())
    problems = []
    for ruleset in RULESETS:
        for name, setting in ruleset.settings.items():
            at = doc.find(f"`{name}` (")
            near = doc[at:at + len(name) + 200] if at >= 0 else ""
            default = shown(setting.default)
            if not any(form in near for form in (f"`{default}`", f"({default},", f"({default})", f"default {default}")):
                problems.append(f"{ruleset.name}: {name} (default {default})")
    assert problems == []
