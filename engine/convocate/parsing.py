"""Reading what players write (text -> command): ``Motion: <name> by <Convocant>`` with optional further lines,
``Motion of Repeal: <Statute> by <Convocant>``, and the answer to an offer to second, ``Second: <Convocant>``,
``Second: yes`` or ``Second: no``. Also the card data moderators type: Seat faces, card lists, Sections."""

from __future__ import annotations

import re
from dataclasses import dataclass

from engine.convocate.board import Face
from engine.convocate.motions import MotionCard
from engine.core.errors import ParseError
from engine.core.suggest import nearest
from engine.core.text import collapsed, first_line, head_and_rest, later_lines, split_game_tag, whole_number

MOTION_FORM = "`Motion: <name> by <Convocant>`"
REPEAL_FORM = "`Motion of Repeal: <Statute> by <Convocant>`"
SECOND_FORM = "`Second: <Convocant>`, `Second: yes` (your only eligible Convocant) or `Second: no`"
MOTION_LINES = ("further lines, each optional: `Moved: <text>`, `Seconded: <text>` (`Seconded: none` for a Motion "
                "with no Seconded box; text that begins `Instead` replaces the Moved text), `Morality: <Morality>`, "
                "`Targets: <targets>`, `Only: <Character>`")
ACCEPTED = f"{MOTION_FORM} (then {MOTION_LINES}), {REPEAL_FORM}, or {SECOND_FORM}"


@dataclass(frozen=True)
class MoveMotion:
    motion: MotionCard
    convocant: str


@dataclass(frozen=True)
class MoveRepeal:
    statute: str
    convocant: str


@dataclass(frozen=True)
class SecondAnswer:
    accept: bool
    convocant: str | None = None
    game: str | None = None


Command = MoveMotion | MoveRepeal | SecondAnswer

# The first line is collapsed before these are matched (``collapsed``): one space at most in a row, none at the ends,
# so no ``\s*`` meets a long run of blanks (issue 14).
_REPEAL = re.compile(r"^motion of repeal ?:(?P<rest>.*)$", re.IGNORECASE)
_MOTION = re.compile(r"^motion ?:(?P<rest>.*)$", re.IGNORECASE)
_SECOND = re.compile(r"^second(?:ed)? ?:(?P<rest>.*)$", re.IGNORECASE)
_NEAR_REPEAL = re.compile(r"^repeal ?:(?P<rest>.*)$", re.IGNORECASE)
"""``Repeal: <Statute> by <Convocant>``: a Motion of Repeal without its first words (answered with the form)."""
_KEY = re.compile(r"[A-Za-z][A-Za-z ]*")
FIELDS = {"moved": "moved", "seconded": "seconded", "morality": "morality", "targets": "targets",
          "target": "targets", "only": "only", "restricted to": "only", "moved by": "only"}


def _field(line: str) -> tuple[str, str] | None:
    """``Moved: the text`` -> (``moved``, ``the text``): a further line of a Motion; None when it is not ``key: value``
    (the key letters and spaces). The value is kept as typed, but for its ends."""
    key, colon, value = line.partition(":")
    key = collapsed(key)
    if not colon or not _KEY.fullmatch(key):
        return None
    return key.lower(), value.strip()


def looks_like(text: str) -> bool:
    """The first line starts like one of these forms (``Motion…:``, ``Second:``)."""
    line = first_line(text)
    return bool(_REPEAL.match(line) or _MOTION.match(line) or _SECOND.match(line) or _NEAR_REPEAL.match(line)
                or re.match(r"^\s*motion\b[^:]*:", line, re.IGNORECASE))


def _split_by(text: str, rest: str, form: str) -> tuple[str, str]:
    # the last " by " splits the name from the Convocant: Convocants' names rarely contain " by "
    idx = rest.lower().rfind(" by ")
    if idx <= 0 or not rest[idx + 4:].strip():
        raise ParseError(text, form, problem="name the Convocant who moves it, after `by`")
    return " ".join(rest[:idx].split()), " ".join(rest[idx + 4:].split())


def parse(text: str) -> Command | None:
    """A message as a Convocate command, or None when it is not one (ordinary chat). A message that starts like
    one but cannot be read raises ParseError."""
    stripped = text.strip()
    if not stripped:
        return None
    lines = stripped.splitlines()
    head = collapsed(lines[0])
    if (found := _REPEAL.match(head)) is not None:
        return _repeal(text, found["rest"].strip(), lines[1:])
    if (found := _MOTION.match(head)) is not None:
        return _motion(text, found["rest"].strip(), lines[1:])
    if (found := _SECOND.match(head)) is not None:
        answer = _second(text, found["rest"].strip())
        _one_answer(text, answer)
        return answer
    if (found := _NEAR_REPEAL.match(head)) is not None:
        raise ParseError(text, REPEAL_FORM, suggestion=f"Motion of Repeal: {found['rest'].strip()}"[:200],
                         problem="a Repeal is moved as a Motion of Repeal")
    if re.match(r"^\s*motion\b[^:]*:", head, re.IGNORECASE):
        raise ParseError(text, f"{MOTION_FORM} or {REPEAL_FORM}",
                         suggestion="Motion of Repeal: " + head.split(":", 1)[1].strip()
                         if "repeal" in head.lower() else None,
                         problem="that is not a Motion form")
    return None


def _repeal(text: str, rest: str, body: list[str]) -> MoveRepeal:
    """``Motion of Repeal: <Statute> by <Convocant>``, with no card under it."""
    if body and any(line.strip() for line in body):
        extra = _field(next(line for line in body if line.strip()))
        if extra is not None and extra[0] in FIELDS:
            raise ParseError(text, REPEAL_FORM, problem="the Motion of Repeal has no card: no Morality, no "
                                                        "Seconded box, no other text")
    statute, who = _split_by(text, rest, REPEAL_FORM)
    return MoveRepeal(statute, who)


def _motion(text: str, rest: str, body: list[str]) -> MoveMotion:
    """``Motion: <name> by <Convocant>`` and the card's lines under it."""
    name, who = _split_by(text, rest, f"{MOTION_FORM} (then {MOTION_LINES})")
    fields: dict[str, str] = {}
    for line in body:
        if not line.strip():
            continue
        field = _field(line)
        key = field[0] if field else ""
        if field is None or key not in FIELDS:
            near = nearest(key, FIELDS, cutoff=0.7) if key else None
            raise ParseError(text, MOTION_LINES, suggestion=f"{near.capitalize()}: ..." if near else None,
                             problem=f"“{line.strip()}” is not one of the Motion's lines")
        fields[FIELDS[key]] = field[1]
    motion = MotionCard(name, morality=fields.get("morality") or None, moved=fields.get("moved", ""),
                        seconded=fields.get("seconded"), only=fields.get("only") or None,
                        targets=fields.get("targets", ""))
    return MoveMotion(motion, who)


def _second(text: str, rest_tagged: str) -> SecondAnswer:
    """``Second: yes, <Convocant>`` (or ``no``), with an optional ``#game``."""
    rest, game = split_game_tag(rest_tagged)
    words = rest.strip(" .!").lower()
    if words in ("no", "n", "pass", "decline", "no thanks"):
        return SecondAnswer(False, None, game)
    if words in ("yes", "y", "aye", "i second", ""):
        if not words:
            raise ParseError(text, SECOND_FORM, problem="say whom you second with, or yes or no")
        return SecondAnswer(True, None, game)
    yes = re.match(r"^(?:yes|aye)\s*[,:-]?\s*(?:with\s+)?(?P<who>.+)$", rest.strip(), re.IGNORECASE)
    who = yes["who"] if yes else re.sub(r"^with\s+", "", rest.strip(), flags=re.IGNORECASE)
    # a closing full stop and quotation marks around the name are not part of it (play-test Q5.1)
    who = who.strip().rstrip(".!").strip() or who
    if len(who) > 2 and who[0] in "\"“‘'" and who[-1] in "\"”’'":
        who = who[1:-1].strip() or who
    return SecondAnswer(True, " ".join(who.split()), game)


def _said(answer: SecondAnswer) -> str:
    return ("no" if not answer.accept else "yes" if answer.convocant is None else answer.convocant)


def _one_answer(text: str, answer: SecondAnswer) -> None:
    """Refuse ``Second: Lady Mirel`` with ``Second: no`` (or another Convocant) on a later line: only the first line
    is read, but which answer is meant is not clear, and a second cannot be taken back (play-test Q3.2)."""
    for number, row in later_lines(text):
        found = _SECOND.match(row)
        if found is None:
            continue
        try:
            other = _second(text, found["rest"].strip())
        except ParseError:
            continue
        if _said(other).lower() != _said(answer).lower():
            raise ParseError(text, SECOND_FORM, problem=f"your message holds two answers, {_said(answer)} on its "
                                                        f"first line and {_said(other)} on line {number}; send the "
                                                        "one you mean, alone")


FACES_FORM = ("faces such as `prime: 0..4 directive; contested: 0..4` (a face's name, its GOVT range or values, and "
              "`directive` if that face prints Directive); leave a range out for the bloc's default")
_SIGN = "[-+−]?"
"""A sign: ``-``, ``+`` or the minus sign U+2212. (Written ``[+-−]`` it was the range U+002B..U+2212, which takes in
letters, digits, ``.`` and ``²``: issue 21.)"""
_RANGE = re.compile(rf"^({_SIGN}\d) ?(?:\.\.|to) ?({_SIGN}\d)$")


def _value(text: str) -> int:
    return int(text.replace("−", "-"))


def parse_govt_values(text: str, whole: str) -> frozenset[int]:
    values: set[int] = set()
    for part in text.split(","):
        part = collapsed(part)
        if not part:
            continue
        span = _RANGE.match(part)
        if span:
            low, high = _value(span[1]), _value(span[2])
            if low > high:
                raise ParseError(whole, FACES_FORM, problem=f"“{part}” runs backwards")
            values.update(range(low, high + 1))
        elif re.fullmatch(rf"{_SIGN}\d", part):
            values.add(_value(part))
        elif part.lower() == "none":
            continue
        else:
            raise ParseError(whole, FACES_FORM, problem=f"“{part}” is not a GOVT value or range")
    if any(abs(v) > 4 for v in values):
        raise ParseError(whole, FACES_FORM, problem="GOVT runs from -4 to +4")
    return frozenset(values)


def parse_faces(text: str) -> tuple[Face, ...]:
    """``prime: 0..4 directive; contested: 0..4`` -> two faces. A face without a range uses the default (None)."""
    faces: list[Face] = []
    for part in text.split(";"):
        part = part.strip()
        if not part:
            continue
        name, colon, spec = part.partition(":")
        if not colon:
            name, spec = "prime", part
        name = name.strip() or "prime"
        words = spec.split()
        directive = any(w.lower().strip(",") == "directive" for w in words)
        rest = " ".join(w for w in words if w.lower().strip(",") != "directive").strip(" ,")
        values = parse_govt_values(rest, text) if rest else None
        if any(f.name.lower() == name.lower() for f in faces):
            raise ParseError(text, FACES_FORM, problem=f"the face “{name}” is named twice")
        faces.append(Face(name.lower(), values, directive))
    if not faces:
        raise ParseError(text, FACES_FORM)
    return tuple(faces)


def parse_names(text: str) -> list[str]:
    """``P_A, K_A and J_A`` -> the card names."""
    parts = re.split(r",|;| and | & ", " ".join(text.split()))  # whitespace collapsed first: no backtracking
    return [" ".join(p.split()) for p in parts if p.strip()]


SECTIONS_FORM = "one-time Sections such as `1, 3` or `1; 2: Rank + 1 = 3` (a Section's number, and its cost if any)"


def parse_one_time(text: str) -> tuple[tuple[int, ...], dict[int, str]]:
    """``1; 2: Rank + 1 = 3`` -> ((1, 2), {2: "Rank + 1 = 3"})."""
    numbers: list[int] = []
    costs: dict[int, str] = {}
    for part in text.split(";"):
        part = part.strip()
        if not part:
            continue
        if re.fullmatch(r"\d+(\s*,\s*\d+)*", part):
            numbers += [_section(text, n.strip()) for n in part.split(",")]
            continue
        found = re.fullmatch(r"(\d+)\s*[:=]\s*(.+)", part)
        if found is None:
            raise ParseError(text, SECTIONS_FORM, problem=f"“{part}” is not a Section number")
        numbers.append(_section(text, found[1]))
        costs[_section(text, found[1])] = found[2].strip()
    return tuple(dict.fromkeys(numbers)), costs


def _section(text: str, digits: str) -> int:
    number = whole_number(digits, 999)
    if number is None:
        raise ParseError(text, SECTIONS_FORM, problem=f"“{digits[:20]}” is not a Section number up to 999")
    return number


_ANSWERING = {"vote", "second", "seconded", "answer", "reply"}
"""Words a player may put before a Convocant, ``yes`` or ``no`` when they mean ``Second:``."""
_IT = ("it", "that", "this", "the motion", "that motion", "this motion")
"""What a player seconds when they name no Convocant: the Motion offered (``Second: yes``)."""
_SECONDING = {"second", "seconded", *(f"{verb} {it}" for verb in ("second", "seconded") for it in _IT)}


def meant_form(text: str) -> str | None:
    """The Convocate form a DM that no form reads most likely meant, or None: ``Yes`` -> ``Second: yes``, ``No``
    -> ``Second: no``, ``Vote: Dorn`` or ``second dorn`` -> ``Second: Dorn``. A hint for the answer only."""
    line, game = split_game_tag(first_line(text))
    tag = f" #{game}" if game else ""
    if len(line) > 100:
        return None
    words = line.strip(" .!").lower()
    if words in ("yes", "y", "aye", "no", "n", "nay", "pass", "decline"):
        return f"Second: {'yes' if words in ('yes', 'y', 'aye') else 'no'}{tag}"
    if words.removeprefix("i ") in _SECONDING:  # "Second", "I second it": with the only eligible Convocant
        return f"Second: yes{tag}"
    head, rest = head_and_rest(line, ("with",))
    if head not in _ANSWERING or not rest:
        return None
    if rest.lower() in ("yes", "aye", "no", "nay", *_IT):
        return f"Second: {'no' if rest.lower() in ('no', 'nay') else 'yes'}{tag}"
    return f"Second: {rest}{tag}"
