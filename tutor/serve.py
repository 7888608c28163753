"""The old name of :mod:`tutor.commands.server`, kept so that what a class server was set up
with before the tutor's modules were grouped into packages still works:
``python -m tutor.serve --write-server-config`` (in a teacher's notes or an image's build).
May import: ``tutor.commands.server``."""

from __future__ import annotations

import sys

from tutor.commands.server import main

if __name__ == "__main__":
    sys.exit(main())
