from django.urls import include, path

from companion.tables.api import api

urlpatterns = [
    path("api/v1/", api.urls),
    path("", include("companion.tables.urls")),
]
