"""Edge renderers of the competition core: HTML pages, PDF sheets, CSV exports, standings plots.

They depend on :mod:`majiang.tournament` and never the reverse; each returns ``str``/``bytes`` and
may also write to a path.  The PDF and plot modules import reportlab / matplotlib when called.
"""
