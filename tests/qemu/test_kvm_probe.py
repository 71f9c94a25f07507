"""The KVM lane's probe (tests/qemu/cases_kvm.py): each way KVM can fail to run the kernel gets
its own reason, and only a boot that ends with verdict pass counts as working."""

import json
import os
import tempfile
import unittest
import zlib

import pmu_records
from tests.qemu.cases_kvm import device_refusal, probe_outcome

LOG = "build/test-logs/kvm-probe.log"


def log_of(*records):
    lines = []
    for seq, obj in enumerate(records):
        body = json.dumps(obj, separators=(",", ":"))
        lines.append("@%d %08x %s" % (seq, zlib.crc32(body.encode()) & 0xFFFFFFFF, body))
    return pmu_records.parse("\n".join(lines) + "\n")


BOOT = {"type": "boot", "version": "test"}
PASS = {"type": "end", "records": 2, "verdict": "pass", "failures": 0, "reason": None}


class Probe(unittest.TestCase):
    def test_a_passing_boot_works(self):
        self.assertIsNone(probe_outcome(log_of(BOOT, PASS), "", 1, LOG))

    def test_the_hypervisor_refuses(self):
        stderr = ("qemu-system-x86_64: warning: host doesn't support requested feature\n"
                  "Could not access KVM kernel module: Permission denied\n"
                  "qemu-system-x86_64: -accel kvm: failed to initialize kvm: Permission denied\n")
        reason = probe_outcome(pmu_records.parse(""), stderr, 1, LOG)
        self.assertEqual(reason, "the hypervisor refuses: Could not access KVM kernel module: "
                                 "Permission denied")
        self.assertIn("QEMU said nothing (exit status 1)",
                      probe_outcome(pmu_records.parse(""), "", 1, LOG))

    def test_the_kernel_faults(self):
        exception = {"type": "exception", "vector": 6, "name": "#UD", "cpl": 3, "rip": "0x146fe7"}
        end = dict(PASS, verdict="fail", failures=1, reason="#UD invalid opcode on CPU 0")
        reason = probe_outcome(log_of(BOOT, exception, end), "", 3, LOG)
        self.assertTrue(reason.startswith("the kernel faults under KVM: #UD at CPL 3, RIP "
                                          "0x146fe7"), reason)

    def test_no_end_record(self):
        reason = probe_outcome(log_of(BOOT), "", None, LOG)
        self.assertTrue(reason.startswith("no end record under KVM"), reason)

    def test_a_failed_run(self):
        end = dict(PASS, verdict="fail", failures=1, reason="the sibling check failed")
        reason = probe_outcome(log_of(BOOT, end), "", 3, LOG)
        self.assertIn("verdict fail: the sibling check failed", reason)

    def test_no_device(self):
        with tempfile.TemporaryDirectory() as d:
            missing = os.path.join(d, "kvm")
            self.assertEqual(device_refusal(missing), "no %s on this host" % missing)
            open(missing, "w").close()
            self.assertIsNone(device_refusal(missing))


if __name__ == "__main__":
    unittest.main()
