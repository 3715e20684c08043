"""Builds the native CPU sampler (``trainyard_runtime.sampler._native``) with torch's C++ extension tooling.

Project metadata lives in pyproject.toml; this file only adds the extension, which needs torch at build time:
install.sh installs the pinned torch first and builds with ``--no-build-isolation``.
"""

from pathlib import Path

from setuptools import setup
from torch.utils.cpp_extension import BuildExtension, CppExtension

sources = sorted(
    str(path.relative_to(Path(__file__).parent)) for path in (Path(__file__).parent / "csrc").glob("*.cpp")
)

setup(
    ext_modules=[
        CppExtension(
            "trainyard_runtime.sampler._native",
            sources,
            # -g0: no debug info (Python's default -g makes compiling torch's headers much slower).
            # -fopenmp turns at::parallel_for (inline in ATen's headers) into an OpenMP loop; without it, serial.
            extra_compile_args=["-O3", "-g0", "-fopenmp"],
            extra_link_args=["-fopenmp"],
        )
    ],
    cmdclass={"build_ext": BuildExtension},
)
