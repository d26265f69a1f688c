"""Hostile parameters for every socket method, long: the suite's fuzz with many examples.

    python -m bench.fuzz [--examples 2000]   (from the repository root)

Runs tests/api/test_fuzz_methods.py with MEMDESK_FUZZ_EXAMPLES set: every method called by an
agent with random and hostile JSON parameters must answer a result or an error that names what
was wrong (never "internal error"), and leave the store healthy. Prints pytest's summary.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--examples", type=int, default=2000, help="examples per method")
    args = parser.parse_args()
    env = {**os.environ, "MEMDESK_FUZZ_EXAMPLES": str(args.examples)}
    test = ROOT / "tests" / "api" / "test_fuzz_methods.py"
    return subprocess.call([sys.executable, "-m", "pytest", "-q", str(test)], env=env, cwd=ROOT)


if __name__ == "__main__":
    sys.exit(main())
