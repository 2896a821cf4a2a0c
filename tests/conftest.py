import sys
from pathlib import Path

# test helpers (pmgb.py, the PyMahjongGB oracle adapter) are importable from every test folder
sys.path.insert(0, str(Path(__file__).parent))
