"""Bad input at the front door (Issue 8), against a real Clerk on SQLite through ``handle_dm``,
``handle_channel_message`` and ``dispatch``:

- any DM or thread message gets an answer (a thread message that is not a form may be chat and get none), and
  nothing is recorded unless the answer is a receipt: the events of the game are counted before and after;
- every free-text option of the command table refuses a value one character over its limit, naming the option
  and the limit, and changes nothing; control characters, invisible values and mentions in names are refused
  the same way."""

from __future__ import annotations

from typing import Any

import pytest
from conftest import Table
from fuzzing import FUZZ_ACTIONS, hostile_text, mangle, seeds
from hypothesis import given
from hypothesis import strategies as st
from ledger_front import CHANNEL, GUILD, MODERATOR, actor, dm, text_of, user
from sqlalchemy import func, select

from bot.actions.commands import App, Command, Option, Role, dispatch
from bot.actions.context import Ctx, Place, UserRef
from bot.actions.messages import handle_channel_message
from bot.actions.option_text import INT_LIMIT, LONG_TEXTS, NAMES, checked, limit_of
from bot.actions.outbox import Here, Outgoing
from bot.actions.rulesets import COMMANDS
from engine.store.database import make_sessionmaker
from engine.store.models import Event
from engine.store.models.landsdraad import Ballot

ALICE = actor(10, "Alice")
THREAD = 7001
NOT_RECORDED = ("Nothing was recorded", "NOT recorded", "was NOT counted", "I couldn't read")
APOLOGY = "something went wrong on my side"


def collect(strategy: st.SearchStrategy[str], *extra: str) -> list[str]:
    """The examples Hypothesis draws from ``strategy`` (repeatably: the FUZZ_ACTIONS profile), plus ``extra``.
    They are drawn first and then run one by one, because the Clerk under test is async."""
    drawn: list[str] = []

    @FUZZ_ACTIONS
    @given(strategy)
    def draw(text: str) -> None:
        drawn.append(text)

    draw()
    return [*extra, *drawn]


async def counts(table: Table) -> tuple[int, int]:
    async with make_sessionmaker(table.engine)() as session:
        events = await session.scalar(select(func.count()).select_from(Event))
        ballots = await session.scalar(select(func.count()).select_from(Ballot))
    return int(events or 0), int(ballots or 0)


async def playing(table: Table) -> None:
    await table.player(10, "Alice", 4, 2, 2)
    await table.player(11, "Bob", 2, 3, 1)
    await table.open()


async def run(table: Table, name: str, options: dict[str, Any]) -> list[Outgoing]:
    """A moderator runs ``/name`` in the game channel (options by dict: some are called ``name``)."""
    ctx = Ctx(MODERATOR, Place(GUILD, CHANNEL), f"opt-{len(options)}-{id(options)}", table.clock.now())
    return await dispatch(App(table.clerk), ctx, name, options)


def _answer(out: list[Outgoing]) -> str:
    return "\n".join(text_of(o) for o in out if isinstance(o.to, Here))


async def _check_dm(table: Table, text: str) -> None:
    before = await counts(table)
    out = await dm(table.clerk, ALICE, text)
    after = await counts(table)
    answer = _answer(out)
    assert answer.strip(), f"no answer to {text!r}"
    assert APOLOGY not in answer, f"{text!r} crashed: {answer}"
    if after != before:
        assert not any(n in answer for n in NOT_RECORDED), f"{text!r} was recorded but answered: {answer}"
    if any(n in answer for n in NOT_RECORDED):
        assert after == before, f"{text!r} was answered as not recorded but changed {before} -> {after}"


async def test_any_dm_is_answered_and_nothing_unreadable_is_recorded(table: Table) -> None:
    await playing(table)
    texts = collect(hostile_text, "Vote: Aye, " + "9" * 5000, "Ｖｏｔｅ： ｎａｙ", "<@1> **vote:\u200b abstain**",
                    "Revote: Aye, ²", "Transfer funds: " + "1" * 5000 + " MS to Bob", "Elector: x, round 99999",
                    "Vote: Aye #" + "x" * 3000, "\u200b\ufeff", "Contribute: 5", "Second: yes", "AG Vote: @everyone")
    for text in texts:
        await _check_dm(table, text)


async def test_a_mangled_ballot_is_recorded_as_written(table: Table) -> None:
    await playing(table)
    forms = {"Vote: Aye": "Aye", "Revote: Nay": "Nay", "vote: abstain, 3": "Abstain"}
    drawn = collect(st.tuples(seeds, st.sampled_from(sorted(forms))).map(lambda p: f"{p[1]}\0{mangle(*p)}"))
    for pair in drawn:
        form, text = pair.split("\0", 1)
        answer = _answer(await dm(table.clerk, ALICE, text))
        assert (f"**{forms[form]}**" in answer and "recorded" in answer) or "stays" in answer, (text, answer)
        assert not any(n in answer for n in NOT_RECORDED), (text, answer)
        assert (await counts(table))[1] == 1  # one ballot, updated in place


async def test_any_thread_message_is_answered_or_ignored_as_chat_and_nothing_unreadable_is_recorded(
        table: Table) -> None:
    await playing(table)
    for text in collect(hostile_text, "AG Vote: <@&5> @everyone", "Vote: No Confidence\u200b", "vote: aye"):
        ctx = Ctx(ALICE, Place(GUILD, CHANNEL, THREAD), f"t-{hash(text)}", table.clock.now())
        before = await counts(table)
        out = await handle_channel_message(App(table.clerk), ctx, text)
        answer = _answer(out)
        assert APOLOGY not in answer, f"{text!r} crashed: {answer}"
        if await counts(table) != before:
            assert answer and not any(n in answer for n in NOT_RECORDED), (text, answer)
        if any(n in answer for n in NOT_RECORDED):
            assert await counts(table) == before, text


# -- the command table's free-text options ------------------------------------------------------------------------


def _filler(option: Option) -> Any:
    if option.kind is UserRef:
        return user(11, "Bob")
    if option.kind is Role:
        return Role(555)
    if option.kind is int:
        return option.min_value if option.min_value is not None else 1
    if option.kind is bool:
        return True
    return option.choices[0] if option.choices else "x"


def _text_options() -> list[tuple[Command, Option]]:
    return [(spec, o) for spec in COMMANDS.values() for o in spec.options if limit_of(spec, o) is not None]


TEXT_OPTIONS = _text_options()


def _options(spec: Command, option: Option, value: str) -> dict[str, Any]:
    values = {o.name: _filler(o) for o in spec.options if o.required}
    values[option.name] = value
    return values


async def _refused(table: Table, spec: Command, option: Option, value: str) -> str:
    """The answer to a moderator running ``spec`` with ``value`` for ``option``: one ephemeral reply. (The tests
    count the events once around all their refusals: events only ever add up, so none may have changed.)"""
    out = await run(table, spec.name, _options(spec, option, value))
    assert len(out) == 1 and isinstance(out[0].to, Here) and out[0].ephemeral
    return text_of(out[0])


def test_every_free_text_option_has_a_limit_and_the_table_knows_its_names() -> None:
    assert len(TEXT_OPTIONS) > 80
    for command, option in NAMES:
        assert COMMANDS[command].option(option) is not None, (command, option)
    assert {o.name for _, o in TEXT_OPTIONS} >= LONG_TEXTS


async def test_a_value_one_over_the_limit_is_refused_naming_the_option_and_the_limit(table: Table) -> None:
    await playing(table)
    before = await counts(table)
    for spec, option in TEXT_OPTIONS:
        limit = limit_of(spec, option)
        assert limit is not None
        answer = await _refused(table, spec, option, "x" * (limit + 1))
        assert f"`{option.name}` of /{spec.name} is too long" in answer and f"at most {limit}" in answer, answer
    assert await counts(table) == before


async def test_control_characters_invisible_values_and_mentions_in_names_are_refused(table: Table) -> None:
    await playing(table)
    before = await counts(table)
    for spec, option in TEXT_OPTIONS:
        assert "control characters (U+0007)" in await _refused(table, spec, option, "Bob\x07")
        assert "nothing visible" in await _refused(table, spec, option, " \u200b\ufeff ")
        if (spec.name, option.name) in NAMES:
            for mention in ("Hawks @here", "<@&555>", "<@10>"):
                assert "cannot contain a mention" in await _refused(table, spec, option, mention)
        elif option.name not in LONG_TEXTS:
            assert "cannot be @everyone" in await _refused(table, spec, option, "@everyone")
    assert await counts(table) == before


async def test_a_whole_number_too_big_for_the_database_is_refused(table: Table) -> None:
    await playing(table)
    numbers = [(spec, o) for spec in COMMANDS.values() for o in spec.options if o.kind is int and o.max_value is None]
    assert numbers
    before = await counts(table)
    for spec, option in numbers:
        values = _options(spec, option, "x")
        values[option.name] = INT_LIMIT + 1
        answer = text_of((await run(table, spec.name, values))[0])
        assert f"`{option.name}` of /{spec.name} must be between -{INT_LIMIT} and {INT_LIMIT}" in answer, answer
    assert await counts(table) == before


async def test_a_name_is_read_without_invisible_characters_and_fullwidth_forms(table: Table) -> None:
    await table.player(10, "Alice", 4, 2, 2)
    out = await run(table, "holding add", {"player": user(10, "Alice"), "kind": "elector",
                                           "name": "Count\u200b Ｊａｓｅｋ", "tier": "weak", "votes": 3})
    assert "Count Jasek" in "\n".join(text_of(o) for o in out), [text_of(o) for o in out]
    crisis = "Piracy <@&5> — **now**\u200d"  # a long text is kept as typed: mentions never ping (allowed_mentions)
    assert checked(COMMANDS["round open"], {"crisis": crisis}) == {"crisis": crisis}


@pytest.mark.parametrize("text", ['/round open crisis:"' + "x" * 4001 + '"',
                                  "/game new ruleset:landsdraad name:@everyone"])
async def test_the_console_is_held_to_the_same_limits(table: Table, text: str) -> None:
    from bot.console.slash import parse_slash

    command = parse_slash(text, lambda name: UserRef(10, name), lambda name: 555)
    out = await run(table, command.name, command.options)
    assert "Nothing was changed" in text_of(out[0])
