#!/usr/bin/python3
"""The preset dictionary of the QR codes' deflate streams (kernel/qr/dictionary.txt), from logs.

    tools/qr_dictionary.py LOG... > kernel/qr/dictionary.txt

Each code's chunk of records is deflated on its own, so that a lost code loses only its own
records (docs/qr-codes.md). A short chunk then pays for every key and every long string anew: the
default suite's log took 44 codes of version 25 deflated alone, 16 primed with this dictionary
(zlib's preset dictionary, RFC 1950 section 2.2, given to raw deflate). The dictionary is record
lines of the kinds a log holds, the rarest first and the most frequent last (the closest to the
chunk's text, so at the shortest distances, as zlib's manual advises):

- one record of every other type (boot, cpu, pmu, the checks, a warning of each key, end, ...),
- two survey records,
- every experiment's first exp record (its title and rule, long and otherwise in one code only),
- a verdict of each experiment, two exp records without a title, two exp_end records,
- count records of different events, as many as fit.

The result is at most SIZE_MAX bytes (deflate's window is 32 KiB: the chunk's first 10 KiB still
reach the dictionary's first byte). The dictionary is part of the codes' format: the kernel and
tools/pmu_photos.py use this very file, and a change to it is a new format (a new prefix,
kernel/qr/chunk.h) that keeps the old one readable; its CRC-32 is pinned in both.
"""

import json
import sys

import pmu_records

SIZE_MAX = 22 * 1024
COUNTS_MAX = 12
# Types of other tools' logs (pmu-bench), never in the kernel's codes.
NOT_IN_CODES = ("trace", "bench", "bench_result", "progress")


def records_of(paths):
    """Every record's JSON text of the logs, in order."""
    out = []
    for path in paths:
        out.extend(record.text for record in pmu_records.parse_file(path).records)
    return out


def choose(texts):
    """The dictionary's records in its order (the rarest kinds first)."""
    seen = set()
    groups = {name: [] for name in ("rare", "survey", "titled", "verdict", "exp", "exp_end",
                                    "count")}
    for text in texts:
        data = json.loads(text)
        kind, key = _kind(data)
        if kind is None or key in seen:
            continue
        limit = {"survey": 2, "exp": 2, "exp_end": 2, "count": COUNTS_MAX}.get(kind)
        if limit is not None and len(groups[kind]) >= limit:
            continue
        seen.add(key)
        groups[kind].append(text)
    return [t for name in groups for t in groups[name]]


def _kind(data):
    """A record's group in the dictionary and what makes it new there."""
    t = data.get("type")
    if t in NOT_IN_CODES:
        return None, None
    if t == "count":
        return "count", ("count", data.get("event"), data.get("phase"))
    if t == "exp":
        if "title" in data:
            return "titled", ("titled", data.get("exp"))
        return "exp", ("exp", len(data))
    if t in ("verdict", "exp_end", "survey"):
        return t, (t, data.get("exp") if t == "verdict" else len(data))
    if t == "warn":
        return "rare", ("warn", data.get("key"))
    return "rare", (t,)


def dictionary(texts):
    """The dictionary's bytes: the chosen lines, cut to SIZE_MAX from the front (the rarest)."""
    data = "".join(t + "\n" for t in choose(texts)).encode()
    if len(data) > SIZE_MAX:
        data = data[len(data) - SIZE_MAX:]
        data = data[data.index(b"\n") + 1:]
    return data


def main(argv):
    if not argv:
        print(__doc__.strip().splitlines()[2].strip(), file=sys.stderr)
        return 2
    sys.stdout.buffer.write(dictionary(records_of(argv)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
