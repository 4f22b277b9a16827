"""`python -m bow3d` is the `bow3d` command."""

import sys

from bow3d.cli import main

sys.exit(main())
