"""Entry point of the target process: `python -m tcdebug.target [--mode M] [--break S] [-m] -- ARGV`."""

from tcdebug.target.runner import main

raise SystemExit(main())
