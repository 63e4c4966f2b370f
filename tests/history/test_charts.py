"""Server-drawn SVG charts: the geometry in companion.charts and the two template partials."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

import pytest
from django.template.loader import render_to_string
from django.utils import translation

from companion.charts import DASHES, bar_chart, line_chart, nice_ticks

SVG = "{http://www.w3.org/2000/svg}"


def points(chart: dict, index: int = 0) -> list[tuple[float, float]]:
    return [tuple(float(n) for n in pair.split(",")) for pair in chart["series"][index]["points"].split()]


def svgs(html: str) -> list[ET.Element]:
    """Every <svg>...</svg> in the page, parsed as XML (so escaping mistakes fail loudly)."""
    found = re.findall(r"<svg\b.*?</svg>", html, flags=re.S)
    assert found
    return [ET.fromstring(chunk) for chunk in found]


def assert_csp_clean(html: str) -> None:
    assert "style=" not in html
    assert "<style" not in html
    assert "<script" not in html
    assert "javascript:" not in html


# -- nice_ticks ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("low", "high", "expected"),
    [
        (0, 47, [0, 10, 20, 30, 40, 50]),
        (47, 0, [0, 10, 20, 30, 40, 50]),
        (3, 97, [0, 20, 40, 60, 80, 100]),
        (0, 1000, [0, 200, 400, 600, 800, 1000]),
        (0, 7, [0, 2, 4, 6, 8]),
        (0, 2, [0, 0.5, 1, 1.5, 2]),
        (0, 1, [0, 0.2, 0.4, 0.6, 0.8, 1]),
        (0.1, 0.9, [0, 0.2, 0.4, 0.6, 0.8, 1]),
        (-13, 27, [-20, -10, 0, 10, 20, 30]),
        (-5, -5, [-5, -4, -3, -2, -1, 0]),
        (5, 5, [0, 1, 2, 3, 4, 5]),
        (0, 0, [0, 1]),
    ],
)
def test_nice_ticks(low, high, expected):
    assert nice_ticks(low, high) == expected


def test_nice_ticks_integer_steps_and_types():
    assert nice_ticks(0, 2, integer=True) == [0, 1, 2]
    assert nice_ticks(0, 1, integer=True) == [0, 1]
    assert all(type(t) is int for t in nice_ticks(0, 47))
    assert nice_ticks(0, 12000) == [0, 5000, 10000, 15000]


# -- line_chart ------------------------------------------------------------------------------------


def test_line_chart_maps_min_and_max_to_the_plot_edges():
    chart = line_chart(
        [{"label": "A", "values": [0, 10, 20]}, {"label": "B", "values": [20, 10, 0]}], title="Scores"
    )
    plot = chart["plot"]
    assert [t["label"] for t in chart["y_ticks"]] == ["0", "5", "10", "15", "20"]
    assert points(chart, 0) == [(plot["left"], plot["bottom"]), (176.7, 112), (plot["right"], plot["top"])]
    assert points(chart, 1) == [(plot["left"], plot["top"]), (176.7, 112), (plot["right"], plot["bottom"])]
    assert chart["series"][0]["points"] == "23.5,212 176.7,112 329.9,12"
    assert chart["y_ticks"][0]["y"] == plot["bottom"] and chart["y_ticks"][-1]["y"] == plot["top"]
    assert chart["viewbox"] == f"0 0 {chart['width']} {chart['height']}"
    assert chart["series"][0]["marker"] == {"x": plot["right"], "y": plot["top"]}
    assert [t["label"] for t in chart["x_ticks"]] == ["1", "2", "3"]
    assert chart["legend"] == [
        {"label": "A", "css": "series-0", "dash": "none", "value": "20"},
        {"label": "B", "css": "series-1", "dash": DASHES[1], "value": "0"},
    ]
    assert chart["table"] == {
        "headers": ["#", "A", "B"],
        "rows": [["1", "0", "20"], ["2", "10", "10"], ["3", "20", "0"]],
    }


def test_line_chart_numbers_are_rounded_to_one_decimal():
    chart = line_chart([{"label": "A", "values": [0, 1, 2, 3, 4, 5, 6]}])
    for pair in chart["series"][0]["points"].split():
        for number in pair.split(","):
            assert re.fullmatch(r"-?\d+(\.\d)?", number), number


def test_series_classes_and_dashes_cycle():
    chart = line_chart([{"label": f"P{i}", "values": [i, i + 1]} for i in range(10)])
    css = [s["css"] for s in chart["series"]]
    dashes = [s["dash"] for s in chart["series"]]
    assert css == [f"series-{i}" for i in range(8)] + ["series-0", "series-1"]
    assert len(set(dashes[:8])) == 8
    assert dashes[8:] == dashes[:2]
    assert dashes[0] == "none"


def test_end_labels_never_overlap():
    chart = line_chart([{"label": f"P{i}", "values": [0, 10 + i % 2]} for i in range(6)])
    ys = sorted(s["end_label"]["y"] for s in chart["series"])
    assert all(b - a >= 13 for a, b in zip(ys, ys[1:], strict=False))
    assert all(chart["plot"]["top"] - 13 <= y <= chart["height"] for y in ys)
    assert sorted(s["end_label"]["text"] for s in chart["series"]) == ["10", "10", "10", "11", "11", "11"]


def test_at_most_six_x_ticks_evenly_spaced_with_first_and_last():
    chart = line_chart([{"label": "A", "values": list(range(40))}])
    assert [t["label"] for t in chart["x_ticks"]] == ["1", "9", "17", "24", "32", "40"]
    assert chart["x_ticks"][0]["x"] == chart["plot"]["left"]
    assert chart["x_ticks"][-1]["x"] == chart["plot"]["right"]


def test_wide_x_labels_are_thinned_so_they_do_not_overlap():
    labels = ["Start", "Round one", "Round two", "Final round"]
    chart = line_chart([{"label": "A", "values": [1, 2, 3, 4]}], x_labels=labels)
    assert [t["label"] for t in chart["x_ticks"]] == ["Start", "Final round"]
    assert chart["x_ticks"][-1]["anchor"] == "end"
    assert chart["table"]["rows"][1][0] == "Round one"


@pytest.mark.parametrize("series", [[], [{"label": "A", "values": []}]])
def test_line_chart_without_points(series):
    chart = line_chart(series, title="Nothing yet")
    assert chart["empty"] is True
    assert chart["x_ticks"] == []
    assert [t["label"] for t in chart["y_ticks"]] == ["0", "1"]
    assert chart["table"]["rows"] == []
    html = render_to_string("history/_line_chart.html", {"chart": chart})
    assert "No data yet" in html
    assert "<polyline" not in html
    svgs(html)


def test_line_chart_with_one_point_draws_a_marker_in_the_middle():
    chart = line_chart([{"label": "Solo", "values": [7]}])
    plot = chart["plot"]
    solo = chart["series"][0]
    middle = round((plot["left"] + plot["right"]) / 2, 1)
    assert solo["points"] == f"{middle},{solo['marker']['y']}"
    assert solo["marker"]["x"] == middle
    assert solo["end_label"]["text"] == "7"
    assert [t["label"] for t in chart["x_ticks"]] == ["1"]
    html = render_to_string("history/_line_chart.html", {"chart": chart})
    assert 'class="chart-marker"' in html


def test_line_chart_floats_and_negatives():
    chart = line_chart([{"label": "A", "values": [-12.5, 4, 15.25]}])
    assert [t["label"] for t in chart["y_ticks"]] == ["-20", "-10", "0", "10", "20"]
    assert [t["zero"] for t in chart["y_ticks"]] == [False, False, True, False, False]
    assert chart["zero_y"] == chart["y_ticks"][2]["y"]
    assert chart["table"]["rows"][0] == ["1", "-12.5"]


def test_chart_ids_are_slugs_of_the_title_and_counter():
    assert line_chart([], title="Scores — Ann & Ben", chart_id=3)["id"] == "chart-scores-ann-ben-3"
    assert bar_chart([], title="", chart_id="wins")["id"] == "chart-untitled-wins"


# -- bar_chart -------------------------------------------------------------------------------------


def test_bar_heights_are_proportional_from_the_zero_line():
    chart = bar_chart([{"label": "A", "value": 5}, {"label": "B", "value": 10}, {"label": "C", "value": 0}])
    plot = chart["plot"]
    a, b, c = chart["bars"]
    assert b["height"] == plot["bottom"] - plot["top"] == 2 * a["height"]
    assert c["height"] == 0
    assert all(bar["y"] + bar["height"] == chart["zero_y"] == plot["bottom"] for bar in chart["bars"])
    assert [bar["value"] for bar in chart["bars"]] == ["5", "10", "0"]
    assert chart["show_values"] is True
    assert all(bar["value_y"] < bar["y"] for bar in chart["bars"])


def test_negative_bars_hang_below_zero():
    chart = bar_chart([{"label": "Loss", "value": -10}, {"label": "Gain", "value": 20}])
    loss, gain = chart["bars"]
    assert loss["y"] == chart["zero_y"]
    assert gain["y"] + gain["height"] == chart["zero_y"]
    assert gain["height"] == 2 * loss["height"]


def test_long_bar_labels_break_with_hyphens_and_are_cut_only_past_four_lines():
    """Issue 30, 8: "7 Wonde…" was cut; a word too long for its bar now breaks with a hyphen."""
    names = ["Ann", "Bartholomew the Magnificent", "C", "D", "Hubert Blaine Wolfeschlegelsteinhausen"]
    chart = bar_chart([{"label": name, "value": i} for i, name in enumerate(names)], x_title="Player")
    # Broken between syllables (issue 43), four lines at most: the fifth is cut.
    assert chart["bars"][1]["label_lines"] == ["Bartho‐", "lomew", "the", "Magnifi…"]
    assert chart["bars"][4]["label_lines"][-1].endswith("…")  # more than four lines' worth
    assert chart["bars"][1]["full_label"] == "Bartholomew the Magnificent"
    assert chart["table"]["headers"] == ["Player", "Value"]
    assert chart["table"]["rows"][1] == ["Bartholomew the Magnificent", "1"]


def test_a_game_s_name_under_its_bar_wraps_between_words_instead_of_being_cut():
    names = ["62 Summer Suns", "Dogo Dash", "Hang Four", "Surf's Up!", "Hearts"]
    chart = bar_chart([{"label": name, "value": i + 1} for i, name in enumerate(names)])
    assert [bar["label_lines"] for bar in chart["bars"]] == [
        ["62", "Summer", "Suns"],
        ["Dogo", "Dash"],
        ["Hang", "Four"],
        ["Surf's", "Up!"],
        ["Hearts"],
    ]
    bands = bar_chart([{"label": f"{i * 5}–{i * 5 + 4}", "value": i} for i in range(8)])
    assert [bar["label_lines"] for bar in bands["bars"]][1:4] == [["5–9"], ["10–", "14"], ["15–", "19"]]
    one_line = bar_chart([{"label": name, "value": 1} for name in ("Ann", "Ben")])
    assert chart["label_y"] == one_line["label_y"] - 2 * 15  # two more lines of room under the bars


def test_many_bars_label_every_kth():
    chart = bar_chart([{"label": f"{i * 5}–{i * 5 + 4}", "value": i} for i in range(16)])
    labels = [bar["label"] for bar in chart["bars"]]
    shown = [label for label in labels if label]
    assert 3 <= len(shown) < 16
    assert labels[0] == "0–4"
    assert all("…" not in label for label in shown)


def test_all_zero_and_empty_bar_charts():
    zero = bar_chart([{"label": "a", "value": 0}, {"label": "b", "value": 0}])
    assert [t["label"] for t in zero["y_ticks"]] == ["0", "1"]
    assert [bar["height"] for bar in zero["bars"]] == [0, 0]
    empty = bar_chart([], title="Nothing")
    assert empty["empty"] is True and empty["bars"] == [] and empty["table"]["rows"] == []
    for chart in (zero, empty):
        html = render_to_string("history/_bar_chart.html", {"chart": chart})
        assert_csp_clean(html)
        svgs(html)


def test_big_values_use_thousands_on_the_axis():
    chart = bar_chart([{"label": "a", "value": 12000}, {"label": "b", "value": 3500}])
    assert [t["label"] for t in chart["y_ticks"]] == ["0", "5k", "10k", "15k"]
    assert [bar["value"] for bar in chart["bars"]] == ["12000", "3500"]


# -- templates -------------------------------------------------------------------------------------

NASTY = '<b>&"'


def test_line_chart_template_is_csp_clean_valid_svg_and_escaped():
    chart = line_chart(
        [{"label": NASTY, "values": [0, 3, 8]}, {"label": "Ben", "values": [1, 2, 9]}],
        title="Scores <through> the game",
        y_label="points",
        chart_id=1,
    )
    html = render_to_string("history/_line_chart.html", {"chart": chart})
    assert_csp_clean(html)
    assert NASTY not in html
    assert "&lt;b&gt;&amp;&quot;" in html
    assert "Scores &lt;through&gt; the game" in html
    assert "Show the numbers" in html and '<table class="table table-sm' in html

    main, *swatches = svgs(html)
    assert len(swatches) == 2
    assert main.get("role") == "img"
    assert main.get("viewBox") == chart["viewbox"]
    title = main.find(f"{SVG}title")
    assert title.text == "Scores <through> the game"
    assert main.get("aria-labelledby") == title.get("id") == "chart-scores-through-the-game-1-title"
    assert len(main.findall(f".//{SVG}polyline")) == 2
    dashes = [line.get("stroke-dasharray") for line in main.iter(f"{SVG}polyline")]
    assert dashes == ["none", DASHES[1]]
    assert main.find(f".//{SVG}g[@class='chart-series series-0']/{SVG}title").text == f"{NASTY}: 8"
    legend = re.findall(r'<span class="chart-legend-label">(.*?)</span>', html)
    assert legend == ["&lt;b&gt;&amp;&quot;", "Ben"]


def test_bar_chart_template_is_csp_clean_valid_svg_and_escaped():
    chart = bar_chart(
        [{"label": NASTY, "value": 3}, {"label": "Ben", "value": 5}], title="Wins", unit="wins", chart_id=2
    )
    html = render_to_string("history/_bar_chart.html", {"chart": chart})
    assert_csp_clean(html)
    assert NASTY not in html
    assert "&lt;b&gt;&amp;&quot;" in html
    (main,) = svgs(html)
    assert main.find(f"{SVG}title").text == "Wins"
    assert len(main.findall(f".//{SVG}rect")) == 2
    texts = ["".join(t.itertext()) for t in main.iter(f"{SVG}text")]  # a label may be in tspans
    assert NASTY in texts and "Ben" in texts and "5" in texts and "wins" in texts
    assert f"{NASTY}: 3 wins" in [t.text for t in main.iter(f"{SVG}title")]


def test_two_charts_on_a_page_have_distinct_ids():
    series = [{"label": "A", "values": [1, 2]}]
    first = render_to_string("history/_line_chart.html", {"chart": line_chart(series, title="S", chart_id=1)})
    second = render_to_string(
        "history/_line_chart.html", {"chart": line_chart(series, title="S", chart_id=2)}
    )
    ids = re.findall(r'\bid="([^"]+)"', first + second)
    assert len(ids) == len(set(ids)) == 6


def test_numbers_in_the_svg_are_not_localised(settings):
    settings.USE_THOUSAND_SEPARATOR = True
    chart = line_chart([{"label": "A", "values": [0, 1234.5, 2500]}], title="Big")
    with translation.override("de"):
        html = render_to_string("history/_line_chart.html", {"chart": chart})
    main = svgs(html)[0]
    for element in main.iter():
        for name in ("x", "y", "x1", "x2", "y1", "y2", "cx", "cy", "width", "height"):
            value = element.get(name)
            if value is not None:
                float(value)  # "12,5" or "1.234,5" would raise


def test_a_word_breaks_between_its_syllables_or_not_at_all():
    """Issue 43: "Hear-ts" under a narrow bar. A word breaks where the language's hyphenation
    dictionary allows; a short one it cannot break (one syllable) is cut with an ellipsis; a long
    one it cannot break within the line (a name) is broken every few letters."""
    from django.utils import translation

    from companion.charts import _wrap

    assert _wrap("Hearts", 5) == ["Hear…"] and _wrap("Hearts", 6) == ["Hearts"]
    assert _wrap("7 Wonders", 5) == ["7", "Won‐", "ders"]
    assert _wrap("Wolfeschlegelsteinhausen", 8, 4) == ["Wolfesc‐", "hlegels‐", "teinhau‐", "sen"]
    with translation.override("fr"):
        assert _wrap("Magnifique", 6) == ["Magni‐", "fique"]  # the French dictionary's syllables
