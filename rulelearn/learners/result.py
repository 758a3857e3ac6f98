"""What a learner returns."""

from dataclasses import dataclass, field

import numpy as np


@dataclass
class LearnResult:
    """Clauses ``W`` (R x (d + 1), always-true last), objective, iterations, history."""

    W: np.ndarray
    objective: float
    n_iter: int = 0
    history: list = field(default_factory=list)
