"""The live table's pieces as Jinja2 templates (tables/live/templating.py)."""

from __future__ import annotations

from types import SimpleNamespace

from tables.live.templating import ENVIRONMENT, render_piece, url


def test_each_piece_sees_the_globals_as_one_flat_dict():
    """Copied into every render: a ChainMap over the environment's cost a third of a render."""
    for name in ("seat_body.html", "seat_hands.html", "controls.html", "csrf.html"):
        template = ENVIRONMENT.get_template(name)
        assert type(template.globals) is dict
        assert template.globals["url"] is url


def test_a_piece_still_calls_the_globals_and_escapes_what_it_is_given(db):
    watcher = SimpleNamespace(controls=[], my_seats=[], can_sit=False)
    html = render_piece("controls", {"view": watcher, "user": None, "login_next": "/tables/1/?a=<b>"})
    assert '<a href="/accounts/login/?next=/tables/1/?a=&lt;b&gt;">Log in</a>' in html
