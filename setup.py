"""Build hook for the optional compiled parts of ``boneyard.fast``: the kernel and the exact solver.

Everything else is in pyproject.toml.  The extensions are ``optional``: without a C compiler the
build skips them and ``boneyard.fast`` runs in pure Python (the same results, only slower).
"""

from setuptools import Extension, setup

setup(
    ext_modules=[
        Extension("boneyard.fast._kernel", ["src/boneyard/fast/_kernel.c"], optional=True,
                  depends=["src/boneyard/fast/_ints.h"], extra_compile_args=["-O3"]),
        Extension("boneyard.fast._solve", ["src/boneyard/fast/_solve.c"], optional=True,
                  depends=["src/boneyard/fast/_ints.h"], extra_compile_args=["-O3"]),
    ],
)
