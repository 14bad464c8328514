from django.conf import settings
from django.contrib import admin
from django.http import HttpRequest, HttpResponsePermanentRedirect
from django.templatetags.static import static
from django.urls import include, path

from tables import views as table_views

# The admin wears the site's name, not "Django administration".
admin.site.site_header = f"{settings.SITE_NAME} administration"
admin.site.site_title = f"{settings.SITE_NAME} admin"
admin.site.index_title = "Tables, players and chips"


def favicon(request: HttpRequest) -> HttpResponsePermanentRedirect:
    """Browsers and bots ask for /favicon.ico whatever a page links: the icon is an SVG in static/."""
    return HttpResponsePermanentRedirect(static("favicon.svg"))


urlpatterns = [
    path("", table_views.table_list, name="home"),
    path("favicon.ico", favicon),
    path("accounts/", include("accounts.urls")),
    path("tables/", include("tables.urls")),
    path("history/", include("tables.history.urls")),
    path("admin/", admin.site.urls),
]
