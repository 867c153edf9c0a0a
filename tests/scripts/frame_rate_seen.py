"""Prints the Textual frame rate setting this script sees: under the app, what the user set."""

import os

print("FRAME_RATE_SEEN", repr(os.environ.get("TEXTUAL_FPS")))
