"""The transcript format (docs/transcripts.md): one event a line.

``NAME PLACE: TEXT`` is something a user says (PLACE is ``dm``, ``#channel`` or ``#channel/thread``); indented
lines ``  | MORE`` right after it continue that message on further lines (a thread post's body under its title);
``NAME press: LABEL`` presses the button with that label (or that custom_id) on the most recent message sent to
NAME that has one; ``NAME choose: OPTION`` chooses an option of the select menu of such a message; ``NAME explain:
CARD`` is **Explain this** on the result card the console numbered CARD; ``! VERB ARGS`` is a directive (moderator,
role, time, wait, hold, release, redeliver).
``# `` starts a comment, but ``#channel`` and ``Vote: Aye #sirius`` do not: a comment is a ``#`` followed by a
space (or the end of the line) at the start of the line or after a space, outside double quotes."""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from datetime import datetime, timedelta

from engine.core.durations import parse_duration, parse_utc
from engine.core.errors import ParseError

NAME = r"[A-Za-z0-9_][A-Za-z0-9_.-]*"
_SAID = re.compile(rf"^(?P<name>{NAME})\s+(?P<place>[Dd][Mm]|#[\w-]+(?:/[\w-]+)?)\s*:[ \t]?(?P<text>.*)$")
_PRESS = re.compile(rf"^(?P<name>{NAME})\s+[Pp][Rr][Ee][Ss][Ss]\s*:[ \t]?(?P<label>.*)$")
_CHOOSE = re.compile(rf"^(?P<name>{NAME})\s+[Cc][Hh][Oo][Oo][Ss][Ee]\s*:[ \t]?(?P<option>.*)$")
_EXPLAIN = re.compile(rf"^(?P<name>{NAME})\s+[Ee][Xx][Pp][Ll][Aa][Ii][Nn]\s*:[ \t]?(?P<card>.*)$")
_MORE = re.compile(r"^[ \t]+\|[ \t]?(?P<text>.*)$")
_NAMED = re.compile(rf"^@?(?P<name>{NAME})$")
CONTINUES = "a `  | ...` line continues the message on the line just before it, and there is none"
FORMS = ("`NAME dm: TEXT`, `NAME #channel: TEXT`, `NAME #channel/thread: TEXT`, `NAME press: BUTTON`, "
         "`NAME choose: OPTION`, `NAME explain: CARD` or `! directive`")
EXPLAIN_USAGE = ("`NAME explain: CARD`, CARD the number of a result card (the console marks each one "
                 "`[Explain this: card 3]`)")
DIRECTIVES = {
    "moderator": "`! moderator NAME`",
    "role": "`! role NAME ROLE`",
    "time": "`! time 2026-03-01 18:00` (UTC)",
    "wait": "`! wait 2h30m`",
    "hold": "`! hold` (deadlines wait until `! release`)",
    "release": "`! release`",
    "redeliver": "`! redeliver` (the previous message again) or `! redeliver LINE`",
}


class TranscriptError(Exception):
    """A line that is not in the transcript format; ``str()`` names the line and what was expected."""

    def __init__(self, line: int, message: str) -> None:
        super().__init__(f"line {line}: {message}")
        self.line = line
        self.message = message


@dataclass(frozen=True)
class Said:
    """``NAME PLACE: TEXT``. ``channel`` is None for a DM; ``thread`` is set for ``#channel/thread``."""

    line: int
    name: str
    channel: str | None
    thread: str | None
    text: str
    more: int = 0
    """How many ``  | MORE`` lines continue the message (they follow line ``line``)."""

    @property
    def is_dm(self) -> bool:
        return self.channel is None


@dataclass(frozen=True)
class Press:
    """``NAME press: LABEL``: NAME presses a button (by its label, or its custom_id) of the most recent message
    sent to them that has such a button."""

    line: int
    name: str
    label: str


@dataclass(frozen=True)
class Choose(Press):
    """``NAME choose: OPTION``: NAME chooses OPTION (an option's label, its first word such as ``#sirius``, or its
    value) in the select menu of the most recent message sent to them whose menu offers it. ``label`` holds the
    option; it is a kind of press, so ``! redeliver`` repeats it."""


@dataclass(frozen=True)
class Explain:
    """``NAME explain: CARD``: NAME uses **Explain this** (Discord's message menu) on the result card the console
    numbered CARD (``[Explain this: card CARD]`` under it); it records nothing; ``! redeliver`` does not repeat it."""

    line: int
    name: str
    card: int


@dataclass(frozen=True)
class Directive:
    line: int
    verb: str
    name: str | None = None
    role: str | None = None
    when: datetime | None = None
    delta: timedelta | None = None
    target: int | None = None


Event = Said | Directive | Press | Explain


def strip_comment(line: str) -> str:
    """The line without its comment: ``#`` followed by a space or the end, at the start or after a space."""
    quoted = False
    for i, char in enumerate(line):
        if char == '"':
            quoted = not quoted
        elif char == "#" and not quoted:
            starts = i == 0 or line[i - 1].isspace()
            ends = i + 1 == len(line) or line[i + 1].isspace()
            if starts and ends:
                return line[:i].rstrip()
    if line.lstrip().startswith("#"):
        return ""
    return line.rstrip()


def continuation(raw: str) -> str | None:
    """The text of a ``  | MORE`` line (a further line of the message above it), else None."""
    more = _MORE.match(strip_comment(raw.rstrip("\r\n")))
    return more["text"].rstrip() if more else None


def add_line(said: Said, text: str) -> Said:
    return replace(said, text=f"{said.text}\n{text}", more=said.more + 1)


def parse_line(raw: str, number: int) -> Event | None:
    """One transcript line as an event, None for a blank or comment line; TranscriptError if malformed (a
    ``  | MORE`` line too: only ``parse_transcript`` and the console, which see the line before, join them)."""
    text = strip_comment(raw.rstrip("\r\n"))
    if not text.strip():
        return None
    if continuation(text) is not None:
        raise TranscriptError(number, CONTINUES)
    stripped = text.strip()
    if stripped.startswith("!"):
        return _directive(stripped[1:].strip(), number)
    press = _PRESS.match(stripped)
    if press is not None:
        if not press["label"].strip():
            raise TranscriptError(number, "expected `NAME press: LABEL` (the button's label), got no label")
        return Press(number, press["name"], press["label"].strip())
    choose = _CHOOSE.match(stripped)
    if choose is not None:
        if not choose["option"].strip():
            raise TranscriptError(number, "expected `NAME choose: OPTION` (an option of a menu), got no option")
        return Choose(number, choose["name"], choose["option"].strip())
    explain = _EXPLAIN.match(stripped)
    if explain is not None:
        card = explain["card"].strip().removeprefix("card").strip()
        if not (card.isascii() and card.isdigit()):
            got = f"“{explain['card'].strip()}”, which is not a card number" if explain["card"].strip() else "no card"
            raise TranscriptError(number, f"expected {EXPLAIN_USAGE}, got {got}")
        return Explain(number, explain["name"], int(card))
    said = _SAID.match(stripped)
    if said is None:
        raise TranscriptError(number, f"expected {FORMS}, got “{stripped}”{_hint(stripped)}")
    place = said["place"]
    channel = thread = None
    if place.lower() != "dm":
        channel, _, thread_name = place[1:].partition("/")
        thread = thread_name or None
    return Said(number, said["name"], channel, thread, said["text"].strip())


def _hint(text: str) -> str:
    head, colon, _ = text.partition(":")
    words = head.split()
    if colon and len(words) == 1:
        return f" (say where: `{words[0]} dm: ...` or `{words[0]} #channel: ...`)"
    if colon and len(words) == 2 and not words[1].startswith("#"):
        return f" (a channel is written with #: `{words[0]} #{words[1]}: ...`)"
    return ""


def _directive(body: str, number: int) -> Directive:
    verb, _, rest = body.partition(" ")
    verb = verb.lower()
    rest = rest.strip()
    if verb not in DIRECTIVES:
        known = ", ".join(DIRECTIVES.values())
        raise TranscriptError(number, f"unknown directive “! {body}”; the directives are {known}")
    usage = DIRECTIVES[verb]
    if verb == "moderator":
        name = _NAMED.match(rest)
        if name is None:
            raise TranscriptError(number, f"expected {usage}, got “! {body}”")
        return Directive(number, verb, name=name["name"])
    if verb == "role":
        parts = rest.split()
        found = [_NAMED.match(p) for p in parts]
        if len(parts) != 2 or not all(found):
            raise TranscriptError(number, f"expected {usage}, got “! {body}”")
        return Directive(number, verb, name=found[0]["name"], role=found[1]["name"])  # type: ignore[index]
    if verb == "time":
        try:
            return Directive(number, verb, when=parse_utc(rest))
        except ParseError:
            raise TranscriptError(number, f"expected {usage} or with seconds (`23:59:59`), got “! {body}”") from None
    if verb == "wait":
        try:
            return Directive(number, verb, delta=parse_duration(rest))
        except ParseError:
            raise TranscriptError(number, f"expected {usage} (units w, d, h, m, s), got “! {body}”") from None
    if verb == "redeliver":
        if not rest:
            return Directive(number, verb)
        if not rest.isdigit():
            raise TranscriptError(number, f"expected {usage}, got “! {body}”")
        return Directive(number, verb, target=int(rest))
    if rest:
        raise TranscriptError(number, f"expected {usage}, got “! {body}”")
    return Directive(number, verb)


def parse_transcript(lines: list[str]) -> tuple[list[Event], list[TranscriptError]]:
    """Every event of a transcript, and every malformed line (so all of them can be reported at once)."""
    events: list[Event] = []
    errors: list[TranscriptError] = []
    said: dict[int, Said | Press] = {}
    for number, raw in enumerate(lines, start=1):
        more = continuation(raw)
        if more is not None:
            last = events[-1] if events else None
            if isinstance(last, Said) and last.line + last.more + 1 == number:
                events[-1] = said[last.line] = add_line(last, more)
            else:
                errors.append(TranscriptError(number, CONTINUES))
            continue
        try:
            event = parse_line(raw, number)
        except TranscriptError as error:
            errors.append(error)
            continue
        if event is None:
            continue
        if isinstance(event, Directive) and event.verb == "redeliver":
            target = event.target if event.target is not None else max(said, default=None)
            if target is None:
                errors.append(TranscriptError(number, "`! redeliver` needs an earlier message to deliver again"))
                continue
            if target not in said:
                errors.append(TranscriptError(number, f"`! redeliver {target}`: line {target} is not a message"))
                continue
        if isinstance(event, Said | Press):
            said[number] = event
        events.append(event)
    return events, errors
