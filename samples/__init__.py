"""The samples, also installed as `tcdebug.samples` so `tcdebug` with no script runs mlp.py."""
