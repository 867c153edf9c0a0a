import json
import os
import sys

print(
    json.dumps({"argv": sys.argv, "name": __name__, "path0": sys.path[0], "file": os.path.abspath(__file__)})
)
sys.exit(int(sys.argv[1]) if len(sys.argv) > 1 else 0)
