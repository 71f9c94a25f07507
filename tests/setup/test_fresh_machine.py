"""The two commands work the first time on a fresh machine (issue 23).

A fresh Debian machine has none of the packages tools/deps.sh installs. `make run` must have deps
install them before anything the build needs is looked up: a make that asks for a library's path
when it reads its makefiles, before deps has run, stops saying the library is missing on the
first `make run` and passes on the second, and CI, whose machine has the packages, never sees it.

The test makes such a machine for the build alone: a copy of the committed tree with no build/, a
compiler that does not find Debian's zlib and libqrcodegen (their static libraries and
headers) until a stand-in for tools/deps.sh has "installed" them, and that logs every look-up of
them. One `make run` (a short experiment) must pass, and no look-up may come before the install.
"""

import os
import shutil
import subprocess
import tempfile
import unittest

TOP = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

# A compiler that lacks the two libraries until $FRESH/installed exists. It answers
# -print-file-name= as gcc does for a file it cannot find (the bare name) and fails an -include
# of either header as gcc does; every look-up is logged with whether they were installed then.
COMPILER = r"""#!/bin/sh
state=missing
[ -e "$FRESH/installed" ] && state=installed
for a in "$@"; do
	case "$a" in
	-print-file-name=libz.a|-print-file-name=libqrcodegen.a)
		echo "lookup ${a#-print-file-name=} $state" >>"$FRESH/lookups"
		if [ $state = missing ]; then echo "${a#-print-file-name=}"; exit 0; fi ;;
	zlib.h|zconf.h|qrcodegen/qrcodegen.h|-lz|-lqrcodegen)
		echo "lookup $a $state" >>"$FRESH/lookups"
		if [ $state = missing ]; then echo "cc: fatal error: $a: not found" >&2; exit 1; fi ;;
	esac
done
exec gcc "$@"
"""

# tools/deps.sh's stand-in: "installs" the packages, and says when it did.
DEPS = r"""#!/bin/sh
echo "deps ran" >>"$FRESH/lookups"
touch "$FRESH/installed"
"""

RUN_ARGS = '--append "exp=ch4-lbr-inserts dur_ms=20 exit=qemu"'


def committed_files():
    out = subprocess.run(["git", "ls-files", "-z"], cwd=TOP, capture_output=True, check=False)
    if out.returncode != 0:
        return None
    return [f for f in out.stdout.decode().split("\0") if f]


def write_script(path, text):
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)
    os.chmod(path, 0o755)


class FreshMachine(unittest.TestCase):
    def setUp(self):
        files = committed_files()
        if files is None:
            self.skipTest("not a git checkout: no list of the committed files to copy")
        self.fresh = tempfile.mkdtemp(prefix="fresh-machine-")
        self.addCleanup(shutil.rmtree, self.fresh, True)
        self.tree = os.path.join(self.fresh, "tree")
        for f in files:
            source = os.path.join(TOP, f)
            if os.path.isfile(source):
                os.makedirs(os.path.dirname(os.path.join(self.tree, f)), exist_ok=True)
                shutil.copy2(source, os.path.join(self.tree, f))
        self.cc = os.path.join(self.fresh, "cc")
        self.deps = os.path.join(self.fresh, "deps")
        write_script(self.cc, COMPILER)
        write_script(self.deps, DEPS)
        self.env = dict(os.environ, FRESH=self.fresh)
        for inherited in ("MAKEFLAGS", "MAKELEVEL", "MFLAGS", "DEPS_DONE"):
            self.env.pop(inherited, None)

    def make(self, *args):
        return subprocess.run(["make", "-j2", "CC=" + self.cc, "DEPS=" + self.deps, *args],
                              cwd=self.tree, env=self.env, capture_output=True, text=True,
                              timeout=900, check=False)

    def lookups(self):
        path = os.path.join(self.fresh, "lookups")
        if not os.path.exists(path):
            return []
        with open(path, encoding="utf-8") as f:
            return f.read().split("\n")[:-1]

    def test_the_compiler_hides_the_libraries(self):
        out = subprocess.run([self.cc, "-print-file-name=libz.a"], env=self.env,
                             capture_output=True, text=True, check=False)
        self.assertEqual(out.stdout.strip(), "libz.a")
        out = subprocess.run([self.cc, "-print-file-name=libz.a"], env=dict(
            self.env, FRESH=self.fresh + "/nowhere"), capture_output=True, text=True, check=False)
        self.assertEqual(out.stdout.strip(), "libz.a")

    def test_first_make_run_passes(self):
        done = self.make("run", "RUN_ARGS=" + RUN_ARGS)
        log = self.lookups()
        self.assertEqual(done.returncode, 0, "the first `make run` failed:\n%s\n%s\nlook-ups: %s"
                         % (done.stdout[-3000:], done.stderr[-3000:], log))
        self.assertIn("deps ran", log)
        before = log[:log.index("deps ran")]
        self.assertEqual(before, [], "looked up before deps ran: %s" % before)
        self.assertTrue(any(l.startswith("lookup libz.a") for l in log), log)
        self.assertIn("Exit status 0", done.stdout)

        # And where deps has not installed them, the build names what is missing and who
        # installs it (the kernel's objects are built by now: only the libraries are redone).
        os.remove(os.path.join(self.fresh, "installed"))
        shutil.rmtree(os.path.join(self.tree, "build", "gen"))
        shutil.rmtree(os.path.join(self.tree, "build", "qr-user"))
        os.remove(os.path.join(self.tree, "build", "pmu-testkernel.elf"))
        done = self.make("kernel")
        self.assertNotEqual(done.returncode, 0)
        self.assertRegex(done.stderr, r"(libz\.a|libqrcodegen\.a|zlib\.h|zconf\.h|qrcodegen\.h) "
                         r"is missing: tools/deps.sh installs it")


if __name__ == "__main__":
    unittest.main()
