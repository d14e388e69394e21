"""A test ruleset, "council": a plain yes/no vote with a per-member weight, played by naming this package in
config.toml (``rulesets = ["council"]``). It lives only under tests/ and plugs into Clerk as a shipped ruleset does,
through its two records: ``RULESET`` (the service layer's, ``service.py``) and ``FRONT`` (the front's, ``front.py``);
its pure rules are in ``rules.py``. It is the proof that the ruleset seam is real (issue 15)."""

from .front import FRONT
from .service import RULESET

__all__ = ["FRONT", "RULESET"]
