"""Never silent (issue 20): every bad word of the command line named in a warning and left out of
the boot record's configuration, a run defined by ht0=/ht1= that runs whatever exp= says, a run
too short for its tick skipped with its reason, the harness's exit= kept when the line is cut,
perf's own syntax, a CPU the tables do not know named by what it is; and 300 seeded mutated
command lines, each booted: no hang, no exception, a whole log, every word taken or named."""

import os
import random

from qemu_boot import PAIR
from tests.qemu.driver import Case

EVENTS_KEYS = ("ht0", "ht1")


def part_of(text):
    """The parts of an event list as the kernel splits it (tests/payload_check.c)."""
    parts, depth, i, start = [], 0, 0, 0
    while i <= len(text):
        if i == len(text) or (text[i] == "," and depth == 0):
            parts.append(text[start:i])
            start = i + 1
        elif text.startswith("cpu/", i):
            close = text.find("/", i + 4)
            i = len(text) if close < 0 else close
        elif text[i] == "{":
            depth += 1
        elif text[i] == "}" and depth:
            depth -= 1
        i += 1
    return parts if text else []


def every_word_taken_or_named(line):
    """The property of tests/fuzz/fuzz_config.c, on the records: each word of line is named in a
    warning, or what the boot record's configuration shows for its key is what it gives (for
    keys the record shows; an event list part by part)."""
    def check(result, stream):
        config = stream.boot["config"]
        warns = [w for w in stream.of_type("warn") if w.get("source", "cmdline") == "cmdline"]
        words = line.split()
        for n, word in enumerate(words):
            key, eq, value = word.partition("=")
            named = [w for w in warns if w["key"] == key[:31]]
            if not eq or key not in config:
                assert named or key in ("serial", "baud", "core", "smp", "triad_kib",
                                        "triad_reps", "chase_kib", "survey_work"), \
                    "word %r neither named nor in the configuration" % word
                continue
            if any(w.startswith(key + "=") for w in words[n + 1:]):
                continue  # a later word wins
            if key in EVENTS_KEYS:
                taken = part_of(config[key] or "")
                for part in part_of(value):
                    assert part in taken or any(w["value"] == part[:63] for w in named), \
                        "%s part %r neither taken (%r) nor named" % (key, part, taken)
                continue
            assert named or same_value(key, config[key], value), \
                "%s: the configuration shows %r, neither taken nor named" % (word, config[key])
    return check


def same_value(key, shown, value):
    """Whether the configuration shows what the word gave (xsu= as a set of modes)."""
    if key == "xsu":
        sets = {"both": {"off", "on"}, "all": {"off", "on", "core"}}
        modes = set()
        for word in value.split(","):
            modes |= sets.get(word, {word})
        return set(shown.split(",")) == modes
    return str(shown) == value


def no_exception(result, stream):
    got = stream.of_type("exception")
    assert not got, "an exception: %r" % got[0].obj
    assert stream.end is not None, "the log does not end with its end record"


def warned_part(key, value, words):
    def check(result, stream):
        warns = [w for w in stream.of_type("warn") if w.get("key") == key and
                 w.get("value") == value]
        assert warns, "no warn for %s part %r: %r" % (
            key, value, [(w["key"], w["value"]) for w in stream.of_type("warn")])
        assert words in warns[0]["message"], warns[0]["message"]
        assert warns[0]["accepted"], warns[0].obj
    return check


def config_shows(**expected):
    def check(result, stream):
        for key, value in expected.items():
            got = stream.boot["config"].get(key)
            assert got == value, "config %s=%r, expected %r" % (key, got, value)
    return check


def custom_ran(ht0, ht1):
    def check(result, stream):
        exps = [e for e in stream.of_type("exp") if e["exp"] == "custom"]
        assert exps, "the run defined by ht0=/ht1= did not run"
        got = [t["events"] for t in exps[0]["threads"]]
        assert got == [ht0, ht1], "custom lists %r" % got
        assert not [e for e in stream.of_type("exp") if e["exp"] != "custom"]
    return check


def skipped_for_ticks(exp):
    def check(result, stream):
        got = [v for v in stream.of_type("verdict") if v["exp"] == exp]
        assert got, "no verdict of %s" % exp
        for v in got:
            assert v["result"] == "skip" and v["skip"] == "too_little_data", v.obj
            assert "tick" in v["reason"], v["reason"]
    return check


def count_named(name, code):
    def check(result, stream):
        counts = [c for c in stream.of_type("count") if c["event"] == name]
        assert counts, "no count of %s: %r" % (name, sorted({c["event"] for c in
                                                             stream.of_type("count")}))
        assert counts[0]["code"] == code, counts[0].obj
    return check


def exit_kept(result, stream):
    kept = stream.boot["cmdline"]
    assert kept.split()[-1] == "exit=qemu", "the cut line lost exit=qemu: %r" % kept[-40:]
    assert len(kept) <= 1023


def cpu_named(result, stream):
    warns = [w for w in stream.of_type("warn") if w.get("key") == "uarch"]
    assert warns, "no warn about the CPU the tables do not know"
    cpu = stream.boot["cpu"]
    assert "%s family %d model 0x%x" % (cpu["vendor"], cpu["family"], cpu["model"]) == \
        warns[0]["value"], warns[0].obj
    assert "no cross-HT erratum" in warns[0]["message"], warns[0]["message"]


# ---- 300 mutated command lines (seeded: the seed is in each case's name) -----------------------

WORDS = [
    "xsu=off", "xsu=on,core", "xsu=maybe", "sched=hk", "sched=best", "mux_ms=4", "mux_ms=0",
    "mux_ms=1000", "dur_ms=20", "dur_ms=5", "repeat=2", "pmu=model", "pmu=hw2", "exp=none",
    "exp=custom", "exp=nonsense", "exp=none,custom", "work0=chase", "work1=nope",
    "survey_work=alu", "start1_ms=5", "triad_kib=64", "foo=1", "loose", "xsu", "=", "==",
    "ht0=r81d0:u", "ht1=r20cc:u", "ht0={{,r20cc:u", "ht1=cpu/event=0x1ff/",
    "ht1=rfffffffffffffffff", "ht0={r81d0:u,rzz}", "ht1=,,,r20cc:u", "ht0=branches:pp",
    "ht0=cpu/event=0xd0,umask=0x81,name=loads/u", "ht1=cpu/cycles/,cpu/instructions/u",
    "ht0=MEM_UOPS_RETIRED.ALL_LOADS", "ht1={r1c0,r2c0,r3c0,r4c0,r5c0,r6c0,r7c0,r8c0}",
]


def mutate(rng, word):
    """A word, or one with a character dropped, doubled or changed."""
    if rng.random() < 0.6 or len(word) < 2:
        return word
    i = rng.randrange(len(word))
    kind = rng.randrange(3)
    if kind == 0:
        return word[:i] + word[i + 1:]
    if kind == 1:
        return word[:i] + word[i] + word[i:]
    return word[:i] + rng.choice("=,:{}/xr0123456789abcdef") + word[i + 1:]


def fuzzed_lines(seed, n):
    rng = random.Random(seed)
    lines = []
    for _ in range(n):
        words = [mutate(rng, rng.choice(WORDS)) for _ in range(rng.randrange(1, 7))]
        # Short and fast whatever the words ask: the harness's own words last, so they win.
        lines.append(" ".join(words + ["dur_ms=10", "mux_ms=1", "xsu=off", "repeat=1",
                                       "exit=qemu"]))
    return lines


SEED = int(os.environ.get("PMU_TESTKERNEL_FUZZ_SEED", "20"))
FUZZED = [Case("never-silent/fuzzed-%d-%03d" % (SEED, i), smp=PAIR, cmdline=line,
               experiments=True, timeout=60, verdict=None, exit_status=None,
               describe="seed %d, line %d: %s" % (SEED, i, line),
               checks=[no_exception, every_word_taken_or_named(line)])
          for i, line in enumerate(fuzzed_lines(SEED, 300))]

CASES = [
    Case("never-silent/bad-parts", smp=PAIR,
         cmdline="exit=qemu exp=none ht0={{,r20cc:u ht1=,,,r20cc:u",
         experiments=True, timeout=60,
         describe="every bad part of an event list named, and left out of the configuration",
         checks=[warned_part("ht0", "{{,r20cc:u", "groups cannot nest"),
                 warned_part("ht1", "", "an empty part"),
                 config_shows(ht0=None, ht1="r20cc:u"),
                 every_word_taken_or_named("exp=none ht0={{,r20cc:u ht1=,,,r20cc:u")]),
    Case("never-silent/bad-values", smp=PAIR,
         cmdline="exit=qemu exp=none ht0={r81d0:u,rzz} ht1=cpu/event=0x1ff/,rfffffffffffffffff",
         experiments=True, timeout=60,
         describe="an unknown event in a group, an event code past 8 bits, a raw value past "
                  "the configuration bits: each named, none kept",
         checks=[warned_part("ht0", "{r81d0:u,rzz}", "unknown event 'rzz'"),
                 warned_part("ht1", "cpu/event=0x1ff/", "does not fit in 8 bits"),
                 warned_part("ht1", "rfffffffffffffffff", "bits above 31"),
                 config_shows(ht0=None, ht1=None),
                 every_word_taken_or_named("exp=none ht0={r81d0:u,rzz} "
                                           "ht1=cpu/event=0x1ff/,rfffffffffffffffff")]),
    Case("never-silent/custom-with-exp-none", smp=PAIR,
         cmdline="exit=qemu exp=none ht0=r81d0:u ht1=r20cc:u dur_ms=60 xsu=off",
         experiments=True, timeout=60,
         describe="ht0= and ht1= define a run that runs whatever exp= says, none included",
         checks=[custom_ran(["r81d0:u"], ["r20cc:u"])]),
    Case("never-silent/tick-longer-than-run", smp=PAIR,
         cmdline="exit=qemu exp=ch4-lbr-inserts mux_ms=1000 dur_ms=20",
         experiments=True, timeout=60,
         describe="a tick longer than the run: a warning at boot, the verdicts skipped",
         checks=[warned_part("mux_ms", "1000", "too_little_data"),
                 skipped_for_ticks("ch4-lbr-inserts")]),
    Case("never-silent/perf-forms", smp=PAIR,
         cmdline="exit=qemu ht0=cpu/event=0xd0,umask=0x81,name=loads/u,branches:pp "
                 "ht1=cpu/cycles/,cpu/instructions/u dur_ms=60 xsu=off",
         experiments=True, timeout=60,
         describe="name=, an event's name inside cpu/.../ and :pp, as perf takes them",
         checks=[count_named("loads", "0x81d0"), count_named("cpu/cycles/", "0x003c"),
                 count_named("cpu/instructions/u", "0x00c0"),
                 warned_part("ht0", "branches:pp", "precise sampling"),
                 config_shows(ht0="cpu/event=0xd0,umask=0x81,name=loads/u,branches:pp")]),
    Case("never-silent/cut-keeps-exit", smp="1",
         cmdline=" ".join(["exp=none"] + ["xsu=both"] * 115 + ["mux_ms=100", "exit=qemu"]),
         experiments=True, timeout=60,
         describe="a line cut at 1023 bytes keeps the harness's exit=qemu from its end",
         checks=[exit_kept]),
    Case("never-silent/unknown-cpu", smp=PAIR, cpu="qemu64", cmdline="exit=qemu",
         describe="a CPU in no table: named by vendor, family and model, and what follows",
         checks=[cpu_named]),
] + FUZZED
