"""chaindyn.view: the URDF it writes for a Robot (read back by chaindyn's own parser), the inertia
boxes, motion files; then each page in a real browser (headless Chromium, network blocked): the
link poses the page computed with urdf-loader and three.js at several frames against frame_pose
(to 1e-9), and the rendered picture, which must show the robot. Pages and screenshots are kept in
CHAINDYN_VIEWER_OUT when it is set (ctest sets it), else in pytest's temporary directory."""
import base64
import importlib.util
import io
import json
import os
import re
import shutil
import subprocess
from pathlib import Path

import numpy as np
import pytest

import chaindyn as cd
from chaindyn import viewer

DATA = os.environ.get("CHAINDYN_DATA", "")
CHROMIUM = next((shutil.which(n) for n in ("chromium", "chromium-browser", "google-chrome")
                 if shutil.which(n)), None)
URDF_PARSER = hasattr(cd, "parse_urdf")


def random_q(robot, n, seed=0):
    return np.random.default_rng(seed).uniform(-2.5, 2.5, (n, robot.nq))


@pytest.mark.skipif(not URDF_PARSER, reason="built without the URDF parser")
@pytest.mark.parametrize("make", [cd.robots.kuka_iiwa, cd.robots.ur5, cd.robots.puma560,
                                  lambda: cd.closed_form.TwoLinkArm.uniform_rods(3, 1, 2, 1).to_robot()])
def test_the_urdf_of_a_robot_reads_back_as_the_same_robot(make):
    robot = make()
    back = cd.parse_urdf(viewer.to_urdf(robot), inertia="accept")
    assert back.nq == robot.nq and back.joint_kinds == robot.joint_kinds
    for q in random_q(robot, 5):
        for i in range(robot.nq):
            assert np.max(np.abs(cd.frame_pose(back, q, i) - cd.frame_pose(robot, q, i))) < 1e-12
    for a, b in zip(back.links, robot.links):
        assert a.mass == pytest.approx(b.mass, rel=1e-14)
        assert np.allclose(a.inertia, b.inertia, rtol=1e-12, atol=1e-15)


def test_the_inertia_box_has_the_links_mass_and_inertia():
    m, (a, b, c) = 2.0, (0.3, 0.2, 0.1)
    R = cd.frame_pose(cd.robots.kuka_iiwa(), np.full(7, 0.4), 6)[:3, :3]
    I_box = m / 12 * np.diag([b * b + c * c, a * a + c * c, a * a + b * b])
    box = viewer.inertia_box(m, [0.1, 0, 0], R @ I_box @ R.T)
    assert box["ok"]
    axes = np.array(box["rotation"]).reshape(3, 3)
    size = np.array(box["size"])
    I_back = axes @ (m / 12 * np.diag([size[1] ** 2 + size[2] ** 2, size[0] ** 2 + size[2] ** 2,
                                       size[0] ** 2 + size[1] ** 2])) @ axes.T
    assert np.allclose(I_back, R @ I_box @ R.T, atol=1e-14)
    assert sorted(size) == pytest.approx([c, b, a], rel=1e-12)
    # a rod of 1 kg with the inertia of a much heavier body breaks the triangle inequality
    assert not viewer.inertia_box(1.0, [0, 0, 0], np.diag([0.01, 0.01, 0.5]))["ok"]


def test_motions_from_runs_trajectories_and_csv_files(tmp_path):
    robot = cd.robots.two_link_arm()
    traj = cd.QuinticTrajectory([0, 0], [1, -1], 2.0)
    t, q = viewer.motion_of(traj, 2)
    assert t[-1] == 2.0 and np.allclose(q[-1], [1, -1])
    run = cd.simulate(robot, [0, 0], [0, 0], None, 0.5, output_interval=0.1)
    assert viewer.motion_of(run, 2)[1].shape == run["q"].shape
    with pytest.raises(viewer.ViewerError, match="shape"):
        viewer.motion_of(np.zeros((5, 3)), 2)
    path = tmp_path / "mppi.csv"  # the C++ MPPI example's columns
    path.write_text("t_s,distance_rad,q1_rad,q1_goal_rad,q2_rad,q2_goal_rad\n"
                    "0.0,1.0,0.1,9,0.2,9\n0.5,0.5,0.3,9,0.4,9\n")
    t, q = viewer.read_motion_csv(path, 2)
    assert t.tolist() == [0.0, 0.5] and q.tolist() == [[0.1, 0.2], [0.3, 0.4]]


def test_a_cpp_run_written_by_write_motion_csv_plays_in_the_viewer(tmp_path):
    """C++ simulate + write_motion_csv (the compile-time chain, chaindyn_python_reference) read
    by the viewer's CSV reader equals the Python module's simulate of the same fall; the shell's
    chaindyn-view turns the file and a URDF into a page."""
    exe = os.environ.get("CHAINDYN_REFERENCE")
    if not exe:
        pytest.skip("CHAINDYN_REFERENCE is not set (run through ctest)")
    csv_path = tmp_path / "fall.csv"
    subprocess.run([exe, DATA, str(csv_path)], check=True, capture_output=True)
    assert csv_path.read_text().startswith("t_s,q1,q2\n")
    robot = cd.robots.two_link_arm()
    t, q = viewer.read_motion_csv(csv_path, robot.nq)
    run = cd.simulate(robot, [0.5, 0.0], [0.0, 0.0], None, 1.0, output_interval=0.05,
                      rtol=1e-10, atol=1e-12)
    assert np.array_equal(t, run["t"])
    assert np.max(np.abs(q - run["q"])) < 1e-9
    if URDF_PARSER and viewer.SCRIPT.is_file():
        urdf = tmp_path / "two_link_arm.urdf"
        urdf.write_text(viewer.to_urdf(robot))
        page = tmp_path / "fall.html"
        assert viewer.main([str(urdf), "--motion", str(csv_path), "--out", str(page), "--no-open"]) == 0
        data = re.search(r'<script type="application/json" id="chaindyn-data">(.*?)</script>',
                         page.read_text(), re.S).group(1)
        assert json.loads(data)["motion"]["q"] == q.tolist()


def test_a_page_without_the_bundled_script_says_how_to_get_it(monkeypatch, tmp_path):
    monkeypatch.setattr(viewer, "SCRIPT", tmp_path / "missing.js")
    with pytest.raises(viewer.ViewerError, match="npm"):
        viewer.page(cd.robots.two_link_arm())


# --- in the browser ---------------------------------------------------------------------------

def read_png(data):
    """(height, width, channels) uint8 array of a PNG (Pillow: Debian python3-pil)."""
    from PIL import Image
    return np.asarray(Image.open(io.BytesIO(data)).convert("RGB"))


def shows_robot(image):
    """Whether a picture shows the robot: pixels in its colours (saturated: the orange links,
    the URDF's colours, the blue ghosts; the background and the grid are grey, a blank canvas
    has none), at least 0.1 % of the picture, spread over a tenth of its width or height (not
    a speck)."""
    rgb = image[:, :, :3].astype(int)
    mask = rgb.max(axis=2) - rgb.min(axis=2) > 60
    if mask.mean() < 1e-3:
        return False
    rows, cols = np.nonzero(mask)
    return (rows.max() - rows.min()) > 0.1 * mask.shape[0] or (cols.max() - cols.min()) > 0.1 * mask.shape[1]


def chromium(*args, out):
    return [CHROMIUM, "--headless", "--no-sandbox", "--enable-unsafe-swiftshader",
            "--no-first-run", "--disable-extensions", "--disable-background-networking",
            # no network: any request the page made would fail, and the robot would be missing
            "--host-resolver-rules=MAP * ~NOTFOUND", "--proxy-server=127.0.0.1:9",
            f"--user-data-dir={out / 'chromium-profile'}", "--hide-scrollbars",
            "--window-size=960,720", *args]


@pytest.fixture(scope="module")
def out_dir(tmp_path_factory):
    if os.environ.get("CHAINDYN_VIEWER_OUT"):
        path = Path(os.environ["CHAINDYN_VIEWER_OUT"])
        path.mkdir(parents=True, exist_ok=True)
        return path
    return tmp_path_factory.mktemp("viewer")


def mesh_robot(tmp_path):
    """A two-joint URDF whose links are STL meshes (boxes), with the meshes beside it."""
    facets = []
    for axis in range(3):
        for sign in (-1, 1):
            n = np.zeros(3); n[axis] = sign
            u, v = np.roll(n, 1) * sign, np.roll(n, 2)
            c = 0.5 * n
            quad = [c - u / 2 - v / 2, c + u / 2 - v / 2, c + u / 2 + v / 2, c - u / 2 + v / 2]
            for tri in ((0, 1, 2), (0, 2, 3)):
                verts = "".join("vertex %g %g %g\n" % tuple(quad[k]) for k in tri)
                facets.append(f"facet normal {n[0]:g} {n[1]:g} {n[2]:g}\nouter loop\n{verts}endloop\nendfacet\n")
    link = ('<link name="{0}"><visual><origin xyz="0.2 0 0"/><geometry><mesh filename="{1}" '
            'scale="0.4 0.08 0.08"/></geometry><material name="m"><color rgba="0.1 0.5 0.9 1"/>'
            '</material></visual><inertial><origin xyz="0.2 0 0"/><mass value="1"/>'
            '<inertia ixx="0.001" ixy="0" ixz="0" iyy="0.01" iyz="0" izz="0.01"/></inertial></link>')
    urdf = ('<robot name="meshy"><link name="base"/>'
            '<joint name="a" type="revolute"><parent link="base"/><child link="upper"/>'
            '<origin xyz="0 0 0.5" rpy="0.3 0 0"/><axis xyz="0 1 0"/>'
            '<limit lower="-1" upper="1" effort="1" velocity="1"/></joint>'
            + link.format("upper", "package://meshy/meshes/cube.stl") +
            '<joint name="b" type="revolute"><parent link="upper"/><child link="lower"/>'
            '<origin xyz="0.4 0 0" rpy="0 0 0.2"/><axis xyz="0 0.6 0.8"/>'
            '<limit lower="-1" upper="1" effort="1" velocity="1"/></joint>'
            + link.format("lower", "meshes/cube.stl") + "</robot>")
    path = tmp_path / "meshy" / "meshy.urdf"
    (path.parent / "meshes").mkdir(parents=True, exist_ok=True)
    (path.parent / "meshes" / "cube.stl").write_text(
        "solid cube\n" + "".join(facets) + "endsolid cube\n")
    path.write_text(urdf)
    return path


def pages(out_dir):
    """(name, robot, q per frame, page path): the demo's two pages, a URDF with meshes, the
    Panda's URDF (its meshes absent: simple shapes)."""
    made = []
    iiwa = cd.robots.kuka_iiwa()
    q0 = np.array([0.0, 0.5, 0.0, -1.2, 0.0, 0.8, 0.0])
    qf = np.array([1.2, 0.9, 0.3, -0.6, 0.4, 1.1, -0.5])
    traj = cd.QuinticTrajectory(q0, qf, 2.0)
    t, q = viewer.motion_of(traj, 7, rate=30)
    ghosts = [cd.QuinticTrajectory(q0, qf + d, 2.0) for d in (-0.3, 0.3)]
    weight = np.zeros((len(t), 7, 6))
    for k in range(len(t)):  # the 0.851 kg object's weight, link 7's frame
        weight[k, 6, 3:] = cd.frame_pose(iiwa, q[k], 6)[:3, :3].T @ [0, 0, -0.851 * 9.81]
    path = viewer.view(iiwa, (t, q), ghosts=ghosts, wrenches=weight, out=out_dir / "iiwa_pick_and_place.html",
                       title="iiwa pick and place", open_browser=False)
    made.append(("iiwa", iiwa, q, path))
    arm = cd.closed_form.TwoLinkArm.uniform_rods(3.0, 1.0, 2.0, 1.0)
    robot = arm.to_robot()
    run = cd.simulate(robot, [0.0, 0.0], [0.0, 0.0], None, 2.0, output_interval=0.05)
    path = viewer.view(robot, run, out=out_dir / "two_link_falling.html",
                       title="two-link arm falling", open_browser=False)
    made.append(("two_link", robot, run["q"], path))
    if URDF_PARSER:
        urdf = mesh_robot(out_dir)
        robot = cd.load_urdf(str(urdf))
        q = random_q(robot, 6, seed=3)
        path = viewer.view(urdf, (np.arange(6) * 0.1, q), out=out_dir / "meshy.html",
                           mesh_dirs=[out_dir], open_browser=False)
        made.append(("meshes", robot, q, path))
    if URDF_PARSER and DATA:
        urdf = os.path.join(DATA, "urdf", "panda.urdf")
        robot = cd.load_urdf(urdf, "panda_hand")
        q = random_q(robot, 6, seed=4)
        path = viewer.view(robot, (np.arange(6) * 0.1, q), urdf=urdf, out=out_dir / "panda.html",
                           open_browser=False)
        made.append(("panda", robot, q, path))
    return made


@pytest.mark.skipif(bool(os.environ.get("CHAINDYN_BROWSER_TEST")) and not os.environ.get("CHAINDYN_INSTALLED"),
                    reason="the browser test runs in " + os.environ.get("CHAINDYN_BROWSER_TEST", ""))
@pytest.mark.skipif(CHROMIUM is None, reason="no chromium (Debian: apt install chromium)")
@pytest.mark.skipif(importlib.util.find_spec("PIL") is None,
                    reason="no Pillow to read the screenshots (Debian: apt install python3-pil)")
@pytest.mark.skipif(not viewer.SCRIPT.is_file(), reason="the viewer's script was not bundled "
                    "(npm unreachable at build time)")
def test_pages_in_a_browser_pose_the_links_as_frame_pose_and_show_the_robot(out_dir):
    made = pages(out_dir)
    # One browser for every page: a harness page holds them in frames, each posts its result
    # (the poses, the rendered picture) to it, and it writes them out for --dump-dom.
    frames_of = {name: sorted({0, len(q) // 3, 2 * len(q) // 3, len(q) - 1})
                 for name, _, q, _ in made}
    iframes = "".join(
        f'<iframe width="480" height="360" src="{Path(path).as_uri()}#test='
        f'{",".join(map(str, frames_of[name]))}&frame={len(q) // 2}&page={name}"></iframe>'
        for name, _, q, path in made)
    harness = out_dir / "harness.html"
    # The listener comes before the frames, so that no page can post before it is there.
    harness.write_text(
        "<!DOCTYPE html><html><body><pre id=\"results\"></pre><script>"
        "const results = {}; window.addEventListener('message', (e) => {"
        " if (!e.data || !e.data.chaindynTest) return; results[e.data.page] = e.data.chaindynTest;"
        f" if (Object.keys(results).length === {len(made)})"
        " document.getElementById('results').textContent = JSON.stringify(results); });"
        "</script>" + iframes + "</body></html>")
    screenshot = out_dir / "iiwa_pick_and_place.png"
    screenshot.unlink(missing_ok=True)
    shot = subprocess.Popen(chromium(f"--screenshot={screenshot}",
                                     Path(made[0][3]).as_uri() + f"#frame={len(made[0][2]) // 2}",
                                     out=out_dir / "screenshot"),
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    # A headless browser on a loaded machine may miss its virtual-time budget: one more run
    # before the test fails (a page that cannot report fails both).
    for attempt in (1, 2):
        browser = subprocess.Popen(chromium("--virtual-time-budget=30000", "--dump-dom",
                                            harness.as_uri(), out=out_dir / f"harness{attempt}"),
                                   stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        dom = browser.communicate(timeout=180)[0]
        found = re.search(r'<pre id="results">(.*?)</pre>', dom, re.S)
        if found and found.group(1):
            break
        print(f"the harness's pages did not all report (run {attempt} of 2)")
    assert found and found.group(1), "the pages did not all report (no results in the harness)"
    results = json.loads(found.group(1).replace("&amp;", "&").replace("&lt;", "<").replace("&gt;", ">"))
    for name, robot, q, path in made:
        result = results[name]
        worst = 0.0
        for k in frames_of[name]:
            poses = np.array(result["frames"][str(k)])
            assert poses.shape == (robot.nq, 4, 4)
            for i in range(robot.nq):
                worst = max(worst, float(np.max(np.abs(poses[i] - cd.frame_pose(robot, q[k], i)))))
        assert worst < 1e-9, f"{name}: page pose vs frame_pose {worst:.2e}"
        if name == "meshes":
            assert result["meshErrors"] == []
        if name == "panda":
            assert result["meshErrors"], "the Panda's meshes are not in the test data"
        assert result["canvas"], f"{name}: no WebGL in the headless browser"
        image = read_png(base64.b64decode(result["canvas"].split(",", 1)[1]))
        assert shows_robot(image), f"{name}: the rendered picture does not show the robot"
    shot.wait(timeout=120)
    image = read_png(screenshot.read_bytes())
    assert image.shape[:2] == (720, 960)
    # the panel (HTML, its blue controls) is in the screenshot: the canvas below it
    assert shows_robot(image[80:]), f"{screenshot} does not show the robot"
