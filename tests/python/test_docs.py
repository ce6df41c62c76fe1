"""docs/python.md's examples run: its cfdrun command (with this binary) and
then every ```python block of the page in order, in one namespace, as a
reader would paste them. A block that raises fails the test.
usage: test_docs.py --cfdrun BIN [--work DIR] (needs xarray and yt too)"""
import contextlib
import io
import os
import re
import shlex
import subprocess
import unittest

import support

support.take_arguments()
PAGE = os.path.join(support.SOURCE, "docs", "python.md")


class PythonPage(unittest.TestCase):
    def test_examples_run(self):
        with open(PAGE) as f:
            text = f.read()
        shell = re.findall(r"```sh\n(.*?)```", text, re.S)
        commands = [b for b in shell if "apps/cfdrun " in b]
        self.assertEqual(len(commands), 1, "the page should give one cfdrun command")
        words = shlex.split(commands[0].replace("\\\n", " "))
        words[0] = support.CFDRUN
        words = [os.path.join(support.SOURCE, w) if w.startswith("config/") else w for w in words]
        done = subprocess.run(words + ["--overwrite", "-q"], cwd=support.WORK, capture_output=True, text=True)
        self.assertEqual(done.returncode, 0, done.stderr)
        blocks = re.findall(r"```python\n(.*?)```", text, re.S)
        self.assertGreaterEqual(len(blocks), 5)
        namespace = {}
        os.chdir(support.WORK)
        for k, block in enumerate(blocks):
            said = io.StringIO()
            with contextlib.redirect_stdout(said):
                exec(compile(block, f"{PAGE} block {k + 1}", "exec"), namespace)
            print(f"--- block {k + 1}\n{said.getvalue()}", end="")
        # What the page's comments promise.
        self.assertEqual(namespace["rho"].shape, (64, 64))
        self.assertEqual(namespace["series"].times.tolist()[:3], [0.0, 0.1, 0.2])
        self.assertLess(namespace["drift"], 1e-13)
        self.assertAlmostEqual(float(namespace["mass"].d) / namespace["h"]["mass"][0], 1, delta=1e-13)


if __name__ == "__main__":
    unittest.main(verbosity=2)
