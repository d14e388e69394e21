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

_MARKDOWN = re.compile(r"\*+|`+|~~|\|\||__")
_LEADING_MENTIONS = re.compile(r"^(?:\s*<@!?\d+>)+\s*")
_QUOTE_MARK = re.compile(r"^[ \t]*(?:>>>|>)[ \t]+")
_QUOTED_LINE = re.compile(r"^([ \t]*)[“\"„«]([^\n]*)[”\"“»]([ \t]*)$")
MASS_MENTION = re.compile(r"@(?:everyone|here)\b|<@&\d+>", re.IGNORECASE)
"""A ping of everyone, of everyone online, or of a role."""
ANY_MENTION = re.compile(r"@(?:everyone|here)\b|<@[!&]?\d+>|<#\d+>", re.IGNORECASE)
"""Any Discord mention markup, including users and channels."""
_TAG = re.compile(r"[\w-]+")
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


def collapsed(text: str) -> str:
    """Every run of whitespace (spaces, tabs, newlines, U+2029...) as one space, none at the ends. The parsers read
    a collapsed line, so names keep no double spaces and no pattern ever meets a long run of blanks (docs/input.md:
    a parse takes time in proportion to the text)."""
    return " ".join(text.split())


def first_line(text: str) -> str:
    """The first line of ``text`` (after leading blank lines), collapsed: what a form is read from."""
    stripped = text.strip()
    return collapsed(stripped.splitlines()[0]) if stripped else ""


def split_game_tag(line: str) -> tuple[str, str | None]:
    """``Vote: Aye #sirius`` -> (``Vote: Aye``, ``sirius``): a ``#game`` at the very end, after a space, for a
    player in several games. ``line`` is collapsed (``first_line``); no tag -> (line, None). Linear: the tag is
    found with ``rpartition``, not a pattern searched from every position."""
    head, sep, tag = f" {line}".rpartition(" #")
    if sep and _TAG.fullmatch(tag):
        return head.strip(), tag
    return line, None


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


def plain_name(name: str) -> str:
    """A Discord name as Clerk keeps and shows it: without format characters (the bidi overrides and isolates such as
    U+202E, zero-width characters) and control characters, which would reorder or hide the rest of a line Clerk
    posts (issue 21). A name of nothing else is shown as ``?``."""
    shown = _CONTROL.sub("", _FORMAT.sub("", name.replace("\n", " ").replace("\t", " "))).strip()
    return shown or ("?" if name else "")


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
