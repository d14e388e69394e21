"""Counters for operators, in the Prometheus text exposition format (``/metrics`` of the health endpoint,
``bot/discord/health.py``). Plain text written here: no client library.

The hooks (``ballot_recorded``, ``command_run``, ``discord_error``) are called where the events happen and only add
one to a number in memory; they never fail and never wait. The pure rules (``engine/<ruleset>/``) and the service
layer never import this. The counts are this process's since it started (Prometheus' ``rate()`` copes with the reset
at a restart); several processes each have their own."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

Labels = tuple[tuple[str, str], ...]


@dataclass(frozen=True)
class Family:
    name: str
    help: str
    type: str = "counter"


BALLOTS = Family("clerk_ballots_recorded_total", "Ballots recorded (committed), by ruleset and kind of ballot.")
COMMANDS = Family("clerk_commands_total", "Slash commands run, by command name (refused ones included).")
DISCORD_ERRORS = Family("clerk_discord_errors_total", "Discord HTTP answers with an error status (4xx, 5xx), by code.")


@dataclass
class Metrics:
    counters: dict[Family, dict[Labels, int]] = field(default_factory=dict)

    def inc(self, family: Family, amount: int = 1, **labels: str) -> None:
        values = self.counters.setdefault(family, {})
        key = tuple(sorted(labels.items()))
        values[key] = values.get(key, 0) + amount

    def value(self, family: Family, **labels: str) -> int:
        """The count of ``family`` with exactly these labels (0 if never counted); tests read deltas of it."""
        return self.counters.get(family, {}).get(tuple(sorted(labels.items())), 0)

    def render(self, gauges: Iterable[tuple[Family, Mapping[Labels, float]]] = ()) -> str:
        """Every counter, then ``gauges`` (measured at the scrape), in the text exposition format 0.0.4."""
        lines: list[str] = []
        families = [(f, {k: float(v) for k, v in self.counters.get(f, {}).items()})
                    for f in (BALLOTS, COMMANDS, DISCORD_ERRORS)]
        for family, values in [*families, *gauges]:
            lines.append(f"# HELP {family.name} {family.help}")
            lines.append(f"# TYPE {family.name} {family.type}")
            for labels, value in sorted(values.items()):
                lines.append(f"{family.name}{label_text(labels)} {number(value)}")
        return "\n".join(lines) + "\n"


def label_text(labels: Labels) -> str:
    if not labels:
        return ""
    return "{" + ",".join(f'{key}="{escape(value)}"' for key, value in labels) + "}"


def escape(value: str) -> str:
    """A label value as the format wants it: backslash, double quote and line feed escaped."""
    return value.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")


def number(value: float) -> str:
    if value != value:  # NaN
        return "NaN"
    if value in (float("inf"), float("-inf")):
        return "+Inf" if value > 0 else "-Inf"
    return str(int(value)) if float(value).is_integer() else repr(float(value))


METRICS = Metrics()
"""This process's counters."""


def ballot_recorded(ruleset: str, kind: str) -> None:
    """A ballot was committed (call after the service returned its receipt)."""
    METRICS.inc(BALLOTS, ruleset=ruleset, kind=kind)


def command_run(name: str) -> None:
    METRICS.inc(COMMANDS, command=name)


def discord_error(status: int) -> None:
    METRICS.inc(DISCORD_ERRORS, code=str(status))
