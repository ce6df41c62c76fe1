"""docs/user-guide.md must embed, verbatim, the key table that
`cfdrun --list-keys SOLVER --markdown` prints, so the guide and the code
cannot drift apart. usage: check_user_guide.py CFDRUN GUIDE SOLVER..."""
import subprocess
import sys

cfdrun, guide = sys.argv[1], open(sys.argv[2]).read()
status = 0
for solver in sys.argv[3:]:
    table = subprocess.run([cfdrun, "--list-keys", solver, "--markdown"], check=True,
                           capture_output=True, text=True).stdout
    if table not in guide:
        print(f"{sys.argv[2]} does not hold the current key table of '{solver}'; paste this:\n{table}")
        status = 1
sys.exit(status)
