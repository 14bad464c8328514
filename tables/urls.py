from django.urls import path

from tables import verification_views, views

urlpatterns = [
    path("", views.table_list, name="lobby"),
    path("solo/", views.play_solo, name="play_solo"),
    path("rocket/", views.create_rocket_table, name="create_rocket_table"),
    path("<int:table_id>/", views.table_detail, name="table"),
    path("<int:table_id>/rounds/", views.table_rounds, name="table_rounds"),
    path("<int:table_id>/action/", views.table_action, name="table_action"),
    path("shoes/<int:shoe_id>/", verification_views.verify_shoe, name="verify_shoe"),
]
