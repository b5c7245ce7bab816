"""Declares the compiled rules core; everything else lives in pyproject.toml."""

from Cython.Build import cythonize
from setuptools import Extension, setup
from setuptools.command.build_py import build_py


class build_py_with_core_stub(build_py):
    """Also ship ``kanaloa_core.pyi`` beside the top-level extension (package data covers packages only)."""

    def run(self):
        super().run()
        self.copy_file("kanaloa_core.pyi", f"{self.build_lib}/kanaloa_core.pyi")


core = Extension("kanaloa_core", ["kanaloa_core.pyx"], extra_compile_args=["-O3"])

setup(
    cmdclass={"build_py": build_py_with_core_stub},
    ext_modules=cythonize(
        [core],
        compiler_directives={
            "language_level": 3,
            "boundscheck": False,
            "wraparound": False,
            "cdivision": True,
            "initializedcheck": False,
        },
    ),
)
