"""Which driver errors are storage faults (engine/store/faults.py), by the codes the drivers give, and which are
not (a bug or a constraint keeps its traceback and the apology)."""

from __future__ import annotations

import sqlite3

import pytest
from sqlalchemy.exc import IntegrityError, OperationalError

from engine.store.faults import BUSY, FULL, IO, READ_ONLY, UNREACHABLE, StorageFault, fault_kind, storage_fault


def sqlite_error(name: str, message: str = "x") -> OperationalError:
    error = sqlite3.OperationalError(message)
    error.sqlite_errorname = name
    return OperationalError("INSERT …", {}, error)


class PgError(Exception):
    def __init__(self, state: str) -> None:
        super().__init__(f"state {state}")
        self.sqlstate = state


@pytest.mark.parametrize(("name", "kind"), [
    ("SQLITE_FULL", FULL), ("SQLITE_READONLY", READ_ONLY), ("SQLITE_READONLY_DBMOVED", READ_ONLY),
    ("SQLITE_BUSY", BUSY), ("SQLITE_BUSY_SNAPSHOT", BUSY), ("SQLITE_LOCKED", BUSY), ("SQLITE_IOERR_SHMSIZE", IO),
    ("SQLITE_CANTOPEN", IO), ("SQLITE_CONSTRAINT_UNIQUE", None), ("SQLITE_ERROR", None),
])
def test_sqlite_codes(name: str, kind: str | None) -> None:
    assert fault_kind(sqlite_error(name)) == kind


@pytest.mark.parametrize(("state", "kind"), [
    ("53100", FULL), ("25006", READ_ONLY), ("42501", READ_ONLY), ("55P03", BUSY), ("57014", BUSY), ("58030", IO),
    ("08006", UNREACHABLE), ("23505", None), ("40001", None), ("42P01", None),
    # a server restarting, starting up, out of connections (play-test V5.1)
    ("57P01", UNREACHABLE), ("57P02", UNREACHABLE), ("57P03", UNREACHABLE), ("53300", UNREACHABLE),
])
def test_postgresql_codes(state: str, kind: str | None) -> None:
    assert fault_kind(OperationalError("INSERT …", {}, PgError(state))) == kind


def test_a_refused_connection_is_unreachable_and_a_bug_is_no_fault() -> None:
    assert fault_kind(ConnectionRefusedError(111, "Connection refused")) == UNREACHABLE
    assert fault_kind(ValueError("a bug")) is None
    assert storage_fault(IntegrityError("INSERT …", {}, sqlite3.IntegrityError("UNIQUE"))) is None


def test_the_players_text_has_no_detail_and_the_detail_is_one_line() -> None:
    fault = storage_fault(sqlite_error("SQLITE_FULL", "database or disk\n is full"))
    assert isinstance(fault, StorageFault)
    assert fault.detail == "database or disk is full"
    assert "disk" not in str(fault) and "Nothing was counted" in str(fault)
    assert fault.what == "the disk is full"
