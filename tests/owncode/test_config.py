"""nanoBench's config format (tools/pmu_bench_config.py) on lines written here: what each line
programs, computed from the bits of IA32_PERFEVTSELx (SDM vol. 3B, 18.2.1.1, figure 18-1), and
every line it refuses, with the file, the line and what is accepted. Properties
(python3-hypothesis): a spec made of nanoBench's parts parses to the EVTSEL its parts give; any
line whatever either parses or is refused with a message, never an exception of another kind."""

import os
import tempfile
import unittest

import hypothesis.configuration
from hypothesis import HealthCheck, given, settings, strategies as st

import pmu_bench_config as config

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
        self.assertEqual([e.name for e in events],
                         ["Instructions retired", "Core cycles", "Reference cycles"])
        self.assertEqual([(e.kind, e.fixed_index, e.fixed_ctrl) for e in events],
                         [("fixed", 0, 2), ("fixed", 1, 2), ("fixed", 2, 2)])
        self.assertEqual({e.fixed_ctrl for e in config.fixed_events(True, True)}, {3})


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
        self.refused("D0.81 caf\u00e9", "printable ASCII")

    def test_the_line_is_named(self):
        message = self.refused("C0.00 OK\n# fine\nD0.8G BAD\n", "my.cfg line 3")
        self.assertIn("EvtSel.UMASK", message)     # what a line is

    def test_too_many_events(self):
        self.assertEqual(len(config.parse_config("C0.00 X\n" * 64, "my.cfg")), 64)
        with self.assertRaises(config.ConfigError) as cm:
            config.parse_config("C0.00 X\n" * 65, "my.cfg")
        self.assertEqual(str(cm.exception), "my.cfg: 65 events, at most 64 per thread")

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
            self.assertIn("line 2: a byte outside ASCII (0xe9)", str(cm.exception))


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
