"""Draw the app's icons as PNGs from their SVG (static/icon.svg and static/icons/maskable.svg), with
the system chromium: `python -m companion.pwa.make_icons`. Run after changing an icon; the PNGs are
committed, so a deployment needs no browser."""

from __future__ import annotations

import base64
from pathlib import Path

from playwright.sync_api import sync_playwright

STATIC = Path(__file__).resolve().parents[2] / "static"
ICONS = [
    (STATIC / "icon.svg", STATIC / "icons" / "icon-192.png", 192),
    (STATIC / "icon.svg", STATIC / "icons" / "icon-512.png", 512),
    (STATIC / "icons" / "maskable.svg", STATIC / "icons" / "maskable-512.png", 512),
]


def main() -> None:
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path="/usr/bin/chromium", args=["--headless", "--no-sandbox"]
        )
        for svg, png, size in ICONS:
            page = browser.new_page(viewport={"width": size, "height": size})
            data = base64.b64encode(svg.read_bytes()).decode()
            page.set_content(
                f'<body style="margin:0"><img src="data:image/svg+xml;base64,{data}" width="{size}"></body>'
            )
            page.screenshot(path=str(png), omit_background=True)
            page.close()
            print(f"wrote {png.relative_to(STATIC.parent)} ({size} px)")
        browser.close()


if __name__ == "__main__":
    main()
