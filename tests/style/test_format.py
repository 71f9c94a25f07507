"""The C sources keep the house style: the repository's .clang-format, as `make check-format`
checks it. Debian 12's clang-format 14 is the reference (another version formats some constructs
differently), installed by tools/deps.sh."""

import os
import shutil
import subprocess
import unittest

TOP = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def sources():
    out = subprocess.run(["git", "ls-files", "*.c", "*.h"], cwd=TOP, capture_output=True,
                         text=True, check=False)
    if out.returncode != 0:
        return None
    return [f for f in out.stdout.split("\n") if f]


class Format(unittest.TestCase):
    def test_every_c_file_is_clang_formatted(self):
        tool = shutil.which("clang-format-14")
        if tool is None:
            self.skipTest("clang-format-14 is missing (tools/deps.sh installs it)")
        files = sources()
        if files is None:
            self.skipTest("not a git checkout: no list of the committed sources")
        self.assertGreater(len(files), 50)
        out = subprocess.run([tool, "--dry-run", "--Werror"] + files, cwd=TOP,
                             capture_output=True, text=True, check=False)
        unformatted = sorted({line.split(":", 1)[0] for line in out.stderr.split("\n")
                              if "error:" in line})
        self.assertEqual(out.returncode, 0,
                         "not clang-formatted (make format fixes them): %s"
                         % ", ".join(unformatted))


if __name__ == "__main__":
    unittest.main()
