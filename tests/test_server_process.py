"""How the server process sets up the interpreter (casino/asgi.py): the garbage collector, the GIL's switch interval."""

import subprocess
import sys
import textwrap


def test_it_freezes_what_start_up_made_collects_the_rest_less_often_and_hands_the_interpreter_over_often():
    # A process of its own: this one's modules were imported in another order, and other tests may freeze too.
    script = textwrap.dedent(
        """
        import gc, os, sys
        os.environ.setdefault("DJANGO_SETTINGS_MODULE", "casino.settings")
        import casino.asgi
        gc.collect()
        print(gc.get_freeze_count(), len(gc.get_objects()), gc.isenabled(), sys.getswitchinterval(), *gc.get_threshold())
        """
    )
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True).stdout
    frozen, tracked, enabled, switch, *thresholds = out.split()
    # Django and the apps (~100,000 objects) frozen; a full collection scans what is left: a few thousand.
    assert int(frozen) > 50_000
    assert int(tracked) < int(frozen) / 10
    assert enabled == "True"  # what serving makes is still collected
    # ... in a young generation of 20,000 objects and the next every 20 of its collections (CPython's: 700 and 10);
    # the eldest as CPython has it.
    assert [int(n) for n in thresholds] == [20_000, 20, 10]
    # The database thread gets the interpreter back within half a millisecond of a statement, not five.
    assert float(switch) == 0.0005
