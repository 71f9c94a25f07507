"""Tests of tools/efi_image.py.

    python3 -m unittest discover -s tests/image -t .

The tests import the tool (in tools/) as a top-level module; imported as a package, this puts that
folder on the path.
"""

import os
import sys

_TOOLS = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))),
                      "tools")
if _TOOLS not in sys.path:
    sys.path.insert(0, _TOOLS)
