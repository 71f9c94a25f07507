"""nanoBench's config format (tools/pmu_bench_config.py) on lines written here: what each line
programs, computed from the bits of IA32_PERFEVTSELx (SDM vol. 3B, 18.2.1.1, figure 18-1), and
every line it refuses, with the file, the line and what is accepted; whole configs in nanoBench's
format written from Intel's data (tests/owncode/nbconfig.py: hundreds of events, tabs, UTF-8
comments), and a config for a CPU this kernel has no tables for refused naming it. Properties
(python3-hypothesis): a spec made of nanoBench's parts parses to the EVTSEL its parts give; any
line whatever either parses or is refused with a message, never an exception of another kind."""

import os
import tempfile
import unittest

import hypothesis.configuration
from hypothesis import HealthCheck, given, settings, strategies as st

import pmu_bench_config as config
from tests.owncode import nbconfig

hypothesis.configuration.set_hypothesis_home_dir(
    os.path.join(tempfile.gettempdir(), "pmu-bench-hypothesis"))
PROPERTY = settings(max_examples=300, derandomize=True, database=None, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])

# The bits by their positions in the SDM's figure, written out again here.
USR, OS, EDGE, ANY, EN, INV = 1 << 16, 1 << 17, 1 << 18, 1 << 21, 1 << 22, 1 << 23


def one(line, usr=True, os_=False):
    events = config.parse_config(line, "test.cfg", usr, os_)
    assert len(events) == 1, events
    return events[0]


class Lines(unittest.TestCase):
    def test_event_and_umask(self):
        e = one("D0.81 MEM_UOPS_RETIRED.ALL_LOADS")
        self.assertEqual((e.kind, e.spec, e.name), ("gp", "D0.81", "MEM_UOPS_RETIRED.ALL_LOADS"))
        self.assertEqual(e.evtsel, 0xD0 | 0x81 << 8 | USR | EN)
        self.assertEqual(e.counter_mask, 0xFF)
        self.assertFalse(e.alone)

    def test_levels(self):
        self.assertEqual(one("c0.00 X", usr=False, os_=True).evtsel, 0xC0 | OS | EN)
        self.assertEqual(one("c0.00 X", usr=True, os_=True).evtsel, 0xC0 | USR | OS | EN)

    def test_modifiers(self):
        self.assertEqual(one("0E.01.CMSK=1.AnyT.INV UOPS_ISSUED.CORE_STALL_CYCLES").evtsel,
                         0x0E | 0x01 << 8 | 1 << 24 | ANY | INV | USR | EN)
        self.assertEqual(one("5C.01.CMSK=1.EDG CPL_CYCLES.RING0_TRANS").evtsel,
                         0x5C | 0x100 | 1 << 24 | EDGE | USR | EN)
        self.assertEqual(one("60.01.CMSK=0x6 X").evtsel >> 24, 6)
        self.assertEqual(one("A3.08.CMSK=255 X").evtsel >> 24, 255)
        e = one("48.01.CMSK=1.CTR=2 L1D_PEND_MISS.PENDING_CYCLES")
        self.assertEqual(e.counter_mask, 0b100)
        self.assertEqual(e.evtsel, 0x48 | 0x100 | 1 << 24 | USR | EN)
        self.assertTrue(one("C0.01.TakenAlone X").alone)

    def test_tabs(self):
        # nanoBench splits at the first blank, a tab as a space (issue 27: a tab was refused)
        e = one("D0.81\tMEM_UOPS_RETIRED.ALL_LOADS")
        self.assertEqual((e.spec, e.name), ("D0.81", "MEM_UOPS_RETIRED.ALL_LOADS"))
        self.assertEqual(one("D0.81\t\tLOADS\t").name, "LOADS")
        self.assertEqual(one("\tD0.81\tLOADS, all\tkinds").name, "LOADS, all kinds")
        self.assertEqual(one("D0.81\tLOADS\t# and a comment").name, "LOADS")

    def test_names(self):
        self.assertEqual(one("3C.00").name, "3C.00")          # nanoBench: the spec names it
        self.assertEqual(one("3C.00   Core cycles, all  ").name, "Core cycles, all")
        self.assertEqual(one("3C.00 CYCLES # a comment").name, "CYCLES")
        self.assertEqual(one("3C.00 CYCLES#1").name, "CYCLES#1")  # not a word of its own

    def test_comments_and_blanks(self):
        text = "# Haswell\n\n   \n  # indented comment\nC0.00 INST\n#D0.81 LOADS\n3C.00 CYC\n"
        events = config.parse_config(text, "test.cfg")
        self.assertEqual([e.name for e in events], ["INST", "CYC"])

    def test_msr_modifiers_are_kept_without_a_value(self):
        for mod, words in (("MSR_RSP0=0x0100400001", "MSR_OFFCORE_RSP_0"),
                           ("MSR_RSP1=0x10", "MSR_OFFCORE_RSP_1"),
                           ("MSR_3F6H=0x4", "MSR_PEBS_LD_LAT_THRESHOLD"),
                           ("MSR_PF=0x11", "MSR_PEBS_FRONTEND")):
            e = one("B7.01.%s.TakenAlone NAME" % mod)
            self.assertEqual(e.kind, "refused")
            self.assertIn(words, e.reason)
            self.assertTrue(e.reason.startswith("not programmable: "))

    def test_fixed_counters(self):
        events = config.fixed_events(usr=True, os_=False)
        # nanoBench prints RDTSC first with -fixed_counters
        self.assertEqual([e.name for e in events],
                         ["RDTSC", "Instructions retired", "Core cycles", "Reference cycles"])
        self.assertEqual([(e.kind, e.fixed_index, e.fixed_ctrl) for e in events],
                         [("tsc", 0, 0), ("fixed", 0, 2), ("fixed", 1, 2), ("fixed", 2, 2)])
        self.assertEqual({e.fixed_ctrl for e in config.fixed_events(True, True)[1:]}, {3})


class Refused(unittest.TestCase):
    def refused(self, text, *words):
        with self.assertRaises(config.ConfigError) as cm:
            config.parse_config(text, "my.cfg")
        for w in ("my.cfg line",) + words:
            self.assertIn(w, str(cm.exception))
        return str(cm.exception)

    def test_bad_specs(self):
        self.refused("D0 LOADS", "no UMASK")
        self.refused("G0.81 X", "EvtSel 'G0'")
        self.refused("D0.810 X", "UMASK '810'")
        self.refused("D0. X", "UMASK ''")
        self.refused(".81 X", "EvtSel ''")
        self.refused("D0.81.CMSK=256 X", "CMSK=256", "0..255")
        self.refused("D0.81.CMSK=x X", "CMSK=x", "not a number")
        self.refused("D0.81.CMSK=010 X", "not a number")
        self.refused("D0.81.CTR=8 X", "CTR=8", "0..7")
        self.refused("D0.81.CMSK X", "unknown modifier .CMSK")
        self.refused("D0.81.Foo X", "unknown modifier .Foo", "accepted")
        self.refused("D0.81.EDG.EDG X", ".EDG given twice")
        self.refused("D0.81.MSR_RSP0=zz X", "MSR_RSP0=zz")
        self.refused("D0.81 caf\u00e9", "its name holds '\u00e9'", "only a comment may")
        self.refused("D\u00e90.81 X", "the event holds '\u00e9'")
        self.refused("000.01 FpuPipeAssignment.Total0", "three-digit event select is AMD's",
                     "one byte")

    def test_the_line_is_named(self):
        message = self.refused("C0.00 OK\n# fine\nD0.8G BAD\n", "my.cfg line 3")
        self.assertIn("EvtSel.UMASK", message)     # what a line is

    def test_too_many_events(self):
        self.assertEqual(len(config.parse_config("C0.00 X\n" * 2000, "my.cfg")), 2000)
        with self.assertRaises(config.ConfigError) as cm:
            config.parse_config("C0.00 X\n" * 2001, "my.cfg")
        self.assertEqual(str(cm.exception), "my.cfg: 2001 events, at most 2000 per thread "
                         "(nanoBench's limit too)")

    def test_files(self):
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "cfg.txt")
            with self.assertRaises(config.ConfigError) as cm:
                config.read_config(path)
            self.assertIn("cannot read it", str(cm.exception))
            with open(path, "wb") as f:
                f.write(b"C0.00 INST\nD0.81 \xe9\n")
            with self.assertRaises(config.ConfigError) as cm:
                config.read_config(path)
            self.assertIn("line 2: its name holds '\u00e9'", str(cm.exception))
            # A comment may hold anything: UTF-8 (nanoBench's Cascade Lake config has
            # "Intel\u00ae Optane\u2122" in one), or bytes of no encoding at all.
            for comment in ("Intel\u00ae Optane\u2122".encode(), b"\xe9t\xe9 \xff\xfe"):
                with open(path, "wb") as f:
                    f.write(b"# " + comment + b"\nC0.00 INST # " + comment + b"\n")
                self.assertEqual([e.name for e in config.read_config(path)], ["INST"])


class Configs(unittest.TestCase):
    """Whole configs in nanoBench's format, written from Intel's data of each part."""

    def test_every_event_of_a_part(self):
        with tempfile.TemporaryDirectory() as tmp:
            for part in ("sandybridge", "haswell", "skylake"):
                path = os.path.join(tmp, "cfg_%s_all.txt" % part)
                n = nbconfig.write(part, path)
                events = config.read_config(path)
                self.assertEqual(len(events), n)
                self.assertGreater(n, 300, part)
                refused = [e for e in events if e.kind == "refused"]
                # the events that need an MSR: offcore response, load latency, front end
                self.assertTrue(refused and all(e.reason.startswith("not programmable: ")
                                                for e in refused), part)
                self.assertTrue(all(e.name and "\t" not in e.name for e in events))

    def cpu_refused(self, name, header, *words):
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, name)
            with open(path, "w") as f:
                f.write(header + "\nC0.00 INST_RETIRED.ANY_P\n")
            with self.assertRaises(config.ConfigError) as cm:
                config.read_config(path)
        for w in words + ("a CPU this kernel has no tables for", "Sandy Bridge", "Skylake"):
            self.assertIn(w, str(cm.exception))

    def test_a_cpu_without_tables_is_named(self):
        self.cpu_refused("cfg_Nehalem_all_core.txt", "# Applies to processors with "
                         "family-model in {6-1E, 6-1F, 6-1A}", "config for Nehalem",
                         "family-model 6-1E, 6-1F, 6-1A")
        self.cpu_refused("mine.txt", "# Applies to processors with family-model in {6-97}",
                         "config for these CPUs", "6-97")
        self.cpu_refused("cfg_Zen_all.txt", "# Performance monitoring events for AMD Family 17h "
                         "processors.", "config for AMD Family 17h")
        self.cpu_refused("cfg_Core_all.txt", "# Performance monitoring events for processors "
                         "based on the Core and the Enhanced Core microarchitectures.",
                         "config for Core and the Enhanced Core")

    def test_a_cpu_with_tables_loads(self):
        for header in ("# Applies to processors with family-model in {6-3C, 6-45, 6-46}",
                       "# Applies to processors with family-model in {6-55-[56789ABCDEF]}",
                       "# Applies to processors with family-model in {6-1A, 6-2A}",
                       "# a config of my own"):
            self.assertEqual(len(config.parse_config(header + "\nC0.00 X\n", "my.cfg")), 1)

    def test_the_kernels_cpus(self):
        cpus = config.kernel_cpus()
        self.assertEqual(cpus[0x3C], "Haswell")
        self.assertEqual(cpus[0x2A], "Sandy Bridge")
        self.assertEqual(cpus[0x55], "Skylake-SP")
        self.assertNotIn(0x1A, cpus)    # Nehalem: the generic PMU


HEX = st.integers(0, 255)


@st.composite
def specs(draw):
    """A spec of nanoBench's parts, with the EVTSEL they give."""
    event, umask = draw(HEX), draw(HEX)
    spec = draw(st.sampled_from(["%02X", "%02x", "%X"])) % event + "." + "%02X" % umask
    evtsel = event | umask << 8 | EN | USR
    mods = draw(st.lists(st.sampled_from(["CMSK", "AnyT", "EDG", "INV", "CTR", "TakenAlone"]),
                         unique=True))
    mask = 0xFF
    for m in mods:
        if m == "CMSK":
            n = draw(HEX)
            spec += ".CMSK=" + draw(st.sampled_from([str(n), hex(n)]))
            evtsel += n * 2 ** 24
        elif m == "CTR":
            n = draw(st.integers(0, 7))
            spec += ".CTR=%d" % n
            mask = 2 ** n
        else:
            spec += "." + m
            evtsel |= {"AnyT": ANY, "EDG": EDGE, "INV": INV, "TakenAlone": 0}[m]
    return spec, evtsel, mask


class Properties(unittest.TestCase):
    @PROPERTY
    @given(specs(), st.text(alphabet="ABCDEFGHIJKLMNOPQRSTUVWXYZ_.0123456789 ", max_size=40))
    def test_a_spec_programs_its_parts(self, drawn, name):
        spec, evtsel, mask = drawn
        e = one("  %s %s" % (spec, name))
        self.assertEqual(e.evtsel, evtsel)
        self.assertEqual(e.counter_mask, mask)
        self.assertEqual(e.name, name.strip() or spec)

    @PROPERTY
    @given(st.text(alphabet=st.sampled_from(list("DC0819.=ACMSKTRnyEGINVx#_ \t") + ["\u00e9"]),
                   max_size=30))
    def test_any_line_parses_or_is_refused(self, line):
        try:
            events = config.parse_config(line, "p.cfg")
        except config.ConfigError as e:
            self.assertIn("p.cfg line 1: ", str(e))
            return
        for e in events:
            # What it programs is what its spec says, read back by the parser itself.
            self.assertEqual(one(e.spec).evtsel, e.evtsel)
            self.assertTrue(e.evtsel & EN)
            self.assertLess(e.evtsel, 1 << 32)


if __name__ == "__main__":
    unittest.main()
