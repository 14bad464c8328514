"""`<id:...>` in URL patterns: a row id, from 1 to BIGGEST_ID; anything longer is no match (a 404), never a 500.

Registered once, on import; every urls module that uses `id` imports this module.
"""

from __future__ import annotations

from django.urls import register_converter

from tables.models import BIGGEST_ID


class IdConverter:
    regex = "[0-9]{1,19}"

    def to_python(self, value: str) -> int:
        number = int(value)
        if not 1 <= number <= BIGGEST_ID:
            raise ValueError(f"{value} is not a row id.")  # Django: no match, so a 404
        return number

    def to_url(self, value: int) -> str:
        return str(int(value))


register_converter(IdConverter, "id")
