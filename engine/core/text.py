"""What Clerk does to text people type before reading it (docs/input.md), and the checks on free text.

``normalise`` is applied once, at the front door, to every DM and thread message (and by the parsers' tests to
every generated form), so every form reads the same variants the same way:

- Unicode NFKC: fullwidth letters and digits (``Ｖｏｔｅ： ａｙｅ， １４``), superscripts, ligatures and the
  like become their plain forms;
- invisible format characters (Unicode category Cf: zero-width space U+200B, joiners, the byte-order mark
  U+FEFF, direction marks, soft hyphens) are removed;
- other control characters (category Cc) except newline and tab become a space;
- Discord markdown decoration is removed: ``*``, `````, ``~~``, ``||`` and a doubled ``__`` (a single ``_``
  stays: card names like ``P_A`` use it);
- a quote around the first line is removed: Discord's quote mark (``> Vote: Aye``, ``>>> Vote: Aye``) and quotation
  marks around the whole line (``“Vote: Nay”``, ``"Vote: Nay"``): players copy a form from an announcement;
- mentions of the bot or anyone else at the very start (``<@123> Vote: Aye``) are dropped: they address the
  message, they are not part of the form.

Nothing else is changed: case is left to the parsers (they all ignore it) and names keep their spelling."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Iterable
from typing import TypeVar

T = TypeVar("T")

_MARKDOWN = re.compile(r"\*+|`+|~~|\|\||__")
_LEADING_MENTIONS = re.compile(r"^(?:\s*<@!?\d+>)+\s*")
_QUOTE_MARK = re.compile(r"^[ \t]*(?:>>>|>)[ \t]+")
_QUOTED_LINE = re.compile(r"^([ \t]*)[“\"„«]([^\n]*)[”\"“»]([ \t]*)$")
MASS_MENTION = re.compile(r"@(?:everyone|here)\b|<@&\d+>", re.IGNORECASE)
"""A ping of everyone, of everyone online, or of a role."""
ANY_MENTION = re.compile(r"@(?:everyone|here)\b|<@[!&]?\d+>|<#\d+>", re.IGNORECASE)
"""Any Discord mention markup, including users and channels."""
MAX_DIGITS = 9
"""A number in a form has at most this many digits (below a billion): more is refused, never read."""


def _kept(ch: str) -> str:
    category = unicodedata.category(ch)
    if category == "Cf":
        return ""
    if category == "Cc" and ch not in "\n\t":
        return " "
    return ch


_FORMAT = re.compile(
    "[\u00ad\u0600-\u0605\u061c\u06dd\u070f\u0890-\u0891\u08e2\u180e\u200b-\u200f\u202a-\u202e\u2060-\u2064"
    "\u2066-\u206f\ufeff\ufff9-\ufffb\U000110bd\U000110cd\U00013430-\U00013438\U0001bca0-\U0001bca3"
    "\U0001d173-\U0001d17a\U000e0001\U000e0020-\U000e007f]")
"""Every character of Unicode category Cf (format: zero-width, joiners, BOM, bidi controls...) in Python 3.11's
Unicode 14; ``tests/test_fuzz_parsers.py`` checks it against ``unicodedata``. One pattern replaces them in C: a Python
call per character made a 4,000-character DM cost most of a millisecond."""
_CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f]")
"""Category Cc (fixed by Unicode: U+0000..U+001F and U+007F..U+009F) but newline and tab."""


def normalise(text: str) -> str:
    """``text`` as the parsers read it (see the module docstring)."""
    plain = unicodedata.normalize("NFKC", text)
    plain = _CONTROL.sub(" ", plain if plain.isascii() else _FORMAT.sub("", plain))
    plain = _MARKDOWN.sub("", plain)
    return _unquoted(_LEADING_MENTIONS.sub("", plain))


def _unquoted(text: str) -> str:
    """``text`` without a quote around its first line that is not blank: ``> Vote: Aye`` and ``“Vote: Nay”`` are the
    forms a player copied, quoted (play-test P4.5). The further lines are left as they are."""
    blank = len(text) - len(text.lstrip())
    head, newline, rest = text[blank:].partition("\n")
    plain = _QUOTED_LINE.sub(r"\1\2\3", _QUOTE_MARK.sub("", head, count=1), count=1)
    return text[:blank] + plain + newline + rest


_STRUCK = re.compile(r"~~(?=[^~\s])([^\n]*?[^~\s])~~")
"""Struck-out text on one line: ``~~Aye~~``."""


def struck_out(text: str) -> tuple[list[str], str] | None:
    """The struck-out parts of ``text``'s first line that is not blank, as typed (``~~Aye~~`` -> ``Aye``), and that
    line without them, as ``normalise`` reads it; None when nothing on it is struck out. ``normalise`` keeps struck
    text (a name with ``~~`` in it reads as the name kept: ``inert_name``), so a form reads ``Vote: ~~Aye~~ Nay`` as
    ``Vote: Aye Nay``; a DM asks first (play-test P4.6)."""
    line = next((row for row in text.splitlines() if row.strip()), "")
    parts = _STRUCK.findall(line)
    if not parts:
        return None
    return parts, first_line(normalise(_STRUCK.sub(" ", line)))


def collapsed(text: str) -> str:
    """Every run of whitespace (spaces, tabs, newlines, U+2029...) as one space, none at the ends. The parsers read
    a collapsed line, so names keep no double spaces and no pattern ever meets a long run of blanks (docs/input.md:
    a parse takes time in proportion to the text)."""
    return " ".join(text.split())


def first_line(text: str) -> str:
    """The first line of ``text`` (after leading blank lines), collapsed: what a form is read from."""
    stripped = text.strip()
    return collapsed(stripped.splitlines()[0]) if stripped else ""


LATER_LINES = 5
"""How many lines after a message's first are looked at for a form written below it (never read as one)."""


def later_lines(text: str) -> list[tuple[int, str]]:
    """The next ``LATER_LINES`` lines after a message's first, each collapsed (``first_line``) and numbered from 1 as
    the player sees them, blank ones left out. Only a message's first line is read as a form; these are looked at to
    point to a form written below it, or to refuse a message that holds two different ballots or choices (play-tests
    P3.1, Q3.1, Q3.2, M5.10)."""
    rows = text.strip().splitlines()[1:1 + LATER_LINES]
    return [(number, line) for number, row in enumerate(rows, start=2) if (line := first_line(row))]


_GAME_TAG = re.compile(r"(?<!\S)(?:#([\w-]+)|\(#([\w-]+)\))(?=[\s,;.!?]|$)")
"""A ``#game``: after a space (or first), so ``C# Guild`` stays a name; brackets around it (``(#rep)``) read through;
followed by a space, a comma, a semicolon, a stop or the end. Searched in time linear in the line (it starts at a
``#`` or ``(#`` and reads one run of word characters)."""


def game_tags(line: str, *, anywhere: bool = False) -> tuple[str, tuple[str, ...]]:
    """The one reading of a ``#game`` tag, for a player in several games (docs/input.md "A #game tag"): ``line``
    (collapsed, ``first_line``) without its tags, and the games they name, as first typed, each once (ignoring case).

    ``anywhere=False`` (a form whose words after the keyword are a name: ``Primary: Lee Adams #rep``, ``AG Vote:``,
    ``Second:``): only a tag at the very end is one (a ``.``, ``!`` or ``?`` after it read through:
    ``Primary: Lee Adams #rep.``), so a name may hold `` #2`` (``Budget #2 by Dorn``); at most one game.
    ``anywhere=True`` (a form of fixed words and numbers: ``Vote: Aye #sirius, 11``): every tag after the keyword
    (play-test P5.3); the caller refuses two different games. No tag: (``line``, ())."""
    if not anywhere:
        last = None
        for match in _GAME_TAG.finditer(line):
            last = match
        if last is None or line[last.end():].strip(".!?"):
            return line, ()
        return line[:last.start()].strip(), (last[1] or last[2],)
    found = [match[1] or match[2] for match in _GAME_TAG.finditer(line)]
    if not found:
        return line, ()
    first: dict[str, str] = {}
    for tag in found:
        first.setdefault(tag.lower(), tag)
    tags = tuple(first.values())
    body = collapsed(_GAME_TAG.sub(" ", line)).replace(" ,", ",").replace(" ;", ";")
    return body, tags


def split_game_tag(line: str) -> tuple[str, str | None]:
    """``Vote: Aye #sirius`` -> (``Vote: Aye``, ``sirius``): ``game_tags`` of a tag at the very end (a ``.``, ``!``
    or ``?`` after it, or brackets around it: ``(#sirius)``, read through). No tag -> (``line``, None)."""
    body, tags = game_tags(line)
    return body, (tags[0] if tags else None)


def several_games(tags: tuple[str, ...], form: str) -> str:
    """What is wrong with a ``form`` (``ballot``, ``choice``...) that names two different games (``game_tags(...,
    anywhere=True)``): it is for one game, and picking one of them would be a guess."""
    return (f"it names {len(tags)} games ({', '.join(f'#{tag.lower()}' for tag in tags)}); a {form} is for one "
            "game: send one message for each game")


def head_and_rest(line: str, joining: tuple[str, ...] = ()) -> tuple[str, str]:
    """A hint's reading of a line no form read (``Front.dm_meant``): its keyword, lower case, and the rest. The
    keyword ends at the first ``:``, else at a ``;`` (the key beside it), else at the first space; an ``I`` in front
    and a ``joining`` word after the keyword are dropped: ``I vote for Debs`` -> (``vote``, ``Debs``), ``Second;
    with Dorn`` -> (``second``, ``Dorn``). For a suggestion only: nothing is read from it."""
    if line[:2].lower() == "i ":
        line = line[2:]
    head, colon, rest = line.partition(":")
    if not colon:
        head, colon, rest = line.partition(";")
    if not colon:
        head, _, rest = line.partition(" ")
    rest = rest.strip(" .!")
    word, _, after = rest.partition(" ")
    if word.lower() in joining:
        rest = after
    return head.strip().lower(), rest


_LINK = re.compile(r"\[([^\[\]]*)\]\([^()]*\)")
"""A masked link ``[words](address)``: its words are kept."""
_MENTION_TOKEN = re.compile(r"<(?:[@#][!&]?\d*|t:[^<>]*|/[^<>]*)>|<a?(:\w+:)\d*>")
"""Discord's ``<...>`` syntax: a mention (``<@123>``, ``<@&123>``, ``<#123>``), a timestamp, a command (gone) and a
custom emoji (its ``:name:``)."""
_NAME_MARKDOWN = re.compile(r"[*`\\<>]|~~|\|\||__")
"""What ``normalise`` takes out of typed text (``*``, backticks, ``~~``, ``||``, ``__``), and in a name also the
backslash (``x\\`` before Clerk's own ``**`` would escape it) and angle brackets (``<@123>``, ``<#1>``, ``<t:1>``)."""
_ITALIC = re.compile(r"(?<![^\W_])_(?=[^\s_])(.*?[^\s_])_(?![^\W_])")
"""A ``_words_`` pair (italics); a ``_`` inside a word (``jenny_k``, ``P_A``) or alone (``jenny_``) is not one."""
_LINE_MARK = re.compile(r"^(?:#{1,3}|-#|>{1,3}|[-+]|\d{1,9}\.)(?:\s+|$)")
"""What makes a line a heading (``# ``), subtext (``-# ``), a quote (``> ``) or a list item (``- ``, ``1. ``)."""


_INERT = re.compile(r"[A-Za-z][A-Za-z0-9.]*+(?:_[A-Za-z0-9.]++)*+")
"""A letter, then letters, digits and dots, a single ``_`` only between them: a name ``inert_name`` leaves as it is."""


def inert_name(name: str) -> str:
    """A name Clerk did not write (a player's, a faction's, a holding's, a candidate's, a Motion's), as Clerk keeps
    and shows it: with nothing in it that Discord reads as markdown (play-test P4.1, docs/rulings.md "Names are kept
    without markdown"). Applied where a name enters Clerk (a Discord name, a moderator's ``name`` option, an import's
    ``name``, a Motion's title) and to a name typed to find one, so a kept name can always be typed and matched:

    - NFKC, format characters (bidi overrides, zero-width) and control characters out, whitespace runs as one space;
    - a masked link ``[words](address)`` is its words;
    - ``*``, backticks, ``~~``, ``||``, ``__``, backslashes and angle brackets are taken out, as are ``_words_`` pairs
      (a ``_`` inside a word, ``jenny_k``, stays);
    - a heading, subtext, quote or list mark at the start (``# ``, ``-# ``, ``> ``, ``- ``, ``1. ``) and a leading
      ``@`` are taken out.

    The rest is left as it is. A name of nothing else is ``""``: the caller refuses it or gives its own fallback.
    The same name twice reads the same (``inert_name(inert_name(x)) == inert_name(x)``)."""
    if _INERT.fullmatch(name):  # a Discord username as most are (jenny_k): nothing to take out, read on every DM
        return name
    return _inert(name)


def name_key(name: str) -> str:
    """A name as names are compared: in any case, runs of spaces as one."""
    return " ".join(name.casefold().split())


def same_name(kept: str, typed: str) -> bool:
    """Whether ``typed`` names the name ``kept``: in any case and spacing, as typed, or both read as ``inert_name``
    reads them, so a name typed with its markdown again (``**Ann**``, ``[Deneb](http://…)``) finds the name Clerk kept
    without it (play-test P4.1), and a name kept with markdown before then is found as given or as it shows."""
    if name_key(kept) == name_key(typed):
        return True
    bare = name_key(inert_name(typed))
    return bool(bare) and name_key(inert_name(kept)) == bare


def find_named(items: Iterable[T], typed: str, name: Callable[[T], str]) -> T | None:
    """The first of ``items`` whose ``name`` is ``typed`` (``same_name``): a name as typed first, so of two names
    kept before names were kept without markdown (``**Ann**`` and ``Ann``) each is found as given; then either read
    without markdown. Every lookup of a name a person types (a holding, Faction, card, candidate, territory...) goes
    through here (play-test P4.1: a name typed with markdown was not found)."""
    listed = list(items)
    typed_key = name_key(typed)
    exact = next((item for item in listed if name_key(name(item)) == typed_key), None)
    if exact is not None:
        return exact
    return next((item for item in listed if same_name(name(item), typed)), None)


def _inert(name: str) -> str:
    """``inert_name`` without its shortcut."""
    shown = unicodedata.normalize("NFKC", name)
    shown = _CONTROL.sub(" ", shown if shown.isascii() else _FORMAT.sub("", shown))
    while True:
        before = shown
        shown = _NAME_MARKDOWN.sub("", _MENTION_TOKEN.sub(r"\1", _LINK.sub(r"\1", shown)))
        shown = _ITALIC.sub(r"\1", collapsed(shown))
        shown = _LINE_MARK.sub("", shown).lstrip("@ ")
        if shown == before:
            return shown


_PUNCTUATION = re.compile(r"([!-/:-@\[-`{-~])")


def escaped(text: str) -> str:
    """``text`` shown as it was typed, markdown and all, in a Discord message: every ASCII punctuation character with
    a backslash before it (Discord reads ``\\*`` as a ``*``). For quoting back to a moderator what a name was given
    as (``inert_name``); the names Clerk keeps need no escaping."""
    return _PUNCTUATION.sub(r"\\\1", text)


def typed_back(text: str, limit: int = 80) -> str:
    """A name someone typed that Clerk could not find, quoted back in a refusal: in quotes, cut to ``limit``
    characters, and shown as typed: where it has Discord markdown (``||Sela||``, ``**Ann**``) that markdown is
    escaped, so the refusal shows what was typed rather than a spoiler or bold text; a name without any (the usual
    case) is quoted as it is, with no backslashes to read in the console or a transcript."""
    shown = " ".join(text.split())
    cut = shown[:limit] + ("…" if len(shown) > limit else "")
    return f"“{cut}”" if inert_name(shown) == shown else f"“{escaped(cut)}”"


def plain_name(name: str) -> str:
    """A Discord name as Clerk keeps and shows it: ``inert_name`` (no format characters such as the bidi override
    U+202E, which would reorder a line Clerk posts (issue 21), and no markdown (play-test P4.1)). A name of nothing
    else is shown as ``?``."""
    return inert_name(name) or ("?" if name else "")


def invisible_only(text: str) -> bool:
    """Nothing a reader can see: empty, whitespace, or only zero-width/format characters."""
    return all(ch.isspace() or unicodedata.category(ch) in ("Cf", "Cc") for ch in text)


def control_characters(text: str, keep: str = "\n\t") -> list[str]:
    """The control characters in ``text`` other than those in ``keep``, as ``U+0007`` codes (no repeats)."""
    found = dict.fromkeys(f"U+{ord(ch):04X}" for ch in text if unicodedata.category(ch) == "Cc" and ch not in keep)
    return list(found)


def whole_number(digits: str, limit: int = 10**MAX_DIGITS - 1) -> int | None:
    """``digits`` (decimal digits of any script, as ``int()`` reads them) as an int, or None when it is not such a
    number or is above ``limit``. Never raises: ``²`` or a 5000-digit string is None, not a ValueError."""
    if not digits or len(digits) > MAX_DIGITS or not digits.isdecimal():
        return None
    value = int(digits)
    return value if value <= limit else None
