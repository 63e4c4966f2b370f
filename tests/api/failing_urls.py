"""The app's routes, plus an API route and a page that fail as a bug would: for the 500s' shape."""

from django.urls import path

from companion.urls import *  # noqa: F403 - the routes and the error handlers as served
from companion.urls import urlpatterns as app_urlpatterns


def failing_view(request):
    raise RuntimeError("a bug")


urlpatterns = [
    path("api/v1/failing", failing_view),
    path("failing/", failing_view),
    *app_urlpatterns,
]
