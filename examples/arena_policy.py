"""Run ``tabletown arena`` with trained policy files among the bots, before ``make_bot`` knows
the ``policy:`` prefix: every ``--bot policy:FILE`` is registered in this process first (worker
processes inherit it), then the arena's own command line runs unchanged.

    python examples/arena_policy.py multicity --bot policy:policies/multicity.npz --bot random \\
        --games 200 --seed 1 --out runs/policy-vs-random
"""

from __future__ import annotations

import os
import sys

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")


def main() -> None:
    from tabletown.cli import main as cli
    from tabletown.rl.policy_bot import register_policy

    args = sys.argv[1:]
    for i, arg in enumerate(args):
        spec = args[i + 1] if arg == "--bot" and i + 1 < len(args) else ""
        spec = spec.removeprefix("bot:")
        if spec.startswith("policy:"):
            register_policy(spec.removeprefix("policy:"))
    sys.argv = ["tabletown", "arena", *args]
    cli()


if __name__ == "__main__":
    main()
