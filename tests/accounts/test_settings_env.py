import pytest
from django.core.exceptions import ImproperlyConfigured

from casino.env import env_bool, env_int, env_list, env_str, env_url


def test_it_uses_defaults_when_unset_or_empty(monkeypatch):
    monkeypatch.delenv("X_FLAG", raising=False)
    monkeypatch.setenv("X_EMPTY", "  ")
    assert env_bool("X_FLAG", True) is True
    assert env_int("X_EMPTY", 7) == 7
    assert env_list("X_FLAG", ["a"]) == ["a"]
    assert env_str("X_EMPTY", "d") == "d"


@pytest.mark.parametrize(("raw", "value"), [("1", True), ("yes", True), ("FALSE", False), ("off", False)])
def test_it_reads_booleans(monkeypatch, raw, value):
    monkeypatch.setenv("X_FLAG", raw)
    assert env_bool("X_FLAG", not value) is value


def test_it_fails_loudly_on_a_boolean_it_does_not_understand(monkeypatch):
    monkeypatch.setenv("DEBUG", "maybe")
    with pytest.raises(ImproperlyConfigured, match="DEBUG='maybe' is not a boolean"):
        env_bool("DEBUG", True)


def test_it_fails_loudly_on_a_bad_number(monkeypatch):
    monkeypatch.setenv("PORT", "80a")
    with pytest.raises(ImproperlyConfigured, match="PORT='80a' is not a whole number"):
        env_int("PORT", 8000)
    monkeypatch.setenv("PORT", "-1")
    with pytest.raises(ImproperlyConfigured, match="below its minimum"):
        env_int("PORT", 8000, minimum=1)


def test_it_splits_lists_and_refuses_empty_items(monkeypatch):
    monkeypatch.setenv("ALLOWED_HOSTS", "a.example, b.example")
    assert env_list("ALLOWED_HOSTS", []) == ["a.example", "b.example"]
    monkeypatch.setenv("ALLOWED_HOSTS", "a.example,,b")
    with pytest.raises(ImproperlyConfigured):
        env_list("ALLOWED_HOSTS", [])


def test_it_checks_url_schemes(monkeypatch):
    monkeypatch.setenv("DATABASE_URL", "mysql://db/casino")
    with pytest.raises(ImproperlyConfigured, match="DATABASE_URL must be a URL starting with"):
        env_url("DATABASE_URL", None, schemes=("sqlite", "postgres"))
    monkeypatch.setenv("DATABASE_URL", "postgres://casino@db:5432/casino")
    assert env_url("DATABASE_URL", None, schemes=("postgres",)) == "postgres://casino@db:5432/casino"


def test_production_settings_refuse_the_development_secret_key():
    import subprocess
    import sys

    result = subprocess.run(
        [sys.executable, "-c", "import django; from django.conf import settings; settings.DEBUG"],
        env={"DJANGO_SETTINGS_MODULE": "casino.settings", "DEBUG": "false", "PATH": "/usr/bin:/bin"},
        capture_output=True,
        text=True,
    )
    assert result.returncode != 0
    assert "Set SECRET_KEY" in result.stderr


def test_production_settings_pass_check_deploy():
    import subprocess
    import sys

    env = {
        "PATH": "/usr/bin:/bin",
        "DEBUG": "false",
        "SECRET_KEY": "x" * 64 + "-a-long-random-production-secret",
        "ALLOWED_HOSTS": "casino.example.com",
    }
    result = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        env=env,
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "System check identified no issues (1 silenced)" in result.stdout


def database_settings(**env: str) -> dict:
    import json
    import subprocess
    import sys

    code = "import json; from django.conf import settings; print(json.dumps(settings.DATABASES['default']))"
    result = subprocess.run(
        [sys.executable, "-c", f"import django; django.setup(); {code}"],
        env={"DJANGO_SETTINGS_MODULE": "casino.settings", "PATH": "/usr/bin:/bin", **env},
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


def test_it_keeps_sqlite_connections_open_between_calls():
    database = database_settings(DATABASE_URL="sqlite:////tmp/x.sqlite3")
    assert database["CONN_MAX_AGE"] == 60
    assert database["OPTIONS"]["transaction_mode"] == "IMMEDIATE"


def test_it_pools_postgresql_connections_per_process_unless_told_not_to():
    url = "postgres://casino@db.example:5432/casino"
    pooled = database_settings(DATABASE_URL=url, DATABASE_POOL_SIZE="8")
    assert pooled["OPTIONS"]["pool"] == {"min_size": 2, "max_size": 8, "timeout": 20}
    assert pooled["CONN_MAX_AGE"] == 0  # Django refuses persistent connections beside a pool

    unpooled = database_settings(DATABASE_URL=url, DATABASE_POOL_SIZE="0", CONN_MAX_AGE="30")
    assert "pool" not in unpooled.get("OPTIONS", {})
    assert unpooled["CONN_MAX_AGE"] == 30


LIMITS = {
    "TABLES_PER_PLAYER": (5, 1),
    "LOBBY_PAGE_SIZE": (20, 1),
    "SIGNUPS_PER_ADDRESS_PER_HOUR": (5, 0),
    "SOCKETS_PER_USER": (20, 1),
    "SOCKETS_PER_ADDRESS": (50, 1),
    "BAD_FRAMES_PER_SECOND": (5, 1),
}


def limit_settings(**env: str) -> tuple[int, str]:
    import subprocess
    import sys

    code = "import json; from django.conf import settings; print(json.dumps({n: getattr(settings, n) for n in %r}))"
    result = subprocess.run(
        [sys.executable, "-c", f"import django; django.setup(); {code % list(LIMITS)}"],
        env={"DJANGO_SETTINGS_MODULE": "casino.settings", "PATH": "/usr/bin:/bin", **env},
        capture_output=True,
        text=True,
        check=False,
    )
    return result.returncode, result.stdout + result.stderr


def test_the_limits_have_their_defaults_and_read_the_environment():
    import json

    code, out = limit_settings()
    assert code == 0, out
    assert json.loads(out) == {name: default for name, (default, _) in LIMITS.items()}
    code, out = limit_settings(TABLES_PER_PLAYER="2", BAD_FRAMES_PER_SECOND="9")
    assert (json.loads(out)["TABLES_PER_PLAYER"], json.loads(out)["BAD_FRAMES_PER_SECOND"]) == (2, 9)


@pytest.mark.parametrize("name", list(LIMITS))
def test_a_limit_that_is_not_a_number_or_below_its_minimum_stops_the_process(name):
    code, out = limit_settings(**{name: "lots"})
    assert code != 0 and f"{name}='lots' is not a whole number" in out
    code, out = limit_settings(**{name: str(LIMITS[name][1] - 1)})
    assert code != 0 and f"{name}={LIMITS[name][1] - 1} is below its minimum of {LIMITS[name][1]}" in out
