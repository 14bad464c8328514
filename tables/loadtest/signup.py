"""Sign a bot up over HTTP, as a browser does: the form, its CSRF token, the session cookie.

Plain `http.client` (the standard library), run in a thread by the caller.
Cookies are kept by hand rather than by `http.cookiejar`: with DEBUG off the
server marks them Secure, and a cookie jar would then never send them back
over the plain http of a loopback load test.
"""

from __future__ import annotations

import http.client
import re
from http.cookies import SimpleCookie
from urllib.parse import urlencode, urlsplit

SIGNUP_PATH = "/accounts/signup/"
_CSRF_FIELD = re.compile(r'name="csrfmiddlewaretoken" value="([^"]+)"')
_ERRORS = re.compile(r'class="errorlist[^"]*"[^>]*>(.*?)</ul>', re.S)


class SignupFailed(Exception):
    pass


def origin_of(url: str) -> str:
    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.netloc}"


def _request(url: str, method: str, path: str, cookies: dict[str, str], body: str | None = None,
             timeout: float = 60.0) -> tuple[int, dict[str, str], str]:
    parts = urlsplit(url)
    connection_class = http.client.HTTPSConnection if parts.scheme == "https" else http.client.HTTPConnection
    connection = connection_class(parts.hostname, parts.port, timeout=timeout)
    headers = {"Origin": origin_of(url), "Referer": origin_of(url) + path, "User-Agent": "casino-loadtest"}
    if cookies:
        headers["Cookie"] = "; ".join(f"{name}={value}" for name, value in cookies.items())
    if body is not None:
        headers["Content-Type"] = "application/x-www-form-urlencoded"
    try:
        connection.request(method, path, body=body, headers=headers)
        response = connection.getresponse()
        text = response.read().decode("utf-8", "replace")
        for header in response.headers.get_all("Set-Cookie") or []:
            jar = SimpleCookie()
            jar.load(header)
            for name, morsel in jar.items():
                cookies[name] = morsel.value
        return response.status, dict(response.headers), text
    finally:
        connection.close()


def sign_up(url: str, username: str, password: str) -> str:
    """Create the account through /accounts/signup/; returns its `sessionid` cookie."""
    cookies: dict[str, str] = {}
    status, headers, page = _request(url, "GET", SIGNUP_PATH, cookies)
    if status in (301, 302, 307, 308) and headers.get("Location", "").startswith("https:"):
        raise SignupFailed("the server redirects to https: start it with SECURE_SSL_REDIRECT=false for a loopback test")
    token = _CSRF_FIELD.search(page)
    if status != 200 or token is None:
        hint = " (see the server's log; with DEBUG=false, run collectstatic first)" if status >= 500 else ""
        raise SignupFailed(f"GET {SIGNUP_PATH} answered {status} without a sign-up form{hint}")
    form = {
        "csrfmiddlewaretoken": token.group(1),
        "username": username,
        "email": "",
        "password1": password,
        "password2": password,
    }
    status, headers, page = _request(url, "POST", SIGNUP_PATH, cookies, urlencode(form))
    if status == 429:
        raise SignupFailed(
            "the server limits sign-ups per address: start it with SIGNUPS_PER_ADDRESS_PER_HOUR (and "
            "SOCKETS_PER_ADDRESS) above the number of bots for a loopback test"
        )
    if status != 302 or "sessionid" not in cookies:
        errors = " ".join(re.sub(r"<[^>]+>", " ", e) for e in _ERRORS.findall(page)).split()
        raise SignupFailed(f"POST {SIGNUP_PATH} answered {status}: {' '.join(errors)[:200] or 'no session'}")
    return cookies["sessionid"]
