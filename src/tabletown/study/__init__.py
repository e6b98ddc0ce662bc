"""Strategy studies (``tabletown study``): many bot games, their features, statistics and a report.

The generic machinery lives here (``runner``: plan and play through the arena; ``stats``: tables;
``plots`` and ``report``: charts and the HTML page). What a game's records *mean* — its openings, the
cards or moves a seat uses, its score tracks — lives in that game's own ``games/<name>/study.py``,
found by :func:`tabletown.study.features.study_module`.
"""
