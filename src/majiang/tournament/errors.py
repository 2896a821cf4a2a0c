"""The one base of the tournament's errors: a request the rules or the stored event cannot satisfy.
Each area raises its own subclass (:class:`~majiang.tournament.model.ModelError`,
:class:`~majiang.tournament.draw.DrawError`, :class:`~majiang.tournament.scoring.EntryError`, the
repository's :class:`~majiang.tournament.adapters.mapping.RepositoryError` …), each message saying how
to fix it; a caller that answers any of them alike (the CLI, the organiser's web routes) catches this."""

from __future__ import annotations


class TournamentError(ValueError):
    """A tournament request that cannot be satisfied; the message says how to fix it."""
