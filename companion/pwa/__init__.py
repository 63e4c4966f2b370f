"""The installable app (issue 17): the web manifest and the service worker, both served from the
site's root so that the worker's scope is the whole app."""
