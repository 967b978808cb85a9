"""Elastic joints and friction models from Python: the flatness inverse against the forward
dynamics, the exact time derivatives of rnea against finite differences, energy conserved by
the simulation, the Stribeck map and LuGre's steady state against their formulas written here."""
import numpy as np
import pytest

import chaindyn as cd


def rel(a, b):
    a, b = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
    assert a.shape == b.shape, (a.shape, b.shape)
    return float(np.max(np.abs(a - b)) / max(1.0, float(np.max(np.abs(b)))))


def trajectory(t, n):
    """A smooth joint trajectory and its first four derivatives at time t."""
    k = np.arange(1, n + 1)
    w = 0.7 + 0.3 * k
    a = 0.4 / k
    s, c = np.sin(w * t + k), np.cos(w * t + k)
    return a * s, a * w * c, -a * w**2 * s, -a * w**3 * c, a * w**4 * s


def test_the_flatness_inverse_drives_the_forward_dynamics_along_its_trajectory():
    robot = cd.robots.kuka_iiwa()
    n = robot.nq
    elastic = cd.ElasticJoints(robot, np.full(n, 5000.0), np.zeros(n), np.full(n, 0.5))
    q, qd, qdd, qddd, qdddd = trajectory(0.3, n)
    inv = cd.elastic_inverse_dynamics(robot, elastic, q, qd, qdd, qddd, qdddd)
    qdd_fd, thetadd = cd.elastic_forward_dynamics(robot, elastic, q, qd, inv["theta"],
                                                  inv["thetad"], inv["tau_m"])
    assert rel(qdd_fd, qdd) < 1e-9
    assert rel(thetadd, inv["thetadd"]) < 1e-9
    # the spring carries rnea: K (theta - q) = rnea(q, qd, qdd)
    assert rel(elastic.stiffness * (inv["theta"] - q), cd.rnea(robot, q, qd, qdd)) < 1e-10
    # with spring damping the deflection is the caller's state
    damped = cd.ElasticJoints(robot, elastic.stiffness, np.full(n, 3.0), elastic.rotor_inertia)
    with pytest.raises(ValueError, match="deflection"):
        cd.elastic_inverse_dynamics(robot, damped, q, qd, qdd, qddd, qdddd)
    e = np.full(n, 1e-3)
    out = cd.elastic_inverse_dynamics(robot, damped, q, qd, qdd, qddd, qdddd, deflection=e)
    qdd_d, _ = cd.elastic_forward_dynamics(robot, damped, q, qd, out["theta"], out["thetad"],
                                           out["tau_m"])
    assert rel(qdd_d, qdd) < 1e-9


def test_link_torque_derivatives_are_the_time_derivatives_of_rnea():
    robot = cd.robots.kuka_iiwa()
    n = robot.nq
    t, h = 0.4, 1e-4
    tau, dtau, ddtau = cd.link_torque_derivatives(robot, *trajectory(t, n))
    rnea_at = [cd.rnea(robot, *trajectory(t + k * h, n)[:3]) for k in (-1, 0, 1)]
    assert rel(tau, rnea_at[1]) < 1e-14
    assert rel(dtau, (rnea_at[2] - rnea_at[0]) / (2 * h)) < 1e-6
    assert rel(ddtau, (rnea_at[2] - 2 * rnea_at[1] + rnea_at[0]) / h**2) < 1e-4


def test_an_undamped_elastic_robot_keeps_its_energy():
    robot = cd.robots.two_link_arm()
    n = robot.nq
    elastic = cd.ElasticJoints(robot, np.full(n, 200.0), np.zeros(n), np.full(n, 0.05))
    q0, theta0 = np.array([0.3, -0.2]), np.array([0.35, -0.1])
    run = cd.simulate_elastic(robot, elastic, q0, np.zeros(n), theta0, np.zeros(n), t_end=0.5,
                              rtol=1e-10, atol=1e-12)
    energies = [cd.elastic_energy(robot, elastic, q, qd, th, thd)
                for q, qd, th, thd in zip(run["q"], run["qd"], run["theta"], run["thetad"])]
    assert run["q"].shape[1] == n and len(energies) > 10
    assert max(energies) - min(energies) < 1e-7 * max(1.0, abs(energies[0]))
    with pytest.raises(cd.ModelError, match="stiffness"):
        cd.ElasticJoints(robot, [0.0, 1.0], [0.0, 0.0], [1.0, 1.0])
    # rigid joints (stiffness inf): all rigid is the rigid robot
    rigid = cd.ElasticJoints(robot, [np.inf, np.inf], [0.0, 0.0], [0.0, 0.0])
    assert rigid.rigid == [True, True]
    qdd, thetadd = cd.elastic_forward_dynamics(robot, rigid, q0, [0.1, 0.2], q0, [0.1, 0.2],
                                               [1.0, -0.5])
    assert rel(qdd, cd.aba(robot, q0, [0.1, 0.2], [1.0, -0.5])) < 1e-15
    assert rel(thetadd, qdd) == 0.0
    with pytest.raises(ValueError):
        cd.elastic_forward_dynamics(robot, elastic, [0.0], [0.0], [0.0], [0.0], [0.0])


def test_the_stribeck_map_and_lugre_s_steady_state_follow_their_formulas():
    fc, fs, fv, vs = 2.0, 3.0, 0.5, 0.02
    v = np.array([-1.0, -0.03, -0.001, 0.0, 0.001, 0.03, 1.0])
    g = fc + (fs - fc) * np.exp(-(v / vs) ** 2)
    static = g * np.sign(v) + fv * v
    assert rel(cd.stribeck_friction(v, coulomb=fc, static_friction=fs, viscous=fv,
                                    stribeck_velocity=vs), static) < 1e-15
    smooth = cd.stribeck_friction(v, coulomb=fc, static_friction=fs, viscous=fv,
                                  stribeck_velocity=vs, regularization=1e-4, smooth=True)
    assert rel(smooth, g * np.tanh(v / 1e-4) + fv * v) < 1e-15
    # LuGre at its steady state z = g(v) sign(v) / sigma0: zdot = 0 and F = the static map
    sigma0 = 1e4
    z = g * np.sign(v) / sigma0
    force, rate = cd.lugre_friction(v, z, sigma0=sigma0, sigma1=50.0, sigma2=fv, coulomb=fc,
                                    static_friction=fs, stribeck_velocity=vs)
    assert np.max(np.abs(rate)) < 1e-15
    assert rel(force, static) < 1e-12
    with pytest.raises(cd.ModelError, match="Stribeck"):
        cd.stribeck_friction(v, coulomb=3.0, static_friction=2.0)
