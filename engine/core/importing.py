"""Bulk set-up files (``/game import``): a CSV or TOML file read into numbered records, each checked against the
fields its kind takes. Pure: the rulesets say which kinds and fields they take (``engine/<ruleset>/import_file.py``);
this module reads the file and names every bad line with what is wrong and what is accepted.

CSV: a header row, then one record a line; the ``record`` column names the kind (``player``, ``holding``, ...), the
other columns are the fields of the kinds (an empty cell is a field left out). TOML: an array of tables per kind
(``[[player]]``), each table one record; its line is the line of its ``[[kind]]`` header."""

from __future__ import annotations

import csv
import io
import re
import tomllib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from engine.core.errors import RuleError
from engine.core.suggest import nearest
from engine.core.text import escaped, inert_name

MAX_BYTES = 256 * 1024
"""The largest file read (a game's set-up is a few kilobytes)."""
MAX_RECORDS = 1000
SHOWN = 15
"""Bad lines named in one refusal; the rest are counted."""
TRUE = frozenset({"true", "yes", "y", "1"})
FALSE = frozenset({"false", "no", "n", "0"})
USER = re.compile(r"^(?:@\S.*|<@!?\d+>|\d{15,20})$")
Value = str | int | bool
EXPORTS = ("An export is a record of a game, for rehearsing on a copy (`python -m bot console --from` the .json "
           "file); it is not read back by /game import. To set a game up like another one, write a set-up file "
           "(docs/import.md shows each ruleset's columns).")
"""How to get from an export to an import (import play-test): an export is not a set-up file."""
NEAR = 0.75
"""How alike a misspelt column, record or choice must be to one Clerk reads to be suggested (``comand`` ->
``command``, ``Kingdon`` -> ``Kingdom``; ``planet`` is not taken for ``permanent``)."""
NAME_FIELDS = ("name", "faction")
"""Text fields that are names Clerk keeps and shows: kept without markdown (``inert_name``, play-test P4.1)."""


class ImportRefused(RuleError):
    """A file with bad lines: nothing was written. ``problems`` are ``line N: what is wrong`` each."""

    def __init__(self, filename: str, problems: Sequence[str]) -> None:
        self.problems = tuple(problems)
        shown = "\n".join(f"- {p}" for p in self.problems[:SHOWN])
        more = len(self.problems) - SHOWN
        rest = f"\n…and {more} more." if more > 0 else ""
        count = f"{len(self.problems)} problem{'' if len(self.problems) == 1 else 's'}"
        super().__init__(f"Nothing was imported from {filename}: {count}. Fix the file and send it again.\n"
                         f"{shown}{rest}")


@dataclass(frozen=True)
class Field:
    """A field a record kind takes: ``kind`` is ``str``, ``int``, ``bool`` or ``user`` (``@name``, ``<@id>`` or a
    user id); ``choices`` are the accepted values of a ``str`` (matched without regard to case)."""

    name: str
    kind: str = "str"
    required: bool = False
    choices: tuple[str, ...] = ()
    low: int | None = None
    high: int | None = None
    about: str = ""

    def accepted(self) -> str:
        if self.choices:
            return ", ".join(self.choices[:-1]) + f" or {self.choices[-1]}" if len(self.choices) > 1 \
                else self.choices[0]
        if self.kind == "int":
            if self.low is not None and self.high is not None:
                return f"a whole number from {self.low} to {self.high}"
            if self.low is not None:
                return f"a whole number, at least {self.low}"
            return "a whole number"
        if self.kind == "bool":
            return "true or false"
        if self.kind == "user":
            return "a user: @name, <@id> or the user's id"
        return "text"


@dataclass(frozen=True)
class Kind:
    """A kind of record (a ``player``, a ``holding``) and its fields."""

    name: str
    fields: tuple[Field, ...]
    about: str = ""

    def field(self, name: str) -> Field | None:
        return next((f for f in self.fields if f.name == name), None)


@dataclass(frozen=True)
class Record:
    line: int
    """The line of the file it was read from (1 is the CSV header; a TOML table's ``[[kind]]`` line)."""
    kind: str
    values: Mapping[str, Value] = field(default_factory=dict)
    given: Mapping[str, str] = field(default_factory=dict)
    """A name field's text as the file gave it, where Clerk keeps it otherwise (without markdown: ``inert_name``)."""

    def get(self, name: str) -> Any:
        return self.values.get(name)

    def where(self) -> str:
        return f"line {self.line}" if self.line else "a record"


def read(filename: str, data: bytes, kinds: Sequence[Kind]) -> list[Record]:
    """The records of the file, each checked against its kind; ImportRefused names every bad line."""
    records, problems = collect(filename, data, kinds)
    if problems:
        raise ImportRefused(filename, problems)
    return records


def collect(filename: str, data: bytes, kinds: Sequence[Kind]) -> tuple[list[Record], list[str]]:
    """The records of the file that fit their kind, and what is wrong with the others (``line N (kind): ...``),
    for a ruleset to add its own checks across records to (``refuse``). A file that cannot be read at all (too
    big, not text, no records) is a RuleError."""
    if len(data) > MAX_BYTES:
        raise RuleError(f"{filename} is {len(data) // 1024} KB; an import file may have at most "
                        f"{MAX_BYTES // 1024} KB.")
    if filename.lower().endswith((".json", ".json.gz")):
        raise RuleError(f"{filename} is a JSON file, as /game export writes; an import file is a .csv or a .toml "
                        f"file. {EXPORTS}")
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise RuleError(f"{filename} is not UTF-8 text; save it as UTF-8 CSV or TOML.") from None
    lower = filename.lower()
    header: list[str] | None = None
    if lower.endswith(".toml"):
        raw, problems = _toml(filename, text)
    elif lower.endswith(".csv") or lower.endswith(".txt"):
        raw, problems, header = _csv(text)
    else:
        raise RuleError(f"{filename}: an import file is a .csv or a .toml file (docs/import.md).")
    if len(raw) > MAX_RECORDS:
        raise RuleError(f"{filename} has {len(raw)} records; an import may have at most {MAX_RECORDS}.")
    known = {k.name: k for k in kinds}
    columns = _columns(kinds)
    unknown: dict[str, str | None] = {}
    if header is not None:  # a column no record takes is named once, at the header, with the column meant
        for name in dict.fromkeys(n for n in header if n and n != "record" and n not in columns):
            unknown[name] = nearest(name, columns, NEAR)
            problems.append(f"line 1: no record has a `{name}` column{_meant(unknown[name])}; the columns are "
                            f"record, {', '.join(columns)}.")
    records: list[Record] = []
    for line, kind_name, cells in raw:
        kind = known.get(kind_name.strip().lower())
        where = f"line {line}" if line else "a record"
        if kind is None:
            what = f"“{kind_name}”" if kind_name.strip() else "nothing"
            meant = nearest(kind_name, known, NEAR) if kind_name.strip() else None
            problems.append(f"{where}: the record is {what}{_meant(meant)}; a record is "
                            f"{_or([k.name for k in kinds])}.")
            continue
        values, wrong = _check(kind, cells, unknown)
        problems += [f"{where} ({kind.name}): {w}" for w in wrong]
        if not wrong:
            given = {f: " ".join(str(cells[f]).split()) for f in NAME_FIELDS
                     if isinstance(values.get(f), str) and values[f] != " ".join(str(cells[f]).split())}
            records.append(Record(line, kind.name, values, given))
    if not records and not problems:
        raise RuleError(f"{filename} has no records; docs/import.md shows the format.")
    return records, problems


def fits(filename: str, data: bytes, kinds: Sequence[Kind]) -> bool:
    """Whether every line of the file is a record of ``kinds`` with the fields they take (their checks across
    records aside): how a file for another ruleset is told apart from a file with bad lines."""
    try:
        records, problems = collect(filename, data, kinds)
    except RuleError:
        return False
    return bool(records) and not problems


def refuse(filename: str, problems: Sequence[str]) -> None:
    """ImportRefused if there are ``problems``, in the order of their lines."""
    if problems:
        raise ImportRefused(filename, sorted(problems, key=_line_of))


def _line_of(problem: str) -> int:
    match = re.match(r"line (\d+)", problem)
    return int(match[1]) if match else 0


def _or(names: Sequence[str]) -> str:
    return ", ".join(names[:-1]) + f" or {names[-1]}" if len(names) > 1 else "".join(names)


def _csv(text: str) -> tuple[list[tuple[int, str, dict[str, Any]]], list[str], list[str] | None]:
    """The rows, the problems of the file's shape, and the header's column names (None if it has no columns)."""
    reader = csv.reader(io.StringIO(text))
    try:
        header = next(reader)
    except (StopIteration, csv.Error):
        return [], [], None
    names = [h.strip().lower() for h in header]
    if "record" not in names:
        separator = _separator(header)
        if separator is not None:
            return [], [f"line 1: the columns are separated by {separator}; Clerk reads commas (,). Save the file "
                        "as “CSV UTF-8 (comma delimited)”, or replace the separators with commas."], None
        if {"seq", "payload"} <= set(names) or "user_id" in names:
            return [], [f"line 1: this is a file of /game export (its columns are {', '.join(names[:4])}, ...), "
                        f"not a set-up file. {EXPORTS}"], None
        return [], ["line 1: the header has no `record` column; the first line names the columns, e.g. "
                    "`record,user,diplomacy,...` (docs/import.md)."], None
    problems: list[str] = []
    seen = [n for n in names if n]
    if len(set(seen)) != len(seen):
        twice = sorted({n for n in seen if seen.count(n) > 1})
        problems.append(f"line 1: the header names {', '.join(twice)} twice.")
    rows: list[tuple[int, str, dict[str, Any]]] = []
    try:
        start = reader.line_num + 1
        for row in reader:
            line, start = start, reader.line_num + 1
            broken = _broken_cell(names, row, line, reader.line_num)
            if broken is not None:
                problems.append(broken)
                continue
            if not any(cell.strip() for cell in row) or _comment(names, row):
                continue
            extra = [(n, cell) for n, cell in enumerate(row[len(names):], len(names) + 1) if cell.strip()]
            if extra:  # empty cells past the last column (a spreadsheet leaves them) are no data (import play-test)
                shown = ", ".join(f"cell {n} (“{cell.strip()[:20]}”)" for n, cell in extra[:3])
                problems.append(f"line {line}: {len(row)} cells, but the header names {len(names)} columns; "
                                f"{shown} {'is' if len(extra) == 1 else 'are'} past the last column. Name the "
                                "column in the header, or move or remove what is in it.")
                continue
            cells = {n: c.strip() for n, c in zip(names, row, strict=False) if n and c.strip()}
            rows.append((line, str(cells.pop("record", "")), cells))
    except csv.Error as error:
        problems.append(f"line {reader.line_num}: not CSV ({error}).")
    return rows, problems, names


def _separator(header: Sequence[str]) -> str | None:
    """How the header's columns are separated when it is not by commas (Excel in much of Europe saves "CSV" with
    ``;``; a TSV has tabs): the header is then one cell holding ``record``."""
    text = ",".join(header)
    if "record" not in text.lower():
        return None
    if "\t" in text:
        return "tabs"
    if ";" in text:
        return "“;”"
    return None


def _comment(names: Sequence[str], row: Sequence[str]) -> bool:
    """A comment is a line whose ``record`` cell starts with ``#``, or whose first cell starts with ``#`` while its
    ``record`` cell is empty. A line whose first column is data (a ``name`` such as ``#1 Pilot``) and whose
    ``record`` cell names a record is a record, never skipped (play-test I1.2)."""
    kind = row[names.index("record")].strip() if names.index("record") < len(row) else ""
    return kind.startswith("#") or (not kind and row[0].lstrip().startswith("#"))


def _broken_cell(names: Sequence[str], row: Sequence[str], line: int, last: int) -> str | None:
    """A cell that runs over more than one line (a quote opened and not closed on its line): the line it opens on
    and the lines it takes in, or None. A record is one line, so such a cell is always a mistake; reading it would
    swallow the lines after it into one cell."""
    for column, cell in enumerate(row):
        if "\n" not in cell and "\r" not in cell:
            continue
        name = names[column] if column < len(names) and names[column] else f"column {column + 1}"
        taken = f"line {line + 1}" if last == line + 1 else f"lines {line + 1}–{last}"
        return (f"line {line}: a quote (\") opens in the `{name}` cell and is not closed on its line, so it takes in "
                f"{taken} (they were not read as records). A cell is on one line: remove the quote, or close it "
                f"(\"...\") on the same line.")
    return None


def _toml(filename: str, text: str) -> tuple[list[tuple[int, str, dict[str, Any]]], list[str]]:
    try:
        doc = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise ImportRefused(filename, [f"not TOML: {error}."]) from None
    headers: dict[str, list[int]] = {}
    assigned: dict[str, int] = {}
    for number, line in enumerate(text.splitlines(), 1):
        match = re.match(r"\s*\[\[\s*([^\]]+?)\s*\]\]", line)
        if match:
            headers.setdefault(match[1].strip('"').lower(), []).append(number)
        match = re.match(r"\s*\"?([\w-]+)\"?\s*=\s*\[", line)  # an inline array: ``player = [ {...}, ... ]``
        if match:
            assigned.setdefault(match[1].lower(), number)
    rows: list[tuple[int, str, dict[str, Any]]] = []
    problems: list[str] = []
    for key, tables in doc.items():
        lines = headers.get(key.lower(), [])
        if not isinstance(tables, list) or not all(isinstance(t, dict) for t in tables):
            problems.append(f"`{key}` is not a list of tables; write each record as a `[[{key}]]` table.")
            continue
        for i, table in enumerate(tables):
            rows.append((lines[i] if i < len(lines) else assigned.get(key.lower(), 0), key, dict(table)))
    rows.sort(key=lambda r: r[0])
    return rows, problems


def _columns(kinds: Sequence[Kind]) -> list[str]:
    """Every field the ruleset's records take, in the order its kinds give them: the columns a file may have."""
    return list(dict.fromkeys(f.name for k in kinds for f in k.fields))


def _meant(name: str | None) -> str:
    return f" (did you mean `{name}`?)" if name else ""


def _check(kind: Kind, cells: Mapping[str, Any],
           unknown: Mapping[str, str | None] | None = None) -> tuple[dict[str, Value], list[str]]:
    """The values of a record's cells, and what is wrong with them. ``unknown`` are the header's columns no record
    takes (named once at the header) and the column each is most like: their cells are not named again, nor a
    required field missing because it was written in a misspelt column."""
    unknown = unknown or {}
    values: dict[str, Value] = {}
    wrong: list[str] = []
    covered = {unknown[n] for n in cells if n in unknown}
    for name, raw in cells.items():
        if name in unknown:
            continue
        f = kind.field(name)
        if f is None:
            meant = nearest(name, [x.name for x in kind.fields], NEAR)
            covered.add(meant)
            wrong.append(f"a {kind.name} has no `{name}`{_meant(meant)}; it takes "
                         f"{', '.join(x.name for x in kind.fields)}.")
            continue
        value, problem = _value(f, raw)
        if problem is not None:
            wrong.append(problem)
        elif value is not None:
            values[f.name] = value
    for f in kind.fields:
        if f.required and f.name not in values and (f.name in cells or f.name in covered):
            continue  # already named as wrong, or as written in a misspelt column
        if f.required and f.name not in values:
            wrong.append(f"`{f.name}` is missing ({f.accepted()}).")
    return values, wrong


def _value(f: Field, raw: Any) -> tuple[Value | None, str | None]:
    shown = (("true" if raw else "false") if isinstance(raw, bool) else str(raw))[:40]  # as TOML spells it
    bad = f"`{f.name}` must be {f.accepted()}, not “{shown}”."
    if f.kind == "int":
        if isinstance(raw, bool):
            return None, bad
        if isinstance(raw, str):
            if not re.fullmatch(r"[+-]?\d{1,9}", raw.strip()):
                return None, bad
            raw = int(raw)
        if not isinstance(raw, int):
            return None, bad
        if (f.low is not None and raw < f.low) or (f.high is not None and raw > f.high):
            return None, bad
        return raw, None
    if f.kind == "bool":
        if isinstance(raw, bool):
            return raw, None
        text = str(raw).strip().lower()
        if text in TRUE:
            return True, None
        if text in FALSE:
            return False, None
        return None, bad
    if not isinstance(raw, str | int) or isinstance(raw, bool):
        return None, bad
    text = " ".join(str(raw).split())
    if not text:
        return None, None
    if f.kind == "user":
        return (text, None) if USER.match(text) else (None, bad)
    if f.choices:
        for choice in f.choices:
            if choice.lower() == text.lower():
                return choice, None
        meant = nearest(text, f.choices, NEAR)
        return None, bad + (f" Did you mean {meant}?" if meant else "")
    if len(text) > 100:
        return None, f"`{f.name}` may have at most 100 characters, not {len(text)}."
    if f.name in NAME_FIELDS:
        kept = inert_name(text)
        return (kept, None) if kept else (None, f"`{f.name}` has nothing but Discord markdown in it "
                                                f"(“{escaped(text[:40])}”); give a name with letters or digits.")
    return text, None


def kept_names(records: Sequence[Record]) -> list[str]:
    """A line for each name of ``records`` that Clerk keeps other than the file gave it (without its markdown), for
    the moderator's answer to an import."""
    return [f"{r.where()} ({r.kind}): `{name}` “{escaped(given)}” is kept as “{r.get(name)}”"
            for r in records for name, given in r.given.items()]


def user_id_of(cell: str) -> int | None:
    """The user id a ``user`` cell gives (``<@id>`` or the id), or None for ``@name`` (a name to look up)."""
    match = re.fullmatch(r"<@!?(\d+)>|(\d{15,20})", cell.strip())
    if match is None:
        return None
    return int(match[1] or match[2])
