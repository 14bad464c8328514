"""Settings for the casino, read from the environment.

A fresh checkout runs with nothing set: SQLite next to manage.py, the
in-memory channel layer, DEBUG on. Production sets SECRET_KEY, DEBUG=false,
ALLOWED_HOSTS, DATABASE_URL and REDIS_URL (see README.md and docs/deploy.md).
"""

from __future__ import annotations

import datetime as dt
import os
import tempfile
from pathlib import Path

import dj_database_url
from django.core.exceptions import ImproperlyConfigured

from casino.env import env_bool, env_float, env_int, env_list, env_networks, env_str, env_url

BASE_DIR = Path(__file__).resolve().parent.parent

_DEV_SECRET_KEY = "dev-only-secret-key-never-use-in-production"

DEBUG = env_bool("DEBUG", True)
SECRET_KEY = env_str("SECRET_KEY", _DEV_SECRET_KEY)
if not DEBUG and SECRET_KEY == _DEV_SECRET_KEY:
    raise ImproperlyConfigured("Set SECRET_KEY: DEBUG is off and the development key is not secret.")

# The casino's name: the top bar, page titles and the admin's header.
SITE_NAME = env_str("SITE_NAME", "Casino")

ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", ["127.0.0.1", "localhost", "[::1]"])
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", [])

INSTALLED_APPS = [
    # daphne first: its runserver replaces Django's with the ASGI one.
    "daphne",
    # The admin with strict list filters (casino/admin_lookups.py).
    "casino.apps.CasinoAdminConfig",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "django.contrib.humanize",
    "channels",
    "django_htmx",
    "template_partials",
    "axes",
    "csp",
    "accounts",
    "tables",
]

MIDDLEWARE = [
    # First: proxy headers count only from TRUSTED_PROXIES (casino/proxies.py).
    "casino.proxies.ProxyHeadersMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "csp.middleware.CSPMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    # Last: turns a locked-out sign-in into the lockout page.
    "axes.middleware.AxesMiddleware",
]

ROOT_URLCONF = "casino.urls"
ASGI_APPLICATION = "casino.asgi.application"
WSGI_APPLICATION = None

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "casino.context_processors.site",
                "accounts.context_processors.bankroll",
            ],
        },
    },
]

# --- Database -----------------------------------------------------------------

_SQLITE_OPTIONS = {
    # Writers take the lock when the transaction starts, so two writers never
    # deadlock upgrading a read lock; WAL lets readers go on meanwhile.
    "transaction_mode": "IMMEDIATE",
    "timeout": 20,
    "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
}

DATABASE_URL = env_url(
    "DATABASE_URL",
    f"sqlite:///{BASE_DIR / 'db.sqlite3'}",
    schemes=("sqlite", "postgres", "postgresql"),
)
_database = dj_database_url.parse(DATABASE_URL, conn_health_checks=True)
if _database["ENGINE"] == "django.db.backends.sqlite3":
    _database["OPTIONS"] = dict(_SQLITE_OPTIONS)
    # A file, not :memory:, so a live daphne started by the browser tests
    # sees what the test wrote; one per process, so two test runs never share it.
    _database["TEST"] = {"NAME": str(Path(tempfile.gettempdir()) / f"casino-test-{os.getpid()}.sqlite3")}
    # Kept open between calls: Channels closes the connection around every
    # consumer call otherwise, and reopening (with its PRAGMAs) costs about a
    # millisecond each time, most of an action's own work.
    _database["CONN_MAX_AGE"] = env_int("CONN_MAX_AGE", 60, minimum=0)
elif (_pool_size := env_int("DATABASE_POOL_SIZE", 20, minimum=0)) > 0:
    # One pool per process, shared by its threads. Under ASGI every HTTP
    # request runs in a thread of its own, so persistent per-thread
    # connections would pile up to PostgreSQL's max_connections under load;
    # with the pool a connection goes back as each call ends (CONN_MAX_AGE 0).
    _database["OPTIONS"] = {"pool": {"min_size": min(2, _pool_size), "max_size": _pool_size, "timeout": 20}}
    _database["CONN_MAX_AGE"] = 0
else:
    _database["CONN_MAX_AGE"] = env_int("CONN_MAX_AGE", 60, minimum=0)
DATABASES = {"default": _database}
# Threads that run the tables' plays, each table on one of them (casino/database_thread.py):
# with PostgreSQL, other tables' plays go on while one waits for its round trips; SQLite has one
# writer at a time, so one thread (Channels' own).
DATABASE_THREADS = env_int(
    "DATABASE_THREADS", 1 if _database["ENGINE"] == "django.db.backends.sqlite3" else 4, minimum=1
)

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# --- Channels -----------------------------------------------------------------

REDIS_URL = env_url("REDIS_URL", None, schemes=("redis", "rediss"))
if REDIS_URL:
    from casino.redis_connections import channel_layer_host

    CHANNEL_LAYERS = {
        "default": {
            # channels_redis's, its group sends in two round trips instead of four (casino/redis_layer.py).
            "BACKEND": "casino.redis_layer.RedisLayer",
            "CONFIG": {
                # Connections whose writes keep a cancellation (casino/redis_connections.py).
                "hosts": [channel_layer_host(REDIS_URL, max_connections=200, socket_timeout=10)],
                # The default of 100 silently drops messages with a few hundred clients.
                "capacity": env_int("CHANNEL_CAPACITY", 1500, minimum=100),
                "expiry": 30,
            },
        }
    }
else:
    CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "casino.layers.ThrottledCleanupLayer",
            "CONFIG": {"capacity": env_int("CHANNEL_CAPACITY", 1500, minimum=100)},
        }
    }

# A WARNING on the `casino.watchdog` logger, with the loop thread's stack, when a
# process's event loop is blocked for longer than this many seconds (casino/watchdog.py,
# docs/deploy.md); 0 turns the watchdog off.
LOOP_WATCHDOG_SECONDS = env_float("LOOP_WATCHDOG_SECONDS", 1.0, minimum=0)

# Websocket frames compressed with permessage-deflate under daphne (casino/compression.py):
# about five times fewer bytes on the wire for a table's frames.
WEBSOCKET_DEFLATE = env_bool("WEBSOCKET_DEFLATE", True)

# --- Accounts -----------------------------------------------------------------

AUTH_USER_MODEL = "accounts.User"
# Django's database sessions, read with SQL built once (casino/session_store.py).
SESSION_ENGINE = "casino.session_store"
AUTHENTICATION_BACKENDS = [
    # First: refuses sign-ins from a username and address that failed too often.
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]
# Sign-in throttling (django-axes): after LOGIN_FAILURE_LIMIT wrong passwords
# for one username from one address, that pair waits LOGIN_COOLOFF_MINUTES.
AXES_FAILURE_LIMIT = env_int("LOGIN_FAILURE_LIMIT", 5, minimum=1)
AXES_COOLOFF_TIME = dt.timedelta(minutes=env_int("LOGIN_COOLOFF_MINUTES", 15, minimum=1))
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_RESET_ON_SUCCESS = True
AXES_LOCKOUT_TEMPLATE = "accounts/locked_out.html"
AXES_CLIENT_IP_CALLABLE = "casino.proxies.client_address"
AXES_VERBOSE = False
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "home"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

# Play-money amounts, in chips.
SIGNUP_GRANT_CHIPS = env_int("SIGNUP_GRANT_CHIPS", 1000, minimum=0)
DEFAULT_BUY_IN_CHIPS = env_int("DEFAULT_BUY_IN_CHIPS", 100, minimum=1)
TOP_UP_CHIPS = env_int("TOP_UP_CHIPS", 100, minimum=1)
# Issue 14: "Refill chips" on the profile, once a day, for a player holding
# fewer than REFILL_BELOW_CHIPS in all; it tops the bankroll up to REFILL_TO_CHIPS.
REFILL_BELOW_CHIPS = env_int("REFILL_BELOW_CHIPS", 100, minimum=1)
REFILL_TO_CHIPS = env_int("REFILL_TO_CHIPS", 1000, minimum=1)
if REFILL_TO_CHIPS < REFILL_BELOW_CHIPS:
    raise ImproperlyConfigured("REFILL_TO_CHIPS must be at least REFILL_BELOW_CHIPS: a refill tops the bankroll up.")
STATEMENT_PAGE_SIZE = env_int("STATEMENT_PAGE_SIZE", 25, minimum=1)

# --- Limits on what one player or address may make or send (issue 15, docs/deploy.md) ---------

# Rocket Academy tables one player may hold (their solo table is one more); an empty one is reused first.
TABLES_PER_PLAYER = env_int("TABLES_PER_PLAYER", 5, minimum=1)
# Open tables per lobby page.
LOBBY_PAGE_SIZE = env_int("LOBBY_PAGE_SIZE", 20, minimum=1)
# Accounts one client address may create in an hour (0: no sign-ups at all).
SIGNUPS_PER_ADDRESS_PER_HOUR = env_int("SIGNUPS_PER_ADDRESS_PER_HOUR", 5, minimum=0)
# Table sockets open at once per player and per client address, counted in each server process.
SOCKETS_PER_USER = env_int("SOCKETS_PER_USER", 20, minimum=1)
SOCKETS_PER_ADDRESS = env_int("SOCKETS_PER_ADDRESS", 50, minimum=1)
# Frames a table socket may send in one second that are not an action of the page; past that it is closed.
BAD_FRAMES_PER_SECOND = env_int("BAD_FRAMES_PER_SECOND", 5, minimum=1)
# The coach: price each settled round's decisions on a thread of the web process that settled it
# (false: leave them to `manage.py review_rounds --follow`, a process of its own; docs/deploy.md).
COACH_REVIEW_THREAD = env_bool("COACH_REVIEW_THREAD", True)

EMAIL_BACKEND = env_str("EMAIL_BACKEND", "django.core.mail.backends.console.EmailBackend")
EMAIL_HOST = env_str("EMAIL_HOST", "localhost")
EMAIL_PORT = env_int("EMAIL_PORT", 25, minimum=1)
EMAIL_HOST_USER = env_str("EMAIL_HOST_USER", "")
EMAIL_HOST_PASSWORD = env_str("EMAIL_HOST_PASSWORD", "")
EMAIL_USE_TLS = env_bool("EMAIL_USE_TLS", False)
DEFAULT_FROM_EMAIL = env_str("DEFAULT_FROM_EMAIL", "casino@localhost")

# --- Static files and i18n ------------------------------------------------------

STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
STATICFILES_DIRS = [BASE_DIR / "static"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": (
            "django.contrib.staticfiles.storage.StaticFilesStorage"
            if DEBUG
            else "whitenoise.storage.CompressedManifestStaticFilesStorage"
        )
    },
}
WHITENOISE_USE_FINDERS = DEBUG

LANGUAGE_CODE = "en-us"
TIME_ZONE = env_str("TIME_ZONE", "UTC")
USE_I18N = True
USE_TZ = True

# --- Security -----------------------------------------------------------------
# Off in development; on by default as soon as DEBUG is off. Each can be
# overridden, e.g. SECURE_SSL_REDIRECT=false when a proxy already redirects.

SESSION_COOKIE_SECURE = env_bool("SESSION_COOKIE_SECURE", not DEBUG)
CSRF_COOKIE_SECURE = env_bool("CSRF_COOKIE_SECURE", not DEBUG)
SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", not DEBUG)
SECURE_HSTS_SECONDS = env_int("SECURE_HSTS_SECONDS", 0 if DEBUG else 31_536_000, minimum=0)
SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", not DEBUG)
SECURE_HSTS_PRELOAD = env_bool("SECURE_HSTS_PRELOAD", False)
# The proxies (addresses or networks) whose X-Forwarded-For/-Proto and X-Real-IP
# are believed, whatever DEBUG is; from anyone else they are dropped (casino/proxies.py).
TRUSTED_PROXIES = env_networks("TRUSTED_PROXIES", [])
if env_str("BEHIND_TLS_PROXY", ""):
    raise ImproperlyConfigured(
        "BEHIND_TLS_PROXY was replaced by TRUSTED_PROXIES: set TRUSTED_PROXIES to the proxy's address "
        "(e.g. TRUSTED_PROXIES=127.0.0.1 for nginx on the same machine) and remove BEHIND_TLS_PROXY (docs/deploy.md)."
    )
if TRUSTED_PROXIES:
    # nginx terminates TLS and says so in this header (docs/deploy.md); believed only from TRUSTED_PROXIES.
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
X_FRAME_OPTIONS = "DENY"
# Content-Security-Policy (django-csp): scripts, styles and everything else from
# the site itself only; no inline script or style, no eval (README "Security").
# Sockets: 'self' covers ws:/wss: to the same host and port. Enforced with DEBUG
# off; with DEBUG on only reported (the browser's console), so Django's debug
# pages keep their inline styles. CSP_REPORT_ONLY overrides either way.
_CSP_POLICY = {
    "DIRECTIVES": {
        "default-src": ["'self'"],
        "script-src": ["'self'"],
        "style-src": ["'self'"],
        "img-src": ["'self'", "data:"],
        "connect-src": ["'self'"],
        "font-src": ["'self'"],
        "object-src": ["'none'"],
        "base-uri": ["'none'"],
        "form-action": ["'self'"],
        "frame-ancestors": ["'none'"],
    }
}
if env_bool("CSP_REPORT_ONLY", DEBUG):
    CONTENT_SECURITY_POLICY_REPORT_ONLY = _CSP_POLICY
else:
    CONTENT_SECURITY_POLICY = _CSP_POLICY
# The preload list is an opt-in the operator makes for their own domain.
SILENCED_SYSTEM_CHECKS = env_list("SILENCED_SYSTEM_CHECKS", ["security.W021"])

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": env_str("LOG_LEVEL", "INFO")},
    "loggers": {"django.channels.server": {"level": "WARNING"}},
}
