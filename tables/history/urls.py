from django.urls import path

import casino.converters  # noqa: F401  (registers <id:...>)
from tables.history import views

urlpatterns = [
    path("", views.history_list, name="history"),
    path("<id:round_id>/", views.history_round, name="history_round"),
    path("export.csv", views.history_export_csv, name="history_export_csv"),
    path("export.json", views.history_export_json, name="history_export_json"),
]
