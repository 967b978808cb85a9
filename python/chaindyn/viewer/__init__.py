"""chaindyn.view: a robot and its motion in the browser, offline.

view(robot, run) writes one static HTML page that shows the robot (from its URDF, with the
meshes the file names when they are found, simple shapes otherwise) and plays the motion: a
`simulate` run, a trajectory, samples of q; a batch of rollouts (MPPI) as ghosts. Overlays: the
link frames, each link's centre of mass and its equivalent inertia box (the box of uniform
density with the link's mass and rotational inertia; red when no such box exists), external
wrenches, the end-effector path. The page carries everything it needs (three.js and urdf-loader,
bundled at build time; the URDF; the meshes): it opens from disk with no network and no server.

Shell: `chaindyn-view robot.urdf [--motion run.csv] [--out page.html]` (or `chaindyn view`).
"""
import argparse
import base64
import csv
import json
import math
import os
import re
import sys
import webbrowser
from pathlib import Path
from typing import Any, Optional, Sequence, Union
from xml.etree import ElementTree

import numpy as np

import chaindyn

_HERE = Path(__file__).resolve().parent
SCRIPT = _HERE / "chaindyn_viewer.js"
TEMPLATE = _HERE / "template.html"


class ViewerError(RuntimeError):
    """The page cannot be written (no bundled viewer script, an unreadable motion)."""


# --- the robot as URDF ------------------------------------------------------------------------

def _rpy(R):
    """URDF roll-pitch-yaw of a rotation matrix (R = Rz(yaw) Ry(pitch) Rx(roll))."""
    pitch = math.atan2(-R[2, 0], math.hypot(R[0, 0], R[1, 0]))
    if math.hypot(R[0, 0], R[1, 0]) < 1e-12:  # pitch = +-90 degrees: put the whole turn in roll
        return math.atan2(-R[1, 2], R[1, 1]), pitch, 0.0
    return math.atan2(R[2, 1], R[2, 2]), pitch, math.atan2(R[1, 0], R[0, 0])


def _numbers(values):
    return " ".join(repr(float(v)) for v in values)


def link_names(robot):
    """The names the page gives chaindyn's links: Link.name where the names are unique and
    non-empty, link1..linkN otherwise."""
    names = [link.name for link in robot.links]
    if len(set(names)) != len(names) or not all(names) or "base" in names:
        names = [f"link{i + 1}" for i in range(robot.nq)]
    return names


def to_urdf(robot, name="chaindyn"):
    """A URDF of a chaindyn.Robot: a chain of `base` and one link per joint, each joint at its
    placement with its axis, each link with its inertial; no visuals (the page draws simple
    shapes). Revolute joints are written `continuous` (no limits to clamp a motion)."""
    names = link_names(robot)
    lines = [f'<robot name="{name}">', '  <link name="base"/>']
    for i, (link, kind) in enumerate(zip(robot.links, robot.joint_kinds)):
        X = np.asarray(link.placement, dtype=float)
        parent = "base" if i == 0 else names[i - 1]
        jtype = "prismatic" if kind.startswith("prismatic") else "continuous"
        axis = np.asarray(link.axis, dtype=float) if link.axis is not None else np.array([0, 0, 1.0])
        lines += [f'  <joint name="joint{i + 1}" type="{jtype}">',
                  f'    <parent link="{parent}"/>', f'    <child link="{names[i]}"/>',
                  f'    <origin xyz="{_numbers(X[:3, 3])}" rpy="{_numbers(_rpy(X[:3, :3]))}"/>',
                  f'    <axis xyz="{_numbers(axis)}"/>']
        if jtype == "prismatic":
            lines.append('    <limit lower="-1e9" upper="1e9" effort="0" velocity="0"/>')
        lines.append("  </joint>")
        I = np.asarray(link.inertia, dtype=float)
        lines += [f'  <link name="{names[i]}">', "    <inertial>",
                  f'      <origin xyz="{_numbers(link.com)}"/>',
                  f'      <mass value="{float(link.mass)!r}"/>',
                  f'      <inertia ixx="{I[0, 0]!r}" ixy="{I[0, 1]!r}" ixz="{I[0, 2]!r}" '
                  f'iyy="{I[1, 1]!r}" iyz="{I[1, 2]!r}" izz="{I[2, 2]!r}"/>',
                  "    </inertial>", "  </link>"]
    lines.append("</robot>")
    return "\n".join(lines) + "\n"


def inertia_box(mass, com, inertia):
    """The box of uniform density with this mass and rotational inertia about the centre of
    mass: its edge lengths along the principal axes (a^2 = 6 (I2 + I3 - I1) / m, ...), the axes
    (columns), and whether the box exists (the principal moments satisfy the triangle
    inequality; edges of a box that does not are clamped to 0)."""
    I = np.asarray(inertia, dtype=float)
    moments, axes = np.linalg.eigh(0.5 * (I + I.T))
    if np.linalg.det(axes) < 0:
        axes[:, 2] = -axes[:, 2]
    squares = [6.0 / mass * (moments[(k + 1) % 3] + moments[(k + 2) % 3] - moments[k])
               if mass > 0 else 0.0 for k in range(3)]
    tolerance = 1e-9 * max(1e-12, float(np.max(np.abs(moments))))
    ok = mass > 0 and min(moments) >= -tolerance and all(s * mass / 6 >= -tolerance for s in squares)
    return {"mass": float(mass), "com": [float(c) for c in com],
            "size": [math.sqrt(max(s, 0.0)) for s in squares],
            "rotation": [float(v) for v in axes.reshape(-1)], "ok": bool(ok)}


# --- meshes a URDF names ----------------------------------------------------------------------

def _package_roots(urdf_path, mesh_dirs):
    roots = [Path(d) for d in mesh_dirs or []]
    roots += [Path(p) for p in os.environ.get("ROS_PACKAGE_PATH", "").split(os.pathsep) if p]
    if urdf_path is not None:
        roots += list(Path(urdf_path).resolve().parents)[:4]
    return roots


def _find_mesh(filename, urdf_path, mesh_dirs):
    """The file a URDF's mesh filename names, or None: package://pkg/rel under a directory `pkg`
    of mesh_dirs, ROS_PACKAGE_PATH or the URDF's parent directories (or rel directly under them);
    file:// and relative names against the URDF's directory."""
    if filename.startswith("package://"):
        pkg, _, rel = filename[len("package://"):].partition("/")
        for root in _package_roots(urdf_path, mesh_dirs):
            for candidate in (root / pkg / rel, root / rel):
                if candidate.is_file():
                    return candidate
        return None
    if filename.startswith("file://"):
        filename = filename[len("file://"):]
    path = Path(filename)
    if not path.is_absolute() and urdf_path is not None:
        path = Path(urdf_path).resolve().parent / path
    return path if path.is_file() else None


def embedded_meshes(urdf_text, urdf_path=None, mesh_dirs=None):
    """{filename as written in the URDF: base64 of the file} for each visual mesh found."""
    meshes = {}
    for mesh in ElementTree.fromstring(urdf_text).iter("mesh"):
        filename = mesh.get("filename", "")
        if filename and filename not in meshes:
            found = _find_mesh(filename, urdf_path, mesh_dirs)
            if found is not None:
                meshes[filename] = base64.b64encode(found.read_bytes()).decode("ascii")
    return meshes


# --- motions ----------------------------------------------------------------------------------

def motion_of(run, nq, rate=60.0):
    """(t, q) of a motion: a simulate() result (dict with t and q), a trajectory (sampled at
    `rate` Hz over its duration), a (t, q) pair, or q alone (frames x nq, 1/rate s apart)."""
    if run is None:
        return np.zeros(1), np.zeros((1, nq))
    if isinstance(run, dict):
        t, q = run["t"], run["q"]
    elif hasattr(run, "sample") and hasattr(run, "duration"):
        t = np.linspace(0.0, run.duration, max(2, int(round(run.duration * rate)) + 1))
        q = run.sample(t)[0]
    elif isinstance(run, tuple) and len(run) == 2:
        t, q = run
    else:
        q = np.asarray(run, dtype=float)
        t = np.arange(len(q)) / rate
    t, q = np.asarray(t, dtype=float).reshape(-1), np.asarray(q, dtype=float)
    if q.ndim == 1 and nq == 1:
        q = q.reshape(-1, 1)
    if q.ndim != 2 or q.shape[1] != nq or q.shape[0] != t.shape[0]:
        raise ViewerError(f"a motion of {t.shape[0]} times needs q of shape ({t.shape[0]}, {nq}); "
                          f"got {q.shape}")
    if not (np.all(np.isfinite(t)) and np.all(np.isfinite(q))):
        raise ViewerError("the motion has non-finite values")
    return t, q


def read_motion_csv(path, nq):
    """(t, q) from a CSV file with a header: the time is the first column (t, t_s, time...),
    the joints the columns q1..qN (a unit suffix allowed: q1_rad), or else the N columns after
    the time."""
    with open(path, newline="") as f:
        rows = [r for r in csv.reader(f) if r and not r[0].lstrip().startswith("#")]
    if len(rows) < 2:
        raise ViewerError(f"{path}: a header and at least one row are needed")
    header = [h.strip() for h in rows[0]]
    values = np.array([[float(x) for x in r] for r in rows[1:]])
    columns = {}
    for c, h in enumerate(header):
        m = re.fullmatch(r"q_?(\d+)(_[a-z]+)?", h)
        if m and m.group(2) in (None, "_rad", "_m"):
            columns.setdefault(int(m.group(1)), c)
    first = min(columns) if columns else 1
    if all(first + j in columns for j in range(nq)):
        q = values[:, [columns[first + j] for j in range(nq)]]
    elif values.shape[1] >= nq + 1:
        q = values[:, 1:nq + 1]
    else:
        raise ViewerError(f"{path}: {values.shape[1]} columns, the robot has {nq} joints")
    return values[:, 0], q


# --- the page ---------------------------------------------------------------------------------

def page(robot, run=None, *, urdf=None, ghosts=None, wrenches=None, mesh_dirs=None,
         title=None, tip=None):
    """The HTML text of the viewer page (see view)."""
    if not SCRIPT.is_file():
        raise ViewerError(
            f"the viewer's script {SCRIPT} is missing: it is bundled from npm (three, "
            "urdf-loader) when chaindyn is built; build again where npm reaches its registry "
            "(Debian: apt install npm)")
    urdf_path = None
    if urdf is not None and not str(urdf).lstrip().startswith("<"):
        urdf_path = Path(urdf)
        urdf = urdf_path.read_text()
    if urdf is None:
        urdf, names = to_urdf(robot), link_names(robot)
    else:
        names = [link.name for link in robot.links]
    nq = robot.nq
    t, q = motion_of(run, nq)
    data = {
        "title": title or "chaindyn",
        "up": _up(robot),
        "urdf": urdf,
        "meshes": embedded_meshes(urdf, urdf_path, mesh_dirs),
        "links": names,
        "path_link": nq - 1 if tip is None else int(tip),
        "inertia": [inertia_box(l.mass, l.com, l.inertia) for l in robot.links],
        "motion": {"t": t.tolist(), "q": q.tolist()},
        "ghosts": [],
        "wrenches": None,
    }
    if ghosts is not None:
        if isinstance(ghosts, np.ndarray) and ghosts.ndim == 3:  # (rollouts, frames, nq)
            ghosts = [(t[:ghosts.shape[1]] if ghosts.shape[1] <= len(t) else
                       np.arange(ghosts.shape[1]) / 60.0, g) for g in ghosts]
        for g in ghosts:
            gt, gq = motion_of(g, nq)
            data["ghosts"].append({"t": gt.tolist(), "q": gq.tolist()})
    if wrenches is not None:
        w = np.asarray(wrenches, dtype=float)
        if w.shape != (len(t), nq, 6):
            raise ViewerError(f"wrenches: shape (frames, nq, 6) = ({len(t)}, {nq}, 6) needed, "
                              f"got {w.shape}")
        data["wrenches"] = w.tolist()
    script = SCRIPT.read_text().replace("</script", "<\\/script")
    parts = TEMPLATE.read_text().split("@@")
    fill = {"TITLE": _html(data["title"]), "DATA": json.dumps(data).replace("</", "<\\/"),
            "SCRIPT": script}
    return "".join(fill.get(p, p) for p in parts)


def _up(robot):
    """The direction the page shows upwards: against the robot's gravity (base coordinates)."""
    g = np.asarray(robot.gravity, dtype=float)
    n = float(np.linalg.norm(g))
    return [0.0, 0.0, 1.0] if n == 0 or not np.isfinite(n) else (-g / n).tolist()


def _html(text):
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def _can_open_browser():
    if os.environ.get("CI"):
        return False
    return sys.platform in ("darwin", "win32") or bool(
        os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))


def view(robot: Union["chaindyn.Robot", str, "os.PathLike[str]"], run: Any = None, *,
         out: Union[str, "os.PathLike[str]"] = "chaindyn_view.html",
         urdf: Optional[Union[str, "os.PathLike[str]"]] = None, ghosts: Any = None,
         wrenches: Any = None, mesh_dirs: Optional[Sequence[str]] = None,
         title: Optional[str] = None, tip: Optional[int] = None,
         open_browser: Optional[bool] = None) -> str:
    """Writes a page that shows `robot` and plays `run`, prints its path and returns it.

    robot: a chaindyn.Robot, or the path of a URDF file (loaded with inertia="accept", so that
        a bad inertia is drawn rather than refused).
    run: a simulate() result, a trajectory (QuinticTrajectory...), a (t, q) pair, or q alone
        (frames x nq, 60 per second); None: the robot at q = 0.
    urdf: the URDF (path or text) the robot came from, for its meshes and names; without it a
        Robot is drawn from its links with simple shapes.
    ghosts: more motions drawn translucent (MPPI rollouts): a list of runs, or an array
        (rollouts, frames, nq) on the times of `run`.
    wrenches: external wrenches per frame and link, (frames, nq, 6), [torque; force] in the
        link frame at the link origin (chaindyn's convention): drawn as arrows.
    mesh_dirs: directories where package://pkg/... meshes are looked for (besides
        ROS_PACKAGE_PATH and the URDF's parent directories).
    tip: the link whose path is drawn (default: the last).
    open_browser: True opens the page in the default browser; None does so where a display is
        available (not under CI).
    """
    if isinstance(robot, (str, os.PathLike)):
        urdf = urdf if urdf is not None else robot
        robot = chaindyn.load_urdf(str(robot), inertia="accept")
    text = page(robot, run, urdf=urdf, ghosts=ghosts, wrenches=wrenches, mesh_dirs=mesh_dirs,
                title=title, tip=tip)
    path = Path(out).resolve()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    print(f"chaindyn view: {path}")
    if open_browser or (open_browser is None and _can_open_browser()):
        webbrowser.open(path.as_uri())
    return str(path)


def main(argv=None):
    """chaindyn-view robot.urdf [--motion run.csv] [--out page.html] [--tip LINK] [--no-open]"""
    parser = argparse.ArgumentParser(
        prog="chaindyn-view",
        description="Write a browser page that shows a robot (URDF) and plays a motion (CSV: "
                    "a time column, then q1..qN).")
    parser.add_argument("urdf")
    parser.add_argument("--motion", help="CSV file: t, q1..qN (header row; q1_rad... allowed)")
    parser.add_argument("--out", default=None, help="the page (default: <urdf name>.html here)")
    parser.add_argument("--tip", default="", help="the chain's last link (default: the only leaf)")
    parser.add_argument("--mesh-dir", action="append", default=[],
                        help="where package:// meshes are (repeatable)")
    parser.add_argument("--no-open", action="store_true", help="do not open a browser")
    args = parser.parse_args(argv)
    try:
        robot = chaindyn.load_urdf(args.urdf, args.tip, inertia="accept")
        run = read_motion_csv(args.motion, robot.nq) if args.motion else None
        out = args.out or Path(args.urdf).with_suffix(".html").name
        view(robot, run, out=out, urdf=args.urdf, mesh_dirs=args.mesh_dir,
             title=Path(args.urdf).name, open_browser=False if args.no_open else None)
    except (ViewerError, chaindyn.ModelError, OSError, ValueError) as e:
        print(f"chaindyn-view: {e}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
