"""Tests of tools/perfmon-import, the import of Intel's event data (docs/event-names.md).

    python3 -m unittest discover -s tests/perfmon -t .
"""
