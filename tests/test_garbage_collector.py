"""The server process hides its start-up objects from the cyclic garbage collector (casino/asgi.py)."""

import subprocess
import sys
import textwrap


def test_it_freezes_what_start_up_made_so_full_collections_stay_short():
    # A process of its own: this one's modules were imported in another order, and other tests may freeze too.
    script = textwrap.dedent(
        """
        import gc, os
        os.environ.setdefault("DJANGO_SETTINGS_MODULE", "casino.settings")
        import casino.asgi
        gc.collect()
        print(gc.get_freeze_count(), len(gc.get_objects()), gc.isenabled())
        """
    )
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True).stdout
    frozen, tracked, enabled = out.split()
    # Django and the apps (~100,000 objects) frozen; a full collection scans what is left: a few thousand.
    assert int(frozen) > 50_000
    assert int(tracked) < int(frozen) / 10
    assert enabled == "True"  # what serving makes is still collected
