import sys

from majiang.cli import main

sys.exit(main())
