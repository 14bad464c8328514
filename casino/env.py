"""Typed readers for settings that come from the environment.

Each helper returns the default when the variable is unset (or empty) and
raises ImproperlyConfigured, naming the variable, when it is set to a value
it does not understand: a typo in production must stop the process, not
quietly fall back to a development default.
"""

from __future__ import annotations

import ipaddress
import math
import os
from urllib.parse import urlsplit

from django.core.exceptions import ImproperlyConfigured

_TRUE = {"1", "true", "yes", "on"}
_FALSE = {"0", "false", "no", "off"}


def _raw(name: str) -> str | None:
    value = os.environ.get(name)
    if value is None or value.strip() == "":
        return None
    return value.strip()


def env_str(name: str, default: str) -> str:
    value = _raw(name)
    return default if value is None else value


def env_bool(name: str, default: bool) -> bool:
    value = _raw(name)
    if value is None:
        return default
    lowered = value.lower()
    if lowered in _TRUE:
        return True
    if lowered in _FALSE:
        return False
    raise ImproperlyConfigured(
        f"{name}={value!r} is not a boolean: use one of {sorted(_TRUE | _FALSE)}."
    )


def env_int(name: str, default: int, *, minimum: int | None = None) -> int:
    value = _raw(name)
    if value is None:
        return default
    try:
        number = int(value)
    except ValueError:
        raise ImproperlyConfigured(f"{name}={value!r} is not a whole number.") from None
    if minimum is not None and number < minimum:
        raise ImproperlyConfigured(f"{name}={number} is below its minimum of {minimum}.")
    return number


def env_float(name: str, default: float, *, minimum: float | None = None) -> float:
    value = _raw(name)
    if value is None:
        return default
    try:
        number = float(value)
    except ValueError:
        raise ImproperlyConfigured(f"{name}={value!r} is not a number.") from None
    if not math.isfinite(number):
        raise ImproperlyConfigured(f"{name}={value!r} is not a finite number.")
    if minimum is not None and number < minimum:
        raise ImproperlyConfigured(f"{name}={number:g} is below its minimum of {minimum:g}.")
    return number


def env_list(name: str, default: list[str]) -> list[str]:
    value = _raw(name)
    if value is None:
        return list(default)
    items = [item.strip() for item in value.split(",")]
    if any(item == "" for item in items):
        raise ImproperlyConfigured(f"{name}={value!r} has an empty item in its comma-separated list.")
    return items


def env_networks(name: str, default: list[str]) -> list[str]:
    """A comma-separated list of IP addresses or networks (10.0.0.1, 10.0.0.0/8, ::1)."""
    values = env_list(name, default)
    for value in values:
        try:
            ipaddress.ip_network(value, strict=False)
        except ValueError:
            raise ImproperlyConfigured(
                f"{name} has {value!r}, which is not an IP address or network (e.g. 127.0.0.1 or 10.0.0.0/8)."
            ) from None
    return values


def env_url(name: str, default: str | None, *, schemes: tuple[str, ...]) -> str | None:
    value = _raw(name)
    if value is None:
        return default
    parts = urlsplit(value)
    if parts.scheme not in schemes:
        raise ImproperlyConfigured(
            f"{name} must be a URL starting with one of {', '.join(s + '://' for s in schemes)}; "
            f"got scheme {parts.scheme!r}."
        )
    if parts.scheme not in ("sqlite",) and not parts.hostname:
        raise ImproperlyConfigured(f"{name} has no host name.")
    return value
