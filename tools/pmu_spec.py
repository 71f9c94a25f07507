"""The words pmu_schema.py writes the record contract in: a spec per kind of JSON value (an
integer in a range, a string of a set, an array of something, ...) and RecordType, one record
type's keys.

Every spec answers two questions: check(value, path) gives (the value, []) when the value keeps the
contract, else (None, [a sentence saying why]); json_type() gives the type as docs/records.md's
tables write it ("integer or null", "array of strings"), so that one table of data both checks
the records and is checked against the document (tests/report/test_contract.py). keeps(value)
says whether check() would find nothing wrong, without a sentence or a copy: a log's records
nearly all keep the contract, and a record is first asked that (RecordType.check), which takes a
third of the time of a check that writes the path of every item it looks at.
"""

import json
import math
import re

U64_MAX = 2 ** 64 - 1
I64_MIN, I64_MAX = -(2 ** 63), 2 ** 63 - 1


class Spec:
    """One JSON value's contract. A problem makes the caller drop the value."""

    what = "a value"

    def check(self, value, path):
        return (value, []) if self.accepts(value) else (None, [self.complaint(value, path)])

    def accepts(self, value):
        return True

    def keeps(self, value):
        """True exactly when check(value, path) gives no problem (and then the value itself)."""
        return self.accepts(value)

    def keeper(self):
        """The function that answers keeps(value) in one call: accepts where check() is this
        class's (the spec of one value), keeps where it is not (a spec of specs)."""
        return self.accepts if type(self).check is Spec.check else self.keeps

    def complaint(self, value, path):
        return "%s: %s is not %s" % (path, show(value), self.what)

    def json_type(self):
        raise NotImplementedError


class Int(Spec):
    def __init__(self, low, high):
        self.low, self.high = low, high
        self.what = "an integer in %s..%s" % (_bound(low), _bound(high))

    def accepts(self, value):
        return isinstance(value, int) and not isinstance(value, bool) and \
            self.low <= value <= self.high

    def json_type(self):
        return "integer"


class Num(Spec):
    """A finite JSON number (integer or fraction) in a range."""

    def __init__(self, low=-math.inf, high=math.inf):
        self.low, self.high = low, high
        self.what = "a finite number" + ("" if (low, high) == (-math.inf, math.inf) else
                                         " in %s..%s" % (_bound(low), _bound(high)))

    def accepts(self, value):
        return isinstance(value, (int, float)) and not isinstance(value, bool) and \
            math.isfinite(value) and self.low <= value <= self.high

    def json_type(self):
        return "number"


class Str(Spec):
    """A string; `pattern`, when given, is a regular expression it must match whole."""

    def __init__(self, pattern=None, what="a string"):
        self.pattern = re.compile(pattern) if pattern else None
        self.what = what

    def accepts(self, value):
        return isinstance(value, str) and (self.pattern is None or
                                           self.pattern.fullmatch(value) is not None)

    def json_type(self):
        return "string"


class Enum(Spec):
    """A string of a fixed set: the values docs/records.md names for the key."""

    def __init__(self, *values):
        self.values = values
        self.what = "one of " + ", ".join(values)

    def accepts(self, value):
        return isinstance(value, str) and value in self.values

    def json_type(self):
        return "string"


class Bool(Spec):
    what = "true or false"

    def accepts(self, value):
        return isinstance(value, bool)

    def json_type(self):
        return "boolean"


HEX_RE = re.compile(r"0x[0-9a-fA-F]{1,16}")


class Hex(Spec):
    """Addresses and register values: "0x" and hex digits, or a JSON integer (docs/records.md,
    conventions), at most 64 bits."""

    what = 'a "0x..." hex string of at most 64 bits'

    def accepts(self, value):
        if isinstance(value, int) and not isinstance(value, bool):
            return 0 <= value <= U64_MAX
        return isinstance(value, str) and HEX_RE.fullmatch(value) is not None

    def json_type(self):
        return "string"


class Null(Spec):
    """`spec` or null."""

    def __init__(self, spec):
        self.spec = spec
        self.what = spec.what + " or null"

    def check(self, value, path):
        if value is None:
            return None, []
        clean, problems = self.spec.check(value, path)
        return clean, [self.complaint(value, path)] if problems else []

    def keeps(self, value):
        return value is None or self.spec.keeps(value)

    def json_type(self):
        return self.spec.json_type() + " or null"


class Array(Spec):
    """A JSON array of `item`s. An array's places mean something (a thread each), so one bad
    item makes the whole array unusable."""

    def __init__(self, item):
        self.item = item
        self.what = "an array of " + _plural(item.what)

    def check(self, value, path):
        if not isinstance(value, list):
            return None, [self.complaint(value, path)]
        clean = []
        for i, v in enumerate(value):
            c, problems = self.item.check(v, "%s[%d]" % (path, i))
            if problems:
                return None, problems
            clean.append(c)
        return clean, []

    def keeps(self, value):
        return isinstance(value, list) and all(self.item.keeps(v) for v in value)

    def json_type(self):
        return "array of " + _plural(self.item.json_type())


class AnyJson(Spec):
    """A value the contract leaves free (or a key it does not know): any JSON value but a number
    beyond a double's range (1e999 reads as infinity), which no file the report writes could
    hold."""

    what = "a value with finite numbers"

    def accepts(self, value):
        if isinstance(value, float):
            return math.isfinite(value)
        if isinstance(value, list):
            return all(self.accepts(v) for v in value)
        if isinstance(value, dict):
            return all(self.accepts(v) for v in value.values())
        return True

    def json_type(self):
        return "any value"


ANY_JSON = AnyJson()
ANY_JSON_KEEPS = ANY_JSON.keeper()


class Obj(Spec):
    """A JSON object inside a record (`boot.cpu`, an item of `exp.threads`): `keys` maps the names
    docs/records.md gives it to their specs, `others` (when given) is the spec of every other
    key (a map of names such as `pmu.msrs`). Only the types are checked: which keys an object
    holds is told in words, a record's own keys are counted (RecordType)."""

    what = "an object"

    def __init__(self, keys=None, others=None):
        self.keys = keys or {}
        self.others = others

    def check(self, value, path):
        if not isinstance(value, dict):
            return None, [self.complaint(value, path)]
        clean, problems = {}, []
        for key, v in value.items():
            spec = self.keys.get(key, self.others) or ANY_JSON
            c, p = spec.check(v, "%s.%s" % (path, key))
            if p:
                problems.extend(p)
            else:
                clean[key] = c
        return clean, problems

    def keeps(self, value):
        return isinstance(value, dict) and all(
            (self.keys.get(key, self.others) or ANY_JSON).keeps(v) for key, v in value.items())

    def json_type(self):
        return "object"


class Optional:
    """A key that only some records of its type hold (docs/records.md: its meaning begins with
    "only" or "optional"); every other key is in every record of its type."""

    def __init__(self, spec):
        self.spec = spec


def optional(spec):
    return Optional(spec)


class RecordType:
    """One record type of docs/records.md.

    `keys`: name -> spec (a key every record of the type holds) or optional(spec), in the
    document's order. `place`: the keys without which a reader cannot place the record (its
    experiment, run, thread, event...): a record that lacks one, or holds a bad one, is left out
    of every table. `shapes`: marker key -> the keys a record that holds the marker has instead
    (the boot record of a CPU that cannot run has four)."""

    def __init__(self, keys, place=(), shapes=None):
        self.specs = {k: s.spec if isinstance(s, Optional) else s for k, s in keys.items()}
        self.always = tuple(k for k, s in keys.items() if not isinstance(s, Optional))
        self.place = tuple(place)
        self.shapes = dict(shapes or {})
        self.keepers = {k: s.keeper() for k, s in self.specs.items()}
        for key in self.place + tuple(k for ks in self.shapes.values() for k in ks):
            assert key in self.specs, key

    def required(self, obj):
        """The keys this record must hold."""
        for marker, keys in self.shapes.items():
            if marker in obj:
                return keys
        return self.always

    def check(self, obj):
        """(the record's good keys, problems, usable) of a record's keys ("type" aside)."""
        keepers = self.keepers
        for key, value in obj.items():
            if not keepers.get(key, ANY_JSON_KEEPS)(value):
                clean, problems = self._check_each(obj)
                break
        else:
            # Every value keeps the contract (Spec.keeps): the record is its own clean copy.
            clean, problems = obj, []
        problems.extend("no key " + key for key in self.required(obj) if key not in obj)
        return clean, problems, all(key in clean for key in self.place)

    def _check_each(self, obj):
        """(good keys, a sentence per bad one) of a record that breaks the contract."""
        clean, problems = {}, []
        for key, value in obj.items():
            c, p = self.specs.get(key, ANY_JSON).check(value, key)
            if p:
                problems.extend("key " + x for x in p)
            else:
                clean[key] = c
        return clean, problems


def show(value):
    """A value as it appeared in the JSON, cut short."""
    if isinstance(value, float) and not math.isfinite(value):
        text = "%r" % value + " (out of range)"
    elif isinstance(value, (dict, list, str, bool)) or value is None:
        text = json.dumps(value)
    else:
        text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _bound(n):
    if n == U64_MAX:
        return "2^64-1"
    if n in (I64_MIN, I64_MAX):
        return "-2^63" if n < 0 else "2^63-1"
    if isinstance(n, float) and math.isinf(n):
        return "-inf" if n < 0 else "inf"
    return "%g" % n


NOUN_RE = re.compile(r"\b(integer|number|string|name|value|object|array)\b")


def _plural(what):
    """'an integer in 0..9' -> 'integers in 0..9', 'array of strings' -> 'arrays of strings'."""
    for article in ("an ", "a "):
        if what.startswith(article):
            what = what[len(article):]
            break
    return NOUN_RE.sub(r"\1s", what, count=1)
