"""The table's pieces, as templates on the cheapest path: Jinja2, compiled to Python once.

Every play re-renders a few pieces of the table (a seat's cards, the buttons
of whoever is to act, the turn marker), and with Django's template engine
that was a fifth of a play's CPU (docs/performance.md). The same pieces as
Jinja2 templates render several times faster, and they stay server-rendered
HTML partials: templates/tables/pieces/, one file a piece, used by the
frames (tables/live/pieces.py) and, through the `{% piece %}` tag
(tables/templatetags/pieces.py), by the table page and the replay, so each
piece is written once.

Escaping is on: Django's safe strings (a card's HTML) and Jinja's Markup both
pass through either engine unescaped, and everything else is escaped.
"""

from __future__ import annotations

from collections.abc import MutableMapping
from functools import lru_cache
from pathlib import Path
from typing import Any

from django.conf import settings
from django.contrib.humanize.templatetags.humanize import intcomma
from django.template.defaultfilters import pluralize
from django.urls import reverse
from jinja2 import Environment, FileSystemLoader, Template
from markupsafe import Markup

PIECES_DIR = Path(settings.BASE_DIR) / "templates" / "tables" / "pieces"


@lru_cache(maxsize=256)
def url(name: str, *args: object) -> str:
    """A URL by its name, as `{% url %}` gives it; the few a table uses are worked out once."""
    return reverse(name, args=args)


class _Environment(Environment):
    """Jinja2's environment, each template's globals one flat dict.

    Every render copies the globals under the template's variables, twice
    (its context and the context's set of global names). Jinja2 keeps them as
    a ChainMap over the environment's, and iterating a ChainMap is slow: it was
    a third of a render and a tenth of a loaded server's frames (docs/performance.md).
    The environment's globals are all set before the first template loads
    (`_environment`), so a flat copy says the same.
    """

    def make_globals(self, d: MutableMapping[str, Any] | None) -> MutableMapping[str, Any]:
        return {**self.globals, **(d or {})}


def _environment() -> Environment:
    environment = _Environment(
        loader=FileSystemLoader(PIECES_DIR),
        autoescape=True,
        auto_reload=settings.DEBUG,  # a developer's edits show at once
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=False,
    )
    environment.filters["intcomma"] = lambda value: intcomma(value, use_l10n=False)
    environment.filters["pluralize"] = pluralize
    environment.globals["url"] = url
    return environment


ENVIRONMENT = _environment()
_templates: dict[str, Template] = {}


def render_piece(name: str, context: dict[str, Any]) -> Markup:
    """The piece `name` (templates/tables/pieces/<name>.html) rendered with `context`."""
    template = _templates.get(name)
    if template is None:
        template = ENVIRONMENT.get_template(f"{name}.html")
        if not settings.DEBUG:
            _templates[name] = template
    return Markup(template.render(context))
