"""Benchmarks: ratios of Clerk against the floors of its own stack, measured in one run (`make bench`).

They print their figures; nothing here is a timed assertion (docs/performance.md keeps the latest table)."""
