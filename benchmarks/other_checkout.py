"""Run a script or command of another checkout of this project with this venv, its editable install kept out.

    cd ../bench-base && ../main/.venv/bin/python ../main/benchmarks/other_checkout.py benchmarks/play_cost.py --plays 600
    cd ../bench-base && ../main/.venv/bin/python ../main/benchmarks/other_checkout.py manage.py loadtest ...
    cd ../bench-base && ../main/.venv/bin/python ../main/benchmarks/other_checkout.py ../main/.venv/bin/daphne ...

`make install-dev` installs this checkout into the venv in editable mode: its
finder would hand an older checkout (`git worktree add ../bench-base
32cec1c`) the modules it lacks from this one, and an old commit's benchmark
then measures a mix of both, or waits for ever on a module that is not its
own. This drops that finder and this file's own directory from the path,
puts the script's directory and then the current one first, and runs the
script as `__main__`, as `python script ...` run there would. For
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
    script = os.path.abspath(sys.argv[1])
    own = os.path.dirname(os.path.abspath(__file__))
    kept = [entry for entry in sys.path if entry and entry != own and "__editable__" not in entry]
    sys.path[:] = [os.path.dirname(script), os.getcwd(), *kept]
    sys.path_importer_cache.clear()
    sys.argv = sys.argv[1:]
    runpy.run_path(script, run_name="__main__")


if __name__ == "__main__":
    main()
