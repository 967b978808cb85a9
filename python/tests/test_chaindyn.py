"""The Python module against chaindyn's C++ results (the compile-time chains, printed by
chaindyn_python_reference), against the closed forms and identities, and its error messages.
Run by ctest (python:pytest, python:installed) with CHAINDYN_REFERENCE and CHAINDYN_DATA set."""
import json
import math
import os
import subprocess
import time

import numpy as np
import pytest

import chaindyn as cd

DATA = os.environ.get("CHAINDYN_DATA", "")
TOL = 1e-13  # relative to the reference's size, as the C++ tests' relative_error


def rel(a, b):
    a, b = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
    assert a.shape == b.shape, (a.shape, b.shape)
    return float(np.max(np.abs(a - b)) / max(1.0, float(np.max(np.abs(b)))))


@pytest.fixture(scope="module")
def reference():
    exe = os.environ.get("CHAINDYN_REFERENCE")
    if not exe:
        pytest.skip("CHAINDYN_REFERENCE is not set (run through ctest)")
    out = subprocess.run([exe, DATA], check=True, capture_output=True, text=True).stdout
    return json.loads(out)


ROBOTS = {
    "kuka_iiwa": (cd.robots.kuka_iiwa, 6),
    "two_link_arm": (cd.robots.two_link_arm, 1),
}


@pytest.mark.parametrize("name", sorted(ROBOTS))
def test_every_binding_matches_the_cpp_compile_time_chain(reference, name):
    make, last = ROBOTS[name]
    ref = reference[name]
    r = make()
    q, qd, qdd, tau = (np.array(ref[k]) for k in ("q", "qd", "qdd", "tau"))
    assert rel(cd.rnea(r, q, qd, qdd), ref["rnea"]) < TOL
    assert rel(cd.crba(r, q), ref["crba"]) < TOL
    assert rel(cd.aba(r, q, qd, tau), ref["aba"]) < TOL
    assert rel(cd.forward_dynamics_crba(r, q, qd, tau), ref["forward_dynamics_crba"]) < TOL
    assert rel(cd.gravity_torques(r, q), ref["gravity_torques"]) < TOL
    assert rel(cd.nonlinear_effects(r, q, qd), ref["nonlinear_effects"]) < TOL
    assert rel(cd.coriolis_matrix(r, q, qd), ref["coriolis_matrix"]) < TOL
    assert rel(cd.inverse_mass_matrix(r, q), ref["inverse_mass_matrix"]) < TOL
    assert rel(cd.kinetic_energy(r, q, qd), ref["kinetic_energy"]) < TOL
    assert rel(cd.potential_energy(r, q), ref["potential_energy"]) < TOL
    assert rel(cd.frame_pose(r, q, last), ref["frame_pose"]) < TOL
    assert rel(cd.jacobian(r, q, last), ref["jacobian_world"]) < TOL
    assert rel(cd.jacobian(r, q, last, "local"), ref["jacobian_local"]) < TOL
    assert rel(cd.jdot_qd(r, q, qd, last), ref["jdot_qd"]) < TOL
    dq, dqd = cd.rnea_derivatives(r, q, qd, qdd)
    assert rel(dq, ref["dtau_dq"]) < TOL and rel(dqd, ref["dtau_dqd"]) < TOL
    aq, aqd, atau = cd.aba_derivatives(r, q, qd, tau)
    assert rel(aq, ref["dqdd_dq"]) < TOL and rel(aqd, ref["dqdd_dqd"]) < TOL
    assert rel(atau, ref["dqdd_dtau"]) < TOL
    assert rel(cd.regressor(r, q, qd, qdd), ref["regressor"]) < TOL
    assert rel(cd.inertial_parameters(r), ref["inertial_parameters"]) < TOL


def test_urdf_robot_matches_the_cpp_urdf_chain_by_frame_name(reference):
    if "panda_urdf" not in reference:
        pytest.skip("the reference was built without the URDF parser")
    ref = reference["panda_urdf"]
    r = cd.load_urdf(os.path.join(DATA, "urdf", "panda.urdf"), "panda_hand")
    assert r.nq == 7 and "panda_hand" in r.frame_names
    q, qd, qdd = (np.array(ref[k]) for k in ("q", "qd", "qdd"))
    assert rel(cd.rnea(r, q, qd, qdd), ref["rnea"]) < TOL
    assert rel(cd.crba(r, q), ref["crba"]) < TOL
    assert rel(cd.frame_pose(r, q, "panda_hand"), ref["frame_pose"]) < TOL
    assert rel(cd.jacobian(r, q, "panda_hand"), ref["jacobian_world"]) < TOL
    assert rel(cd.jacobian(r, q, "panda_hand", "local"), ref["jacobian_local"]) < TOL


def test_closed_form_two_link_arm_equals_the_recursive_algorithms():
    arm = cd.closed_form.TwoLinkArm.uniform_rods(3.0, 1.0, 2.0, 1.0)
    r = arm.to_robot()
    q, qd, qdd = np.array([0.3, -0.5]), np.array([0.1, 0.2]), np.array([1.0, -1.0])
    assert rel(cd.crba(r, q), arm.mass_matrix(q)) < 1e-12
    assert rel(cd.rnea(r, q, qd, qdd), arm.inverse_dynamics(q, qd, qdd)) < 1e-12
    assert rel(cd.coriolis_matrix(r, q, qd), arm.coriolis_matrix(q, qd)) < 1e-12
    assert rel(cd.kinetic_energy(r, q, qd), arm.kinetic_energy(q, qd)) < 1e-12
    pend = cd.closed_form.SimplePendulum(2.0, 0.5)
    assert rel(pend.gravity([0.4]), [2.0 * 9.81 * 0.5 * math.sin(0.4)]) < 1e-14


def test_identities_on_a_runtime_robot_of_both_joint_kinds():
    rng = np.random.default_rng(17)
    links = []
    for i in range(5):
        link = cd.Link()
        link.placement = np.block([[np.eye(3), rng.uniform(-0.3, 0.3, (3, 1))], [0, 0, 0, 1]])
        link.axis = rng.uniform(-1, 1, 3)
        link.mass = 1.0 + i
        link.com = rng.uniform(-0.1, 0.1, 3)
        link.inertia = np.diag([0.02, 0.03, 0.04])
        link.damping = 0.1
        links.append(link)
    r = cd.Robot(links, ["revolute", "prismatic", "revolute", "prismatic", "revolute"])
    assert r.joint_kinds == ["revolute", "prismatic", "revolute", "prismatic", "revolute"]
    q, qd, qdd = rng.uniform(-1, 1, (3, 5))
    tau = cd.rnea(r, q, qd, qdd)
    assert rel(cd.aba(r, q, qd, tau), qdd) < 1e-12
    m = cd.crba(r, q)
    assert rel(m, m.T) == 0.0 and np.all(np.linalg.eigvalsh(m) > 0)
    assert rel(cd.inverse_mass_matrix(r, q) @ m, np.eye(5)) < 1e-12
    assert rel(0.5 * qd @ m @ qd, cd.kinetic_energy(r, q, qd)) < 1e-12
    # rnea = Y pi + friction
    y = cd.regressor_with_joint_dynamics(r, q, qd, qdd)
    assert rel(y @ cd.parameters_with_joint_dynamics(r), tau) < 1e-12
    # the derivatives against central differences
    dq, _ = cd.rnea_derivatives(r, q, qd, qdd)
    h = 1e-6
    fd = np.column_stack([(cd.rnea(r, q + h * e, qd, qdd) - cd.rnea(r, q - h * e, qd, qdd)) / (2 * h)
                          for e in np.eye(5)])
    assert rel(dq, fd) < 1e-7


def test_task_space_dynamics_equal_the_dense_route_and_frame_motion_its_derivatives():
    r = cd.robots.kuka_iiwa()
    rng = np.random.default_rng(23)
    q, qd, qdd = rng.uniform(-1.5, 1.5, (3, 7))
    for reference in ("world", "local"):
        j = cd.jacobian(r, q, 6, reference)
        m = cd.crba(r, q)
        minv_jt = np.linalg.solve(m, j.T)
        lam = np.linalg.inv(j @ minv_jt)
        g = cd.gravity_torques(r, q)
        cqd = cd.nonlinear_effects(r, q, qd) - g
        jbar = minv_jt @ lam
        mu = lam @ (j @ np.linalg.solve(m, cqd) - cd.jdot_qd(r, q, qd, 6, reference))
        os = cd.operational_space_dynamics(r, q, qd, 6, reference)
        assert rel(os["Lambda_inv"], j @ minv_jt) < 1e-12
        assert rel(os["Lambda"], lam) < 1e-9 and 0 < os["rcond"] <= 1
        assert rel(os["mu"], mu) < 1e-9 and rel(os["p"], jbar.T @ g) < 1e-9
        assert rel(os["jbar"], jbar) < 1e-9
        pos = cd.operational_space_inertia(r, q, 6, reference, position=True)
        assert rel(pos["Lambda"], np.linalg.inv((j @ minv_jt)[3:, 3:])) < 1e-9
        n = cd.null_space_projector(r, q, 6)
        assert rel(n, np.eye(7) - jbar @ j) < 1e-9 and rel(n @ n, n) < 1e-9
        # frame motion: v = J qd; the acceleration that is d/dt of the velocity is J qdd + Jdot qd
        assert rel(cd.frame_velocity(r, q, qd, 6, reference), j @ qd) < 1e-12
        jdot = cd.jacobian_time_derivative(r, q, qd, 6, reference)
        acc = cd.frame_acceleration(r, q, qd, qdd, 6, reference,
                                    classical=(reference == "world"))
        assert rel(acc, j @ qdd + jdot @ qd) < 1e-12


def test_dh_robot_and_its_flange():
    rows = [cd.DHRow(0.0, math.pi / 2, 0.3, mass=2.0, inertia=np.eye(3) * 0.01),
            cd.DHRow(0.4, 0.0, 0.0, mass=1.5, com=[-0.2, 0, 0], inertia=np.eye(3) * 0.01),
            cd.DHRow(0.0, 0.0, 0.1, kind="prismatic", mass=0.5, inertia=np.eye(3) * 0.001)]
    r = cd.dh_standard(rows)
    assert r.nq == 3 and r.joint_kinds[2] == "prismatic" and "flange" in r.frame_names
    q = np.array([0.2, -0.4, 0.05])
    # the flange by the DH product Rz Tz Tx Rx
    def a_matrix(a, alpha, d, theta):
        ct, st, ca, sa = math.cos(theta), math.sin(theta), math.cos(alpha), math.sin(alpha)
        return np.array([[ct, -st * ca, st * sa, a * ct], [st, ct * ca, -ct * sa, a * st],
                         [0, sa, ca, d], [0, 0, 0, 1]])
    expected = (a_matrix(0, math.pi / 2, 0.3, q[0]) @ a_matrix(0.4, 0, 0, q[1])
                @ a_matrix(0, 0, 0.1 + q[2], 0))
    assert rel(cd.frame_pose(r, q, "flange"), expected) < 1e-14


def test_payload_identification_recovers_the_payload():
    known = cd.robots.kuka_iiwa()
    loaded = known.copy()
    loaded.set_payload(6, 0.851, [0.01, -0.02, 0.05], np.diag([2e-3, 3e-3, 1e-3]))
    ident = cd.PayloadIdentification(known)
    rng = np.random.default_rng(4)
    for _ in range(40):
        q, qd, qdd = rng.uniform(-2, 2, (3, 7))
        ident.add_sample(q, qd, qdd, cd.rnea(loaded, q, qd, qdd))
    e = ident.estimate()
    assert e["ok"] and abs(e["mass"] - 0.851) < 1e-9
    assert rel(e["com"], [0.01, -0.02, 0.05]) < 1e-9


def test_online_payload_estimator_agrees_with_the_batch_least_squares_and_detects_a_grasp():
    known = cd.robots.kuka_iiwa()
    loaded = known.copy()
    loaded.set_payload(6, 0.851, [0.01, -0.02, 0.05], np.diag([2e-3, 3e-3, 1e-3]))
    rng = np.random.default_rng(16)
    samples = [rng.uniform(-2, 2, (3, 7)) for _ in range(60)]
    noise = [rng.normal(0.0, 0.01, 7) for _ in samples]
    # recursive least squares (no random walk; the default prior, 10 kg, 1 kg m, 0.1 kg m^2,
    # weak against 420 equations) on noisy torques against PayloadIdentification (the C++
    # batch least squares) on the same samples
    online = cd.OnlinePayloadEstimator(known, torque_std=np.full(7, 0.01),
                                       process_std=np.zeros(10), change_threshold=0.0)
    batch = cd.PayloadIdentification(known)
    for (q, qd, qdd), e in zip(samples, noise):
        tau = cd.rnea(loaded, q, qd, qdd) + e
        assert online.update(q, qd, qdd, tau)["accepted"]
        batch.add_sample(q, qd, qdd, tau)
    x, y = online.estimate(), batch.estimate()
    assert online.ticks == 60 and x["physical"] and y["ok"]
    assert rel(x["parameters"], y["parameters"]) < 1e-6  # measured 4e-8
    assert np.all(np.abs(x["parameters"] - y["parameters"]) < 0.01 * y["standard_deviation"])
    assert abs(x["mass"] - 0.851) < 0.01
    # a refused sample changes nothing; sizes are checked
    nan = np.full(7, np.nan)
    assert not online.update(nan, nan, nan, nan)["accepted"] and online.ticks == 60
    with pytest.raises(ValueError, match=r"update: qd has shape \(6,\); a vector of 7"):
        online.update(np.zeros(7), np.zeros(6), np.zeros(7), np.zeros(7))
    # the default filter: no payload for 50 ticks, then the grasp is detected within a few
    est = cd.OnlinePayloadEstimator(known)
    fired = []
    for k in range(100):
        q, qd, qdd = rng.uniform(-2, 2, (3, 7))
        tau = cd.rnea(loaded if k >= 50 else known, q, qd, qdd) + rng.normal(0.0, 0.05, 7)
        if est.update(q, qd, qdd, tau)["change_detected"]:
            fired.append(k)
    assert fired and 50 <= fired[0] <= 55 and est.changes >= 1
    assert abs(est.estimate()["mass"] - 0.851) < 0.05
    est.reset()
    assert est.estimate()["mass"] == 0.0


def test_robot_identification_recovers_the_base_parameters_and_a_physical_robot():
    truth = cd.robots.kuka_iiwa()
    links = truth.links
    rng = np.random.default_rng(18)
    for link in links:  # joint dynamics to identify
        link.damping, link.friction, link.armature = rng.uniform(0.1, 1.0, 3)
    truth = cd.Robot(links)
    for link in links:  # the prior: masses 20 % off, no joint dynamics
        link.mass *= rng.uniform(0.8, 1.2)
        link.damping = link.friction = link.armature = 0.0
    prior = cd.Robot(links)
    ident = cd.RobotIdentification(truth)
    assert ident.rank < 13 * 7
    for _ in range(150):
        q, qd, qdd = rng.uniform(-2, 2, (3, 7))
        ident.add_sample(q, qd, qdd, cd.rnea(truth, q, qd, qdd))
    ls = ident.least_squares()
    want = ident.base_values(truth)
    assert ls["ok"] and ls["samples"] == 150 and rel(ls["base"], want) < 1e-9
    pc = ident.physically_consistent(prior, prior_weight=1e-12)
    assert pc["converged"] and pc["smallest_margin"] > 0.0
    assert rel(pc["base"], want) < 1e-9
    robot = pc["robot"]
    assert isinstance(robot, cd.Robot) and robot.nq == 7
    assert all(l.mass > 0 and np.all(np.linalg.eigvalsh(l.inertia) > 0) for l in robot.links)
    for _ in range(5):  # the identified robot's torques are the truth's
        q, qd, qdd = rng.uniform(-2, 2, (3, 7))
        assert rel(cd.rnea(robot, q, qd, qdd), cd.rnea(truth, q, qd, qdd)) < 1e-8
    with pytest.raises(ValueError, match="not finite"):
        ident.add_sample(np.zeros(7), np.zeros(7), np.zeros(7), np.full(7, np.nan))
    few = cd.RobotIdentification(truth)
    assert not few.least_squares()["ok"]
    with pytest.raises(ValueError, match="physically_consistent"):
        few.physically_consistent(prior)


def test_christoffel_symbols_give_the_coriolis_matrix():
    r = cd.robots.kuka_iiwa()
    q, qd = np.full(7, 0.3), np.linspace(-1, 1, 7)
    gamma = cd.christoffel_symbols(r, q)
    assert gamma.shape == (7, 7, 7)
    assert rel(gamma @ qd, cd.coriolis_matrix(r, q, qd)) < 1e-13
    assert rel(gamma, np.transpose(gamma, (0, 2, 1))) < 1e-13  # each gamma[i] symmetric


def test_simulate_with_a_python_controller_and_trajectories():
    r = cd.robots.kuka_iiwa()
    q_goal = np.full(7, 0.3)
    m = np.diag(cd.crba(r, q_goal))
    kp, kd = 100.0 * m, 20.0 * m
    calls = []

    def controller(t, q, qd):
        calls.append(t)
        return cd.gravity_torques(r, q) + kp * (q_goal - q) - kd * qd

    run = cd.simulate(r, np.zeros(7), np.zeros(7), controller, 5.0, output_interval=0.01)
    assert run["q"].shape == (len(run["t"]), 7) and run["t"][-1] == 5.0
    assert np.max(np.abs(run["q"][-1] - q_goal)) < 1e-6
    assert len(calls) == run["evaluations"]
    # passive swing of the one-link arm conserves energy (rk4, small step)
    arm = cd.closed_form.OneLinkArm.uniform_rod(1.0, 1.0)
    one = arm.to_robot()
    swing = cd.simulate(one, [0.5], [0.0], None, 2.0, integrator="rk4", dt=1e-3)
    e = [cd.kinetic_energy(one, q, qd) + cd.potential_energy(one, q)
         for q, qd in zip(swing["q"], swing["qd"])]
    assert max(e) - min(e) < 1e-9
    # trajectories: the cycloid of the notes reaches qf at rest
    cyc = cd.CycloidalTrajectory([0.0], [math.pi], 2.0)
    q, qd, qdd = cyc(2.0)
    assert rel(q, [math.pi]) < 1e-15 and qd[0] == 0.0
    qs, _, _ = cyc.sample(np.linspace(0, 2, 5))
    assert qs.shape == (5, 1)
    quintic = cd.QuinticTrajectory(np.zeros(2), np.ones(2), 1.0)
    assert rel(quintic(0.5)[0], [0.5, 0.5]) < 1e-15


def test_bad_inputs_raise_with_chaindyn_messages():
    r = cd.robots.kuka_iiwa()
    q = np.zeros(7)
    with pytest.raises(ValueError, match="rnea: qd has 6 entries; the model has 7 joints"):
        cd.rnea(r, q, np.zeros(6), q)
    with pytest.raises(ValueError, match=r"crba: q has shape \(7, 1\); a vector"):
        cd.crba(r, np.zeros((7, 1)))
    with pytest.raises(ValueError, match=r"aba: tau\[3\] is not finite \(nan\)"):
        cd.aba(r, q, q, [0, 0, 0, float("nan"), 0, 0, 0])
    with pytest.raises(TypeError, match="must be an array of real numbers"):
        cd.rnea(r, "abc", q, q)
    with pytest.raises(IndexError, match="no frame named 'tool0'"):
        cd.frame_pose(r, q, "tool0")
    with pytest.raises(cd.ModelError, match="has no moving joint"):
        cd.parse_urdf("<robot name='x'><link name='a'/></robot>")
    with pytest.raises(cd.ModelError, match="cannot open the file"):
        cd.load_urdf("/no/such/file.urdf")
    link = cd.Link()
    link.axis = [0, 0, 1]
    link.mass = -1.0
    with pytest.raises(cd.ModelError, match="mass"):
        cd.Robot([link])
    with pytest.raises(ValueError, match="controller returned 3 torques"):
        cd.simulate(r, q, q, lambda t, q, qd: np.zeros(3), 0.1)


def test_per_call_overhead_is_measured():
    """Not a speed requirement (the machine is shared): prints microseconds per rnea call."""
    r = cd.robots.kuka_iiwa()
    q = np.full(7, 0.3)
    n = 2000
    best = float("inf")
    for _ in range(3):
        t0 = time.perf_counter()
        for _ in range(n):
            cd.rnea(r, q, q, q)
        best = min(best, (time.perf_counter() - t0) / n)
    print(f"\nrnea from Python on the iiwa: {best * 1e6:.2f} us per call")
    assert best < 1e-3
