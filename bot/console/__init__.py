"""Clerk without Discord: the offline console and transcript replay (docs/transcripts.md)."""
