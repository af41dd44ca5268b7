r"""What a shared task shows to whom, and when: the hidden qrels must not leak before the lecturer releases them.

Before the deadline a student sees, for each of their own submissions: the public findings of the run
doctor (:mod:`irlab.sharedtask.scoring`), and its mean on the measures shown before the deadline (the
primary measure by default, or every measure if the lecturer chose so), with its 95% bootstrap interval
and whether it is significantly better or worse than the baseline. The leaderboard shows the same for
each student's best run. Nothing per topic, no qrels, no count of relevant documents, no Judged@10.

After the deadline nothing more is shown until the lecturer **releases** it (:data:`RELEASES`):
every measure's mean; per-topic scores (each student's own runs; the leaderboard's runs for
everyone); the qrels themselves. A release before the deadline is refused by the store.

**How much can scores disclose?** A mean shown to 4 decimals is one of at most 10,001 values in
[0, 1], so it carries at most :math:`\log_2 10001 \approx 13.3` bits about the qrels; an interval adds
two such numbers and the comparison with the baseline one of three answers (:math:`\log_2 3` bits).
A student who submits :math:`s` runs and sees :math:`m` measures therefore learns at most

.. math:: s \cdot m \cdot (3 \log_2 10001 + \log_2 3) \text{ bits}

(:func:`probe_bits`): about 124 bits for the defaults (3 runs, the primary measure), e.g. whether
each of 124 chosen documents is relevant, out of the thousands of judgments of a TREC-like qrels.
That is the price of a leaderboard; the lecturer sets it with the number of submissions and the
measures shown. Identities cannot be multiplied to buy more: on a roster task each student has one
personal link, made by the lecturer; on a class task a seat comes from joining the class, which the
class limits (:mod:`irlab.classroom.ratelimit`), and the lecturer sees every participant. A run
refused for its format, or the same run sent again, costs no submission and discloses nothing
(its message is about the file); its scoring takes the same path whatever the qrels say, and the
page shows the result only once it is stored.

>>> round(probe_bits(submissions=3, measures=1))
124
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass

from irlab.errors import ValidationError
from irlab.sharedtask.definition import TaskDefinition

RELEASES = {
    "measures": "every measure's mean",
    "per_topic": "per-topic scores",
    "qrels": "the qrels",
}
"""What a lecturer can release after the deadline, by name."""
DECIMALS = 4
"""Scores are shown to 4 decimals, as trec_eval prints them."""


def probe_bits(*, submissions: int, measures: int) -> float:
    """The most a student learns about the qrels from their scored submissions, in bits (see the module)."""
    return submissions * measures * (3 * math.log2(10 ** DECIMALS + 1) + math.log2(3))


def check_releases(names: Iterable[object]) -> frozenset[str]:
    """The release names, checked against :data:`RELEASES`."""
    found = frozenset(str(n) for n in names)
    unknown = found - set(RELEASES)
    if unknown:
        raise ValidationError(f"one can release {', '.join(RELEASES)}; not {', '.join(sorted(unknown))}")
    return found


@dataclass(frozen=True)
class Disclosure:
    """What may be shown now (see the module): the deadline passed or not, and what has been released."""

    definition: TaskDefinition
    after_deadline: bool
    released: frozenset[str]

    @property
    def measures(self) -> tuple[str, ...]:
        """The measures whose means students see now."""
        everything = self.definition.visible_before == "all" or (self.after_deadline and "measures" in self.released)
        return self.definition.measures if everything else (self.definition.primary,)

    @property
    def per_topic(self) -> bool:
        return self.after_deadline and "per_topic" in self.released

    @property
    def qrels(self) -> bool:
        return self.after_deadline and "qrels" in self.released
