"""Prints what this script and its subprocess see of PYTHONPATH and sys.path, as one JSON line."""

import json
import os
import subprocess
import sys

child = subprocess.run(
    [sys.executable, "-c", "import json, os, sys; print(json.dumps([os.environ.get('PYTHONPATH'), sys.path[1:]]))"],
    capture_output=True,
    text=True,
    check=True,
)
report = {"pythonpath": os.environ.get("PYTHONPATH"), "sys_path": sys.path, "child": json.loads(child.stdout)}
print("PATH_REPORT " + json.dumps(report), flush=True)
