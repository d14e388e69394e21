"""The compiled methods of the dataclasses, kept between starts (issue 20, docs/performance-history.md,
"start-up imports").

Python 3.11 writes each dataclass's ``__init__``, ``__repr__``, ``__eq__``, ``__hash__``, ``__setattr__`` and
``__delattr__`` as source text and ``exec``s it: compiling those texts was 0.14 s of the 0.32 s that Clerk's own
modules take to import (260 dataclasses, about 70 us a method), at every start. The text of a method is fixed by its
class's definition, so its code object can be kept as the bytecode of a module is: ``python -m bot`` calls
``start`` before its imports and ``stop`` after them; in between, ``dataclasses`` compiles a text only if this
interpreter's cache (``bot/__pycache__/dataclass_code.<tag>.bin``) lacks it. The code is what ``compile`` returns for
that exact text (looked up by the whole text, not a hash of it), run with the same globals and locals, so the
classes are the same as without the cache. Nothing is written when Python writes no bytecode
(``PYTHONDONTWRITEBYTECODE``) or the folder is read-only; a cache that cannot be read is ignored."""

from __future__ import annotations

import dataclasses
import importlib.util
import marshal
import os
import sys
from pathlib import Path
from types import CodeType
from typing import Any

_PATH = Path(__file__).resolve().parent / "__pycache__" / f"dataclass_code.{sys.implementation.cache_tag}.bin"
_HEADER = b"clerk-dataclass-code 2\n" + importlib.util.MAGIC_NUMBER


def _read(path: Path) -> dict[str, CodeType]:
    try:
        data = path.read_bytes()
        if data.startswith(_HEADER):
            kept = marshal.loads(data[len(_HEADER):])
            if isinstance(kept, dict):
                return kept
    except (OSError, ValueError, EOFError, TypeError):
        pass
    return {}


class _Cache:
    def __init__(self, path: Path) -> None:
        self.path = path
        self.kept = _read(path)
        """Each text's code until it is used: let go as soon as it is (once held until the end of the imports, the
        cache left 2.7 MB more resident; this way 0.7 MB)."""
        self.new: dict[str, CodeType] = {}
        self.seen: set[int] = set()
        """The hashes of the texts of this start (to tell a text made twice from a new one, and for ``save``)."""

    @property
    def compiled(self) -> int:
        return len(self.new)

    def exec(self, source: Any, globals: Any = None, locals: Any = None) -> None:
        """``exec`` as ``dataclasses`` calls it, on a text: its code from the cache, or compiled and kept."""
        if not isinstance(source, str):
            exec(source, globals, locals)
            return
        code = self.kept.pop(source, None)
        if code is None:
            # dont_inherit: dataclasses' own exec compiles with that module's flags (none); without it the text would
            # take this module's ``from __future__ import annotations`` and the methods' annotations become strings
            code = compile(source, "<string>", "exec", dont_inherit=True)
            if hash(source) not in self.seen:  # not a text this start already took from the cache
                self.new[source] = code
        self.seen.add(hash(source))
        exec(code, globals, locals)

    def save(self) -> None:
        """Writes the cache if a text had to be compiled: what it held and what was compiled (a ``backup`` or the
        console, which import less than ``run``, keep ``run``'s methods); the methods of this start alone once the
        texts no class makes any more (old versions of edited classes) outnumber them four to one."""
        if not self.new or sys.dont_write_bytecode:
            return
        kept = {**_read(self.path), **self.new}
        if len(kept) > 4 * len(self.seen) + 1000:
            kept = {text: code for text, code in kept.items() if hash(text) in self.seen}
        tmp = self.path.with_name(f"{self.path.name}.{os.getpid()}.tmp")
        try:
            self.path.parent.mkdir(exist_ok=True)
            tmp.write_bytes(_HEADER + marshal.dumps(kept))
            os.replace(tmp, self.path)
        except OSError:
            tmp.unlink(missing_ok=True)


_active: _Cache | None = None


def start(path: Path = _PATH) -> None:
    """From now on, ``dataclasses`` takes the code of the methods it writes from the cache at ``path``."""
    global _active
    _active = _Cache(path)
    dataclasses.exec = _active.exec  # type: ignore[attr-defined]  # shadows the builtin in that module only


def stop() -> int:
    """``dataclasses`` compiles its texts itself again; the cache is written if it changed and let go. Returns how
    many texts had to be compiled."""
    global _active
    cache, _active = _active, None
    if cache is None:
        return 0
    if getattr(dataclasses, "exec", None) == cache.exec:
        del dataclasses.exec  # type: ignore[attr-defined]
    cache.save()
    return cache.compiled
