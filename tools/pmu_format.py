"""How pmu-report writes numbers and names, in its text and on its plots."""

import re


def count_text(n):
    """5747793793 -> '5,747,793,793'; a mean over repetitions is rounded; None -> '-'."""
    if n is None:
        return "-"
    return "{:,}".format(int(round(n)))


def pct_text(fraction):
    """perf's running percentage: 0.6668 -> '[ 66.68%]'."""
    return "[%6.2f%%]" % (100.0 * fraction)


def rsd_text(pct):
    """perf stat -r's relative standard deviation: 1.234 -> '( +-  1.23% )'."""
    return "( +-%6.2f%% )" % pct


def hex_text(value):
    if isinstance(value, int) and not isinstance(value, bool):
        return "0x%x" % value
    return str(value)


def xsu_text(xsu):
    """'XSU off', 'XSU on', 'XSU core'. Every record the tables place has its mode (a record
    without one breaks the contract and is left out), so None never reaches a heading."""
    return "XSU %s" % xsu


def plural(n, word):
    """'1 core', '2 cores'; '- cores' when the record did not say."""
    return "%s %s%s" % ("-" if n is None else n, word, "" if n == 1 else "s")


# C0 controls (but the line feed), DEL and C1 controls: a log's strings reach the terminal, where
# an escape sequence in a record would move the cursor or retitle the window.
CONTROL_RE = re.compile(r"[\x00-\x09\x0b-\x1f\x7f-\x9f]")


def printable(text):
    """The text with every control character but the line feed shown as '?'."""
    return CONTROL_RE.sub("?", text)
