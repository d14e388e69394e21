"""CSV files for spreadsheets, as ``/game export format:csv`` sends them (docs/export.md)."""

from __future__ import annotations

import csv
import io
from typing import Any


def csv_bytes(columns: tuple[str, ...], rows: list[dict[str, Any]]) -> bytes:
    """``rows`` under a header of ``columns``, CRLF lines, UTF-8 with a BOM."""
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=columns, lineterminator="\r\n")
    writer.writeheader()
    writer.writerows(rows)
    return ("\ufeff" + out.getvalue()).encode()  # the BOM makes spreadsheets read UTF-8
