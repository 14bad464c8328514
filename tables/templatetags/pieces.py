"""`{% piece "status" %}`: a piece of the live table (templates/tables/pieces/, Jinja2) in a Django page.

The table page and the replay draw the same pieces the frames send
(tables/live/templating.py), so each is written once. The piece sees the
page's `view`, `user`, `notice`, `seat` and `check`, the page's CSRF token for
its forms' plain-HTTP fallback, and the page's path for a Log in link.
"""

from __future__ import annotations

from django import template
from django.utils.safestring import SafeString, mark_safe

from tables.live.templating import render_piece

register = template.Library()

PASSED = ("view", "user", "notice", "seat", "check")


@register.simple_tag(takes_context=True)
def piece(context: template.Context, name: str) -> SafeString:
    values = {key: context.get(key) for key in PASSED}
    token = context.get("csrf_token")
    if token and str(token) != "NOTPROVIDED":
        values["csrf_token"] = str(token)
    request = context.get("request")
    if request is not None:
        values["login_next"] = request.path
    return mark_safe(render_piece(name, values))
