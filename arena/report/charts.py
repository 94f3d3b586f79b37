"""Line charts of learning runs: terminal sparklines and self-contained SVG/HTML files.

Standard library only, no network references (no scripts, fonts or styles fetched): the files open
offline. Used for SPSA parameter histories (``arena tune spsa``) and TD learning curves.

- :func:`sparkline`: a row of block characters (8 heights) for a series, resampled to a width;
- :func:`svg_chart`: one polyline per series, each scaled to its own range (given, e.g. a tuned
  parameter's bounds, or its own min..max), a legend with first and last values;
- :func:`html_page`: the SVG in a minimal page with a title and a table of rows.
"""

from __future__ import annotations

import html
import math
from collections.abc import Mapping, Sequence

_BLOCKS = "▁▂▃▄▅▆▇█"
_COLOURS = ("#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f",
            "#bcbd22", "#17becf")


def _resample(values: Sequence[float], width: int) -> list[float]:
    """``values`` averaged into at most ``width`` buckets (unchanged when shorter)."""
    if len(values) <= width:
        return list(values)
    out = []
    for i in range(width):
        lo, hi = i * len(values) // width, max(i * len(values) // width + 1, (i + 1) * len(values) // width)
        chunk = values[lo:hi]
        out.append(sum(chunk) / len(chunk))
    return out


def sparkline(values: Sequence[float], width: int = 60, low: float | None = None, high: float | None = None) -> str:
    """The series as block characters, lowest ``low`` (default its minimum) to ``high``."""
    finite = [v for v in values if math.isfinite(v)]
    if not finite:
        return ""
    points = _resample(finite, max(1, width))
    lo = min(finite) if low is None else low
    hi = max(finite) if high is None else high
    if hi <= lo:
        return _BLOCKS[3] * len(points)
    top = len(_BLOCKS) - 1
    return "".join(_BLOCKS[max(0, min(top, round((v - lo) / (hi - lo) * top)))] for v in points)


def svg_chart(series: Mapping[str, Sequence[float]], *, title: str, x_label: str = "iteration",
              bounds: Mapping[str, tuple[float, float]] | None = None, width: int = 900, height: int = 360) -> str:
    """An SVG line chart: every series drawn over the same x axis (index), each scaled to its
    ``bounds`` entry (else its own range) so series of different sizes share the plot."""
    left, right, top, bottom = 50, 330, 36, 40  # the legend lives in the right margin
    plot_w, plot_h = width - left - right, height - top - bottom
    longest = max((len(v) for v in series.values()), default=0)
    parts = [(f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
             f'viewBox="0 0 {width} {height}" font-family="sans-serif" font-size="12">'),
             f'<rect width="{width}" height="{height}" fill="white"/>',
             f'<text x="{left}" y="20" font-size="14">{html.escape(title)}</text>',
             f'<rect x="{left}" y="{top}" width="{plot_w}" height="{plot_h}" fill="none" stroke="#999"/>',
             f'<text x="{left + plot_w / 2:.0f}" y="{height - 8}" text-anchor="middle">{html.escape(x_label)}</text>',
             f'<text x="{left}" y="{height - 22}" text-anchor="middle">0</text>',
             f'<text x="{left + plot_w}" y="{height - 22}" text-anchor="middle">{max(0, longest - 1)}</text>',
             f'<text x="{left - 6}" y="{top + 10}" text-anchor="end">max</text>',
             f'<text x="{left - 6}" y="{top + plot_h}" text-anchor="end">min</text>']
    for index, (name, values) in enumerate(series.items()):
        colour = _COLOURS[index % len(_COLOURS)]
        finite = [v for v in values if math.isfinite(v)]
        if not finite:
            continue
        lo, hi = (bounds or {}).get(name, (min(finite), max(finite)))
        span = hi - lo if hi > lo else 1.0
        step = plot_w / max(1, longest - 1)
        coords = " ".join(f"{left + i * step:.1f},{top + plot_h - (min(hi, max(lo, v)) - lo) / span * plot_h:.1f}"
                          for i, v in enumerate(values) if math.isfinite(v))
        parts.append(f'<polyline fill="none" stroke="{colour}" stroke-width="1.5" points="{coords}"/>')
        y = top + 14 + 18 * index
        parts.append(f'<rect x="{width - right + 12}" y="{y - 9}" width="12" height="3" fill="{colour}"/>')
        label = f"{name}: {finite[0]:.4g} → {finite[-1]:.4g} ({lo:.4g}..{hi:.4g})"
        parts.append(f'<text x="{width - right + 30}" y="{y}">{html.escape(label)}</text>')
    parts.append("</svg>")
    return "\n".join(parts)


def html_page(title: str, svg: str, rows: Sequence[Sequence[str]] = (), header: Sequence[str] = ()) -> str:
    """A self-contained page: the title, the chart, and a table of ``rows`` under ``header``."""
    table = ""
    if rows:
        head = "".join(f"<th>{html.escape(h)}</th>" for h in header)
        body = "".join("<tr>" + "".join(f"<td>{html.escape(c)}</td>" for c in row) + "</tr>" for row in rows)
        table = f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"
    return (f"<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>{html.escape(title)}</title>"
            "<style>body{font-family:sans-serif;margin:2em}table{border-collapse:collapse}"
            "td,th{border:1px solid #ccc;padding:2px 8px;text-align:right}</style></head>"
            f"<body><h1>{html.escape(title)}</h1>\n{svg}\n{table}</body></html>\n")


__all__ = ["html_page", "sparkline", "svg_chart"]
