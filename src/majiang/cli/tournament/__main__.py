import sys

from majiang.cli.tournament import main

sys.exit(main())
