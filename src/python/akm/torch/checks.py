"""The hyper-parameter ranges, checked when a group is added and again before every step (a
scheduler or the user may have changed a group since): a bad value raises ValueError naming the
value, its group and the valid range, before any parameter changes."""
import math
import numbers


def _real(v):
    """A finite real number (Python's or NumPy's), not a bool."""
    return isinstance(v, numbers.Real) and not isinstance(v, bool) and math.isfinite(v)


def _fail(key, v, i, rng):
    raise ValueError(f"{key} = {v!r} in param group {i}: must be {rng}")


def unit_interval(key, v, i):
    """β-like: in [0, 1) (β = 1 never forgets; β < 0 alternates in sign) [eq:dm-update]."""
    if not (_real(v) and 0.0 <= v < 1.0):
        _fail(key, v, i, "in [0, 1)")


def positive(key, v, i):
    if not (_real(v) and v > 0.0):
        _fail(key, v, i, "> 0 and finite")


def nonnegative(key, v, i):
    if not (_real(v) and v >= 0.0):
        _fail(key, v, i, ">= 0 and finite")


def learning_rate(v, i, at_step):
    """lr > 0 when a group is added; at a step lr = 0 is allowed, so that a schedule may decay
    to zero (the step then moves only the buffers)."""
    (nonnegative if at_step else positive)("lr", v, i)


def zero(key, v, i, why):
    if v != 0:
        _fail(key, v, i, f"0 ({why})")


def steps(key, v, i):
    if isinstance(v, bool) or not isinstance(v, numbers.Integral) or v < 1:
        _fail(key, v, i, "an integer >= 1")


def pair(key, v, i):
    if not (isinstance(v, (tuple, list)) and len(v) == 2):
        _fail(key, v, i, "a pair (β1, β2)")
    unit_interval(f"{key}[0]", v[0], i)
    unit_interval(f"{key}[1]", v[1], i)


def flag(key, v, i):
    if not isinstance(v, bool):
        _fail(key, v, i, "True or False")


def one_of(key, v, i, choices):
    """A named variant: v must be one of the strings in `choices`."""
    if not (isinstance(v, str) and v in choices):
        _fail(key, v, i, "one of " + ", ".join(repr(c) for c in choices))
