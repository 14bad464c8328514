from django.conf import settings
from django.http import HttpRequest


def site(request: HttpRequest) -> dict[str, str]:
    """The site's name (SITE_NAME), for the top bar and every page's title.

    Not `site_name`: Django's auth views set that one to the request's host.
    """
    return {"casino_name": settings.SITE_NAME}
