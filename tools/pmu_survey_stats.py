"""How sure a leak survey's figure is (docs/comparing.md#uncertainty-and-marks): each figure's
standard uncertainty, when two machines' figures differ, and when a share of what HT0 kept with
the sibling's counter disabled (EN clear, GLOBAL_CTRL clear) is too unsure to read.

A leak share is the ratio of two counts of one run (leak / (count + leak)), so how much work the
run did cancels out. Its standard uncertainty is the standard error of the cell's mean: the
sample standard deviation of its own measurements over the square root of their number, or of
the event's measurements of that kind on the machine (every index: the erratum's share belongs
to the event, not to the index it lands at) where that is larger or the cell has one measurement
(no spread of its own); and at least FLOOR_REL of the share. The floor is there because a
boot's measurements can agree closely (the model PMU reads its share at every index) while
another boot of the same part reads less at every index (its two threads counted side by side
for less of the run, on a busy host above all): the index scatter of one boot does not show how
boots differ. Boots of parts of one model share (the committed logs and three sets of
qemu/compare's, 24 pairs) read a share up to 49% of their mean apart at an index where each
boot's indices agreed (ALL_STORES: 1.52% against 2.50%); with 5% of the share they were up to
4.5 combined standard
uncertainties apart, with 15% at most 2.2, so FLOOR_REL is 15% and cells closer than
K x sqrt(2) x 15% = 64% of their share are never marked.

A kept share is the ratio of two runs' counts: HT0's count with the sibling's counter disabled
over its count + leak in another run. Each run lasts dur_ms, so the figure moves with how much
work each run did: on a busy host, and under QEMU's TCG above all, by several times the leak
share it is there to resolve (counts of 100% keeping and 100% less the share losing). Its
uncertainty comes from that pace: the relative standard deviation of the event's count + leak
over its zero-event runs at the same index, the same work measured again. Above 100% it is
never read: HT0 cannot keep more than its event's occurrences."""

import math

# A difference is marked when it is larger than K combined standard uncertainties.
K = 3.0
# The floor of a leak share's uncertainty: a share of it, and an absolute one (0.01 percentage
# point, the tables' last digit) for shares of 0.
FLOOR_REL = 0.15
FLOOR_ABS = 0.0001
# Why a kept share cannot be read on a machine where the event leaks nothing.
NO_LEAK = "no leak to keep or lose"


def mean(values):
    return sum(values) / len(values)


def stdev(values):
    """The sample standard deviation, 0 for fewer than two values."""
    if len(values) < 2:
        return 0.0
    m = mean(values)
    return math.sqrt(sum((v - m) ** 2 for v in values) / (len(values) - 1))


def share_floor(value):
    return max(FLOOR_REL * abs(value), FLOOR_ABS)


def share_uncertainty(values, spread):
    """A leak share cell's standard uncertainty: the standard error of the mean of its values
    from their own spread, or from `spread` (the sample standard deviation of the event's
    measurements of the kind on the machine) where larger, and at least share_floor()."""
    n = len(values)
    return max(stdev(values) / math.sqrt(n), spread / math.sqrt(n), share_floor(mean(values)))


def pace_rsd(occurrences):
    """The relative standard deviation of an event's count + leak over its zero-event runs at the
    same index (the same work, measured again): how much a run's count moves with its pace;
    None with fewer than two runs or a mean of 0."""
    if len(occurrences) < 2 or not mean(occurrences):
        return None
    return stdev(occurrences) / mean(occurrences)


def kept_uncertainty(values, rsd, references):
    """A kept share's standard uncertainty: the mean of `values` (a run's count in a disabled
    state each, over the mean of `references` zero-event runs) moves with the pace of every run
    it divides (rsd, pace_rsd()), and with its own spread where that is larger; None when the
    pace is unknown."""
    if rsd is None:
        return None
    n = len(values)
    pace = mean(values) * rsd * math.sqrt(1.0 / n + 1.0 / references)
    return max(pace, stdev(values) / math.sqrt(n), FLOOR_ABS)


def kept_unreliable(value, uncertainty, share, rsd):
    """Why a kept share cannot be read, or None. Above 100% it never can: HT0 cannot keep more
    than its event's occurrences, so the runs did different amounts of work, and by how much the
    figure does not say. Otherwise it is there to tell 100% (HT0 keeps what would have leaked)
    from 100% less the event's leak share on the machine (lost), so it can be read only where
    its interval of K standard uncertainties either side is narrower than that share, and where
    it lies no further below the loss than K standard uncertainties (the model loses exactly the
    share, so a reading scatters about it)."""
    if uncertainty is None:
        return "one zero-event run: how much a run's count moves is unknown"
    if value > 1:
        return ("%.2f%% is above 100%%: HT0 cannot keep more than its event's occurrences, so "
                "the runs did different amounts of work" % (100 * value))
    if share is None or share <= 0:
        return NO_LEAK
    if 2 * K * uncertainty >= share:
        return ("+- %.2f%% (the event's count moves %.1f%% from run to run), too wide to tell "
                "100%% (kept) from %.2f%% (lost)" % (100 * K * uncertainty, 100 * rsd,
                                                      100 * (1 - share)))
    if value < 1 - share - K * uncertainty:
        return ("%.2f%% is below %.2f%% (lost) by more than %g standard uncertainties "
                "(+- %.2f%%): the runs did different amounts of work" % (
                    100 * value, 100 * (1 - share), K, 100 * uncertainty))
    return None


def differs(a, b):
    """Whether two figures (value, uncertainty) are further apart than K times their combined
    standard uncertainty."""
    return abs(a.value - b.value) > K * math.hypot(a.uncertainty, b.uncertainty)
