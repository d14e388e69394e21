"""Unexpected errors: logged with their context and a short error id, which the user's apology quotes so a
moderator can find the traceback in the log."""

from __future__ import annotations

import logging
import secrets

log = logging.getLogger("clerk.errors")


def logged(message: str, *args: object) -> str:
    """Log the exception being handled with ``message % args`` and a new error id; return the id."""
    error_id = secrets.token_hex(4)
    log.exception("[error %s] " + message, error_id, *args, extra={"error_id": error_id})
    return error_id


def apology(what: str, error_id: str) -> str:
    """``Sorry, something went wrong on my side and <what>. … (error id 3f2a9c1b)``."""
    return (f"Sorry, something went wrong on my side and {what}. If it keeps happening, give the moderators the "
            f"error id **{error_id}**; the details are in the bot's log.")


def storage_refusal(what: str, again: str = "send it again in a minute") -> str:
    """The answer to a command the database refused to record (``engine.store.faults.StorageFault``): it says what
    happened and what to do, and no technical detail (the log and the moderators' notice have that)."""
    return (f"I could not record {what} right now: my database is not taking writes at the moment. Nothing was "
            f"counted; please {again}.")
