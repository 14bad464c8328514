from django.urls import path

import casino.converters  # noqa: F401  (registers <id:...>)
from tables import views
from tables.fairness.views import verify_shoe

urlpatterns = [
    path("", views.table_list, name="lobby"),
    path("help/", views.how_to_play, name="help"),
    path("strategy/<slug:profile>/", views.strategy, name="strategy"),
    path("solo/", views.play_solo, name="play_solo"),
    path("rocket/", views.create_rocket_table, name="create_rocket_table"),
    path("<id:table_id>/", views.table_detail, name="table"),
    path("<id:table_id>/rounds/", views.table_rounds, name="table_rounds"),
    path("<id:table_id>/action/", views.table_action, name="table_action"),
    path("shoes/<id:shoe_id>/", verify_shoe, name="verify_shoe"),
]
