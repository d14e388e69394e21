"""Discord's size limits, and cutting text to fit them without ever failing a send."""

from __future__ import annotations

CONTENT = 2000
EMBED_TITLE = 256
EMBED_DESCRIPTION = 4096
EMBED_FIELDS = 25
FIELD_NAME = 256
FIELD_VALUE = 1024
FOOTER = 2048
EMBED_TOTAL = 6000
COMMAND_DESCRIPTION = 100
ALT_TEXT = 1024
"""An attachment's description (its alt text)."""
ELLIPSIS = "…"


def clip(text: str, limit: int) -> str:
    """``text`` if it fits, else cut to ``limit`` characters ending in an ellipsis; never inside a timestamp's
    markup (``<t:1772395200:F>``), which would show as broken text."""
    if len(text) <= limit:
        return text
    kept = text[: max(limit - len(ELLIPSIS), 0)]
    start = kept.rfind("<t:")
    if start >= 0 and ">" not in kept[start:]:
        kept = kept[:start]
    return kept + ELLIPSIS
