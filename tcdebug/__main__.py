"""`python -m tcdebug` works like `tcdebug`."""

from tcdebug.cli import main

raise SystemExit(main())
