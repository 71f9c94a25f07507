"""The numbers of a bench_result record, as the kernel computes them (tests/owncode/aggregate.c):
integers in hundredths, so that the host can check the kernel's `value` against its `values`
exactly, and print nanoBench's two decimals.

    hundredths(difference, repetitions)   one measurement: difference * 100 / repetitions
    aggregate(values, "avg")              the aggregate of hundredths
    run_aggregate(counts, "avg")          nanoBench's aggregate of one run set's counts
    run_difference(longer, shorter, reps) nanoBench's result from two run sets' aggregates
    from_json(1.25) == 125                a record's number as hundredths
"""

import decimal

AGGREGATES = ("avg", "median", "min", "max")
INT64_MIN, INT64_MAX = -(2 ** 63), 2 ** 63 - 1


def _rounded(num, den):
    """num / den rounded half away from zero (den > 0)."""
    q = (2 * abs(num) + den) // (2 * den)
    return -q if num < 0 else q


def _clamp(v):
    return max(INT64_MIN, min(INT64_MAX, v))


def hundredths(difference, repetitions):
    """One measurement's value per repetition, in hundredths (repetitions 0 counts as 1)."""
    return _clamp(_rounded(difference * 100, repetitions or 1))


def _selected(values, how):
    """What an aggregate takes of the values: (True, the one value) for "min", "max" and "median"
    (the sorted value at index n // 2), (False, the values left) for "avg" (the n // 5 smallest
    and largest set aside); None for no values."""
    if how not in AGGREGATES:
        raise ValueError("aggregate %r: one of %s" % (how, ", ".join(AGGREGATES)))
    v = sorted(values)
    if not v:
        return None
    if how != "avg":
        return True, {"min": v[0], "max": v[-1], "median": v[len(v) // 2]}[how]
    cut = len(v) // 5
    return False, v[cut:len(v) - cut]


def aggregate(values, how):
    """The aggregate of the hundredths: "avg" the mean without the n // 5 smallest and the n // 5
    largest (rounded half away from zero), "median" the sorted value at index n // 2 (the upper
    middle one for an even n), "min", "max". 0 for no values."""
    picked = _selected(values, how)
    if picked is None:
        return 0
    one, v = picked
    return v if one else _clamp(_rounded(sum(v), len(v)))


def run_aggregate(counts, how, whole=False):
    """nanoBench's aggregate of one run set's counts, in hundredths of a count
    (tests/owncode/aggregate.c: bench_run_aggregate): "avg" the mean of the counts left when the
    n // 5 smallest and largest are set aside, cut to hundredths (to whole counts with whole:
    -no_normalization) as nanoBench's integer arithmetic cuts it; "median", "min", "max" times
    100. 0 for no counts."""
    picked = _selected(counts, how)
    if picked is None:
        return 0
    one, v = picked
    if one:
        return v * 100
    return sum(v) // len(v) * 100 if whole else sum(v) * 100 // len(v)


def run_difference(longer, shorter, repetitions):
    """nanoBench's result in hundredths: (longer - shorter) / repetitions, both in hundredths of
    a count, rounded half away from zero; below zero when the long runs counted less."""
    return _clamp(_rounded(longer - shorter, repetitions or 1))


def from_json(number):
    """A record's number (two decimals) as an integer of hundredths, exactly (no binary
    rounding: 0.29 is 29, not 28)."""
    return int((decimal.Decimal(repr(number)) * 100).to_integral_value(decimal.ROUND_HALF_UP))


def text(h, decimals=True):
    """Hundredths as nanoBench prints them: "1.00", "-0.25"; decimals=False: the whole number
    rounded half away from zero (nanoBench's -no_normalization)."""
    if not decimals:
        return "%d" % _rounded(h, 100)
    sign = "-" if h < 0 else ""
    return "%s%d.%02d" % (sign, abs(h) // 100, abs(h) % 100)
