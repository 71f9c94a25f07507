# tests/ring3/: the code the siblings run at CPL 3: the workloads' loops (triad and friends, each
# with its model profile) and the ring-3 halves of the boot checks (the probe, the RDPMC reads).
# Compiled with RING3_CFLAGS into .user.* sections (the Makefile), so that it may use SSE/AVX.
RING3_SRCS += $(wildcard tests/ring3/*.c)
