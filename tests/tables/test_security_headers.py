"""Every page carries the Content-Security-Policy (django-csp): no inline script, style or eval (issue 15)."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from django.urls import reverse

pytestmark = pytest.mark.django_db


def policy_settings(**env: str) -> dict:
    code = (
        "import json; from django.conf import settings; "
        "print(json.dumps({n: getattr(settings, n, None) for n in "
        "('CONTENT_SECURITY_POLICY', 'CONTENT_SECURITY_POLICY_REPORT_ONLY')}))"
    )
    result = subprocess.run(
        [sys.executable, "-c", code],
        check=False,
        env={"DJANGO_SETTINGS_MODULE": "casino.settings", "PATH": "/usr/bin:/bin", "SECRET_KEY": "x" * 64, **env},
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


def test_production_enforces_a_policy_without_inline_script_or_style():
    production = policy_settings(DEBUG="false")
    assert production["CONTENT_SECURITY_POLICY_REPORT_ONLY"] is None
    directives = production["CONTENT_SECURITY_POLICY"]["DIRECTIVES"]
    assert directives["script-src"] == ["'self'"] and directives["style-src"] == ["'self'"]
    assert directives["object-src"] == ["'none'"] and directives["frame-ancestors"] == ["'none'"]
    assert "'unsafe-inline'" not in json.dumps(directives) and "'unsafe-eval'" not in json.dumps(directives)


def test_development_reports_the_same_policy_unless_told_to_enforce_it():
    development = policy_settings(DEBUG="true")
    assert development["CONTENT_SECURITY_POLICY"] is None
    assert development["CONTENT_SECURITY_POLICY_REPORT_ONLY"] == policy_settings(DEBUG="false")["CONTENT_SECURITY_POLICY"]
    assert policy_settings(DEBUG="true", CSP_REPORT_ONLY="false")["CONTENT_SECURITY_POLICY"] is not None


def test_every_page_carries_the_policy_header(client, alice, settings):
    settings.CONTENT_SECURITY_POLICY = policy_settings(DEBUG="false")["CONTENT_SECURITY_POLICY"]
    client.force_login(alice)
    for name in ("home", "lobby", "history", "profile", "help"):
        header = client.get(reverse(name))["Content-Security-Policy"]
        assert "script-src 'self'" in header and "style-src 'self'" in header


def test_no_template_has_inline_script_style_or_handlers():
    import re
    from pathlib import Path

    root = Path(__file__).resolve().parents[2] / "templates"
    found = []
    for path in root.rglob("*.html"):
        text = path.read_text()
        for pattern in (r"<script(?![^>]*\bsrc=)[^>]*>", r"<style", r"\sstyle=", r"\son[a-z]+=", r"hx-on", r"javascript:"):
            if re.search(pattern, text):
                found.append(f"{path.relative_to(root)}: {pattern}")
    assert found == []
