"""Print where the app is served; on 0.0.0.0 also the LAN address and a QR code for the phones; and
the open default group's member link, which an import of a history into it needs (issue 28)."""

import io
import socket

import segno
from django.conf import settings
from django.core.management.base import BaseCommand
from django.urls import reverse

from companion.groups.models import Group


def lan_addresses() -> list[str]:
    """This machine's IPv4 addresses other than loopback. No traffic is sent: connecting a UDP
    socket only asks the kernel which local address would route to the (documentation) address."""
    found = set()
    try:
        found |= {info[4][0] for info in socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET)}
    except OSError:
        pass
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
            probe.connect(("192.0.2.1", 9))
            found.add(probe.getsockname()[0])
    except OSError:
        pass
    return sorted(address for address in found if not address.startswith(("127.", "0.")))


class Command(BaseCommand):
    help = "Print the address to open (and a QR code of the LAN address when serving on 0.0.0.0)."

    def add_arguments(self, parser):
        parser.add_argument("--host", default="127.0.0.1")
        parser.add_argument("--port", default="8000")

    def handle(self, *args, host, port, **options):
        local = "127.0.0.1" if host in ("0.0.0.0", "::") else host
        self.stdout.write(f"Table Companion: open http://{local}:{port}/")
        addresses = lan_addresses() if host in ("0.0.0.0", "::") else []
        self.member_link(f"http://{addresses[0] if addresses else local}:{port}")
        if host not in ("0.0.0.0", "::"):
            self.stdout.write("(Serve on your network for the phones at the table: make run HOST=0.0.0.0)")
            return
        if not addresses:
            self.stdout.write("No LAN address found: check the Wi-Fi connection.")
            return
        for address in addresses:
            self.stdout.write(f"On the phones at the table: http://{address}:{port}/")
        url = f"http://{addresses[0]}:{port}/"
        drawing = io.StringIO()
        segno.make(url, error="l").terminal(out=drawing, compact=True)
        self.stdout.write(drawing.getvalue())

    def member_link(self, base: str) -> None:
        """The open group's member link: opened once on a phone, it lets that phone import a history."""
        if not settings.DEFAULT_GROUP:
            return
        group = Group.default()
        link = base + reverse("groups:join", args=[group.pk, group.token])
        self.stdout.write(
            f"To import a history into {group.shown_name}, open this once on the phone that imports: {link}"
        )
