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
    """'XSU off', 'XSU on', 'XSU core'; 'XSU ?' for a record that did not say."""
    return "XSU %s" % ("?" if xsu is None else xsu)


def plural(n, word):
    if n is None:
        return "? %ss" % word
    return "%s %s%s" % (n, word, "" if n == 1 else "s")


# C0 controls (but the line feed), DEL and C1 controls: a log's strings reach the terminal, where
# an escape sequence in a record would move the cursor or retitle the window.
CONTROL_RE = re.compile(r"[\x00-\x09\x0b-\x1f\x7f-\x9f]")


def printable(text):
    """The text with every control character but the line feed shown as '?'."""
    return CONTROL_RE.sub("?", text)
