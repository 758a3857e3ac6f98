"""The test oracle of the fast clause solver: the straightforward loop.

:class:`ReferenceClauseSolver` builds every clause LP from scratch in a new HiGHS model with
HiGHS's defaults (presolve on), with no answer reuse; tests check that the fast path learns the
same rules, and ``studies/perf/perf.py`` times the two against each other (it imports this module).
"""

from rulelearn.learners.clause import ClauseSolver
from rulelearn.learners.formulation import ClauseLP


class ReferenceClauseSolver(ClauseSolver):
    """The straightforward loop: a new HiGHS model (presolve on) for every clause LP."""

    def __init__(self, problem, **kwargs):
        super().__init__(problem, formulation="primal", screen=False, **kwargs)
        self._solves = 0
        self._iterations = 0

    @property
    def n_solves(self):
        return self._solves

    @property
    def total_iterations(self):
        return self._iterations

    def fit(self, neg_weight, theta, cap=None):
        self._lp = ClauseLP(self.problem, "primal", presolve=True)
        self._cache = {}
        fit = super().fit(neg_weight, theta, cap)
        self._solves += 1
        self._iterations += fit.iterations
        return fit
