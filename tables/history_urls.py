from django.urls import path

from tables import history_views

urlpatterns = [
    path("", history_views.history_list, name="history"),
    path("<int:round_id>/", history_views.history_round, name="history_round"),
    path("export.csv", history_views.history_export_csv, name="history_export_csv"),
    path("export.json", history_views.history_export_json, name="history_export_json"),
]
