"""CNF rule learners over a :class:`~rulelearn.learners.problem.CNFProblem`.

Every learner takes a :class:`~rulelearn.learners.clause.ClauseSolver` (so one
HiGHS model can serve many calls), θ and the options it uses, and returns a
:class:`LearnResult`. :func:`run_learner` calls one by name with only those options.
"""

import inspect
from collections.abc import Callable

from threadpoolctl import ThreadpoolController

from rulelearn.learners.am import am
from rulelearn.learners.bcd import bcd
from rulelearn.learners.cg import cg
from rulelearn.learners.clause import ClauseSolver
from rulelearn.learners.result import LearnResult
from rulelearn.learners.sc import ocrl, set_cover

LEARNERS: dict[str, Callable[..., LearnResult]] = {"bcd": bcd, "am": am, "sc": set_cover,
                                                   "ocrl": ocrl, "cg": cg}

#: The options each learner takes after the solver and θ (OCRL: none; SC: ``max_rules``).
LEARNER_OPTIONS: dict[str, tuple[str, ...]] = {
    name: tuple(inspect.signature(learner).parameters)[2:] for name, learner in LEARNERS.items()}


_THREADPOOLS: list[ThreadpoolController] = []  # made on first use (after numpy and scipy load)


def run_learner(method: str, solver: ClauseSolver, theta: float, *, max_rules: int,
                max_iter: int = 100, start: str = "sc", polish: bool = False,
                perturb: int = 0) -> LearnResult:
    """Learner ``method`` on ``solver`` at ``theta``, given the options it takes of these
    (``polish``, ``perturb``: BCD and AM, :func:`~rulelearn.learners.descent.descend`).

    BLAS runs single-threaded meanwhile: the learners' products (a weight vector
    times every negative, AM's cluster centres) are small, and on a loaded
    machine a second BLAS thread waiting for a core made them 10 to 30 times
    slower (half of a MAGIC AM θ path). The vector products (LP costs, the
    rounding's sums) came out bitwise the same with one and two threads on MAGIC
    and Musk; AM's cluster centres (a matrix product) differed in the last bits
    (up to 4e-13), which can only matter to ℓ1 distances tied that closely (MAGIC's
    AM rules were the same at all 8 θ of the inner CV's grid). One thread also
    makes them independent of the machine's core count.
    """
    given = {"max_rules": max_rules, "max_iter": max_iter, "start": start, "polish": polish,
             "perturb": perturb}
    if not _THREADPOOLS:
        _THREADPOOLS.append(ThreadpoolController())
    with _THREADPOOLS[0].limit(limits=1, user_api="blas"):
        return LEARNERS[method](solver, theta, **{name: given[name]
                                                  for name in LEARNER_OPTIONS[method]})


__all__ = ["LEARNERS", "LEARNER_OPTIONS", "LearnResult", "am", "bcd", "cg", "ocrl", "run_learner",
           "set_cover"]
