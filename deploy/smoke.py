"""The compose stack's smoke test (issue 41), run by .ci/run where a Docker engine answers.

Builds the image, starts compose.yaml with a throwaway .env (plain HTTP on port 80: COMPANION_HOST
":80"), then checks through the proxy what a club's first evening needs: /healthz answers 200, the
first account logs in, a group and a table are made through the API; and that an entry written on
one app server reaches a phone whose event stream another app server holds. Stops and removes the
stack (its volumes included) in any case. Standard library only: it runs before anything else is
installed, with the machine's python3.

    python3 deploy/smoke.py
"""

from __future__ import annotations

import http.cookiejar
import json
import re
import secrets
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BASE = "http://127.0.0.1"
PROJECT = "companion-smoke"
ADMIN, PASSWORD = "smoke", secrets.token_urlsafe(18)

# Run inside app2: open the table's watch link and its event stream on app2 itself, say "ready",
# then wait for the entry app1 writes (version 1).
LISTEN_ON_APP2 = """
import http.cookiejar, sys, urllib.request
jar = http.cookiejar.CookieJar()
opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))
opener.open("http://127.0.0.1:8000" + sys.argv[1], timeout=10)
stream = opener.open("http://127.0.0.1:8000/t/" + sys.argv[2] + "/events/", timeout=30)
print("ready", flush=True)
for line in stream:
    if line.startswith(b"data: 1"):
        print("heard version 1", flush=True)
        sys.exit(0)
"""


def compose(env_file: Path, *args: str, **kwargs) -> subprocess.CompletedProcess:
    command = ["docker", "compose", "--project-name", PROJECT, "--env-file", str(env_file), *args]
    return subprocess.run(command, cwd=ROOT, check=True, **kwargs)


def wait_healthy(timeout: float = 300) -> dict:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(BASE + "/healthz", timeout=5) as answer:
                return json.loads(answer.read())
        except (urllib.error.URLError, ConnectionError, TimeoutError):
            time.sleep(2)
    raise SystemExit(f"the stack did not answer /healthz through the proxy in {timeout} s")


def signed_in() -> urllib.request.OpenerDirector:
    """A phone logged in as the first account, through the proxy's login page."""
    jar = http.cookiejar.CookieJar()
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))
    page = opener.open(BASE + "/accounts/login/", timeout=10).read().decode()
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', page)[1]
    form = urllib.parse.urlencode({"username": ADMIN, "password": PASSWORD, "csrfmiddlewaretoken": token})
    request = urllib.request.Request(
        BASE + "/accounts/login/", data=form.encode(), headers={"Referer": BASE + "/"}
    )
    landed = opener.open(request, timeout=10)
    if landed.geturl().rstrip("/") != BASE:
        raise SystemExit(f"the first account's login did not land on the home page: {landed.geturl()}")
    return opener


def post_json(opener, path: str, body: dict, token: str | None = None) -> dict:
    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    request = urllib.request.Request(BASE + path, data=json.dumps(body).encode(), headers=headers)
    with opener.open(request, timeout=10) as answer:
        return json.loads(answer.read())


def main() -> int:
    with tempfile.TemporaryDirectory() as folder:
        env_file = Path(folder) / ".env"
        env_file.write_text(
            "COMPANION_HOST=:80\n"
            f"SECRET_KEY={secrets.token_urlsafe(50)}\n"
            f"POSTGRES_PASSWORD={secrets.token_hex(16)}\n"
            f"COMPANION_ADMIN_USERNAME={ADMIN}\nCOMPANION_ADMIN_PASSWORD={PASSWORD}\n"
        )
        try:
            compose(env_file, "up", "--detach", "--build", "--wait")
            health = wait_healthy()
            assert health == {"database": "ok", "cache": "ok", "migrations": "ok"}, health
            print("health through the proxy:", health)
            phone = signed_in()
            group = post_json(phone, "/api/v1/groups", {"name": "Smoke club"})
            body = {"game": "hang-four", "players": ["Ann", "Ben"], "group": group["id"]}
            table = post_json(phone, "/api/v1/tables", body, token=group["token"])
            print("a table through the proxy:", table["id"])
            listener = subprocess.Popen(
                ["docker", "compose", "--project-name", PROJECT, "--env-file", str(env_file), "exec", "-T",
                 "app2", "python", "-c", LISTEN_ON_APP2, table["view_url"], table["id"]],
                cwd=ROOT, stdout=subprocess.PIPE, text=True,
            )  # fmt: skip
            if listener.stdout.readline().strip() != "ready":
                raise SystemExit("app2's stream did not open")
            write = (
                "import json, sys, urllib.request; urllib.request.urlopen(urllib.request.Request("
                "'http://127.0.0.1:8000/api/v1/tables/' + sys.argv[1] + '/actions', data=json.dumps("
                "{'action': {'type': 'roll', 'face': 3}, 'expected_version': 0}).encode(), headers="
                "{'Content-Type': 'application/json', 'Authorization': 'Bearer ' + sys.argv[2]}), timeout=10)"
            )
            compose(env_file, "exec", "-T", "app1", "python", "-c", write, table["id"], table["token"])
            if listener.wait(timeout=30) != 0:
                raise SystemExit("the entry written on app1 did not reach the stream held by app2")
            print("an entry written on app1 reached a stream on app2")
            return 0
        finally:
            compose(env_file, "down", "--volumes", "--remove-orphans")


if __name__ == "__main__":
    sys.exit(main())
