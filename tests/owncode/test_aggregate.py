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
