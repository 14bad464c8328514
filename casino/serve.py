"""``python -m casino.serve <daphne's options> casino.asgi:application``: daphne on uvloop's event loop.

daphne runs Twisted on an asyncio event loop, and every table's play goes
round that loop several times (the message in, the database thread's answer,
each viewer's frame out). uvloop's loop does the same in C: about 3.5% of a
play's instructions less (benchmarks/play_cost.py), more with real sockets
(docs/performance.md, issue 12). daphne makes its loop when its server module
is first imported, so uvloop's policy is set here, before daphne's command line
imports it. Where uvloop is not installed (it has no Windows build), this is
plain daphne. Takes exactly daphne's options: `make run`, docs/deploy.md and
the tests' live servers all start the site this way.
"""

from __future__ import annotations

import asyncio


def use_uvloop() -> bool:
    """Make uvloop's the event loop of whatever starts next; False where uvloop is not installed."""
    try:
        import uvloop
    except ImportError:
        return False
    asyncio.set_event_loop_policy(uvloop.EventLoopPolicy())
    return True


def main() -> None:
    use_uvloop()
    from daphne.cli import CommandLineInterface  # imports daphne.server, which makes the loop

    CommandLineInterface.entrypoint()


if __name__ == "__main__":
    main()
