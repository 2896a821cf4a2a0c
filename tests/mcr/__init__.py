"""Per-fan tests of the MCR (国标) fan calculator (a package, so its module names cannot clash)."""

import pytest

pytest.register_assert_rewrite("mcr.cases")
