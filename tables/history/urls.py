from django.urls import path

from tables.history import views

urlpatterns = [
    path("", views.history_list, name="history"),
    path("<int:round_id>/", views.history_round, name="history_round"),
    path("export.csv", views.history_export_csv, name="history_export_csv"),
    path("export.json", views.history_export_json, name="history_export_json"),
]
