"""The SQLite connection every engine of Clerk opens (``factory=`` of ``sqlite3.connect``): one that lets go of the
write lock when it is closed in the middle of a transaction.

``sqlite3.Connection.close()`` on a connection whose statement has not run to its end (an ``INSERT ... RETURNING``
whose row was not fetched yet) does not end its transaction: SQLite keeps the connection as a "zombie", its write
lock held, until that statement is finalized, that is until the garbage collector frees the cursor that holds it.
SQLAlchemy closes a connection so when a task is cancelled while it waits on the database (the pool invalidates
the connection, reason ``CancelledError``, and hard-closes it): seen on 2026-12-06 when a closing bot cancelled the
deadline scheduler while its lease's upsert waited for another writer. The upsert then got the lock, the
connection was closed under it, and every other writer of the file waited out the busy timeout (30 s) and was
refused. Here ``close`` rolls back a transaction still open first, as closing it would in the end."""

from __future__ import annotations

import contextlib
import sqlite3


class ReleasingConnection(sqlite3.Connection):
    """A ``sqlite3.Connection`` whose ``close`` ends an open transaction (rolled back) before it closes."""

    def close(self) -> None:
        # a rollback that fails (the connection already closed, a disk error) leaves the close to release what it can
        with contextlib.suppress(sqlite3.Error):
            if self.in_transaction:
                self.rollback()
        super().close()
