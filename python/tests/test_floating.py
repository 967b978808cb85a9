"""Robots on a free-flying base from Python (chaindyn.FloatingRobot): built from a base body and
a TreeRobot, or by load_urdf_floating. Checked against the fixed-base tree (the base held
still), a single free body by hand (Newton-Euler), and identities. Run by ctest (python:pytest,
python:installed) with CHAINDYN_DATA set."""
import os

import numpy as np
import pytest

import chaindyn as cd

DATA = os.environ.get("CHAINDYN_DATA", "")


def rel(a, b):
    a, b = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
    assert a.shape == b.shape, (a.shape, b.shape)
    return float(np.max(np.abs(a - b)) / max(1.0, float(np.max(np.abs(b)))))


def body(mass, com, inertia):
    link = cd.Link()
    link.mass = mass
    link.com = np.asarray(com, dtype=float)
    link.inertia = np.asarray(inertia, dtype=float)
    return link


def two_arms(gravity=None):
    """A tree of three joints (a torso and two arms) with masses."""
    links = []
    for k, y in enumerate((0.0, 0.2, -0.2)):
        link = body(1.0 + k, [0.1, 0.0, 0.05], np.diag([0.02, 0.03, 0.04]))
        link.placement = np.array([[1, 0, 0, 0.0], [0, 1, 0, y], [0, 0, 1, 0.3], [0, 0, 0, 1.0]])
        link.axis = np.array([0.0, 1.0, 0.0]) if k else np.array([0.0, 0.0, 1.0])
        links.append(link)
    return cd.TreeRobot(links, ["revolute"] * 3, [-1, 0, 0], gravity)


def robot():
    return cd.FloatingRobot(body(10.0, [0.0, 0.0, 0.1], np.diag([0.5, 0.6, 0.7])), two_arms())


def state(r, seed):
    rng = np.random.default_rng(seed)
    q = cd.random_configuration(r, seed)
    return q, rng.normal(size=r.nv), rng.normal(size=r.nv)


def test_sizes_and_the_configuration_space():
    r = robot()
    assert (r.nq, r.nv) == (10, 9)
    assert r.base_mass == 10.0
    q0 = r.neutral()
    assert q0[6] == 1.0 and np.count_nonzero(q0) == 1
    q, v, _ = state(r, 1)
    assert abs(np.linalg.norm(q[3:7]) - 1.0) < 1e-14
    q1 = cd.integrate(r, q, v, 0.3)
    assert rel(cd.difference(r, q, q1), 0.3 * v) < 1e-12
    scaled = q.copy()
    scaled[3:7] *= 2.0
    assert rel(cd.normalize(r, scaled), q) < 1e-15
    with pytest.raises(ValueError, match="q"):
        cd.crba(r, np.zeros(9))


def test_a_single_free_body_follows_newton_euler_by_hand():
    # the tree's one joint carries next to nothing, so the base alone: M's base block is the
    # body's spatial inertia about its origin (RBDA eq. 2.63), and holding it still against
    # gravity takes its weight, with the moment of the weight about the origin
    speck = body(1e-9, [0, 0, 0], np.eye(3) * 1e-9)
    speck.axis = np.array([0.0, 0.0, 1.0])
    tree = cd.TreeRobot([speck], ["revolute"], [-1])
    m, c, ic = 3.0, np.array([0.1, -0.2, 0.05]), np.diag([0.3, 0.4, 0.5])
    r = cd.FloatingRobot(body(m, c, ic), tree)
    q = r.neutral()
    cx = np.array([[0, -c[2], c[1]], [c[2], 0, -c[0]], [-c[1], c[0], 0]])
    spatial = np.block([[ic + m * cx @ cx.T, m * cx], [m * cx.T, m * np.eye(3)]])
    assert rel(cd.crba(r, q)[:6, :6], spatial) < 1e-8
    # gravity: holding the body still takes its weight, m g up, with the moment c x m g
    g = np.asarray(r.gravity)
    hold = cd.gravity_torques(r, q)
    assert rel(hold[3:6], -m * g) < 1e-8
    assert rel(hold[0:3], np.cross(c, -m * g)) < 1e-8


def test_held_still_the_base_gives_the_fixed_base_tree():
    r, tree = robot(), two_arms()
    rng = np.random.default_rng(7)
    qj, qdj, qddj = rng.normal(size=(3, 3))
    q = r.neutral()
    q[7:] = qj
    v = np.concatenate([np.zeros(6), qdj])
    a = np.concatenate([np.zeros(6), qddj])
    assert rel(cd.rnea(r, q, v, a)[6:], cd.rnea(tree, qj, qdj, qddj)) < 1e-12
    assert rel(cd.crba(r, q)[6:, 6:], cd.crba(tree, qj)) < 1e-12


def test_forward_and_inverse_dynamics_agree():
    r = robot()
    q, v, tau = state(r, 3)
    a = cd.aba(r, q, v, tau)
    assert rel(cd.rnea(r, q, v, a), tau) < 1e-10
    assert rel(cd.forward_dynamics_crba(r, q, v, tau), a) < 1e-10
    m = cd.crba(r, q)
    assert rel(m @ a + cd.nonlinear_effects(r, q, v), tau) < 1e-10
    assert abs(cd.kinetic_energy(r, q, v) - 0.5 * v @ m @ v) < 1e-10
    # free base: no wrench on it
    qdd = a[6:]
    base, torques = cd.rnea_free_base(r, q, v, qdd)
    assert rel(cd.rnea(r, q, v, np.concatenate([base, qdd]))[:6], np.zeros(6)) < 1e-10
    assert rel(torques, cd.rnea(r, q, v, np.concatenate([base, qdd]))[6:]) < 1e-10


def test_momentum_and_jacobians():
    r = robot()
    q, v, _ = state(r, 5)
    ag = cd.centroidal_momentum_matrix(r, q)
    assert ag.shape == (6, r.nv)
    assert rel(ag @ v, cd.centroidal_momentum(r, q, v)) < 1e-12
    # the base frame's Jacobian in its own axes: the base twist itself
    j = cd.jacobian(r, q, "base", reference="local")
    assert rel(j @ v, v[:6]) < 1e-12
    # a link's world Jacobian: its joint columns are the tree's (base axes) turned into the
    # world by the base's rotation, which numpy makes from the quaternion (x, y, z, w)
    x, y, z, w = q[3:7]
    rot = np.array([[1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w)],
                    [2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w)],
                    [2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)]])
    turn = np.block([[rot, np.zeros((3, 3))], [np.zeros((3, 3)), rot]])
    j2 = cd.jacobian(r, q, 2)
    assert rel(j2[:, 6:], turn @ cd.jacobian(two_arms(), q[7:], 2)) < 1e-12


def test_load_urdf_floating_puts_baxter_on_a_free_base():
    path = os.path.join(DATA, "urdf", "baxter.urdf")
    if not DATA or not os.path.exists(path):
        pytest.skip("CHAINDYN_DATA is not set (run through ctest)")
    if not hasattr(cd, "load_urdf_floating"):
        pytest.skip("built without the URDF parser")
    r, report = cd.load_urdf_floating_report(path)
    tree = cd.load_urdf_tree(path)
    assert r.nv == 6 + tree.nq and r.nq == 7 + tree.nq
    assert r.tree.joint_names == tree.joint_names
    q = r.neutral()
    q[7:] = np.linspace(-0.5, 0.5, tree.nq)
    g = cd.gravity_torques(r, q)
    assert rel(g[6:], cd.gravity_torques(tree, q[7:])) < 1e-12
    total = r.base_mass + sum(link.mass for link in r.tree.links)
    assert abs(np.linalg.norm(g[3:6]) - total * np.linalg.norm(r.gravity)) < 1e-9 * total
    assert isinstance(report, list)
    with pytest.raises(cd.ModelError, match="cannot open"):
        cd.load_urdf_floating(os.path.join(DATA, "urdf", "no_such.urdf"))


def test_a_planar_base_on_the_same_algorithms():
    r = cd.PlanarRobot(body(40.0, [-0.2, 0.0, 0.2], np.diag([1.4, 2.2, 2.5])), two_arms())
    assert (r.nq, r.nv) == (6, 6)
    rng = np.random.default_rng(11)
    q = cd.random_configuration(r, 3)
    v, tau = rng.normal(size=(2, r.nv))
    a = cd.aba(r, q, v, tau)
    assert rel(cd.rnea(r, q, v, a), tau) < 1e-10
    m = cd.crba(r, q)
    assert rel(m @ a + cd.nonlinear_effects(r, q, v), tau) < 1e-10
    assert abs(cd.kinetic_energy(r, q, v) - 0.5 * v @ m @ v) < 1e-10
    # held still, the joints see the fixed-base tree; on level ground the base needs no force
    q0 = r.neutral()
    q0[3:] = q[3:]
    g = cd.gravity_torques(r, q0)
    assert rel(g[3:], cd.gravity_torques(two_arms(), q0[3:])) < 1e-12
    assert np.max(np.abs(g[:3])) < 1e-12
    # integrate along a straight line: x grows by v_x dt
    line = cd.integrate(r, r.neutral(), [0.5, 0.0, 0.0, 0.0, 0.0, 0.0], 2.0)
    assert rel(line, [1.0, 0, 0, 0, 0, 0]) < 1e-15
    if DATA and hasattr(cd, "load_urdf_planar"):
        baxter = cd.load_urdf_planar(os.path.join(DATA, "urdf", "baxter.urdf"))
        assert baxter.nv == 3 + cd.load_urdf_tree(os.path.join(DATA, "urdf", "baxter.urdf")).nq


@pytest.mark.parametrize("make", [robot, lambda: cd.PlanarRobot(body(40.0, [-0.2, 0.0, 0.2], np.diag([1.4, 2.2, 2.5])), two_arms())])
def test_derivatives_against_finite_differences_on_the_manifold(make):
    """rnea_derivatives and aba_derivatives on a moving base: q's columns in its tangent space
    (q moved through integrate), against central differences (step 1e-6: truncation ~1e-12,
    rounding ~1e-10 relative)."""
    r = make()
    q, v, a = state(r, 5)
    dq, dv, m = cd.rnea_derivatives(r, q, v, a)
    h, nv = 1e-6, r.nv
    fd_q = np.column_stack([(cd.rnea(r, cd.integrate(r, q, e, h), v, a) -
                             cd.rnea(r, cd.integrate(r, q, e, -h), v, a)) / (2 * h) for e in np.eye(nv)])
    fd_v = np.column_stack([(cd.rnea(r, q, v + h * e, a) - cd.rnea(r, q, v - h * e, a)) / (2 * h)
                            for e in np.eye(nv)])
    assert rel(dq, fd_q) < 1e-7
    assert rel(dv, fd_v) < 1e-7
    assert rel(m, cd.crba(r, q)) < 1e-12
    tau = cd.rnea(r, q, v, a)
    aq, av, minv = cd.aba_derivatives(r, q, v, tau)
    assert rel(minv @ m, np.eye(nv)) < 1e-10
    fd_aq = np.column_stack([(cd.aba(r, cd.integrate(r, q, e, h), v, tau) -
                              cd.aba(r, cd.integrate(r, q, e, -h), v, tau)) / (2 * h) for e in np.eye(nv)])
    assert rel(aq, fd_aq) < 1e-7
    assert rel(av, -minv @ dv) < 1e-10
    with pytest.raises(ValueError, match="v"):
        cd.rnea_derivatives(r, q, v[:-1], a)


def test_simulate_on_a_moving_base_conserves_momentum_and_energy():
    """No gravity, no force: the centroidal momentum and T stay (to rk45's tolerance), the
    quaternion stays unit; with gravity T + V stays; rk4 with a fine step agrees with rk45."""
    free = cd.FloatingRobot(body(10.0, [0.0, 0.0, 0.1], np.diag([0.5, 0.6, 0.7])),
                            two_arms(gravity=[0.0, 0.0, 0.0]))
    q0, v0, _ = state(free, 21)
    run = cd.simulate(free, q0, v0, t_end=0.5, rtol=1e-11, atol=1e-12)
    assert run["q"].shape[1] == free.nq and run["qd"].shape[1] == free.nv
    h0 = cd.centroidal_momentum(free, q0, v0)
    e0 = cd.kinetic_energy(free, q0, v0)
    for q, v in zip(run["q"], run["qd"]):
        assert rel(cd.centroidal_momentum(free, q, v), h0) < 1e-9
        assert abs(cd.kinetic_energy(free, q, v) - e0) < 1e-9 * e0
        assert abs(np.linalg.norm(q[3:7]) - 1.0) < 1e-14
    r = robot()
    q0, v0, _ = state(r, 22)
    adaptive = cd.simulate(r, q0, v0, t_end=0.5, rtol=1e-11, atol=1e-12)
    energy = [cd.kinetic_energy(r, q, v) + cd.potential_energy(r, q)
              for q, v in zip(adaptive["q"], adaptive["qd"])]
    assert np.max(np.abs(np.array(energy) - energy[0])) < 1e-8 * max(1.0, abs(energy[0]))
    fine = cd.simulate(r, q0, v0, t_end=0.5, integrator="rk4", dt=5e-4)
    assert np.linalg.norm(cd.difference(r, fine["q"][-1], adaptive["q"][-1])) < 1e-8
    # the controller's forces (nv entries) reach aba: qdd is aba's at each sample
    push = cd.simulate(r, q0, v0, controller=lambda t, q, v: np.full(r.nv, 0.5), t_end=0.05)
    for q, v, a, tau in zip(push["q"], push["qd"], push["qdd"], push["tau"]):
        assert rel(a, cd.aba(r, q, v, tau)) < 1e-12
    with pytest.raises(ValueError):
        cd.simulate(r, q0, v0, controller=lambda t, q, v: np.zeros(3), t_end=0.05)
    planar = cd.PlanarRobot(body(40.0, [-0.2, 0.0, 0.2], np.diag([1.4, 2.2, 2.5])), two_arms())
    qp, vp, _ = state(planar, 23)
    run = cd.simulate(planar, qp, vp, t_end=0.5, rtol=1e-11, atol=1e-12)
    energy = [cd.kinetic_energy(planar, q, v) + cd.potential_energy(planar, q)
              for q, v in zip(run["q"], run["qd"])]
    assert np.max(np.abs(np.array(energy) - energy[0])) < 1e-8 * max(1.0, abs(energy[0]))


def test_batch_on_a_moving_base_is_a_loop_of_single_calls():
    for r in (robot(), cd.PlanarRobot(body(40.0, [-0.2, 0.0, 0.2], np.diag([1.4, 2.2, 2.5])), two_arms())):
        rng = np.random.default_rng(31)
        n = 11
        q = np.column_stack([cd.random_configuration(r, 40 + s) for s in range(n)])
        v, a = rng.normal(size=(2, r.nv, n))
        tau = cd.batch.rnea(r, q, v, a)
        acc = cd.batch.aba(r, q, v, tau, threads=2)
        ms = cd.batch.crba(r, q)
        assert tau.shape == (r.nv, n) and ms.shape == (n, r.nv, r.nv)
        for s in range(n):
            assert rel(tau[:, s], cd.rnea(r, q[:, s], v[:, s], a[:, s])) < 1e-14
            assert rel(acc[:, s], cd.aba(r, q[:, s], v[:, s], tau[:, s])) < 1e-12
            assert rel(ms[s], cd.crba(r, q[:, s])) < 1e-14
        with pytest.raises(ValueError):
            cd.batch.rnea(r, q, v[:-1], a)  # Qd one row short
    with pytest.raises(ValueError):
        cd.batch.rnea(robot(), np.zeros((9, 2)), np.zeros((9, 2)), np.zeros((9, 2)))  # Q of nv rows
    bad = np.column_stack([robot().neutral()] * 2)
    bad[3:7, 1] *= 2.0  # not a unit quaternion
    with pytest.raises(ValueError):
        cd.batch.crba(robot(), bad)
