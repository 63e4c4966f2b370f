import json

from django.http import HttpResponseBadRequest, JsonResponse
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_POST

from .models import FloorWrite


@csrf_exempt
@require_POST
def floor(request):
    """Parse the JSON body, commit it as one row (autocommit: one INSERT), answer a small JSON."""
    try:
        payload = json.loads(request.body)
    except ValueError:
        return HttpResponseBadRequest("not JSON")
    FloorWrite.objects.create(payload=payload)
    return JsonResponse({"ok": True})
