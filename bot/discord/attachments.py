"""A file too large for Discord: each interaction says how large an attachment may be (``attachment_size_limit``,
discord.py's ``Interaction.filesize_limit``: 10 MB on most servers, more on boosted ones), and Discord refuses a
larger one (HTTP 413). A game's export of a long, large game can be larger. Such a file goes compressed (gzip: a
JSON or CSV export is a tenth of its size or less), and if even that is too large it is left out; either way the
answer says so, with the sizes. ``python -m bot console --from`` reads a compressed export as it is. Compressing
megabytes takes a while: the delivery calls ``fitted`` in a worker thread when a file is over the limit."""

from __future__ import annotations

import gzip
from dataclasses import replace

import discord

from bot.actions.outbox import Outgoing

TOO_LARGE = 40005
"""Discord's code for a request whose body is too large (HTTP 413)."""


def refused_as_too_large(error: discord.HTTPException) -> bool:
    """Did Discord refuse a request as too large (HTTP 413, or its code 40005)?"""
    return error.status == 413 or error.code == TOO_LARGE


def size_text(n: int) -> str:
    """``12.3 MB`` (megabytes as Discord counts them, 2**20 bytes, to one decimal), or ``900 KB`` under a megabyte;
    cut, not rounded."""
    if n < 2**20:
        return f"{n // 1024} KB" if n >= 1024 else f"{n} bytes"
    tenths = n * 10 // 2**20
    return f"{tenths // 10}.{tenths % 10} MB" if tenths % 10 else f"{tenths // 10} MB"


def with_note(item: Outgoing, note: str) -> Outgoing:
    return replace(item, text=f"{item.text}\n{note}" if item.text else note)


def fitted(item: Outgoing, limit: int) -> Outgoing:
    """``item`` with its file as Discord takes it under ``limit`` bytes: as it is, compressed, or left out."""
    if item.file is None or len(item.file[1]) <= limit:
        return item
    name, data = item.file
    packed = gzip.compress(data, compresslevel=6, mtime=0)  # 6: zlib's own default, a third of 9's time; mtime 0:
    # the same file gives the same bytes
    if len(packed) <= limit:
        return with_note(replace(item, file=(f"{name}.gz", packed)),
                         f"{name} is {size_text(len(data))}, more than the {size_text(limit)} Discord lets me attach "
                         f"here, so it comes compressed as {name}.gz ({size_text(len(packed))}; any unzip program "
                         "opens it).")
    return left_out(item, f"it is {size_text(len(data))} ({size_text(len(packed))} compressed), more than the "
                          f"{size_text(limit)} Discord lets me attach here")


def left_out(item: Outgoing, why: str) -> Outgoing:
    """``item`` without its file, its text saying which file was left out and why."""
    assert item.file is not None
    return with_note(replace(item, file=None, alt=""), f"{item.file[0]} is left out: {why}.")
