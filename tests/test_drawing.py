"""Charts are drawn off the event loop, in the chart thread, and a drawing asked for again with the same arguments is
not drawn again (bot/actions/drawing.py): the last are kept, up to ``KEPT_BYTES``, by their arguments, the most
recently used last; a drawing that gave None (a chart that failed and was left out) is tried again; arguments that
cannot be hashed are drawn every time. And no code on the event loop calls a drawing function itself."""

from __future__ import annotations

import ast
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from bot.actions import drawing

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(autouse=True)
def nothing_kept() -> Iterator[None]:
    drawing._kept.clear()
    yield
    drawing._kept.clear()


class Counted:
    """A drawing function that says in which thread it ran and how often."""

    def __init__(self, result: bytes | None = b"\x89PNG drawn") -> None:
        self.result = result
        self.threads: list[str] = []

    def __call__(self, data: object, *, title: str = "") -> bytes | None:
        self.threads.append(threading.current_thread().name)
        return self.result


async def test_a_drawing_runs_in_the_chart_thread_and_the_same_one_again_is_not_drawn_again() -> None:
    draw = Counted()
    first = await drawing.drawn(draw, ("sirius", 1), title="Forecast")
    again = await drawing.drawn(draw, ("sirius", 1), title="Forecast")
    assert first == again == b"\x89PNG drawn"
    assert len(draw.threads) == 1 and draw.threads[0].startswith("clerk-charts")
    assert threading.current_thread().name != draw.threads[0]


async def test_other_data_or_another_title_or_another_function_is_drawn() -> None:
    draw, other = Counted(), Counted(b"other")
    await drawing.drawn(draw, ("sirius", 1), title="Forecast")
    await drawing.drawn(draw, ("sirius", 2), title="Forecast")
    await drawing.drawn(draw, ("sirius", 1), title="Forecast, round 2")
    assert await drawing.drawn(other, ("sirius", 1), title="Forecast") == b"other"
    assert len(draw.threads) == 3 and len(other.threads) == 1


async def test_a_drawing_that_failed_is_tried_again() -> None:
    draw = Counted(None)
    assert await drawing.drawn(draw, "data") is None
    assert await drawing.drawn(draw, "data") is None
    assert len(draw.threads) == 2


async def test_arguments_that_cannot_be_hashed_are_drawn_every_time() -> None:
    draw = Counted()
    await drawing.drawn(draw, {"result": [1, 2]})
    await drawing.drawn(draw, {"result": [1, 2]})
    assert len(draw.threads) == 2 and not drawing._kept


async def test_only_the_last_drawings_are_kept_up_to_their_bytes_the_most_recently_used_last() -> None:
    quarter = drawing.KEPT_BYTES // 4
    draw = Counted(b"x" * quarter)
    for n in range(4):
        await drawing.drawn(draw, n)
    await drawing.drawn(draw, 0)  # used again: now the most recent
    await drawing.drawn(draw, 4)  # one more: over the bytes kept, so the least recently used (1) goes
    assert len(draw.threads) == 5
    assert list(drawing._kept) == [drawing._key(draw, (n,), {}) for n in (2, 3, 0, 4)]
    await drawing.drawn(draw, 0)
    assert len(draw.threads) == 5
    await drawing.drawn(draw, 1)
    assert len(draw.threads) == 6


async def test_a_file_name_and_its_png_are_kept_as_one_drawing_of_their_bytes() -> None:
    draw = Counted()
    draw.result = ("forecast.png", b"x" * 1000)  # type: ignore[assignment]
    await drawing.drawn(draw, "data")
    assert list(drawing._kept.values()) == [(("forecast.png", b"x" * 1000), 1012)]
    assert drawing._size(None) == 0


def drawing_function(name: str) -> bool:
    return name.endswith("_png") or name in ("png", "chart")


def drawing_calls(tree: ast.AST) -> list[tuple[int, str, str]]:
    """(line, the drawing function called, the function the call is in) for every call of a drawing function."""
    found: list[tuple[int, str, str]] = []

    def visit(node: ast.AST, inside: str) -> None:
        for child in ast.iter_child_nodes(node):
            name = child.name if isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef) else inside
            if isinstance(child, ast.Call):
                func = child.func
                called = func.id if isinstance(func, ast.Name) else func.attr if isinstance(func, ast.Attribute) else ""
                if drawing_function(called):
                    found.append((child.lineno, called, inside))
            visit(child, name)

    visit(tree, "")
    return found


def test_no_code_on_the_event_loop_calls_a_drawing_function_itself() -> None:
    """A drawing function (``*_png``, ``png``, ``chart``) is called only by another drawing function, which runs in
    the chart thread; everywhere else it is handed to ``drawn`` or ``picture``. (The /forecast command and the final
    scores were once drawn on the loop, blocking every other vote and interaction while they were.)"""
    seen: list[str] = []
    for path in sorted((ROOT / "bot").rglob("*.py")):
        for line, called, inside in drawing_calls(ast.parse(path.read_text(encoding="utf-8"))):
            seen.append(f"{path.relative_to(ROOT)}:{line} {called} in {inside}")
            assert drawing_function(inside), f"{seen[-1]}: draw it with drawn() or picture()"
    assert any("forecast_png in chart" in call for call in seen)  # the check sees the calls it is about
