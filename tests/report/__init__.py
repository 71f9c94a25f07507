"""Tests of tools/pmu-report and tools/pmu_records.py.

    python3 -m unittest discover -s tests/report -t .

The test modules import their helpers (reporttest, logfixture) and the tool's modules (in tools/)
as top-level modules, so that they run the same whether discovery starts here or at the top of the
repository; this puts both folders on the path when the tests are imported as a package.
"""

import os
import sys

_HERE = os.path.dirname(os.path.abspath(__file__))
for _path in (_HERE, os.path.join(os.path.dirname(os.path.dirname(_HERE)), "tools")):
    if _path not in sys.path:
        sys.path.insert(0, _path)
