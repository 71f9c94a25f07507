"""Tests of tools/perfmon-import, the import of Intel's event data (README, "Event names").

    python3 -m unittest discover -s tests/perfmon -t .
"""
