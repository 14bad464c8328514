"""HTML for one viewer: the table page's pieces, as htmx out-of-band swaps."""

from __future__ import annotations

from django.template.loader import render_to_string

from accounts.models import User
from tables import presenter


def render_frame(table_id: int, viewer: User | None, notice: str | None = None) -> tuple[str, int]:
    """Every live piece of the table page, each with its stable id and hx-swap-oob."""
    view = presenter.build(table_id, viewer)
    html = render_to_string(
        "tables/table.html#frame", {"view": view, "notice": notice, "user": viewer, "oob": True}
    )
    return html, view.version
