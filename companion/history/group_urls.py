"""The group's own pages (group_pages.py), under the "groups" namespace the templates link by."""

from django.urls import path

from . import group_pages as views
from . import sheet_pages

app_name = "groups"

urlpatterns = [
    path("groups/new/", views.new_group, name="new"),
    path("g/<slug:group_id>/", views.group_home, name="group"),
    path("g/<slug:group_id>/join/<slug:token>/", views.join, name="join"),
    path("g/<slug:group_id>/rename/", views.rename, name="rename"),
    path("g/<slug:group_id>/zone/", views.set_zone, name="zone"),
    path("g/<slug:group_id>/t/<slug:table_id>/", views.open_table, name="table"),
    path("g/<slug:group_id>/qr/<slug:kind>.svg", views.qr_code, name="qr"),
    path("g/<slug:group_id>/renew/", views.renew_links, name="renew"),
    path("g/<slug:group_id>/sheets/", sheet_pages.sheets, name="sheets"),
    path("g/<slug:group_id>/sheets/<slug:sheet_id>.json", sheet_pages.sheet_file, name="sheet_file"),
    path("g/<slug:group_id>/sheets/<slug:sheet_id>/remove/", sheet_pages.remove_sheet, name="remove_sheet"),
    path("sheets/shared/<slug:token>/", sheet_pages.shared_sheet, name="shared_sheet"),
    path("g/<slug:group_id>/members/<int:user_id>/remove/", views.remove_member, name="remove_member"),
]
