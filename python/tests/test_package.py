"""The package as users import and run it: the layout (chaindyn/__init__.py, the compiled module
inside, py.typed and the stub), the public names of the compiled module's types, the version from
the one source, the command line and the examples, from any directory. Under
python/tests/installed.py (ctest python:installed) CHAINDYN_INSTALLED names the virtual
environment the wheel was installed into, and the package must come from there."""
import os
import subprocess
import sys
from pathlib import Path

import pytest

import chaindyn as cd

PACKAGE = Path(cd.__file__).resolve().parent
INSTALLED = os.environ.get("CHAINDYN_INSTALLED")
DATA = os.environ.get("CHAINDYN_DATA", "")


def run(*args, cwd):
    return subprocess.run([sys.executable, *args], cwd=cwd, capture_output=True, text=True,
                          check=True).stdout


def test_the_package_holds_the_compiled_module_its_stub_and_py_typed():
    assert Path(cd.__file__).name == "__init__.py"
    assert Path(cd._chaindyn.__file__).resolve().parent == PACKAGE
    assert (PACKAGE / "py.typed").is_file()
    stub = (PACKAGE / "_chaindyn.pyi").read_text()
    for name in ("def rnea(", "class Robot:", "def simulate(", "class batch:"):
        assert name in stub
    if INSTALLED:
        assert str(PACKAGE).startswith(str(Path(INSTALLED).resolve())), PACKAGE
        assert not (Path.cwd() / "chaindyn").exists()


def test_the_api_keeps_its_names():
    assert cd.rnea is cd._chaindyn.rnea
    assert cd.Robot.__module__ == "chaindyn" and cd.ModelError.__module__ == "chaindyn"
    assert cd.closed_form.TwoLinkArm.__module__ == "chaindyn.closed_form"
    import chaindyn.batch
    assert chaindyn.batch is cd.batch and cd.batch.__name__ == "chaindyn.batch"
    with pytest.raises(cd.ModelError, match="at least one joint"):
        cd.Robot([], [])


def test_the_version_has_one_source():
    out = run("-m", "chaindyn", "--version", cwd=PACKAGE.parent)
    assert out.strip() == f"chaindyn {cd.__version__}"
    if INSTALLED:  # the wheel's metadata (setup.py reads CMakeLists.txt) = the module's (C++)
        from importlib.metadata import version
        assert version("chaindyn") == cd.__version__


def test_the_command_line_tells_a_urdf(tmp_path):
    if not DATA or not hasattr(cd, "load_urdf"):
        pytest.skip("CHAINDYN_DATA is not set (run through ctest) or no URDF parser")
    urdf = os.path.join(DATA, "urdf", "iiwa14_no_collision.urdf")
    out = run("-m", "chaindyn", "info", urdf, cwd=tmp_path)
    robot = cd.load_urdf(urdf)
    assert f"{robot.nq} joints" in out
    for link in robot.links:
        assert link.name in out
    bad = subprocess.run([sys.executable, "-m", "chaindyn", "info", str(tmp_path / "none.urdf")],
                         cwd=tmp_path, capture_output=True, text=True)
    assert bad.returncode == 1 and "cannot open" in bad.stderr


@pytest.mark.skipif(not INSTALLED, reason="the console scripts exist where pip installed them")
def test_the_console_scripts_are_installed(tmp_path):
    bin_dir = Path(INSTALLED) / "bin"
    out = subprocess.run([str(bin_dir / "chaindyn"), "--version"], cwd=tmp_path,
                         capture_output=True, text=True, check=True).stdout
    assert out.strip() == f"chaindyn {cd.__version__}"
    assert (bin_dir / "chaindyn-view").is_file()


def test_an_example_runs_from_any_directory(tmp_path):
    env = {**os.environ, "MPLBACKEND": "Agg"}
    out = subprocess.run([sys.executable, "-m", "chaindyn.examples.two_link_falling",
                          "--out", str(tmp_path)], cwd=tmp_path, env=env, capture_output=True,
                         text=True, check=True).stdout
    assert "falling two-link arm" in out
