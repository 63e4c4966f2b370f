import pytest


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_probe(live_server, phone):
    responses = []
    phone.on("response", lambda r: responses.append((r.status, r.url)))
    phone.goto(live_server.url + "/")
    print(responses)
    print(phone.evaluate("getComputedStyle(document.querySelector('.game-button')).paddingTop"))
    print(phone.evaluate("typeof htmx"))
