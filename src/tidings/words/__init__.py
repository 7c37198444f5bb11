"""The words of reports and the site, in each language tidings writes (`Lang`).

    daily.py   the daily report's headings and the deterministic writer's sentences
    weekly.py  the weekly report's, with the risk tags' names and follow-up suggestions
    site.py    the static site around the reports: navigation, downloads, feeds, charts

Catalogues map a key to a `str.format` template; report/ fills them with facts, render/ with
escaped values. Nothing else in the package holds user-facing sentences.
"""

from tidings.common.config import LANGS, Lang

__all__ = ["LANGS", "Lang"]
