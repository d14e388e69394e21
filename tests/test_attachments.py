"""The sizes an answer about a file too large shows, cut and never rounded up, and what ``fitted`` does with a file
under, over and far over the limit (bot/discord/attachments.py; the answers as Discord shows them:
tests/e2e/test_large_files.py)."""

from __future__ import annotations

import gzip
import os

from bot.actions.outbox import Here, Outgoing
from bot.discord.attachments import fitted, size_text


def test_sizes_read_as_discord_counts_them_cut_not_rounded() -> None:
    assert [size_text(n) for n in (0, 200, 1023, 1024, 1_048_575, 2**20, 10 * 2**20, 2**20 * 123 // 10 + 1,
                                   2**20 * 124 // 10 - 1)] == [
        "0 bytes", "200 bytes", "1023 bytes", "1 KB", "1023 KB", "1 MB", "10 MB", "12.3 MB", "12.3 MB"]


def test_a_file_under_the_limit_goes_as_it_is_over_it_compressed_and_far_over_it_not_at_all() -> None:
    text = b'{"events": [' + b'{"kind": "BallotCast"}, ' * 5000 + b"]}"
    item = Outgoing(Here(), "Export of sirius.", file=("sirius.json", text), alt="the export")
    assert fitted(item, len(text)) is item
    packed = fitted(item, len(text) - 1)
    assert packed.file is not None and packed.file[0] == "sirius.json.gz"
    assert gzip.decompress(packed.file[1]) == text and fitted(item, len(text) - 1).file == packed.file  # the same bytes
    assert packed.text.startswith("Export of sirius.\nsirius.json is 117 KB, more than the 117 KB Discord lets me ")
    noise = os.urandom(5000)  # does not compress
    gone = fitted(Outgoing(Here(), file=("noise.bin", noise), alt="noise"), 4000)
    assert gone.file is None and gone.alt == ""
    assert gone.text.startswith("noise.bin is left out: it is 4 KB (4 KB compressed), more than the 3 KB Discord ")
