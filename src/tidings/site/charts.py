"""Charts as inline SVG, drawn at build time: no JavaScript, no CDN, readable in a PDF.

Colours come from CSS classes (the page's light and dark palettes), text is escaped, and every
chart carries a <title> and an aria-label so it reads without sight. Each function returns
Markup, or an empty string when there is nothing to draw (the page shows an empty state).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from markupsafe import Markup

WIDTH = 720
PALETTE = ["#0969da", "#8250df", "#cf222e", "#1a7f37", "#bc4c00", "#6e7781", "#bf3989", "#4d2d00"]


@dataclass(frozen=True)
class DayCounts:
    day: str  # YYYY-MM-DD
    new: int | None  # None: no report for that day (a gap, not a zero)
    merged: int | None
    closed: int | None


def _nice_max(value: int) -> int:
    for step in (1, 2, 5):
        for scale in (1, 10, 100, 1000, 10000):
            if value <= step * scale * 4:
                return step * scale * 4
    return value


def activity_chart(days: Sequence[DayCounts], labels: Sequence[str], title: str) -> Markup:
    """Three lines (new, merged, closed) over the days; `labels` name the series."""
    if not days or all(d.new is None for d in days):
        return Markup("")
    height, left, right, top, bottom = 240, 36, 24, 28, 34
    plot_w, plot_h = WIDTH - left - right, height - top - bottom
    peak = max(max(d.new or 0, d.merged or 0, d.closed or 0) for d in days)
    ymax = _nice_max(max(peak, 1))
    step = plot_w / max(len(days) - 1, 1)

    def xy(k: int, v: int) -> str:
        return f"{left + k * step:.1f},{top + plot_h - v / ymax * plot_h:.1f}"

    parts: list[Markup] = [
        Markup(
            '<svg class="chart" viewBox="0 0 {w} {h}" role="img" aria-label="{t}" '
            'xmlns="http://www.w3.org/2000/svg"><title>{t}</title>'
        ).format(w=WIDTH, h=height, t=title)
    ]
    for g in range(5):
        y = top + plot_h - g * plot_h / 4
        parts.append(
            Markup(
                '<line class="axis" x1="{l}" x2="{r}" y1="{y:.1f}" y2="{y:.1f}"/>'
                '<text x="{tx}" y="{ty:.1f}" text-anchor="end">{v}</text>'
            ).format(l=left, r=WIDTH - right, y=y, tx=left - 4, ty=y + 4, v=ymax * g // 4)
        )
    for k, d in enumerate(days):
        if k % 5 == 0 or k == len(days) - 1:
            parts.append(
                Markup('<text x="{x:.1f}" y="{y}" text-anchor="middle">{t}</text>').format(
                    x=left + k * step, y=height - bottom + 16, t=d.day[5:]
                )
            )
    for css, attr in (("s-new", "new"), ("s-merged", "merged"), ("s-closed", "closed")):
        # A day without a report breaks the line instead of pretending it was zero.
        run: list[str] = []
        runs: list[list[str]] = []
        for k, d in enumerate(days):
            value = getattr(d, attr)
            if value is None:
                if run:
                    runs.append(run)
                run = []
                continue
            run.append(xy(k, value))
            parts.append(
                Markup(
                    '<circle class="{c}" cx="{cx}" cy="{cy}" r="2.5"><title>{t}</title></circle>'
                ).format(
                    c=css,
                    cx=xy(k, value).split(",")[0],
                    cy=xy(k, value).split(",")[1],
                    t=f"{d.day} {value}",
                )
            )
        if run:
            runs.append(run)
        for points in runs:
            parts.append(
                Markup(
                    '<polyline class="{c}" fill="none" stroke-width="2" points="{p}" '
                    'style="fill:none"/>'
                ).format(c=css, p=" ".join(points))
            )
    x = left
    parts.append(Markup('<g class="legend">'))
    for css, label in zip(("s-new", "s-merged", "s-closed"), labels, strict=True):
        parts.append(
            Markup(
                '<rect class="{c}" x="{x}" y="8" width="10" height="10"/>'
                '<text x="{tx}" y="17">{t}</text>'
            ).format(c=css, x=x, tx=x + 14, t=label)
        )
        x += 14 + 7 * len(label) + 24
    parts.append(Markup("</g></svg>"))
    return Markup("").join(parts)


def bar_chart(rows: Sequence[tuple[str, int]], title: str) -> Markup:
    """Horizontal bars, one per (label, count), in the given order."""
    if not rows:
        return Markup("")
    bar_h, gap, label_w, top = 18, 6, 200, 8
    height = top + len(rows) * (bar_h + gap) + 4
    peak = max(count for _, count in rows) or 1
    plot_w = WIDTH - label_w - 50
    parts = [
        Markup(
            '<svg class="chart" viewBox="0 0 {w} {h}" role="img" aria-label="{t}" '
            'xmlns="http://www.w3.org/2000/svg"><title>{t}</title>'
        ).format(w=WIDTH, h=height, t=title)
    ]
    for k, (label, count) in enumerate(rows):
        y = top + k * (bar_h + gap)
        shown = label if len(label) <= 28 else label[:27] + "…"
        parts.append(
            Markup(
                '<text x="{lx}" y="{ty}" text-anchor="end">{label}</text>'
                '<rect class="bar" x="{x}" y="{y}" width="{bw:.1f}" height="{bh}">'
                "<title>{full} {n}</title></rect>"
                '<text x="{nx:.1f}" y="{ty}">{n}</text>'
            ).format(
                lx=label_w - 6,
                ty=y + bar_h - 5,
                label=shown,
                x=label_w,
                y=y,
                bw=max(count / peak * plot_w, 1),
                bh=bar_h,
                full=label,
                n=count,
                nx=label_w + count / peak * plot_w + 4,
            )
        )
    parts.append(Markup("</svg>"))
    return Markup("").join(parts)


def stacked_chart(rows: Sequence[tuple[str, dict[str, int]]], title: str) -> Markup:
    """One horizontal stacked bar per row (e.g. a week), one colour per key (e.g. a risk tag)."""
    rows = [(name, counts) for name, counts in rows if any(counts.values())]
    if not rows:
        return Markup("")
    keys = sorted({key for _, counts in rows for key in counts})
    colour = {key: PALETTE[k % len(PALETTE)] for k, key in enumerate(keys)}
    bar_h, gap, label_w, top = 18, 6, 90, 8
    legend_rows = (len(keys) + 3) // 4
    height = top + len(rows) * (bar_h + gap) + 10 + legend_rows * 18
    peak = max(sum(counts.values()) for _, counts in rows) or 1
    plot_w = WIDTH - label_w - 50
    parts = [
        Markup(
            '<svg class="chart" viewBox="0 0 {w} {h}" role="img" aria-label="{t}" '
            'xmlns="http://www.w3.org/2000/svg"><title>{t}</title>'
        ).format(w=WIDTH, h=height, t=title)
    ]
    for k, (name, counts) in enumerate(rows):
        y = top + k * (bar_h + gap)
        parts.append(
            Markup('<text x="{x}" y="{y}" text-anchor="end">{t}</text>').format(
                x=label_w - 6, y=y + bar_h - 5, t=name
            )
        )
        x = float(label_w)
        for key in keys:
            n = counts.get(key, 0)
            if not n:
                continue
            w = n / peak * plot_w
            parts.append(
                Markup(
                    '<rect x="{x:.1f}" y="{y}" width="{w:.1f}" height="{h}" fill="{c}">'
                    "<title>{name} {key} {n}</title></rect>"
                ).format(x=x, y=y, w=w, h=bar_h, c=colour[key], name=name, key=key, n=n)
            )
            x += w
        parts.append(
            Markup('<text x="{x:.1f}" y="{y}">{n}</text>').format(
                x=x + 4, y=y + bar_h - 5, n=sum(counts.values())
            )
        )
    base = top + len(rows) * (bar_h + gap) + 10
    parts.append(Markup('<g class="legend">'))
    for k, key in enumerate(keys):
        x, y = 10 + (k % 4) * 175, base + (k // 4) * 18
        parts.append(
            Markup(
                '<rect x="{x}" y="{y}" width="10" height="10" fill="{c}"/>'
                '<text x="{tx}" y="{ty}">{t}</text>'
            ).format(x=x, y=y, c=colour[key], tx=x + 14, ty=y + 9, t=key[:24])
        )
    parts.append(Markup("</g></svg>"))
    return Markup("").join(parts)
