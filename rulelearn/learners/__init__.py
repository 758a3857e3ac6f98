"""CNF rule learners over a :class:`~rulelearn.learners.problem.CNFProblem`.

Every learner takes a :class:`~rulelearn.learners.clause.ClauseSolver` (so one
HiGHS model can serve many calls) and returns a :class:`LearnResult`.
"""

from collections.abc import Callable

from rulelearn.learners.am import am
from rulelearn.learners.bcd import bcd
from rulelearn.learners.result import LearnResult
from rulelearn.learners.sc import ocrl, set_cover

LEARNERS: dict[str, Callable[..., LearnResult]] = {"bcd": bcd, "am": am, "sc": set_cover,
                                                   "ocrl": ocrl}

__all__ = ["LEARNERS", "LearnResult", "am", "bcd", "ocrl", "set_cover"]
