"""libFuzzer harnesses of the kernel's parsers (tests/fuzz/fuzz_*.c), their seeds, their runner
(fuzzers.py, `make fuzz`) and their smoke test in `make test` (test_fuzz.py)."""
