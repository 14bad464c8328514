"""Reads and writes of whole rows with SQL built once per shape: the hot path of a play.

The ORM builds and compiles every query anew, and for a play (a handful of
short statements) that is most of its CPU: about a millisecond a statement
against tens of microseconds for SQLite to run it (docs/performance.md). The
few statements a play makes on every click are built here once per shape
(model, joins, where clause), then run with their parameters. What they
return are ordinary model instances, made by `Model.from_db` with the
backend's and the fields' own converters, and what they write goes through
each field's `pre_save` and `get_db_prep_save`, as the ORM's would: SQLite
and PostgreSQL alike. No signals are sent (the callers' saves of live state
have no listeners: tables.signals looks at created tables only).

They run on the driver's own cursor, with the SQL in the driver's parameter
style (converted once per statement), unless Django is logging queries or
something wraps its execution (casino.sql.run): then through Django's cursor, so that
a test's query count (assertNumQueries) and `connection.queries` see them all.

Everything else keeps the ORM: this is for the few statements a play repeats.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping, Sequence
from typing import Any, TypeVar

from django.conf import settings
from django.db import DEFAULT_DB_ALIAS, connection, connections, models
from django.db.models import Model
from django.db.models.base import ModelState
from django.db.models.fields import AutoFieldMixin
from django.db.models.signals import post_init, pre_init

from casino import json_values
from casino.sql import quote, run

M = TypeVar("M", bound=Model)

_selects: dict[tuple, tuple[str, list]] = {}
_updates: dict[tuple, tuple[str, list]] = {}
_inserts: dict[tuple, tuple[str, list]] = {}
def _converters(fields, alias: str) -> list[tuple[int, Any, list, type | None]]:
    """The columns whose values the ORM would convert: position, expression, converters, and a shortcut.

    The shortcut is a type whose values the converters would give back as they
    are, or turn aware (datetime), with nothing else to do: on SQLite the
    driver already parsed a datetime or bool column (its declared type), and
    the ORM's converters then only call settings and timezone helpers on each
    value. `select` does that work itself for such a value, and calls the
    converters for any other (a string, a number).
    """
    result = []
    sqlite = connection.vendor == "sqlite"
    for i, field in enumerate(fields):
        column = field.get_col(alias)
        converters = connection.ops.get_db_converters(column) + column.get_db_converters(connection)
        if converters:
            internal = field.get_internal_type() if sqlite and len(converters) == 1 else ""
            shortcut = {"DateTimeField": dt.datetime, "BooleanField": bool}.get(internal)
            result.append((i, column, converters, shortcut))
    return result


def _instance(model: type[M], db: str, names: list[str], values: list) -> M:
    """`model.from_db` without its __init__, for a model whose init nobody listens for (the same instance)."""
    instance = model.__new__(model)
    instance.__dict__.update(zip(names, values))
    state = instance._state = ModelState()
    state.adding = False
    state.db = db
    return instance


# Each model's field values for a new row, by attname: (the fixed ones, the fields whose default is made anew).
_defaults: dict[type, tuple[dict[str, Any], list]] = {}


def new(model: type[M], *, stored: bool = False, **values: Any) -> M:
    """A row of `model` from values by attname (`round_id`, not `round`), the rest its fields' defaults.

    What `model(**values)` makes, without Model.__init__'s walk over every field and
    its init signals, which nobody listens to (else the ORM's own way, as `select`):
    a play makes its transfers and a settled round its history rows this way, for
    `insert`. stored=True: a row that exists.
    """
    if (post_init.receivers or pre_init.receivers) and (post_init.has_listeners(model) or pre_init.has_listeners(model)):
        instance = model(**values)
        if stored:
            instance._state.adding, instance._state.db = False, DEFAULT_DB_ALIAS
        return instance
    shape = _defaults.get(model)
    if shape is None:
        fixed: dict[str, Any] = {}
        made = []
        for field in model._meta.concrete_fields:
            if field.has_default() and callable(field.default):
                made.append(field)
            else:
                fixed[field.attname] = field.get_default()
        shape = _defaults[model] = (fixed, made)
    fixed, made = shape
    instance = model.__new__(model)
    instance.__dict__.update(fixed)
    for field in made:
        if field.attname not in values:
            instance.__dict__[field.attname] = field.get_default()
    instance.__dict__.update(values)
    state = instance._state = ModelState()
    if stored:
        state.adding, state.db = False, DEFAULT_DB_ALIAS
    return instance


def select(
    model: type[M],
    where: str,
    params: Sequence[Any],
    *,
    join: Sequence[str] = (),
    join_on: Mapping[str, str] | None = None,
    order_by: str = "",
    for_update: bool = False,
) -> list[M]:
    """Rows of `model` (alias t0) with the forward foreign keys in `join` loaded too (aliases t1, t2 ...).

    A join may go on from an earlier one, as "current_round__shoe" after "current_round",
    and may be a reverse one-to-one ("player__play_limits"): a missing row then
    reads as the ORM's DoesNotExist, as select_related leaves it.

    `where` and `order_by` are SQL over those aliases, with %s placeholders
    for `params`. `for_update` locks the rows of t0 where the database can.
    A null foreign key loads as None.

    `join_on` narrows a join (by its path) to the rows a condition of its own
    over the join's alias allows, as "t2.id = %s": its parameters come first
    in `params`, in the order of `join`. A related row it leaves out is not
    loaded at all (not as None): reading it from its owner queries, as without a join.
    """
    conn = connections[DEFAULT_DB_ALIAS]
    on = tuple(sorted(join_on.items())) if join_on else ()
    key = (conn.vendor, model, where, tuple(join), on, order_by, for_update)
    shape = _selects.get(key)
    if shape is None:
        shape = _selects[key] = _select_shape(model, where, join, dict(on), order_by, for_update)
    sql, parts = shape
    found_rows = run(conn, sql, params, True)
    found = []
    db = conn.alias
    # Signals nobody listens to at all (the usual case) need no asking per model.
    listened = post_init.receivers or pre_init.receivers
    plain = [not (listened and (post_init.has_listeners(part[0]) or pre_init.has_listeners(part[0]))) for part in parts]
    zone = conn.timezone if settings.USE_TZ else None  # what the ORM's datetime converter makes aware with
    for row in found_rows:
        start = 0
        instances = []
        for (part_model, names, converters, fk, pk_index, _, narrowed), bare in zip(parts, plain):
            values = list(row[start : start + len(names)])
            start += len(names)
            if fk is not None and values[pk_index] is None:
                # A null foreign key: every column of the join is null (or its `join_on` left the row out).
                instances.append(_NOT_READ if narrowed else None)
                continue
            for i, column, funcs, shortcut in converters:
                value = values[i]
                if shortcut is not None and (value is None or value.__class__ is shortcut):
                    if shortcut is dt.datetime and value is not None and value.tzinfo is None and zone is not None:
                        values[i] = value.replace(tzinfo=zone)  # timezone.make_aware, as the converter does
                    continue
                for func in funcs:
                    values[i] = func(values[i], column, conn)
            instances.append(_instance(part_model, db, names, values) if bare else part_model.from_db(db, names, values))
        for part, related in zip(parts[1:], instances[1:]):
            owner = instances[part[5]]
            if owner is not None and owner is not _NOT_READ and related is not _NOT_READ:
                part[3].set_cached_value(owner, related)
        found.append(instances[0])
    return found


# A related row a narrowed join (`join_on`) did not read: left unloaded on its owner.
_NOT_READ = object()


def _select_shape(
    model, where: str, join: Sequence[str], join_on: Mapping[str, str], order_by: str, for_update: bool
) -> tuple[str, list]:
    columns: list[str] = []
    parts = []
    joins = []
    aliases = {None: ("t0", model)}
    for n, path in enumerate([None, *join]):
        alias = f"t{n}"
        fk = None
        part_model = model
        parent = None
        if path is not None:
            parent, _, name = path.rpartition("__")
            parent_alias, parent_model = aliases[parent or None]
            fk = parent_model._meta.get_field(name)
            part_model = fk.related_model
            if fk.concrete:  # a foreign key of the parent's
                ours, theirs = fk.target_field.column, fk.column
            else:  # a reverse one-to-one (e.g. a user's play_limits): its row points at the parent
                ours, theirs = fk.field.column, fk.field.target_field.column
            narrowing = f" AND {join_on[path]}" if path in join_on else ""
            joins.append(
                f" LEFT OUTER JOIN {quote(part_model._meta.db_table)} {alias}"
                f" ON ({alias}.{quote(ours)} = {parent_alias}.{quote(theirs)}{narrowing})"
            )
        aliases[path] = (alias, part_model)
        fields = list(part_model._meta.concrete_fields)
        columns += [f"{alias}.{quote(field.column)}" for field in fields]
        pk_index = next(i for i, field in enumerate(fields) if field.primary_key)
        owner = 0 if not parent else [None, *join].index(parent)
        names = [field.attname for field in fields]
        parts.append((part_model, names, _converters(fields, alias), fk, pk_index, owner, path in join_on))
    sql = f"SELECT {', '.join(columns)} FROM {quote(model._meta.db_table)} t0{''.join(joins)} WHERE {where}"
    if order_by:
        sql += f" ORDER BY {order_by}"
    if for_update and connection.features.has_select_for_update:
        sql += " FOR UPDATE OF t0" if connection.features.has_select_for_update_of else " FOR UPDATE"
    return sql, parts


# Plain fields, whose value of one type the ORM hands to the database as it is, or through one adapter:
# (attname, the type, the adapter's kind, the field's internal type or JSON encoder), else None (the ORM's own way).
# A text field takes any str as it is (CharField.to_python): a TextChoices member too, as the ORM passes it.
_PLAIN_TYPES = {models.CharField: (str, "text"), models.TextField: (str, "text"), models.BooleanField: (bool, "")}


def _plain(field) -> tuple[str, type, str, Any] | None:
    if type(field).pre_save is not models.Field.pre_save:
        return None  # it sets the value itself (auto_now ...)
    if isinstance(field, models.ForeignKey):
        if type(field).get_db_prep_save is models.ForeignKey.get_db_prep_save and isinstance(
            field.target_field, AutoFieldMixin
        ):
            return field.attname, int, "autopk", ""  # the target's get_prep_value (int) and validate_autopk_value
        return None
    if type(field) in _PLAIN_TYPES:
        return field.attname, *_PLAIN_TYPES[type(field)], ""
    if type(field) is models.JSONField:
        # A dict or list: get_db_prep_save comes to adapt_json_value with the field's encoder.
        return field.attname, dict, "json", field.encoder
    integer = models.IntegerField
    if (
        isinstance(field, integer)
        and not isinstance(field, AutoFieldMixin)
        and type(field).get_db_prep_value is integer.get_db_prep_value
        and type(field).get_prep_value is integer.get_prep_value
    ):
        return field.attname, int, "integer", field.get_internal_type()
    return None


def _values(instance: Model, chosen: list, plain: list, conn, add: bool) -> list:
    """What the ORM's save would write for `chosen` fields of `instance`: get_db_prep_save(pre_save(...))."""
    params = []
    for field, known in zip(chosen, plain):
        if known is not None:
            attname, kind, adapter, extra = known
            value = getattr(instance, attname)
            if value is None or value.__class__ is kind or (adapter == "text" and isinstance(value, str)):
                if value is not None and adapter == "integer":
                    value = conn.ops.adapt_integerfield_value(value, extra)
                elif value is not None and adapter == "autopk":
                    value = conn.ops.validate_autopk_value(value)
                elif value is not None and adapter == "json":
                    value = json_values.adapt(conn, value, extra)
                params.append(value)
                continue
            if adapter == "json" and value.__class__ is list:
                params.append(json_values.adapt(conn, value, extra))
                continue
        params.append(field.get_db_prep_save(field.pre_save(instance, add), conn))
    return params


def update(instance: Model, fields: Sequence[str]) -> int:
    """Write `fields` of `instance` (by name) to its row, as save(update_fields=...) would; the rows changed."""
    model = type(instance)
    conn = connections[DEFAULT_DB_ALIAS]
    key = (conn.vendor, model, tuple(fields))
    shape = _updates.get(key)
    if shape is None:
        meta = model._meta
        chosen = [meta.get_field(name) for name in fields]
        sets = ", ".join(f"{quote(field.column)} = %s" for field in chosen)
        sql = f"UPDATE {quote(meta.db_table)} SET {sets} WHERE {quote(meta.pk.column)} = %s"
        shape = _updates[key] = (sql, chosen, [_plain(field) for field in chosen])
    sql, chosen, plain = shape
    params = _values(instance, chosen, plain, conn, False)
    params.append(instance.pk)
    return run(conn, sql, params, False)


def update_each(instances: Sequence[Model], fields: Sequence[str]) -> int:
    """Write `fields` of several rows of one model, each its own values, in one statement; the rows changed.

    As `update` for each instance: a CASE on the primary key for each field.
    """
    if len(instances) <= 1:
        return update(instances[0], fields) if instances else 0
    model = type(instances[0])
    conn = connections[DEFAULT_DB_ALIAS]
    key = (conn.vendor, model, tuple(fields), len(instances))
    shape = _updates.get(key)
    if shape is None:
        meta = model._meta
        chosen = [meta.get_field(name) for name in fields]
        pk = quote(meta.pk.column)
        cases = " ".join(["WHEN %s THEN %s"] * len(instances))
        sets = ", ".join(f"{quote(field.column)} = CASE {pk} {cases} END" for field in chosen)
        places = ", ".join(["%s"] * len(instances))
        sql = f"UPDATE {quote(meta.db_table)} SET {sets} WHERE {pk} IN ({places})"
        shape = _updates[key] = (sql, chosen, [_plain(field) for field in chosen])
    sql, chosen, plain = shape
    values = [_values(instance, chosen, plain, conn, False) for instance in instances]
    params = []
    for n in range(len(chosen)):
        for instance, written in zip(instances, values):
            params += [instance.pk, written[n]]
    params += [instance.pk for instance in instances]
    return run(conn, sql, params, False)


def insert(instances: Sequence[Model], *, key: bool = False) -> None:
    """Insert `instances` (one model, new rows) in one statement; key=True (one row): its primary key read back."""
    if not instances:
        return
    model = type(instances[0])
    conn = connections[DEFAULT_DB_ALIAS]
    if key and not conn.features.can_return_columns_from_insert:
        instances[0].save(force_insert=True)  # an SQLite older than 3.35: the ORM reads the key its own way
        return
    shape = _inserts.get((conn.vendor, model))
    if shape is None:
        meta = model._meta
        chosen = [field for field in meta.concrete_fields if not field.primary_key]
        columns = ", ".join(quote(field.column) for field in chosen)
        sql = f"INSERT INTO {quote(meta.db_table)} ({columns}) VALUES "
        shape = _inserts[(conn.vendor, model)] = (sql, chosen, [_plain(field) for field in chosen])
    sql, chosen, plain = shape
    row = "(" + ", ".join(["%s"] * len(chosen)) + ")"
    params = []
    for instance in instances:
        params += _values(instance, chosen, plain, conn, True)
    sql += ", ".join([row] * len(instances))
    if not key:
        run(conn, sql, params, False)
        return
    (instance,) = instances
    instance.pk = run(conn, f"{sql} RETURNING {quote(model._meta.pk.column)}", params, True)[0][0]
    instance._state.adding, instance._state.db = False, conn.alias
