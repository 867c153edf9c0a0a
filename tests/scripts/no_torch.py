"""A script that never imports torch: tcdebug must not import it for the script either."""

import sys

print("NO_TORCH", "torch" in sys.modules)
