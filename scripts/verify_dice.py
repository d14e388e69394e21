#!/usr/bin/env python3
"""Check Clerk's dice by yourself (docs/dice.md). Standalone: Python 3.8+ and its standard library only.

From a game export (``/game export``), every revealed seed and each of its rolls:

    python3 scripts/verify_dice.py export.json [--round N]

From the values Clerk posted (the commitment at the opening, the seed and salt with the result) and the rolls you
read (``/verify`` lists them as "purpose (roll INDEX, dSIDES): FACE"):

    python3 scripts/verify_dice.py --commitment C --seed S --salt T --roll "d6 for faction Boars" 0 6 4

Prints a line per roll and exits 0 if the seed matches the commitment and every face is what the seed gives, 1 if
anything does not, 2 if the input cannot be read. This file repeats the scheme on purpose instead of importing
Clerk: what you check should not depend on the program being checked."""

from __future__ import annotations

import argparse
import hashlib
import json
import sys

SPAN = 2 ** 256


def sha256_hex(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def face(seed: str, purpose: str, index: int, sides: int) -> int:
    """1 + x mod sides for x = sha256("seed|purpose|index") read as a number, if x is below the largest multiple of
    sides not above 2**256; else the next try hashes "seed|purpose|index|k" for k = 1, 2, ..."""
    limit = SPAN - SPAN % sides
    attempt = 0
    while True:
        text = f"{seed}|{purpose}|{index}" + (f"|{attempt}" if attempt else "")
        x = int(sha256_hex(text), 16)
        if x < limit:
            return 1 + x % sides
        attempt += 1


def check(label: str, commitment: str, seed: str, salt: str, rolls: list[dict[str, object]]) -> bool:
    ok = sha256_hex(f"{seed}|{salt}") == commitment
    print(f"{label}: sha256(seed|salt) {'matches' if ok else 'does NOT match'} the commitment {commitment}")
    for r in rolls:
        purpose, index, sides, got = str(r["purpose"]), int(str(r["index"])), int(str(r["sides"])), int(str(r["face"]))
        sealed = r.get("sealed")
        if sealed:
            good = 1 <= got <= sides and sha256_hex(f"{salt}|{purpose}|{got}") == sealed
            print(f"  {'ok ' if good else 'BAD'} {purpose}: {got}, set by a moderator, "
                  f"{'matches' if good else 'does NOT match'} its seal {sealed}")
        else:
            want = face(seed, purpose, index, sides)
            good = want == got
            print(f"  {'ok ' if good else 'BAD'} {purpose} (roll {index}, d{sides}): {got}"
                  + ("" if good else f", but the seed gives {want}"))
        ok = ok and good
    return ok


def from_export(path: str, only: int | None) -> bool:
    with open(path, encoding="utf-8") as f:
        doc = json.load(f)
    scopes = doc.get("dice")
    if not isinstance(scopes, list):
        raise ValueError(f"{path} has no 'dice' section (an export from before verifiable dice?)")
    ok, checked = True, 0
    for scope in scopes:
        number = int(scope["scope"])
        if only is not None and number != only:
            continue
        label = "base rolls" if number == 0 else f"round {number}"
        if "seed" not in scope:
            print(f"{label}: not revealed yet (commitment {scope['commitment']}); nothing to check")
            continue
        ok = check(label, scope["commitment"], scope["seed"], scope["salt"], list(scope.get("rolls", []))) and ok
        checked += 1
    if checked == 0:
        print("No revealed seed to check" + (f" for round {only}." if only is not None else "."))
    return ok


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Check Clerk's dice against the commitment it posted.")
    parser.add_argument("export", nargs="?", help="a game export (JSON)")
    parser.add_argument("--round", type=int, help="only this round (0: the base rolls)")
    parser.add_argument("--commitment")
    parser.add_argument("--seed")
    parser.add_argument("--salt")
    parser.add_argument("--roll", nargs=4, action="append", default=[], metavar=("PURPOSE", "INDEX", "SIDES", "FACE"))
    args = parser.parse_args(argv)
    try:
        if args.export:
            ok = from_export(args.export, args.round)
        elif args.commitment and args.seed and args.salt:
            rolls = [{"purpose": p, "index": int(i), "sides": int(s), "face": int(f)} for p, i, s, f in args.roll]
            ok = check("given values", args.commitment, args.seed, args.salt, list(rolls))
        else:
            parser.error("give an export file, or --commitment, --seed and --salt (and --roll for each roll)")
    except (OSError, ValueError, KeyError) as e:
        print(f"Cannot check: {e}", file=sys.stderr)
        return 2
    print("Everything checks out." if ok else "Something does NOT check out (lines marked BAD).")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
