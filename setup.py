"""Build hook for the optional compiled kernel of ``boneyard.fast``.

Everything else is in pyproject.toml.  The extension is ``optional``: without a C compiler the
build skips it and ``boneyard.fast`` runs in pure Python (the same results, only slower).
"""

from setuptools import Extension, setup

setup(
    ext_modules=[
        Extension("boneyard.fast._kernel", ["src/boneyard/fast/_kernel.c"], optional=True,
                  extra_compile_args=["-O3"]),
    ],
)
