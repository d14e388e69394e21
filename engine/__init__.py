"""Clerk's engine: pure rules (``engine.core``, ``engine.landsdraad``), the store and the services."""
