"""tools/perfmon-import: Intel's core event files become the facts-only table, and the committed
table is what the import makes of Intel's data (checked where a clone of that data is at hand:
PERFMON_DATA names its folder)."""

import importlib.machinery
import importlib.util
import json
import os
import tempfile
import unittest

TOP = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
TABLE = os.path.join(TOP, "pmu", "intel_core_events.txt")


def load_importer():
    path = os.path.join(TOP, "tools", "perfmon-import")
    loader = importlib.machinery.SourceFileLoader("perfmon_import", path)
    spec = importlib.util.spec_from_loader("perfmon_import", loader)
    module = importlib.util.module_from_spec(spec)
    loader.exec_module(module)
    return module


perfmon_import = load_importer()

DESCRIPTION = "Intel's prose, which must stay out of the table"


def event(name, code, umask, **fields):
    e = {"EventName": name, "EventCode": code, "UMask": umask, "CounterMask": "0",
         "Invert": "0", "EdgeDetect": "0", "AnyThread": "0", "Counter": "0,1,2,3",
         "CounterHTOff": "0,1,2,3,4,5,6,7", "PEBS": "0", "TakenAlone": "0", "Offcore": "0",
         "MSRIndex": "0", "MSRValue": "0", "Errata": "null", "Deprecated": "0",
         "BriefDescription": DESCRIPTION, "PublicDescription": DESCRIPTION}
    e.update(fields)
    return e


class Import(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()
        self.addCleanup(self.dir.cleanup)
        events = [
            event("UOPS_ISSUED.ANY", "0x0E", "0x01"),
            event("INST_RETIRED.ANY", "0x00", "0x01", Counter="Fixed counter 0",
                  CounterHTOff="Fixed counter 0"),
            event("MEM_UOPS_RETIRED.ALL_LOADS", "0xD0", "0x81", Counter="0,1,2,3",
                  CounterHTOff="0,1,2,3", PEBS="1", Errata="HSD29, HSM30"),
            event("MEM_TRANS_RETIRED.LOAD_LATENCY_GT_4", "0xcd", "0x01", Counter="3",
                  CounterHTOff="3", MSRIndex="0x3F6", MSRValue="0x4", TakenAlone="1"),
            event("OFFCORE_RESPONSE.DEMAND_DATA_RD.ANY_RESPONSE", "0xB7, 0xBB", "0x01",
                  Offcore="1", MSRIndex="0x1a6,0x1a7", MSRValue="0x10001"),
            event("CYCLE_ACTIVITY.STALLS_L1D_PENDING", "0xA3", "0x0C", CounterMask="12",
                  Counter="2", CounterHTOff="2"),
        ]
        header = {"Version": "7", "DatePublished": "07/16/2024", "Info": DESCRIPTION}
        # A clone keeps the files in <ARCH>/events/; the import finds them at any depth.
        for i, (filename, _, _, _) in enumerate(perfmon_import.PARTS):
            folder = os.path.join(self.dir.name, "ARCH%d" % i, "events")
            os.makedirs(folder)
            with open(os.path.join(folder, filename), "w") as f:
                json.dump({"Header": header, "Events": events}, f)

    def import_table(self):
        text, count = perfmon_import.table(self.dir.name, "abc1234", "2026-08")
        return text, count

    def test_facts_only(self):
        text, count = self.import_table()
        self.assertNotIn(DESCRIPTION, text)
        self.assertEqual(count, 6 * len(perfmon_import.PARTS))
        self.assertIn("\nperfmon abc1234 2026-08\n", text)
        self.assertIn("\npart haswell-x haswell server haswellx_core.json 7 2024-07-16\n", text)

    def test_fields(self):
        lines = [l for l in self.import_table()[0].splitlines() if l.startswith("haswell ")]
        by_name = {l.split()[1]: l for l in lines}
        self.assertEqual(by_name["UOPS_ISSUED.ANY"],
                         "haswell UOPS_ISSUED.ANY 0x0e 0x01 0 0 0 0 0,1,2,3 0,1,2,3,4,5,6,7 0 0 0"
                         " - - 0 -")
        self.assertEqual(by_name["INST_RETIRED.ANY"].split()[8:10], ["fixed0", "fixed0"])
        self.assertEqual(by_name["MEM_UOPS_RETIRED.ALL_LOADS"].split()[-1], "HSD29,HSM30")
        self.assertEqual(by_name["MEM_TRANS_RETIRED.LOAD_LATENCY_GT_4"].split()[13:15],
                         ["0x3f6", "0x4"])
        offcore = by_name["OFFCORE_RESPONSE.DEMAND_DATA_RD.ANY_RESPONSE"].split()
        self.assertEqual((offcore[2], offcore[12], offcore[13]), ("0xb7,0xbb", "1", "0x1a6,0x1a7"))
        self.assertEqual(by_name["CYCLE_ACTIVITY.STALLS_L1D_PENDING"].split()[4:10],
                         ["12", "0", "0", "0", "2", "2"])
        # One part's events in name order.
        names = [l.split()[1] for l in lines]
        self.assertEqual(names, sorted(names))

    def test_bad_input_is_refused(self):
        path = os.path.join(self.dir.name, "ARCH4", "events", "haswell_core.json")
        with open(path, "w") as f:
            json.dump({"Header": {}, "Events": [event("A.B", "0x0E", "0x01"),
                                                event("A.B", "0x0E", "0x02")]}, f)
        with self.assertRaisesRegex(perfmon_import.ImportFailure, "A.B twice"):
            self.import_table()
        with open(path, "w") as f:
            json.dump({"Events": [event("A.B", "0x0E", "0x01", Counter="0,9")]}, f)
        with self.assertRaisesRegex(perfmon_import.ImportFailure, "counters"):
            self.import_table()

    def test_missing_file(self):
        os.remove(os.path.join(self.dir.name, "ARCH0", "events", "sandybridge_core.json"))
        with self.assertRaisesRegex(perfmon_import.ImportFailure, "sandybridge_core.json"):
            self.import_table()

    def test_new_part(self):
        """--part: a new microarchitecture's part joins those of the table, and stays there."""
        folder = os.path.join(self.dir.name, "NEW", "events")
        os.makedirs(folder)
        with open(os.path.join(folder, "newlake_core.json"), "w") as f:
            json.dump({"Header": {"Version": "3"}, "Events": [event("NEW.ONE", "0x0E", "0x01")]},
                      f)
        parts = perfmon_import.add_part(perfmon_import.PARTS, "newlake", "newlake", "client",
                                        "newlake_core.json")
        text, count = perfmon_import.table(self.dir.name, "abc1234", "2026-08", parts)
        self.assertEqual(count, 6 * len(perfmon_import.PARTS) + 1)
        self.assertIn("\npart newlake newlake client newlake_core.json 3 -\n", text)
        self.assertIn("\nnewlake NEW.ONE 0x0e 0x01 ", text)
        table = os.path.join(self.dir.name, "table.txt")
        with open(table, "w") as f:
            f.write(text)
        self.assertEqual(perfmon_import.table_parts(table), parts)

    def test_new_part_refused(self):
        parts = perfmon_import.PARTS
        for args, why in ((("haswell", "haswell", "client", "x_core.json"), "already"),
                          (("haswell-y", "haswell", "server", "y_core.json"), "already has"),
                          (("newlake", "New-Lake", "client", "n_core.json"), "C name"),
                          (("newlake", "newlake", "desktop", "n_core.json"), "neither")):
            with self.assertRaisesRegex(perfmon_import.ImportFailure, why):
                perfmon_import.add_part(parts, *args)
        # A server part goes next to its client.
        parts = perfmon_import.add_part(parts, "newlake", "newlake", "client", "n_core.json")
        parts = perfmon_import.add_part(parts, "oldlake", "oldlake", "client", "o_core.json")
        parts = perfmon_import.add_part(parts, "newlake-x", "newlake", "server", "nx_core.json")
        self.assertEqual([p[1] for p in parts[-3:]], ["newlake", "newlake-x", "oldlake"])


class CommittedParts(unittest.TestCase):
    def test_parts_are_the_table_lines(self):
        """The parts imported are the committed table's part lines, in their order."""
        with open(TABLE) as f:
            lines = [l.split() for l in f if l.startswith("part ")]
        self.assertEqual(perfmon_import.PARTS, [(l[4], l[1], l[2], l[3]) for l in lines])
        self.assertIn(("haswellx_core.json", "haswell-x", "haswell", "server"),
                      perfmon_import.PARTS)


class CommittedTable(unittest.TestCase):
    def test_reproduces_from_intel_data(self):
        data = os.environ.get("PERFMON_DATA")
        if not data or not os.path.isdir(data):
            self.skipTest("set PERFMON_DATA to a clone of github.com/intel/perfmon to check that "
                          "the import reproduces pmu/intel_core_events.txt")
        with open(TABLE) as f:
            committed = f.read()
        version = next(l for l in committed.splitlines() if l.startswith("perfmon "))
        _, commit, date = version.split()
        text, _ = perfmon_import.table(data, commit, date)
        self.assertEqual(text, committed, "rerun tools/perfmon-import (docs/event-names.md)")


if __name__ == "__main__":
    unittest.main()
