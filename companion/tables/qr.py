"""QR codes for share links, drawn as SVG by segno (also used by `make run` for the terminal)."""

import io

import segno


def svg(text: str) -> bytes:
    buffer = io.BytesIO()
    # dark/light fixed so the code scans in dark mode too.
    segno.make(text, error="m").save(
        buffer, kind="svg", scale=6, border=2, dark="#000", light="#fff", omitsize=True
    )
    return buffer.getvalue()
