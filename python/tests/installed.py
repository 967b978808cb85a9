#!/usr/bin/env python3
"""The package as a user installs it: builds the wheel with pip from the source tree (reusing the
CMake build tree's module: CHAINDYN_CMAKE_BUILD_DIR, no second compile), installs it into a
fresh virtual environment (--system-site-packages: numpy and pytest from the system), and runs
the pytest suite against the installed package from a directory outside the source tree, with no
PYTHONPATH. Run by ctest as python:installed; exits 77 (skipped) when pip or venv is missing.

    installed.py --source ROOT --build BUILD_DIR --work DIR [pytest arguments...]
"""
import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

SKIP = 77


def run(cmd, **kwargs):
    print("+", " ".join(str(c) for c in cmd), flush=True)
    return subprocess.run([str(c) for c in cmd], check=True, **kwargs)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--source", required=True, type=Path)
    parser.add_argument("--build", required=True, type=Path)
    parser.add_argument("--work", required=True, type=Path)
    args, pytest_args = parser.parse_known_args()
    source, build, work = args.source.resolve(), args.build.resolve(), args.work.resolve()

    for module in ("pip", "venv", "setuptools", "wheel"):
        probe = subprocess.run([sys.executable, "-c", f"import {module}"], capture_output=True)
        if probe.returncode != 0:
            print(f"installed.py: skipped: {sys.executable} cannot import {module} "
                  "(Debian: apt install python3-pip python3-venv python3-setuptools python3-wheel)")
            return SKIP

    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME")}
    env["PIP_DISABLE_PIP_VERSION_CHECK"] = "1"
    env["PIP_NO_INPUT"] = "1"
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir(parents=True)
    venv, dist = work / "venv", work / "dist"
    start = time.monotonic()
    # --without-pip: the system's pip (visible through --system-site-packages) installs into the
    # environment it runs in; ensurepip would only copy another pip in.
    run([sys.executable, "-m", "venv", "--system-site-packages", "--without-pip", venv], env=env)
    python = venv / "bin" / "python"
    # pip builds in the directory it is given, where setuptools leaves build/ and an egg-info:
    # the wheel is built from a copy of the files setup.py reads (the module comes from BUILD).
    tree = work / "src"
    for name in ("pyproject.toml", "setup.py", "CMakeLists.txt", "README.md", "LICENSE"):
        tree.mkdir(exist_ok=True)
        shutil.copy2(source / name, tree / name)
    for name in ("python/chaindyn", "python/examples"):
        shutil.copytree(source / name, tree / name,
                        ignore=shutil.ignore_patterns("__pycache__", "*.so", "chaindyn_viewer.js*"))
    run([python, "-m", "pip", "wheel", "--no-build-isolation", "--no-deps", "--no-index",
         "--wheel-dir", dist, tree],
        env={**env, "CHAINDYN_CMAKE_BUILD_DIR": str(build)}, cwd=work)
    wheels = sorted(dist.glob("chaindyn-*.whl"))
    if len(wheels) != 1:
        print(f"installed.py: expected one wheel in {dist}, found {wheels}", file=sys.stderr)
        return 1
    print(f"installed.py: {wheels[0].name}, {wheels[0].stat().st_size / 1e6:.1f} MB, "
          f"{time.monotonic() - start:.1f} s")
    run([python, "-m", "pip", "install", "--no-deps", "--no-index", wheels[0]], env=env, cwd=work)
    # From an empty directory outside the source tree: only the installed package is importable.
    outside = Path(tempfile.mkdtemp(prefix="chaindyn-installed-"))
    try:
        env_test = {**env, "CHAINDYN_INSTALLED": str(venv),
                    "PATH": f"{venv / 'bin'}{os.pathsep}{env.get('PATH', '')}"}
        result = subprocess.run([str(python), "-m", "pytest", "-q", "-p", "no:cacheprovider",
                                 str(source / "python" / "tests"), *pytest_args],
                                env=env_test, cwd=outside)
    finally:
        shutil.rmtree(outside, ignore_errors=True)
    print(f"installed.py: wheel, install and tests: {time.monotonic() - start:.1f} s")
    return result.returncode


if __name__ == "__main__":
    sys.exit(main())
