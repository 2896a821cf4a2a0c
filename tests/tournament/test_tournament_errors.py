"""Every error the tournament raises has the one base, TournamentError: a caller answers them alike."""

from __future__ import annotations

import importlib
import inspect
import pkgutil

import majiang.tournament
from majiang.tournament.errors import TournamentError


def test_every_tournament_error_is_a_tournament_error() -> None:
    errors = []
    for info in pkgutil.walk_packages(majiang.tournament.__path__, "majiang.tournament."):
        module = importlib.import_module(info.name)
        for name, obj in vars(module).items():
            if inspect.isclass(obj) and issubclass(obj, Exception) and obj.__module__ == info.name:
                if issubclass(obj, RuntimeError):  # a bug, not a request (BridgeError: engine and rules disagree)
                    continue
                errors.append(obj)
                assert issubclass(obj, TournamentError), f"{info.name}.{name} is not a TournamentError"
    names = {e.__name__ for e in errors}
    assert {"ModelError", "DrawError", "EntryError", "RepositoryError", "EventNotFound", "PhaseError"} <= names
