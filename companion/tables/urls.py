from django.urls import path

from . import views

app_name = "tables"

urlpatterns = [
    path("", views.home, name="home"),
    path("new/<slug:slug>/", views.new_table, name="new"),
    path("t/<str:table_id>/", views.table_page, name="table"),
    path("t/<str:table_id>/join/<str:token>/", views.join, name="join"),
    path("t/<str:table_id>/act/", views.act, name="act"),
    path("t/<str:table_id>/undo/", views.undo, name="undo"),
    path("t/<str:table_id>/poll/", views.poll, name="poll"),
    path("t/<str:table_id>/qr/<str:kind>.svg", views.qr_code, name="qr"),
]
