"""Each solver's docs page must embed, verbatim, the key table that
`cfdrun --list-keys SOLVER --markdown` prints, so the docs and the code
cannot drift apart. usage: check_user_guide.py CFDRUN ROOT: every solver of
`cfdrun --list-solvers` against the page it names (relative to the source
tree ROOT), so that a new solver is checked without a line here."""
import os
import subprocess
import sys

cfdrun, root = sys.argv[1], sys.argv[2]
listing = subprocess.run([cfdrun, "--list-solvers"], check=True, capture_output=True, text=True).stdout
status = 0
checked = []
for line in listing.splitlines():
    solver, page = line.split()[:2]
    path = os.path.join(root, page)
    if not os.path.isfile(path):
        print(f"solver '{solver}' names {page} for its keys, which does not exist")
        status = 1
        continue
    table = subprocess.run([cfdrun, "--list-keys", solver, "--markdown"], check=True,
                           capture_output=True, text=True).stdout
    if table not in open(path).read():
        print(f"{page} does not hold the current key table of '{solver}'; paste this:\n{table}")
        status = 1
        continue
    checked.append(f"{solver} ({page})")
if not checked:
    print("cfdrun --list-solvers listed no solver")
    status = 1
# ctest matches this line (a pass regular expression ignores the exit
# status), so it is printed only when every page holds its table.
if status == 0:
    print("key tables checked: " + ", ".join(checked))
sys.exit(status)
