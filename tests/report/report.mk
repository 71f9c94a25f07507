# tests/report/: the tests of tools/pmu-report run as Python suites (tests/run.py); `make bench`
# also times it on logs of growing size with every kind of line end, and a comparison of 20 logs
# as they grow to 5 MB each.
BENCH_PROGS += tests/report/bench_report.py tests/report/bench_compare.py
