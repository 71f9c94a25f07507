"""The verdicts' thresholds as the kernel has them: the table of tests/experiments/thresholds.c,
read from its source. It is the one table: docs/experiments.md's is held to it
(tests/style/test_rules.py) and the QEMU driver takes the busy host's limits from it
(tests/qemu/driver.py)."""

import collections
import os
import re

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SOURCE = "tests/experiments/thresholds.c"

ENTRY = re.compile(r"^\t\[(TH_\w+)\] = \{\n(.*?)^\t\},", re.S | re.M)
FIELD = re.compile(r"\.(\w+) = ((?:\"(?:[^\"\\\n]|\\.)*\"\s*)+|[^,\n]+),")
STRING = re.compile(r"\"((?:[^\"\\\n]|\\.)*)\"")
SCALE = {"UNIT_PERCENT": 1, "UNIT_PER_MILLE": 10, "UNIT_HUNDREDTHS": 100}
COUNTED = {"UNIT_EVENTS": "events", "UNIT_TICKS": "ticks"}
SOURCES = {"BY_HARDWARE": "the hardware's", "BY_BUSY_HOST": "a busy host's"}


class Threshold(collections.namedtuple("Threshold", "id name value unit source rules why")):
    def percent(self):
        """The value in percent (a percentage threshold only)."""
        return self.value / SCALE[self.unit]

    def value_text(self):
        """As the kernel words it (threshold_value_text()): "25%", "2.5%", "100 events"."""
        if self.unit in COUNTED:
            return "%d %s" % (self.value, COUNTED[self.unit])
        scale = SCALE[self.unit]
        if self.value % scale == 0:
            return "%d%%" % (self.value // scale)
        return "%d.%0*d%%" % (self.value // scale, 1 if scale == 10 else 2, self.value % scale)

    def source_text(self):
        return SOURCES[self.source]

    def text(self):
        """As a verdict names it (threshold_text()): "the pace threshold (25%, a busy host's)"."""
        return "the %s threshold (%s, %s)" % (self.name, self.value_text(), self.source_text())


def parse(text):
    """{id: Threshold} of a thresholds.c, in its order; ValueError where an entry lacks a field
    or has one it should not."""
    table = collections.OrderedDict()
    for ident, body in ENTRY.findall(text):
        fields = {}
        for key, value in FIELD.findall(body):
            strings = STRING.findall(value)
            fields[key] = "".join(strings) if strings else value.strip()
        want = set(Threshold._fields) - {"id"}
        if set(fields) != want:
            raise ValueError("%s: fields %s, expected %s" % (ident, sorted(fields), sorted(want)))
        if fields["unit"] not in SCALE and fields["unit"] not in COUNTED or \
                fields["source"] not in SOURCES:
            raise ValueError("%s: unit %s, source %s" % (ident, fields["unit"], fields["source"]))
        fields["value"] = int(fields["value"])
        table[ident] = Threshold(id=ident, **fields)
    return table


def table():
    """The committed table."""
    with open(os.path.join(TOP, SOURCE), encoding="utf-8") as f:
        return parse(f.read())
