"""What the tests of tests/owncode share: tools/pmu-bench as a module (its file has no .py), run
in this process with its output caught, and the paths of the build."""

import contextlib
import importlib.machinery
import importlib.util
import io
import os

TOP = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
TOOL = os.path.join(TOP, "tools", "pmu-bench")
BUILD = os.path.join(TOP, "build")
KERNEL = os.path.join(BUILD, "pmu-testkernel.elf")


def _load():
    loader = importlib.machinery.SourceFileLoader("pmu_bench_cli", TOOL)
    module = importlib.util.module_from_spec(importlib.util.spec_from_loader(loader.name, loader))
    loader.exec_module(module)
    return module


CLI = _load()


class Run:
    def __init__(self, status, stdout, stderr):
        self.status = status
        self.stdout = stdout
        self.stderr = stderr

    def __repr__(self):
        return "exit %s\n--- stdout\n%s--- stderr\n%s" % (self.status, self.stdout, self.stderr)


def run(*argv):
    """pmu-bench's main() on argv: (exit status, stdout, stderr). An exception escapes (it is a
    failure of the test: the tool must never show a traceback)."""
    stdout, stderr = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(stdout), contextlib.redirect_stderr(stderr):
        status = CLI.main(list(argv))
    return Run(status, stdout.getvalue(), stderr.getvalue())
