"""Optional compiled fast paths: every ``src/majiang/_speedups/*.c`` becomes
``majiang._speedups.<name>``; the ``*.h`` files there are parts of those (``fan_core.h`` of ``fan.c``),
not extensions, and a change to one rebuilds them.  When no compiler is present the build goes on without them and the
pure-Python reference implementations are used (they are tested equal to the fast paths)."""

from pathlib import Path

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext


class OptionalBuildExt(build_ext):
    def run(self) -> None:
        try:
            super().run()
        except Exception as e:
            print(f"warning: compiled speedups not built ({e}); using pure Python")

    def build_extension(self, ext: Extension) -> None:
        try:
            super().build_extension(ext)
        except Exception as e:
            print(f"warning: {ext.name} not built ({e}); using pure Python")


SPEEDUPS = Path("src/majiang/_speedups")
HEADERS = [str(h) for h in sorted(SPEEDUPS.glob("*.h"))]
exts = [
    Extension(f"majiang._speedups.{p.stem}", [str(p)], depends=HEADERS, extra_compile_args=["-O2"], libraries=["m"])
    for p in sorted(SPEEDUPS.glob("*.c"))
]
setup(ext_modules=exts, cmdclass={"build_ext": OptionalBuildExt})
