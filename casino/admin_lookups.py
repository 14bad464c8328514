"""The admin filters on what its list filters offer, and on nothing else.

Django's admin accepts a filter in the query string on any of a model's own
fields (`lookup_allowed` refuses only unlisted lookups across relations). On
the shoe that let a view-only staff member read a live seed prefix by prefix
(`?seed__startswith=…`), and on the round test a live hole card
(`?state__dealer__1=TS`). Here every registered admin (ours, Django's user
groups, django-axes's) accepts only:

- the parameters of its list filters and date hierarchy, each with the lookups
  Django's own filters write (`table__id__exact`, `settled_at__gte`, ...);
- the admin's `filter_links`: fields other pages link to by id
  (`?shoe__id__exact=3` from a shoe's page to its rounds);
- the foreign-key lookups Django's raw-id popups send (`limit_choices_to`).

Anything else is a DisallowedModelAdminLookup, a 400. Secret fields are never
in a list filter, a search, a sortable column or an export (tests/tables/test_admin_lookups.py).
"""

from __future__ import annotations

from django.contrib import admin
from django.contrib.admin import widgets
from django.contrib.admin.utils import NotRelationField, get_fields_from_path
from django.core.exceptions import FieldDoesNotExist
from django.db.models.constants import LOOKUP_SEP
from django.http import HttpRequest

# The lookups Django's list filters and date hierarchy write after a field's path.
FILTER_LOOKUPS = frozenset({"exact", "iexact", "isnull", "in", "gt", "gte", "lt", "lte", "year", "month", "day"})


class StrictLookups:
    """lookup_allowed for a ModelAdmin: only its list filters' own parameters.

    An admin may name `filter_links`: fields other pages link to with
    ?<field>__id__exact=<id>. (Not a class attribute here: the mixin goes in
    front of the admin class, and would hide the admin's own.)
    """

    def filter_paths(self, request: HttpRequest | None) -> tuple[set[str], set[str]]:
        """(field paths that may be filtered, SimpleListFilter parameter names)."""
        paths = set(getattr(self, "filter_links", ()))
        names: set[str] = set()
        if self.date_hierarchy:
            paths.add(self.date_hierarchy)
        list_filter = self.get_list_filter(request) if request is not None else self.list_filter
        for item in list_filter:
            if isinstance(item, type) and issubclass(item, admin.SimpleListFilter):
                names.add(item.parameter_name)
            elif isinstance(item, (list, tuple)):
                paths.add(item[0])
            elif isinstance(item, str):
                paths.add(item)
        # A relation is filtered by its target's key: table__id__exact, table__pk__exact.
        for path in list(paths):
            try:
                field = get_fields_from_path(self.model, path)[-1]
            except (FieldDoesNotExist, NotRelationField):
                continue
            if field.is_relation and field.related_model is not None:
                paths.add(f"{path}{LOOKUP_SEP}{field.related_model._meta.pk.name}")
                paths.add(f"{path}{LOOKUP_SEP}pk")
        return paths, names

    def lookup_allowed(self, lookup: str, value: str, request: HttpRequest | None = None) -> bool:
        if self._raw_id_popup_lookup(lookup, value):
            return True
        paths, names = self.filter_paths(request)
        if lookup in names or lookup in paths:
            return True
        path, _, last = lookup.rpartition(LOOKUP_SEP)
        return last in FILTER_LOOKUPS and path in paths

    def _raw_id_popup_lookup(self, lookup: str, value: str) -> bool:
        """What ForeignKeyRawIdWidget's popup sends from a field's limit_choices_to (as Django allows)."""
        for fk_lookup in self.model._meta.related_fkey_lookups:
            if callable(fk_lookup):
                fk_lookup = fk_lookup()
            if (lookup, value) in widgets.url_params_from_lookup_dict(fk_lookup).items():
                return True
        return False


def strict(admin_class: type[admin.ModelAdmin]) -> type[admin.ModelAdmin]:
    """admin_class with StrictLookups in front (itself when it has it already)."""
    if issubclass(admin_class, StrictLookups):
        return admin_class
    return type(f"Strict{admin_class.__name__}", (StrictLookups, admin_class), {"__module__": admin_class.__module__})


class StrictAdminSite(admin.AdminSite):
    """The default admin site: every ModelAdmin registered on it, any app's, filters strictly."""

    def register(self, model_or_iterable, admin_class=None, **options) -> None:
        super().register(model_or_iterable, strict(admin_class or admin.ModelAdmin), **options)
