"""Chart geometry for the history pages: pure Python, drawn as inline SVG by the templates.

The functions here only compute numbers and short strings; `templates/history/_line_chart.html`
and `templates/history/_bar_chart.html` turn the returned dicts into markup, and
the charts part of `static/css/app.css` colours it. Nothing is styled inline, so the pages keep a strict
Content-Security-Policy. Coordinates are in SVG user units of a viewBox about as wide as a phone
(360), so a font size of 12.5 there reads as roughly 12.5 px at the 390 px design width.

Every coordinate is rounded to one decimal (and written as an int when whole) so the SVG stays small.
"""

from __future__ import annotations

import functools
import math
import re
import unicodedata
from collections.abc import Sequence

import pyphen
from django.utils import translation

from companion.games.words import _, ngettext

WIDTH = 360
LINE_HEIGHT = 236
BAR_HEIGHT = 236
LABEL_LINE = 15  # px: each further line of a bar's label (TICK_FONT and a little leading)

SERIES_CLASSES = 8
# Stroke dash patterns (at a 2.5 stroke) so the lines differ in black-and-white print too.
DASHES = ("none", "9 4", "2.5 3.5", "12 4 2.5 4", "5 3", "16 4", "2.5 3 2.5 3 9 3", "7 3 2.5 3")

TICK_FONT = 12.5  # keep in step with .chart-tick in app.css
END_FONT = 13  # .chart-end-label
VALUE_FONT = 12.5  # .chart-value
CHAR_WIDTH = 0.62  # average glyph advance as a share of the font size: a safe over-estimate
ELLIPSIS = "…"
MAX_X_TICKS = 6
DOTS_UP_TO = 12  # draw a dot on every point when a series is this short


# -- numbers ---------------------------------------------------------------------------------------


def _r(value: float) -> int | float:
    """Round to one decimal; whole numbers come back as ints (so templates print `36`, not `36.0`)."""
    rounded = round(float(value), 1)
    if rounded == 0:
        return 0
    return int(rounded) if rounded.is_integer() else rounded


def format_value(value: float | int | None) -> str:
    """A data value for people: `12`, `12.5`, `-3`; no thousands separators; an empty string for None."""
    if value is None:
        return ""
    return str(_r(value))


def _format_tick(value: float, thousands: bool = False) -> str:
    if thousands:
        return f"{_r(value / 1000)}k" if value else "0"
    if isinstance(value, float) and not value.is_integer():
        return f"{value:g}"
    return str(int(value))


def _text_width(text: str, size: float) -> float:
    return len(text) * size * CHAR_WIDTH


def _truncate(text: str, max_chars: int) -> str:
    """`text` cut to `max_chars` characters, the last one an ellipsis when anything was cut."""
    if len(text) <= max_chars:
        return text
    if max_chars <= 1:
        return ELLIPSIS
    return text[: max_chars - 1].rstrip() + ELLIPSIS


HYPHEN = "‐"  # U+2010: where _hyphenate broke a word, never a hyphen of the name itself


def _hyphenate(word: str, max_chars: int) -> list[str]:
    """A word too long for its line in pieces broken between syllables, from the language's
    hyphenation dictionary ("Won‐" / "ders"), so that "7 Wonders" under a narrow bar reads whole
    rather than "7 Wonde…" (issue 30, 8). A short word the dictionary does not break (one syllable:
    "Hearts") stays whole, to be cut with an ellipsis, never "Hear‐ts" (issue 43); a long one it does
    not know (a name) is broken every few letters, as before."""
    if len(word) <= max_chars or max_chars < 3:
        return [word]
    breaks = _dictionary(translation.get_language() or "en").positions(word)
    if not breaks:
        return _pieces(word, max_chars) if len(word) > UNBROKEN_MAX else [word]
    pieces, start = [], 0
    while len(word) - start > max_chars:
        fitting = [at for at in breaks if start < at and at - start + 1 <= max_chars]  # + the hyphen
        if not fitting:
            break
        pieces.append(word[start : max(fitting)] + HYPHEN)
        start = max(fitting)
    rest = word[start:]
    if len(rest) > max_chars and len(rest) > UNBROKEN_MAX:  # no syllable fits the line
        return pieces + _pieces(rest, max_chars)
    return pieces + [rest]


UNBROKEN_MAX = 8  # letters: a longer word the dictionary cannot break is rarely one syllable


@functools.cache
def _dictionary(language: str) -> pyphen.Pyphen:
    return pyphen.Pyphen(lang=pyphen.language_fallback(language.replace("-", "_")) or "en")


def _pieces(word: str, max_chars: int) -> list[str]:
    """`word` every `max_chars - 1` letters with a hyphen, never a lone letter on the last line."""
    size = max_chars - 1
    pieces = [word[i : i + size] for i in range(0, len(word), size)]
    if len(pieces[-1]) == 1 and len(pieces) > 1:
        pieces[-2:] = [pieces[-2][:-1], pieces[-2][-1] + pieces[-1]]
    return [piece + HYPHEN for piece in pieces[:-1]] + [pieces[-1]]


def _wrap(text: str, max_chars: int, lines: int = 3) -> list[str]:
    """`text` in at most `lines` lines of `max_chars`, broken between words ("62" / "Summer" / "Suns":
    a game's name is read whole, issue 15); what still does not fit ends in an ellipsis."""
    words, out = re.findall(r"[^\s–]+–?|–", text), []  # a range ("10–14") may break after its dash
    words = [piece for word in words for piece in _hyphenate(word, max_chars)]

    def joined(line: str, word: str) -> str:
        return line + word if line.endswith(("–", HYPHEN)) else f"{line} {word}"

    while words and len(out) < lines:
        line = words.pop(0)
        while words and len(joined(line, words[0])) <= max_chars:
            line = joined(line, words.pop(0))
        if len(line) > max_chars:
            return out + [_truncate(line, max_chars)]
        out.append(line)
    if words:
        rest = out[-1]
        for word in words:
            rest = joined(rest, word)
        out[-1] = _truncate(rest, max_chars)
    return out


def _nice(value: float, round_it: bool) -> float:
    """A 1, 2, 5 or 10 times a power of ten near `value` (Heckbert's "nice number")."""
    exponent = math.floor(math.log10(value))
    fraction = value / 10**exponent
    if round_it:
        nice = 1 if fraction < 1.5 else 2 if fraction < 3 else 5 if fraction < 7 else 10
    else:
        nice = 1 if fraction <= 1 else 2 if fraction <= 2 else 5 if fraction <= 5 else 10
    return nice * 10**exponent


def nice_ticks(low: float, high: float, count: int = 5, *, integer: bool = False) -> list[int | float]:
    """Evenly spaced "nice" tick values (steps of 1, 2 or 5 times a power of ten) covering low..high.

    About `count` ticks; the first is at or below `low`, the last at or above `high`.
    (0, 47) -> [0, 10, 20, 30, 40, 50]. When low == high the range is widened to take in zero
    (all zero gives [0, 1]). With `integer` the step is never below 1, for counts and scores.
    """
    low, high = float(low), float(high)
    if low > high:
        low, high = high, low
    if low == high:
        if low == 0:
            return [0, 1]
        low, high = min(low, 0.0), max(high, 0.0)
    span = _nice(high - low, round_it=False)
    step = _nice(span / max(count - 1, 1), round_it=True)
    if integer:
        step = max(step, 1)
    decimals = max(0, -math.floor(math.log10(step)))
    first = math.floor(low / step + 1e-9)
    last = math.ceil(high / step - 1e-9)
    ticks: list[int | float] = []
    for i in range(first, last + 1):
        tick = round(i * step, decimals)
        ticks.append(int(tick) if float(tick).is_integer() else tick)
    return [0 if t == 0 else t for t in ticks]


def slugify(text: str) -> str:
    """Lowercase ASCII words joined by hyphens: safe in an HTML id."""
    ascii_text = unicodedata.normalize("NFKD", str(text)).encode("ascii", "ignore").decode()
    return re.sub(r"[^a-z0-9]+", "-", ascii_text.lower()).strip("-")[:40].strip("-")


def _chart_id(title: str, chart_id: int | str | None) -> str:
    parts = ["chart", slugify(title) or "untitled"]
    if chart_id is not None and str(chart_id) != "":
        parts.append(slugify(str(chart_id)) or "x")
    return "-".join(parts)


class _Scale:
    """Maps a data value to a y coordinate: domain [lo, hi] onto [bottom, top]."""

    def __init__(self, lo: float, hi: float, top: float, bottom: float):
        self.lo, self.hi, self.top, self.bottom = lo, hi, top, bottom

    def __call__(self, value: float) -> float:
        if self.hi == self.lo:
            return self.bottom
        return self.bottom - (value - self.lo) * (self.bottom - self.top) / (self.hi - self.lo)


def _y_axis(values: Sequence[float]) -> tuple[list[int | float], list[str]]:
    """Ticks for data that includes zero as a baseline, and their labels."""
    lo = min([0.0, *values])
    hi = max([0.0, *values])
    integer = all(float(v).is_integer() for v in values)
    ticks = nice_ticks(lo, hi, integer=integer)
    thousands = max(abs(ticks[0]), abs(ticks[-1])) >= 10000
    return ticks, [_format_tick(t, thousands) for t in ticks]


def _x_tick(x: float, text: str) -> dict:
    """An x tick label centred on x, or anchored at its start or end to stay inside the viewBox."""
    width = _text_width(text, TICK_FONT)
    if x + width / 2 > WIDTH - 2:
        anchor, start = "end", x - width
    elif x - width / 2 < 2:
        anchor, start = "start", x
    else:
        anchor, start = "middle", x - width / 2
    return {"x": _r(x), "label": text, "anchor": anchor, "start": start, "end": start + width}


def _spread(centres: list[float], gap: float, top: float, bottom: float) -> list[float]:
    """Move label centres (sorted ascending) apart by at least `gap`, within top..bottom, in order."""
    placed = list(centres)
    for i in range(1, len(placed)):
        placed[i] = max(placed[i], placed[i - 1] + gap)
    if placed and placed[-1] > bottom:
        placed[-1] = bottom
        for i in range(len(placed) - 2, -1, -1):
            placed[i] = min(placed[i], placed[i + 1] - gap)
    if placed and placed[0] < top:
        placed[0] = top
        for i in range(1, len(placed)):
            placed[i] = max(placed[i], placed[i - 1] + gap)
    return placed


def _table_cell(value) -> str:
    return format_value(value) if isinstance(value, (int, float)) else ("" if value is None else str(value))


# -- line chart ------------------------------------------------------------------------------------


def _frame(kind: str, title: str, chart_id, desc: str, caption: str, height: int, plot, empty: bool) -> dict:
    """What every chart's template reads alike: ids, texts, the viewBox, the plot area, the y axis."""
    left, right, top, bottom = plot
    return {
        "kind": kind,
        "id": _chart_id(title, chart_id),
        "title": title,
        "desc": desc,
        "y_label": caption,
        "width": WIDTH,
        "height": height,
        "viewbox": f"0 0 {WIDTH} {height}",
        "plot": {"left": _r(left), "right": _r(right), "top": _r(top), "bottom": _r(bottom)},
        "empty": empty,
        "empty_pos": {"x": _r((left + right) / 2), "y": _r((top + bottom) / 2)},
        "y_tick_x": _r(left - 6),
    }


def line_chart(
    series: Sequence[dict],
    x_labels: Sequence | None = None,
    title: str = "",
    y_label: str = "",
    *,
    chart_id: int | str | None = 1,
    x_title: str = "#",
) -> dict:
    """Geometry for a line chart of one or more series sharing an x axis (e.g. each player's score
    after every log entry). `series` is a list of {"label": str, "values": [numbers]}.

    Returns the dict `history/_line_chart.html` draws (`{% include ... with chart=... %}`); the
    template reads only keys of it. The y axis always takes in zero; the first point sits on the
    plot's left edge, the last on its right edge, the lowest tick on its bottom and the highest on
    its top. One point is drawn as a marker in the middle; no points draw an "empty" note.
    """
    series = list(series or [])
    raw_by_series = [list(s.get("values") or []) for s in series]  # None marks a missing value
    n = max((len(v) for v in raw_by_series), default=0)
    all_values = [float(v) for vals in raw_by_series for v in vals if v is not None]
    empty = n == 0

    labels = [str(x) for x in x_labels] if x_labels is not None else []
    labels = labels[:n] + [str(i + 1) for i in range(len(labels), n)]

    ticks, tick_labels = _y_axis(all_values)
    lasts = [[v for v in raw if v is not None] for raw in raw_by_series]
    finals = [format_value(last[-1]) if last else "" for last in lasts]

    caption = y_label.strip()
    left = 8 + max(_text_width(t, TICK_FONT) for t in tick_labels)
    right = WIDTH - (14 + max((_text_width(f, END_FONT) for f in finals), default=0))
    top = 12 + (18 if caption else 0)
    bottom = LINE_HEIGHT - 24
    scale = _Scale(ticks[0], ticks[-1], top, bottom)

    def x_at(i: int) -> float:
        return (left + right) / 2 if n == 1 else left + i * (right - left) / (n - 1)

    x_ticks = _x_ticks(labels, x_at, right - left)
    drawn = _draw_lines(series, raw_by_series, finals, x_at, scale, (top, bottom))

    desc = _line_description(drawn, n)

    return {
        **_frame("line", title, chart_id, desc, caption, LINE_HEIGHT, (left, right, top, bottom), empty),
        "y_label_pos": {"x": 2, "y": _r(top - 14)},
        "y_ticks": _y_ticks(ticks, tick_labels, scale),
        "x_ticks": x_ticks,
        "x_tick_y": _r(bottom + 18),
        "zero_y": _r(scale(0)) if ticks[0] < 0 else None,
        "series": drawn,
        "legend": [_legend_entry(line) for line in drawn],
        "table": _line_table(x_title, [d["label"] for d in drawn], labels, raw_by_series),
    }


def _line_description(drawn: list[dict], n: int) -> str:
    """What a screen reader says of the chart."""
    if n == 0:
        return _("No data yet.")
    summary = ", ".join(f"{d['label']} {d['final']}" for d in drawn if d["final"] != "")
    text = ngettext(
        "Line chart of {series} series over {count} point. Last values: {summary}.",
        "Line chart of {series} series over {count} points. Last values: {summary}.",
        n,
    )
    return text.format(series=len(drawn), count=n, summary=summary)


def _line_table(x_title: str, names: list[str], labels: list[str], raw_by_series: list[list]) -> dict:
    """The chart's numbers as a table (shown under it, and to screen readers)."""
    rows = [
        [labels[i], *(_table_cell(raw[i]) if i < len(raw) else "" for raw in raw_by_series)]
        for i in range(len(labels))
    ]
    return {"headers": [x_title, *names], "rows": rows}


def _x_ticks(labels: list[str], x_at, span: float) -> list[dict]:
    """At most six x ticks, evenly spaced, first and last included; fewer (or cut) when labels are wide."""
    n, x_ticks = len(labels), []
    for k in range(min(n, MAX_X_TICKS), 0, -1):
        room = span / (k - 1) - 8 if k > 1 else span
        max_chars = max(3, int(room / (TICK_FONT * CHAR_WIDTH)))
        indices = sorted({round(j * (n - 1) / (k - 1)) for j in range(k)}) if k > 1 else [n - 1]
        x_ticks = [_x_tick(x_at(i), _truncate(labels[i], max_chars)) for i in indices]
        if all(a["end"] + 6 <= b["start"] for a, b in zip(x_ticks, x_ticks[1:], strict=False)):
            break
    for tick in x_ticks:
        del tick["start"], tick["end"]
    return x_ticks


def _line(idx: int, label: str, points: list[tuple[float, float]], final: str) -> dict:
    """One series as the template draws it: its polyline, last-point marker and dots."""
    return {
        "label": label,
        "css": f"series-{idx % SERIES_CLASSES}",
        "dash": DASHES[idx % len(DASHES)],
        "points": " ".join(f"{_r(x)},{_r(y)}" for x, y in points),
        "marker": {"x": _r(points[-1][0]), "y": _r(points[-1][1])} if points else None,
        "dots": [{"x": _r(x), "y": _r(y)} for x, y in points] if len(points) <= DOTS_UP_TO else [],
        "final": final,
        "end_label": None,
    }


def _place_end_labels(drawn: list[dict], ends: list[tuple], top: float, bottom: float) -> None:
    """Final-value labels beside the last points, pushed apart so they never overlap."""
    ends.sort()
    placed = _spread([y for y, _, _ in ends], END_FONT + 1.5, top, bottom)
    for (y, idx, x), centre in zip(ends, placed, strict=True):
        label_x = x + 9
        leader = None
        if abs(centre - y) > 2:
            leader = {"x1": _r(x + 4), "y1": _r(y), "x2": _r(label_x - 2), "y2": _r(centre)}
        drawn[idx]["end_label"] = {
            "x": _r(label_x),
            "y": _r(centre + END_FONT * 0.35),
            "text": drawn[idx]["final"],
            "leader": leader,
        }


# -- bar chart -------------------------------------------------------------------------------------


def _draw_lines(series, raw_by_series, finals, x_at, scale, top_bottom: tuple[float, float]) -> list[dict]:
    """Each series' polyline, its end label placed so that close ends do not overlap."""
    drawn, ends = [], []
    for idx, (one, raw) in enumerate(zip(series, raw_by_series, strict=True)):
        points = [(x_at(i), scale(float(v))) for i, v in enumerate(raw) if v is not None]
        drawn.append(_line(idx, str(one.get("label", "")), points, finals[idx]))
        if points:
            ends.append((points[-1][1], idx, points[-1][0]))
    _place_end_labels(drawn, ends, *top_bottom)
    return drawn


def _legend_entry(line: dict) -> dict:
    return {"label": line["label"], "css": line["css"], "dash": line["dash"], "value": line["final"]}


def _bar_label_lines(full_labels: list[str], band: float) -> list[list[str]]:
    """Each bar's label as the lines drawn under it: every k-th label when they crowd, wrapped."""
    step, max_chars = _bar_label_room(full_labels, band)
    return [_wrap(full, max_chars, 4) if i % step == 0 else [] for i, full in enumerate(full_labels)]


def _y_ticks(ticks: list[float], tick_labels: list[str], scale) -> list[dict]:
    """The y axis' ticks where the scale puts them; the zero line marked when the axis goes below 0."""
    return [
        {"y": _r(scale(t)), "label": lab, "zero": t == 0 and ticks[0] < 0}
        for t, lab in zip(ticks, tick_labels, strict=True)
    ]


def _bars_said(drawn: list[dict], caption: str) -> str:
    """The bar chart in words, for a screen reader: every bar's label and value."""
    if not drawn:
        return _("No data yet.")
    unit_suffix = f" {caption}" if caption else ""
    bars_said = ", ".join(f"{d['full_label']} {d['value']}{unit_suffix}" for d in drawn)
    n = len(drawn)
    return ngettext("Bar chart of {count} bar: {bars}.", "Bar chart of {count} bars: {bars}.", n).format(
        count=n, bars=bars_said
    )


def bar_chart(
    bars: Sequence[dict],
    title: str = "",
    unit: str = "",
    *,
    chart_id: int | str | None = 1,
    x_title: str = "",
) -> dict:
    """Geometry for a vertical bar chart. `bars` is a list of {"label": str, "value": number},
    optionally with "series": int to colour a bar like that line-chart series.

    Bar heights are proportional to the values from a zero baseline (negative bars hang below it).
    Values sit on top of the bars when they fit the bar's slot (else they are in the tooltip and the
    table only); labels under the bars are cut with an ellipsis to fit, and with many bars only
    every k-th label is shown.
    """
    bars = list(bars or [])
    values = [float(b.get("value") or 0) for b in bars]
    n = len(bars)
    ticks, tick_labels = _y_axis(values)
    caption = unit.strip()

    left = 8 + max(_text_width(t, TICK_FONT) for t in tick_labels)
    right = WIDTH - 6
    top = 20 + (18 if caption else 0)
    band = (right - left) / n if n else right - left
    width = min(band * 0.72, 56)
    texts = [format_value(b.get("value") or 0) for b in bars]
    show_values = all(_text_width(t, VALUE_FONT) <= band + 2 for t in texts)

    full_labels = [str(b.get("label", "")) for b in bars]
    label_lines = _bar_label_lines(full_labels, band)
    extra = max((len(lines) for lines in label_lines), default=1) - 1
    bottom = BAR_HEIGHT - 24 - max(extra, 0) * LABEL_LINE  # room under the bars for the labels' lines
    scale = _Scale(ticks[0], ticks[-1], top, bottom)
    zero = scale(0)

    drawn = [
        _bar(bar, left + i * band + (band - width) / 2, width, scale(value), zero, text, lines, full)
        for i, (bar, value, text, lines, full) in enumerate(
            zip(bars, values, texts, label_lines, full_labels, strict=True)
        )
    ]

    desc = _bars_said(drawn, caption)
    return {
        **_frame("bar", title, chart_id, desc, caption, BAR_HEIGHT, (left, right, top, bottom), not n),
        "unit": caption,
        "y_label_pos": {"x": 2, "y": _r(top - 22)},
        "y_ticks": _y_ticks(ticks, tick_labels, scale),
        "zero_y": _r(zero),
        "label_y": _r(bottom + 18),
        "show_values": show_values,
        "bars": drawn,
        "table": {
            "headers": [x_title or "", caption.capitalize() if caption else _("Value")],
            "rows": [[d["full_label"], d["value"]] for d in drawn],
        },
    }


def _bar_label_room(labels: list[str], band: float) -> tuple[int, int]:
    """Labels: all of them (cut to fit) for a few bars; every k-th for many (score buckets etc.).
    Returns k and the characters a shown label may have."""
    step = 1
    if len(labels) > 8:
        widest = max(_text_width(lab, TICK_FONT) for lab in labels) + 6
        step = max(1, math.ceil(widest / band))
    return step, max(1, int((band * step - 4) / (TICK_FONT * CHAR_WIDTH)))


def _bar(
    bar: dict, x: float, width: float, y_value: float, zero: float, text: str, lines: list[str], full: str
) -> dict:
    """One bar as the template draws it: its box from the zero line, its value and its label."""
    series = bar.get("series")
    return {
        "x": _r(x),
        "y": _r(min(y_value, zero)),
        "width": _r(width),
        "height": _r(abs(y_value - zero)),
        "cx": _r(x + width / 2),
        "css": f"series-{int(series) % SERIES_CLASSES}" if series is not None else "series-0",
        "value": text,
        # Above the bar (SVG's y grows downwards); a negative bar hangs down, so its value sits
        # just above the zero line.
        "value_y": _r(min(y_value, zero) - 5),
        "label": " ".join(lines),
        "label_lines": lines,
        "full_label": full,
    }
