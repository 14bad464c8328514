"""Run a script or command of another checkout of this project with this venv, its editable install kept out.

    cd /work/bench-base && /work/main/.venv/bin/python /work/main/benchmarks/other_checkout.py benchmarks/play_cost.py --plays 600
    cd /work/bench-base && /work/main/.venv/bin/python /work/main/benchmarks/other_checkout.py manage.py loadtest ...
    cd /work/bench-base && /work/main/.venv/bin/python /work/main/benchmarks/other_checkout.py /work/main/.venv/bin/daphne ...

`make install-dev` installs this checkout into the venv in editable mode: its
finder would hand an older checkout (`git worktree add /work/bench-base
32cec1c`) the modules it lacks from this one, and an old commit's benchmark
then measures a mix of both, or waits for ever on a module that is not its
own. This drops that finder and puts the current directory first on the
path, then runs the script as `__main__`, as `python script ...` would. For
the before-and-after figures of docs/performance.md; not used by the site.
"""

from __future__ import annotations

import os
import runpy
import sys


def main() -> None:
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    sys.meta_path[:] = [finder for finder in sys.meta_path if "editable" not in repr(finder).lower()]
    sys.path_hooks[:] = [hook for hook in sys.path_hooks if "editable" not in repr(hook).lower()]
    sys.path[:] = [os.getcwd()] + [entry for entry in sys.path if "__editable__" not in entry and entry]
    sys.path_importer_cache.clear()
    sys.argv = sys.argv[1:]
    runpy.run_path(sys.argv[0], run_name="__main__")


if __name__ == "__main__":
    main()
