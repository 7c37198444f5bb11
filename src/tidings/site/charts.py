"""Charts as inline SVG, drawn at build time: no JavaScript, no CDN, readable in a PDF.

Colours come from CSS classes (the page's light and dark palettes), text is escaped, and every
chart carries a <title> and an aria-label so it reads without sight. Each chart is drawn twice,
720 and 360 units wide (`chart-wide`, `chart-narrow`): the page's CSS shows the narrow one on a
phone, where a 720-wide drawing scaled to fit would shrink its text to 6 px. Axes end at
"nice" numbers just above the data (a peak of 11 gets 12, not 40), with titles.

Why not a chart library: pygal writes colours as inline styles (no dark palette through CSS
classes) and wants a script for its tooltips; matplotlib's SVGs draw text as paths and weigh
tens of kilobytes each. These three charts are small enough to draw by hand.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from markupsafe import Markup

WIDE, NARROW = 720, 360
PALETTE = ["#0969da", "#8250df", "#cf222e", "#1a7f37", "#bc4c00", "#6e7781", "#bf3989", "#4d2d00"]
SERIES = ("s-new", "s-merged", "s-closed")


@dataclass(frozen=True)
class DayCounts:
    day: str  # YYYY-MM-DD
    # None: no report for that day, or a count its sources cannot know (a gap, not a zero)
    new: int | None
    merged: int | None
    closed: int | None


def nice_axis(peak: float, max_ticks: int = 6) -> tuple[int, int]:
    """(top, step) of an axis from 0 that holds `peak`: step 1, 2 or 5 times a power of ten,
    the smallest giving at most `max_ticks` intervals, and top the first step at or above
    the peak (11 -> 12 by 2; 40 -> 40 by 10; 0 -> 1 by 1)."""
    peak = max(peak, 1)
    scale = 1
    while True:
        for unit in (1, 2, 5):
            step = unit * scale
            if math.ceil(peak / step) <= max_ticks:
                return math.ceil(peak / step) * step, step
        scale *= 10


def trim_leading_gaps(days: Sequence[DayCounts]) -> list[DayCounts]:
    """The days from the first one with a report: a chart of a young project does not open
    on weeks of nothing."""
    for k, d in enumerate(days):
        if (d.new, d.merged, d.closed) != (None, None, None):
            return list(days[k:])
    return []


def _svg_open(width: int, height: int, title: str, variant: str) -> Markup:
    return Markup(
        '<svg class="chart chart-{v}" viewBox="0 0 {w} {h}" role="img" aria-label="{t}" '
        'xmlns="http://www.w3.org/2000/svg"><title>{t}</title>'
    ).format(v=variant, w=width, h=height, t=title)


def _both(draw: Callable[[int], Markup]) -> Markup:
    wide = draw(WIDE)
    if not wide:
        return Markup("")
    return wide + draw(NARROW)


def _legend(
    entries: Sequence[tuple[str, str]], width: int, top: int, *, by_class: bool
) -> tuple[Markup, int]:
    """Legend swatches in rows that fit `width`; (markup, height). `entries` are (class or
    colour, label)."""
    parts = [Markup('<g class="legend">')]
    x, y = 0.0, float(top)
    for css, label in entries:
        size = 14 + 7.2 * len(label) + 18  # swatch, text (~7 units a character), gap
        if x and x + size > width:
            x, y = 0.0, y + 18
        swatch = (
            Markup('<rect class="{}" x="{:.0f}" y="{:.0f}" width="10" height="10"/>')
            if by_class
            else Markup('<rect fill="{}" x="{:.0f}" y="{:.0f}" width="10" height="10"/>')
        )
        parts.append(swatch.format(css, x, y))
        parts.append(Markup('<text x="{:.0f}" y="{:.0f}">{}</text>').format(x + 14, y + 10, label))
        x += size
    parts.append(Markup("</g>"))
    return Markup("").join(parts), int(y - top) + 18


def activity_chart(
    days: Sequence[DayCounts],
    labels: Sequence[str],
    title: str,
    y_title: str = "",
    x_title: str = "",
) -> Markup:
    """Three lines (new, merged, closed) over the days; `labels` name the series."""
    days = trim_leading_gaps(days)
    if not days:
        return Markup("")
    peak = max(max(d.new or 0, d.merged or 0, d.closed or 0) for d in days)
    top_value, step_value = nice_axis(peak)

    def draw(width: int) -> Markup:
        narrow = width == NARROW
        legend, legend_h = _legend(
            list(zip(SERIES, labels, strict=True)), width - 8, 4, by_class=True
        )
        left, right, bottom = 44, 14, 44
        top = legend_h + 14
        height = top + (150 if narrow else 180) + bottom
        plot_w, plot_h = width - left - right, height - top - bottom
        step = plot_w / max(len(days) - 1, 1)

        def x_of(k: int) -> float:
            return left + k * step if len(days) > 1 else left + plot_w / 2

        def y_of(v: int) -> float:
            return top + plot_h - v / top_value * plot_h

        parts: list[Markup] = [_svg_open(width, height, title, "narrow" if narrow else "wide")]
        parts.append(legend)
        for value in range(0, top_value + 1, step_value):
            y = y_of(value)
            parts.append(
                Markup(
                    '<line class="axis" x1="{l}" x2="{r}" y1="{y:.1f}" y2="{y:.1f}"/>'
                    '<text x="{tx}" y="{ty:.1f}" text-anchor="end">{v}</text>'
                ).format(l=left, r=width - right, y=y, tx=left - 6, ty=y + 4, v=value)
            )
        every = max(1, math.ceil(len(days) / (4 if narrow else 8)))
        for k, d in enumerate(days):
            if k % every == 0 or k == len(days) - 1:
                if k != len(days) - 1 and len(days) - 1 - k < every / 2:
                    continue  # too close to the last label
                anchor = "end" if k == len(days) - 1 and k else "middle"
                parts.append(
                    Markup('<text x="{x:.1f}" y="{y}" text-anchor="{a}">{t}</text>').format(
                        x=x_of(k) + (4 if anchor == "end" else 0),
                        y=top + plot_h + 16,
                        a=anchor,
                        t=d.day[5:],
                    )
                )
        if y_title:
            parts.append(
                Markup(
                    '<text class="title" transform="translate(12 {y:.0f}) rotate(-90)" '
                    'text-anchor="middle">{t}</text>'
                ).format(y=top + plot_h / 2, t=y_title)
            )
        if x_title:
            parts.append(
                Markup(
                    '<text class="title" x="{x:.0f}" y="{y}" text-anchor="middle">{t}</text>'
                ).format(x=left + plot_w / 2, y=height - 6, t=x_title)
            )
        for css, attr in zip(SERIES, ("new", "merged", "closed"), strict=True):
            # A day without a report breaks the line instead of pretending it was zero.
            runs: list[list[str]] = [[]]
            for k, d in enumerate(days):
                value = getattr(d, attr)
                if value is None:
                    runs.append([])
                    continue
                cx, cy = x_of(k), y_of(value)
                runs[-1].append(f"{cx:.1f},{cy:.1f}")
                parts.append(
                    Markup(
                        '<circle class="{c}" cx="{cx:.1f}" cy="{cy:.1f}" r="2.5">'
                        "<title>{t}</title></circle>"
                    ).format(c=css, cx=cx, cy=cy, t=f"{d.day} {value}")
                )
            for points in runs:
                if len(points) > 1:
                    parts.append(
                        Markup(
                            '<polyline class="{c}" stroke-width="2" points="{p}" '
                            'style="fill:none"/>'
                        ).format(c=css, p=" ".join(points))
                    )
        parts.append(Markup("</svg>"))
        return Markup("").join(parts)

    return _both(draw)


def bar_chart(rows: Sequence[tuple[str, int]], title: str, x_title: str = "") -> Markup:
    """Horizontal bars, one per (label, count), in the given order."""
    if not rows:
        return Markup("")
    top_value, step_value = nice_axis(max(count for _, count in rows), 5)

    def draw(width: int) -> Markup:
        narrow = width == NARROW
        bar_h, gap, top = 18, 6, 6
        label_w = 130 if narrow else 210
        chars = 17 if narrow else 28
        plot_w = width - label_w - 36  # room for the count after the longest bar
        plot_bottom = top + len(rows) * (bar_h + gap)
        height = plot_bottom + 20 + (18 if x_title else 0)
        parts = [_svg_open(width, height, title, "narrow" if narrow else "wide")]
        for value in range(0, top_value + 1, step_value):
            x = label_w + value / top_value * plot_w
            parts.append(
                Markup(
                    '<line class="axis" x1="{x:.1f}" x2="{x:.1f}" y1="{t}" y2="{b}"/>'
                    '<text x="{x:.1f}" y="{ty}" text-anchor="middle">{v}</text>'
                ).format(x=x, t=top, b=plot_bottom, ty=plot_bottom + 14, v=value)
            )
        for k, (label, count) in enumerate(rows):
            y = top + k * (bar_h + gap)
            shown = label if len(label) <= chars else label[: chars - 1] + "…"
            width_bar = max(count / top_value * plot_w, 1)
            parts.append(
                Markup(
                    '<text x="{lx}" y="{ty}" text-anchor="end">{label}</text>'
                    '<rect class="bar" x="{x}" y="{y}" width="{bw:.1f}" height="{bh}">'
                    "<title>{full} {n}</title></rect>"
                    '<text class="value" x="{nx:.1f}" y="{ty}">{n}</text>'
                ).format(
                    lx=label_w - 6,
                    ty=y + bar_h - 5,
                    label=shown,
                    x=label_w,
                    y=y,
                    bw=width_bar,
                    bh=bar_h,
                    full=label,
                    n=count,
                    nx=label_w + width_bar + 4,
                )
            )
        if x_title:
            parts.append(
                Markup(
                    '<text class="title" x="{x:.0f}" y="{y}" text-anchor="middle">{t}</text>'
                ).format(x=label_w + plot_w / 2, y=height - 4, t=x_title)
            )
        parts.append(Markup("</svg>"))
        return Markup("").join(parts)

    return _both(draw)


def stacked_chart(
    rows: Sequence[tuple[str, dict[str, int]]],
    title: str,
    names: dict[str, str] | None = None,
    x_title: str = "",
) -> Markup:
    """One horizontal stacked bar per row (e.g. a week), one colour per key (e.g. a risk tag);
    `names` gives each key its reader's words (the legend and tooltips)."""
    rows = [(name, counts) for name, counts in rows if any(counts.values())]
    if not rows:
        return Markup("")
    names = names or {}
    keys = sorted({key for _, counts in rows for key in counts})
    colour = {key: PALETTE[k % len(PALETTE)] for k, key in enumerate(keys)}
    top_value, step_value = nice_axis(max(sum(counts.values()) for _, counts in rows), 5)

    def draw(width: int) -> Markup:
        narrow = width == NARROW
        bar_h, gap, top, label_w = 18, 6, 6, 78
        plot_w = width - label_w - 16
        plot_bottom = top + len(rows) * (bar_h + gap)
        legend, legend_h = _legend(
            [(colour[key], names.get(key, key)) for key in keys],
            width - 8,
            plot_bottom + 22 + (18 if x_title else 0),
            by_class=False,
        )
        height = plot_bottom + 26 + (18 if x_title else 0) + legend_h
        parts = [_svg_open(width, height, title, "narrow" if narrow else "wide")]
        for value in range(0, top_value + 1, step_value):
            x = label_w + value / top_value * plot_w
            parts.append(
                Markup(
                    '<line class="axis" x1="{x:.1f}" x2="{x:.1f}" y1="{t}" y2="{b}"/>'
                    '<text x="{x:.1f}" y="{ty}" text-anchor="middle">{v}</text>'
                ).format(x=x, t=top, b=plot_bottom, ty=plot_bottom + 14, v=value)
            )
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
                w = n / top_value * plot_w
                parts.append(
                    Markup(
                        '<rect x="{x:.1f}" y="{y}" width="{w:.1f}" height="{h}" fill="{c}">'
                        "<title>{name} {key} {n}</title></rect>"
                    ).format(
                        x=x,
                        y=y,
                        w=w,
                        h=bar_h,
                        c=colour[key],
                        name=name,
                        key=names.get(key, key),
                        n=n,
                    )
                )
                x += w
        if x_title:
            parts.append(
                Markup(
                    '<text class="title" x="{x:.0f}" y="{y}" text-anchor="middle">{t}</text>'
                ).format(x=label_w + plot_w / 2, y=plot_bottom + 32, t=x_title)
            )
        parts.append(legend)
        parts.append(Markup("</svg>"))
        return Markup("").join(parts)

    return _both(draw)


def sparkline(values: Sequence[int | None], title: str) -> Markup:
    """A small line of daily values (None: no report that day), for the home page."""
    while values and values[0] is None:  # no flat start before the first report
        values = values[1:]
    if not values:
        return Markup("")
    width, height = 120, 28
    peak = max((v for v in values if v is not None), default=0) or 1
    step = width / max(len(values) - 1, 1)
    runs: list[list[str]] = [[]]
    for k, v in enumerate(values):
        if v is None:
            runs.append([])
            continue
        runs[-1].append(f"{k * step:.1f},{height - 2 - v / peak * (height - 4):.1f}")
    lines = Markup("").join(
        Markup('<polyline points="{}"/>').format(" ".join(run)) for run in runs if len(run) > 1
    )
    dots = Markup("").join(
        Markup('<circle cx="{}" cy="{}" r="1.5" class="s-merged"/>').format(*run[0].split(","))
        for run in runs
        if len(run) == 1
    )
    return Markup(
        '<svg class="spark" viewBox="0 0 {w} {h}" width="{w}" height="{h}" role="img" '
        'aria-label="{t}" xmlns="http://www.w3.org/2000/svg"><title>{t}</title>{l}{d}</svg>'
    ).format(w=width, h=height, t=title, l=lines, d=dots)
