"""The module's boundary: what it refuses (named errors, never NaN or a crash) and what it
loads (kinematics-only files, the inertia policy). Run by ctest (python:pytest,
python:installed)."""
import math
import os

import numpy as np
import pytest

import chaindyn as cd

DATA = os.environ.get("CHAINDYN_DATA", "")
URDF = os.path.join(DATA, "urdf")

ONE_LINK = """<robot name="r">
  <link name="base"/>
  <link name="arm"><inertial><mass value="0.5"/><origin xyz="0.1 0 0"/>
    <inertia ixx="{ixx}" ixy="0" ixz="{ixz}" iyy="0" iyz="0" izz="0"/></inertial></link>
  <joint name="j1" type="revolute"><parent link="base"/><child link="arm"/>
    <axis xyz="0 0 1"/><limit lower="-1" upper="1" effort="1" velocity="1"/></joint>
</robot>"""


def test_kinematics_only_robot_has_no_dynamics_and_its_dynamics_raise():
    r = cd.load_urdf(os.path.join(URDF, "fixtures", "ur5_no_inertials.urdf"))
    assert not r.has_dynamics and cd.robots.ur5().has_dynamics
    q = np.zeros(r.nq)
    assert cd.frame_pose(r, q, r.nq - 1).shape == (4, 4)  # kinematics work
    assert cd.jacobian(r, q, r.nq - 1).shape == (6, r.nq)
    for call in (lambda: cd.aba(r, q, q, q), lambda: cd.rnea(r, q, q, q),
                 lambda: cd.crba(r, q), lambda: cd.gravity_torques(r, q),
                 lambda: cd.simulate(r, q, q, None, 0.01),
                 lambda: cd.batch.aba(r, np.zeros((r.nq, 3)), np.zeros((r.nq, 3)),
                                      np.zeros((r.nq, 3))),
                 lambda: cd.batch.rnea(r, np.zeros((r.nq, 3)), np.zeros((r.nq, 3)),
                                       np.zeros((r.nq, 3))),
                 lambda: cd.OnlinePayloadEstimator(r)):
        with pytest.raises(ValueError, match="has no dynamics"):
            call()
    _, report = cd.load_urdf_report(os.path.join(URDF, "fixtures", "ur5_no_inertials.urdf"))
    assert any(d["kind"] == "kinematics_only" for d in report)


def test_the_inertia_policy_and_the_report_from_python():
    path = os.path.join(URDF, "fixtures", "iiwa_chain_placeholder.urdf")
    with pytest.raises(cd.ModelError):
        cd.load_urdf(path)  # strict
    accepted, report = cd.load_urdf_report(path, inertia="accept")
    assert accepted.nq == 7 and any(d["kind"] == "inertia_accepted" for d in report)
    assert all({"severity", "kind", "line", "element", "message", "text"} <= d.keys()
               for d in report)
    repaired, report = cd.load_urdf_report(path, "iiwa_link_ee", inertia="repair")
    assert repaired.has_dynamics and any(d["kind"] == "inertia_repaired" for d in report)
    assert cd.load_urdf(path, inertia="repair").nq == 7
    with pytest.raises(ValueError, match="'strict', 'repair' or 'accept'"):
        cd.load_urdf(path, inertia="lenient")


def test_inertia_rounding_noise_loads():
    for ixx, ixz in ((-5.4e-20, 0.0), (0.0, 2.4e-35)):
        r = cd.parse_urdf(ONE_LINK.format(ixx=ixx, ixz=ixz))
        assert r.nq == 1
    with pytest.raises(cd.ModelError, match="not positive semi-definite"):
        cd.parse_urdf(ONE_LINK.format(ixx=-1e-3, ixz=0.0))


def test_a_wrong_tip_names_the_closest_links_or_the_joint():
    xml = ONE_LINK.format(ixx=0.0, ixz=0.0).replace('izz="0"', 'izz="1e-3"')
    with pytest.raises(cd.ModelError, match=r"tip link 'Arm0' is not defined; the closest link "
                                            r"names: 'arm', 'base'"):
        cd.parse_urdf(xml, "Arm0")
    with pytest.raises(cd.ModelError, match=r"'j1' is not defined: it is the name of a joint "
                                            r"\(line \d+\); a tip is a link, e.g. that joint's "
                                            r"child link 'arm'"):
        cd.parse_urdf(xml, "j1")


def test_a_frame_offset_must_be_a_rigid_transform():
    r = cd.robots.kuka_iiwa()
    q = np.zeros(7)
    ones = np.ones((4, 4))
    for call in (lambda: cd.frame_pose(r, q, 6, ones), lambda: cd.jacobian(r, q, 6, "world", ones),
                 lambda: cd.jdot_qd(r, q, q, 6, "world", ones),
                 lambda: cd.batch.frame_pose(r, np.zeros((7, 2)), 6, ones),
                 lambda: r.add_frame("tcp", 6, ones)):
        with pytest.raises(ValueError, match="offset's upper-left 3x3 block is not a rotation"):
            call()
    shear = np.eye(4)
    shear[3, 0] = 1.0
    with pytest.raises(ValueError, match=r"last row must be \[0, 0, 0, 1\]"):
        cd.frame_pose(r, q, 6, shear)
    tcp = np.eye(4)
    tcp[:3, :3] = [[0, -1, 0], [1, 0, 0], [0, 0, 1]]
    tcp[2, 3] = 0.1
    assert cd.frame_pose(r, q, 6, tcp).shape == (4, 4)


def test_arguments_that_are_not_real_numbers_are_refused_by_name():
    r = cd.robots.kuka_iiwa()
    q = np.zeros(7)
    with pytest.raises(TypeError, match=r"rnea: q must be an array of real numbers .* not list "
                                        r"of str"):
        cd.rnea(r, ["0.1"] * 7, q, q)
    with pytest.raises(TypeError, match="complex"):
        cd.rnea(r, q + 0.5j, q, q)
    with pytest.raises(TypeError, match="complex"):
        cd.aba(r, q, q, np.zeros(7, dtype=np.complex128))
    with pytest.raises(TypeError, match=r"not list of list"):
        cd.crba(r, [[1.0, 2.0], [3.0]])  # ragged: numpy cannot make an array of it
    # integers and booleans are numbers
    assert cd.crba(r, [0] * 7).shape == (7, 7)


def test_trajectories_refuse_a_time_that_is_not_finite():
    tr = cd.QuinticTrajectory(np.zeros(2), np.ones(2), 1.0)
    for t in (math.nan, math.inf):
        with pytest.raises(ValueError, match="t is not finite"):
            tr(t)
    with pytest.raises(ValueError, match="not finite"):
        tr.sample([0.0, math.nan])


def test_fixed_step_simulate_refuses_an_output_interval_of_too_many_steps():
    r = cd.robots.two_link_arm()
    q = np.zeros(2)
    # output_interval / dt = 1e20 > 2^64 steps per sample (the float-to-size_t cast was UB and
    # killed the interpreter)
    with pytest.raises(ValueError, match=r"output_interval / dt = 1e\+20 steps per sample exceed "
                                         r"max_steps"):
        cd.simulate(r, q, q, None, 1.0, "rk4", dt=1e-20, output_interval=1.0)


def test_online_payload_gate_rejects_an_outlier_torque():
    known = cd.robots.kuka_iiwa()
    loaded = known.copy()
    loaded.set_payload(6, 0.851, [0.01, -0.02, 0.05], np.diag([2e-3, 3e-3, 1e-3]))
    est = cd.OnlinePayloadEstimator(known)
    rng = np.random.default_rng(35)
    for _ in range(30):
        q, qd, qdd = rng.uniform(-2, 2, (3, 7))
        u = est.update(q, qd, qdd, cd.rnea(loaded, q, qd, qdd))
        assert u["accepted"] and not u["outlier"]
    mass = est.estimate()["mass"]
    q, qd, qdd = rng.uniform(-2, 2, (3, 7))
    tau = cd.rnea(loaded, q, qd, qdd)
    tau[3] = 1e300
    u = est.update(q, qd, qdd, tau)
    assert not u["accepted"] and u["outlier"] and not u["change_detected"]
    assert est.rejected == 1 and est.ticks == 30 and est.estimate()["mass"] == mass
    with pytest.raises(ValueError, match="innovation_gate"):
        cd.OnlinePayloadEstimator(known, innovation_gate=-1.0)
