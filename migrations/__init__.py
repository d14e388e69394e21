"""Alembic migrations for Clerk's database. Applied at start by ``engine.store.migrate``."""
