"""Builds the Python package chaindyn (pyproject.toml has its metadata): setuptools' build_ext
runs the project's own CMake to build the compiled module chaindyn._chaindyn, as pybind11's
CMake example does, and copies it (with the viewer's script, when the build made it) into the
package. The version is CMakeLists.txt's project(VERSION), the one version source.

    pip install --no-build-isolation .      # Debian: python3-pip python3-setuptools
                                            # python3-wheel pybind11-dev python3-dev
                                            # libeigen3-dev cmake ninja-build g++

Environment:
    CHAINDYN_CMAKE_BUILD_DIR   an already configured build tree (e.g. build/release) to take the
                               module from: only `cmake --build` of the module runs there (a
                               no-op when it is up to date), no second compile. Its Python must
                               be the one pip runs (same extension suffix), or the build stops.
    CMAKE_BUILD_PARALLEL_LEVEL the build's jobs (default: the CPU count).
"""
import os
import re
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

ROOT = Path(__file__).resolve().parent


def project_version():
    text = (ROOT / "CMakeLists.txt").read_text()
    match = re.search(r"project\(\s*chaindyn\s+VERSION\s+([0-9][0-9.]*)", text)
    if not match:
        raise RuntimeError("setup.py: no project(chaindyn VERSION x.y.z) in CMakeLists.txt")
    return match.group(1)


class CMakeExtension(Extension):
    """The module a CMake target builds (no sources for setuptools to compile)."""

    def __init__(self, name, target):
        super().__init__(name, sources=[])
        self.target = target


class CMakeBuild(build_ext):
    # Files the CMake build generates into <build>/python/chaindyn besides the module, copied
    # into the package when they exist (the viewer's bundled script is made only where npm
    # could be reached at build time).
    generated = ["viewer/chaindyn_viewer.js", "viewer/chaindyn_viewer.js.LICENSES.txt"]

    def build_extension(self, ext):
        destination = Path(self.get_ext_fullpath(ext.name)).resolve()
        existing = os.environ.get("CHAINDYN_CMAKE_BUILD_DIR")
        if existing:
            build = Path(existing).resolve()
            if not (build / "CMakeCache.txt").is_file():
                sys.exit(f"setup.py: CHAINDYN_CMAKE_BUILD_DIR={existing} is not a configured "
                         "CMake build tree (no CMakeCache.txt)")
        else:
            build = Path(self.build_temp).resolve() / "cmake"
            self.configure(build)
        jobs = os.environ.get("CMAKE_BUILD_PARALLEL_LEVEL") or str(self.parallel or os.cpu_count() or 1)
        subprocess.run(["cmake", "--build", str(build), "--target", ext.target, "-j", jobs],
                       check=True)
        package = build / "python" / "chaindyn"
        built = package / destination.name
        if not built.is_file():
            found = sorted(p.name for p in package.glob("_chaindyn*"))
            sys.exit(f"setup.py: {built} does not exist (found: {found or 'nothing'}); the "
                     f"build tree {build} was configured for another Python than "
                     f"{sys.executable} (extension suffix {sysconfig.get_config_var('EXT_SUFFIX')})")
        destination.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(built, destination)
        for name in self.generated:
            if (package / name).is_file():
                (destination.parent / name).parent.mkdir(parents=True, exist_ok=True)
                shutil.copyfile(package / name, destination.parent / name)

    def configure(self, build):
        args = [
            "cmake", "-S", str(ROOT), "-B", str(build),
            "-DCMAKE_BUILD_TYPE=Release",
            f"-DPython_EXECUTABLE={sys.executable}",
            "-DCHAINDYN_PYTHON=ON",
            "-DCHAINDYN_BUILD_TESTS=OFF", "-DCHAINDYN_BUILD_EXAMPLES=OFF",
            "-DCHAINDYN_BUILD_BENCHMARKS=OFF", "-DCHAINDYN_BUILD_TOOLS=OFF",
            "-DCHAINDYN_INSTALL=OFF",
        ]
        if shutil.which("ninja") and "CMAKE_GENERATOR" not in os.environ:
            args.append("-GNinja")
        try:  # pybind11 from PyPI (an isolated build); Debian's pybind11-dev is found by CMake
            import pybind11
            args.append(f"-Dpybind11_DIR={pybind11.get_cmake_dir()}")
        except ImportError:
            pass
        subprocess.run(args, check=True)


setup(
    version=project_version(),
    ext_modules=[CMakeExtension("chaindyn._chaindyn", target="chaindyn_python")],
    cmdclass={"build_ext": CMakeBuild},
)
