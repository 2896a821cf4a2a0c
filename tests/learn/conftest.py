"""The tests that need torch (the behaviour-cloning script) run under ``make test-learn``, which
installs the ``learn`` extra and sets MAJIANG_LEARN_TESTS=1; ``make test`` does not collect them
(majiang does not depend on torch)."""

import os

collect_ignore_glob = [] if os.environ.get("MAJIANG_LEARN_TESTS") else ["test_*.py"]
