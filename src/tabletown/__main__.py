"""``python -m tabletown``: the same command line as the ``tabletown`` script."""

from tabletown.cli import main

main()
