from django.contrib import admin
from django.urls import include, path

from tables import views as table_views

urlpatterns = [
    path("", table_views.table_list, name="home"),
    path("accounts/", include("accounts.urls")),
    path("tables/", include("tables.urls")),
    path("history/", include("tables.history.urls")),
    path("admin/", admin.site.urls),
]
