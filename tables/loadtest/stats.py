"""What a load test counts: actions, latencies, refusals, errors by kind."""

from __future__ import annotations

import math
import statistics
from collections import Counter
from dataclasses import dataclass, field

# Refusals a correct player can meet: two bots (or a bot and a person) reaching
# for the same free seat at once. Every other notice is an error.
EXPECTED_SIT_NOTICES = ("Someone else took that seat.", "That seat changed before your click arrived")
MAX_EXAMPLES = 3


@dataclass
class Stats:
    latencies_ms: list[float] = field(default_factory=list)
    latencies_by_action: dict[str, list[float]] = field(default_factory=dict)
    by_action: Counter = field(default_factory=Counter)
    actions: int = 0
    # Sent after the run's end, while the bots leave together: counted, but
    # kept out of the latency figures (a burst no table sees in real play).
    drain_actions: int = 0
    frames: int = 0
    frame_bytes: int = 0  # the frames' text, as the page gets it
    wire_bytes: int = 0  # what came off the sockets: compressed frames, their headers, the handshakes
    reconnects: int = 0
    errors: Counter = field(default_factory=Counter)
    examples: dict[str, list[str]] = field(default_factory=dict)
    expected_refusals: Counter = field(default_factory=Counter)

    def error(self, kind: str, detail: str = "") -> None:
        self.errors[kind] += 1
        samples = self.examples.setdefault(kind, [])
        if detail and len(samples) < MAX_EXAMPLES:
            samples.append(detail[:300])

    def answered(self, action: str, started: float, received: float) -> None:
        latency = (received - started) * 1000
        self.latencies_ms.append(latency)
        self.latencies_by_action.setdefault(action, []).append(latency)

    @property
    def error_count(self) -> int:
        return sum(self.errors.values())

    def latency_summary(self, action: str | None = None, *, since: int = 0) -> dict[str, float | int | None]:
        """Count, nearest-rank percentiles, max and mean in ms: of every action, or of one kind.

        `since`: the first `since` answered (of them all, or of that kind) left out: the run's progress, window by window.
        """
        answered = self.latencies_ms if action is None else self.latencies_by_action.get(action, [])
        values = sorted(answered[since:])
        if not values:
            return {"n": 0, "p50": None, "p95": None, "p99": None, "max": None, "mean": None}

        def percentile(p: float) -> float:
            return round(values[max(1, math.ceil(p / 100 * len(values))) - 1], 1)

        return {
            "n": len(values),
            "p50": percentile(50),
            "p95": percentile(95),
            "p99": percentile(99),
            "max": round(values[-1], 1),
            "mean": round(statistics.fmean(values), 1),
        }
