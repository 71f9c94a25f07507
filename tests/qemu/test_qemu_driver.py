"""The QEMU driver boots a failing case again only where the kernel measured that its host did
not run it evenly (tests/qemu/driver.py, host_disturbance), at most DISTURBED_BOOTS times, and
says so; a failure without that evidence is final at once."""

import unittest
from unittest import mock

import pmu_records
from tests import thresholds
from tests.qemu import driver
from tests.report import logfixture
from tests.run import Outcome


def log_of(pace=None, held_us=None, interval_ns=200_000_000, lost=(0, 0), overlap=100):
    """A kernel's log (tests/report/logfixture.py) with an exp_end of this pace_pct, ticks lost
    of 1000 due and overlap_pct, and a tick record of these held_us; None leaves pace_pct or
    held_us out, as an earlier kernel did."""
    log = logfixture.Log()
    logfixture.boot_and_pmu(log, warn=False)
    tick = dict(period_ms=1, interval_ns=interval_ns, expected=200, ticks=[200, 200],
                error_pct=[0.0, 0.0], apic=[0, 1], tick_tsc_mean=[2100, 2200],
                tick_tsc_max=[5000, 6000], ticks_late=[0, 0], ticks_lost=[0, 0])
    if held_us is not None:
        tick["held_us"] = held_us
    log.record("tick", **tick)
    extra = dict(ticks=[1000 - n for n in lost], ticks_lost=list(lost), overlap_pct=overlap)
    if pace is not None:
        extra["pace_pct"] = pace
    logfixture.run_start(log, "ch8-corrupting-loss", "core", [["r01c4:u"], ["r01c4:u"]])
    logfixture.run_end(log, "ch8-corrupting-loss", "core", 0, **extra)
    log.end()
    stream = pmu_records.parse(log.render())
    assert not stream.problems, [str(p) for p in stream.problems]
    return stream


EVEN = log_of(pace=[0.4, 5.0], held_us=[900, 1200], lost=(50, 8), overlap=75)
UNEVEN = log_of(pace=[0.4, 48.1], held_us=[900, 1200])
HELD = log_of(pace=[0.0, 0.0], held_us=[100_000, 250_000])


class Disturbance(unittest.TestCase):
    def test_an_even_run_is_not_disturbed(self):
        # 5.0 is the kernel's own limit: a pace at it is still judged
        self.assertIsNone(driver.host_disturbance(EVEN))

    def test_an_uneven_pace_names_the_thread_and_the_run(self):
        self.assertEqual(driver.host_disturbance(UNEVEN),
                         "HT1 worked at a pace 48.1% uneven in ch8-corrupting-loss, XSU core")

    def test_lost_ticks_name_the_thread(self):
        self.assertEqual(driver.host_disturbance(log_of(pace=[0.0, 0.0], lost=(3, 51))),
                         "HT1 lost 51 of its 1000 ticks in ch8-corrupting-loss, XSU core")

    def test_siblings_that_did_not_count_side_by_side(self):
        self.assertEqual(driver.host_disturbance(log_of(pace=[0.0, 0.0], overlap=74)),
                         "the siblings counted side by side 74% of the time in "
                         "ch8-corrupting-loss, XSU core")

    def test_a_thread_held_through_half_the_tick_check(self):
        self.assertEqual(driver.host_disturbance(HELD),
                         "a thread was held 250 ms of the 200 ms tick check")
        self.assertIsNone(driver.host_disturbance(log_of(held_us=[99_999, 0])))

    def test_a_log_of_an_earlier_kernel_has_no_evidence(self):
        self.assertIsNone(driver.host_disturbance(log_of()))


class Limits(unittest.TestCase):
    def test_the_limits_are_the_kernels_busy_host_thresholds(self):
        table = thresholds.table()
        for limit, ident in ((driver.UNEVEN_PACE_PCT, "TH_CORE_PACE"),
                             (driver.LOST_TICKS_PCT, "TH_CORE_LOST_TICKS"),
                             (driver.MIN_OVERLAP_PCT, "TH_OVERLAP")):
            self.assertEqual(limit, table[ident].percent(), ident)
            self.assertEqual(table[ident].source_text(), "a busy host's", ident)
        # the tightest of each: the core truth's pace and core's lost ticks, not every rule's
        self.assertLess(driver.UNEVEN_PACE_PCT, table["TH_PACE"].percent())
        self.assertLess(driver.LOST_TICKS_PCT, table["TH_LOST_TICKS"].percent())


class Retry(unittest.TestCase):
    def boots(self, *results):
        """run_case over boots that give these (status, stream) in turn; the outcome, and how
        many boots it took."""
        given = iter(results)
        count = [0]

        def boot_once(case, build, name, path, cwd, log_path):
            count[0] += 1
            status, stream = next(given)
            return Outcome(name, status, 1.5, "the check said no"), stream

        case = driver.Case("test/retry", image=lambda build: __file__)
        with mock.patch.object(driver, "boot_once", boot_once):
            outcome = driver.run_case(case, "/tmp")
        return outcome, count[0]

    def test_a_plain_failure_is_final(self):
        outcome, boots = self.boots((driver.FAIL, EVEN), (driver.PASS, EVEN))
        self.assertEqual((outcome.status, boots), (driver.FAIL, 1))
        self.assertEqual(outcome.detail, "the check said no")

    def test_a_disturbed_failure_is_booted_again_and_said(self):
        outcome, boots = self.boots((driver.FAIL, UNEVEN), (driver.PASS, EVEN))
        self.assertEqual((outcome.status, boots), (driver.PASS, 2))
        self.assertEqual(outcome.seconds, 3.0)
        self.assertIn("boot 1: HT1 worked at a pace 48.1% uneven", outcome.figures)

    def test_three_disturbed_boots_fail_with_all_of_them(self):
        outcome, boots = self.boots((driver.FAIL, UNEVEN), (driver.FAIL, HELD),
                                    (driver.FAIL, UNEVEN), (driver.PASS, EVEN))
        self.assertEqual((outcome.status, boots), (driver.FAIL, driver.DISTURBED_BOOTS))
        self.assertTrue(outcome.detail.startswith("boot 1: HT1 worked"), outcome.detail)
        self.assertIn("boot 2: a thread was held 250 ms", outcome.detail)
        self.assertTrue(outcome.detail.endswith("the check said no"))

    def test_a_pass_is_never_booted_again(self):
        outcome, boots = self.boots((driver.PASS, UNEVEN), (driver.FAIL, EVEN))
        self.assertEqual((outcome.status, boots), (driver.PASS, 1))
        self.assertNotIn("boot 1", outcome.figures)


if __name__ == "__main__":
    unittest.main()
