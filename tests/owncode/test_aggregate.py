"""bench_result's numbers on the host (tools/pmu_bench_aggregate.py), the twin of the kernel's
tests/owncode/aggregate.c: one measurement in hundredths, rounded half away from zero, and
nanoBench's aggregates. The expected values are worked out by hand in the comments, or by a
second way of computing them here (exact fractions, the statistics module, setting extremes
aside one at a time)."""

import fractions
import math
import os
import statistics
import tempfile
import unittest

import hypothesis.configuration
from hypothesis import given, settings, strategies as st

import pmu_bench_aggregate as agg

hypothesis.configuration.set_hypothesis_home_dir(
    os.path.join(tempfile.gettempdir(), "pmu-bench-hypothesis"))
PROPERTY = settings(max_examples=300, derandomize=True, database=None, deadline=None)


class Hundredths(unittest.TestCase):
    def test_examples(self):
        self.assertEqual(agg.hundredths(2000, 1000), 200)     # 2.00
        self.assertEqual(agg.hundredths(1, 3), 33)            # 0.333
        self.assertEqual(agg.hundredths(2, 3), 67)            # 0.667
        self.assertEqual(agg.hundredths(1, 200), 1)           # 0.005: away from zero
        self.assertEqual(agg.hundredths(-1, 200), -1)
        self.assertEqual(agg.hundredths(1, 201), 0)
        self.assertEqual(agg.hundredths(5, 0), 500)
        self.assertEqual(agg.hundredths(2 ** 48, 7000), 4021071095867)
        self.assertEqual(agg.hundredths(2 ** 63 - 1, 1), 2 ** 63 - 1)   # held to int64

    @PROPERTY
    @given(st.integers(-2 ** 50, 2 ** 50), st.integers(1, 2 ** 40))
    def test_against_fractions(self, difference, repetitions):
        exact = fractions.Fraction(difference * 100, repetitions)
        want = math.floor(abs(exact) + fractions.Fraction(1, 2)) * (1 if exact >= 0 else -1)
        self.assertEqual(agg.hundredths(difference, repetitions), want)


class Aggregates(unittest.TestCase):
    def test_ten_values(self):
        v = [5, 1, 9, 3, 7, 2, 8, 4, 10, 6]
        self.assertEqual(agg.aggregate(v, "avg"), 6)      # 3..8: 33 / 6 = 5.5 -> 6
        self.assertEqual(agg.aggregate(v, "median"), 6)   # sorted[5]
        self.assertEqual(agg.aggregate(v, "min"), 1)
        self.assertEqual(agg.aggregate(v, "max"), 10)
        self.assertEqual(v, [5, 1, 9, 3, 7, 2, 8, 4, 10, 6], "the list is left alone")

    def test_outliers(self):
        v = [100] * 10 + [5000, -5000]
        self.assertEqual(agg.aggregate(v, "avg"), 100)
        self.assertEqual(agg.aggregate(v, "median"), 100)

    def test_short_lists(self):
        self.assertEqual(agg.aggregate([40, 10, 30, 20], "avg"), 25)
        self.assertEqual(agg.aggregate([40, 10, 30, 20], "median"), 30)   # upper middle
        self.assertEqual(agg.aggregate([-3, -4], "avg"), -4)              # -3.5
        self.assertEqual(agg.aggregate([-3, -4], "median"), -3)
        self.assertEqual(agg.aggregate([1, 2, 3, 4, 5, 6, 100], "avg"), 4)
        self.assertEqual(agg.aggregate([], "max"), 0)
        with self.assertRaises(ValueError):
            agg.aggregate([1], "mean")

    @PROPERTY
    @given(st.lists(st.integers(-10 ** 6, 10 ** 6), min_size=1, max_size=100))
    def test_against_a_second_way(self, values):
        self.assertEqual(agg.aggregate(values, "median"), statistics.median_high(values))
        self.assertEqual(agg.aggregate(values, "min"), min(values))
        self.assertEqual(agg.aggregate(values, "max"), max(values))
        kept = list(values)
        for _ in range(len(values) // 5):        # the extremes set aside one at a time
            kept.remove(min(kept))
            kept.remove(max(kept))
        mean = fractions.Fraction(sum(kept), len(kept))
        want = math.floor(abs(mean) + fractions.Fraction(1, 2)) * (1 if mean >= 0 else -1)
        self.assertEqual(agg.aggregate(values, "avg"), want)


class RunSets(unittest.TestCase):
    """nanoBench's arithmetic: each run set aggregated, then the difference per repetition (the
    C twin's example, tests/host/test_bench_aggregate.c: test_run_sets)."""

    N = [1000, 1000, 1300, 1000, 1000, 1000, 1000, 1000, 1000, 1000]
    N2 = [2000, 2001, 1999, 2000, 1500, 2000, 2000, 2001, 1999, 2000]

    def test_the_example(self):
        for how, shorter, longer, value in (("avg", 100000, 199983, 100),
                                            ("median", 100000, 200000, 100),
                                            ("min", 100000, 150000, 50),
                                            ("max", 130000, 200100, 70)):
            s, l_ = agg.run_aggregate(self.N, how), agg.run_aggregate(self.N2, how)
            self.assertEqual((s, l_), (shorter, longer), how)
            self.assertEqual(agg.run_difference(l_, s, 1000), value, how)
        self.assertEqual(agg.run_aggregate([2, 1, 1], "avg"), 133)
        self.assertEqual(agg.run_aggregate([2, 1, 1], "avg", whole=True), 100)
        self.assertEqual(agg.run_difference(100000, 101000, 1000), -1)

    @PROPERTY
    @given(st.lists(st.integers(0, 2 ** 48), min_size=1, max_size=100),
           st.sampled_from(agg.AGGREGATES))
    def test_against_nanobench_integer_arithmetic(self, counts, how):
        # nanoBench's get_aggregate_value with scale 100: the mean of the kept values times 100,
        # cut by integer division; the others times 100.
        v = sorted(counts)
        cut = len(v) // 5
        want = {"min": v[0] * 100, "max": v[-1] * 100, "median": v[len(v) // 2] * 100,
                "avg": sum(x * 100 for x in v[cut:len(v) - cut]) // (len(v) - 2 * cut)}[how]
        self.assertEqual(agg.run_aggregate(counts, how), want)


class Text(unittest.TestCase):
    def test_json_numbers_exactly(self):
        self.assertEqual(agg.from_json(0.29), 29)         # 0.29 * 100 is 28.999... in binary
        self.assertEqual(agg.from_json(1.0), 100)
        self.assertEqual(agg.from_json(-2.5), -250)
        self.assertEqual(agg.from_json(7), 700)
        self.assertEqual(agg.from_json(123456789.01), 12345678901)

    def test_two_decimals(self):
        self.assertEqual(agg.text(100), "1.00")
        self.assertEqual(agg.text(5), "0.05")
        self.assertEqual(agg.text(-25), "-0.25")
        self.assertEqual(agg.text(-125), "-1.25")
        self.assertEqual(agg.text(0), "0.00")
        self.assertEqual(agg.text(123450, decimals=False), "1235")
        self.assertEqual(agg.text(-150, decimals=False), "-2")


if __name__ == "__main__":
    unittest.main()
