"""Declares the compiled rules core; everything else lives in pyproject.toml."""

import os
import platform

from Cython.Build import cythonize
from setuptools import Extension, setup
from setuptools.command.build_py import build_py


class build_py_with_core_stub(build_py):
    """Also ship the ``.pyi`` stubs beside the top-level extensions (package data covers packages only)."""

    def run(self):
        super().run()
        for stub in ("kanaloa_core.pyi", "cannonball_core.pyi"):
            self.copy_file(stub, f"{self.build_lib}/{stub}")


def cpu_flags() -> set[str]:
    """The flags of the building machine's CPU (Linux), or an empty set where they cannot be read."""
    try:
        with open("/proc/cpuinfo", encoding="ascii", errors="replace") as info:
            for line in info:
                if line.startswith("flags"):
                    return set(line.partition(":")[2].split())
    except OSError:
        pass
    return set()


def compile_args() -> list[str]:
    """-O3, and the POPCNT instruction for the bit counts when the building x86-64 machine has it.

    The core is compiled where it is installed, so the build may use what
    that CPU offers; KANALOA_PORTABLE=1 builds for any x86-64 instead (a
    slower bit count, the same results).
    """
    args = ["-O3"]
    x86 = platform.machine().lower() in ("x86_64", "amd64")
    if x86 and os.environ.get("KANALOA_PORTABLE", "") in ("", "0") and "popcnt" in cpu_flags():
        args.append("-mpopcnt")
    return args


core = Extension("kanaloa_core", ["kanaloa_core.pyx"], include_dirs=["."], extra_compile_args=compile_args())
cannonball = Extension("cannonball_core", ["cannonball_core.pyx"], include_dirs=["."],
                       extra_compile_args=compile_args())  # R20
# The search loops and the game adapter they call are plain Python with Cython's type annotations
# (``import cython``): compiled here, the tree is walked as C structs.  The same files run uncompiled
# where Cython is installed, and tests/test_compiled.py checks that both make the same choices.
SEARCH = ["kanaloa.search.mcts", "kanaloa.search.ismcts", "kanaloa.play.game"]
search = [Extension(name, [f"src/{name.replace('.', '/')}.py"], extra_compile_args=["-O3"]) for name in SEARCH]

setup(
    cmdclass={"build_py": build_py_with_core_stub},
    ext_modules=cythonize(
        [core, cannonball, *search],
        compiler_directives={
            "language_level": 3,
            "boundscheck": False,
            "wraparound": False,
            "cdivision": True,
            "initializedcheck": False,
        },
    ),
)
