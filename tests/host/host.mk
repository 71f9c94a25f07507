# tests/host/: cmocka unit tests of the pure code, one program per file test_<topic>.c.
# tests/host/lib/*.c (fixtures, fakes) are linked into every one of them.
HOST_TESTS += $(basename $(notdir $(wildcard tests/host/test_*.c)))
HOST_TEST_SRCS += $(wildcard tests/host/lib/*.c)
