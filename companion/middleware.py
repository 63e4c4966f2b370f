"""Middleware of our own: refuse a request whose body stopped short of its Content-Length.

gunicorn hands the application whatever bytes arrived before the client hung up, and nothing else
compares them with the length the client announced. A form cut off mid-way could then be applied
as a different entry than the one sent (the dash toggles of a collect, say); refuse it instead.
"""

from django.http import HttpResponseBadRequest


class CompleteBodyMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        declared = request.META.get("CONTENT_LENGTH") or ""
        if declared.isdigit() and int(declared) > 0 and len(request.body) < int(declared):
            return HttpResponseBadRequest("The request was cut off before its end: nothing was entered.")
        return self.get_response(request)
