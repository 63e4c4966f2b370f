from django.urls import path

from . import stream, views

app_name = "tables"

urlpatterns = [
    path("", views.home, name="home"),
    path("new/<slug:slug>/", views.new_table, name="new"),
    path("rules/<slug:slug>/", views.rules_page, name="rules"),
    path("t/<slug:table_id>/", views.table_page, name="table"),
    path("t/<slug:table_id>/join/<slug:token>/", views.join, name="join"),
    path("t/<slug:table_id>/act/", views.act, name="act"),
    path("t/<slug:table_id>/undo/", views.undo, name="undo"),
    path("t/<slug:table_id>/redo/", views.redo, name="redo"),
    path("t/<slug:table_id>/note/", views.note_hidden, name="note"),
    path("t/<slug:table_id>/guide/", views.put_guide_away, name="guide"),
    path("t/<slug:table_id>/first/", views.choose_first, name="first"),
    path("t/<slug:table_id>/abandon/", views.abandon, name="abandon"),
    path("t/<slug:table_id>/resume/", views.resume, name="resume"),
    path("t/<slug:table_id>/again/", views.play_again, name="again"),
    path("t/<slug:table_id>/poll/", views.poll, name="poll"),
    path("t/<slug:table_id>/display/", views.display, name="display"),
    path("t/<slug:table_id>/events/", stream.table_events, name="events"),  # asgi.STREAM_SUFFIX
    path("t/<slug:table_id>/seat/", views.choose_seat, name="seat"),
    path("t/<slug:table_id>/qr/<slug:kind>.svg", views.qr_code, name="qr"),
    path("t/<slug:table_id>/renew/", views.renew_links, name="renew"),
]
