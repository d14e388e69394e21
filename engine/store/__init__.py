"""Persistence: SQLAlchemy 2.x async models, the database engine, and migrations."""
