"""Kinematic trees from Python (chaindyn.TreeRobot): load_urdf of a file whose joints branch
gives the whole tree, load_urdf_tree any file's; the algorithms take a TreeRobot as a Robot.
Checked against the chains of the same file (each finger's chain, load_urdf with a tip) and
identities. Run by ctest (python:pytest, python:installed) with CHAINDYN_DATA set."""
import os

import numpy as np
import pytest

import chaindyn as cd

DATA = os.environ.get("CHAINDYN_DATA", "")


def urdf_path(name):
    path = os.path.join(DATA, "urdf", name)
    if not DATA or not os.path.exists(path):
        pytest.skip("CHAINDYN_DATA is not set (run through ctest)")
    if not hasattr(cd, "load_urdf_tree"):
        pytest.skip("built without the URDF parser")
    return path


def rel(a, b):
    a, b = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
    assert a.shape == b.shape, (a.shape, b.shape)
    return float(np.max(np.abs(a - b)) / max(1.0, float(np.max(np.abs(b)))))


def test_load_urdf_gives_the_panda_s_whole_tree_with_names_and_the_chains_kinematics():
    path = urdf_path("panda.urdf")
    tree = cd.load_urdf(path)  # branches at the hand: the whole tree
    assert isinstance(tree, cd.TreeRobot)
    assert tree.nq == 9
    assert tree.parents == [-1, 0, 1, 2, 3, 4, 5, 6, 6]
    assert tree.joint_names[7:] == ["panda_finger_joint1", "panda_finger_joint2"]
    assert tree.link_names[8] == "panda_rightfinger"
    assert tree.joint_index("panda_finger_joint2") == 8
    assert tree.joint_kinds[7] == "prismatic"
    assert "panda_hand" in tree.frame_names
    # with a tip, the chain as before
    chain = cd.load_urdf(path, "panda_leftfinger")
    assert isinstance(chain, cd.Robot) and chain.nq == 8
    rng = np.random.default_rng(7)
    q = rng.uniform(-2, 2, 9)
    qd, qdd = rng.uniform(-1, 1, 9), rng.uniform(-3, 3, 9)
    qc = q[:8]
    for frame in ("panda_leftfinger", "panda_hand_tcp"):
        assert rel(cd.frame_pose(tree, q, frame), cd.frame_pose(chain, qc, frame)) < 1e-14
        J = cd.jacobian(tree, q, frame)
        assert rel(J[:, :8], cd.jacobian(chain, qc, frame)) < 1e-14
        assert np.all(J[:, 8] == 0.0)
    # identities: aba inverts rnea, M from rnea's columns, M zero across the fingers
    tau = cd.rnea(tree, q, qd, qdd)
    assert rel(cd.aba(tree, q, qd, tau), qdd) < 1e-9
    assert rel(cd.forward_dynamics_crba(tree, q, qd, tau), qdd) < 1e-9
    M = cd.crba(tree, q)
    assert rel(M @ qdd, tau - cd.rnea(tree, q, qd, 0 * qdd)) < 1e-12  # (friction in both)
    assert M[7, 8] == 0.0 and M[8, 7] == 0.0
    assert rel(cd.gravity_torques(tree, q), cd.rnea(tree, q, 0 * q, 0 * q)) < 1e-14
    # a wrench on the left finger acts through the left finger's chain only
    f = np.zeros((9, 6))
    f[7] = [0.1, -0.2, 0.3, 1.0, 2.0, -3.0]
    delta = cd.rnea(tree, q, qd, qdd, f) - tau
    assert delta[8] == 0.0 and np.max(np.abs(delta[:8])) > 0


def test_a_chain_file_still_loads_as_a_robot_and_load_urdf_tree_loads_any_file():
    iiwa = urdf_path("iiwa14_no_collision.urdf")
    assert isinstance(cd.load_urdf(iiwa), cd.Robot)
    tree = cd.load_urdf_tree(iiwa)
    assert tree.parents == [-1, 0, 1, 2, 3, 4, 5]
    q = np.linspace(-1, 1, 7)
    assert rel(cd.rnea(tree, q, q, q), cd.rnea(cd.load_urdf(iiwa), q, q, q)) < 1e-14
    baxter, report = cd.load_urdf_tree_report(urdf_path("baxter.urdf"))
    assert baxter.nq == 19 and baxter.parents.count(-1) == 3
    assert sum(1 for d in report if d["kind"] == "mimic") == 2


def test_fingers_without_inertia_follow_the_massless_policy():
    path = urdf_path("fixtures/arm_massless_fingers.urdf")
    kin, report = cd.load_urdf_tree_report(path)
    assert not kin.has_dynamics
    assert [d["element"] for d in report if d["kind"] == "massless_joint"] == [
        "joint 'finger_left_joint'", "joint 'finger_right_joint'"]
    q = np.array([0.3, -0.4, 0.01, 0.02])
    assert np.all(np.isfinite(cd.rnea(kin, q, q, q)))
    with pytest.raises(ValueError, match="aba: the tree's mass matrix is singular"):
        cd.aba(kin, q, q, q)
    arm = cd.load_urdf_tree(path, massless="armature")
    assert arm.has_dynamics
    assert list(arm.armature) == [0.0, 0.0, 1e-3, 1e-3]
    assert rel(cd.aba(arm, q, q, cd.rnea(arm, q, q, q)), q) < 1e-9
    with pytest.raises(cd.ModelError, match="finger_left_joint.*moves no mass"):
        cd.load_urdf_tree(path, massless="refuse")
    with pytest.raises(ValueError, match="massless is 'kinematics', 'armature' or 'refuse'"):
        cd.load_urdf_tree(path, massless="maybe")


def test_a_tree_robot_from_links_and_parents():
    links = []
    for _ in range(3):
        link = cd.Link()
        link.axis = [0, 1, 0]
        link.mass = 1.0
        link.com = [0.1, 0, 0]
        link.inertia = np.eye(3) * 0.01
        links.append(link)
    tree = cd.TreeRobot(links, ["revolute"] * 3, [-1, 0, 0])
    assert tree.parents == [-1, 0, 0]
    q = np.array([0.2, 0.3, -0.4])
    M = cd.crba(tree, q)
    assert M[1, 2] == 0.0
    with pytest.raises(cd.ModelError, match="parent"):
        cd.TreeRobot(links, ["revolute"] * 3, [-1, 2, 0])


def test_tree_derivatives_are_central_differences_zero_across_branches_and_the_chain_s():
    rng = np.random.default_rng(7)
    links = []
    for i in range(5):
        link = cd.Link()
        link.axis = rng.normal(size=3)
        link.placement = np.block([[np.eye(3), rng.uniform(-0.3, 0.3, (3, 1))], [0, 0, 0, 1]])
        link.mass = 1.0 + 0.2 * i
        link.com = rng.uniform(-0.1, 0.1, 3)
        link.inertia = np.eye(3) * 0.02
        link.damping = 0.1
        links.append(link)
    parents = [-1, 0, 1, 0, 3]  # two branches on joint 0
    tree = cd.TreeRobot(links, ["revolute", "revolute", "prismatic", "revolute", "revolute"],
                        parents)
    q, qd, x = rng.uniform(-1, 1, 5), rng.uniform(-1, 1, 5), rng.uniform(-1, 1, 5)
    dtau_dq, dtau_dqd = cd.rnea_derivatives(tree, q, qd, x)
    dqdd_dq, dqdd_dqd, dqdd_dtau = cd.aba_derivatives(tree, q, qd, x)
    assert dtau_dq.shape == dtau_dqd.shape == dqdd_dq.shape == dqdd_dtau.shape == (5, 5)

    def central(f, args, which):
        h, out = 1e-6, np.zeros((5, 5))
        for j in range(5):
            plus = [np.array(a, dtype=float) for a in args]
            minus = [np.array(a, dtype=float) for a in args]
            plus[which][j] += h
            minus[which][j] -= h
            out[:, j] = (f(tree, *plus) - f(tree, *minus)) / (2 * h)
        return out

    assert rel(dtau_dq, central(cd.rnea, (q, qd, x), 0)) < 1e-6
    assert rel(dtau_dqd, central(cd.rnea, (q, qd, x), 1)) < 1e-6
    assert rel(dqdd_dq, central(cd.aba, (q, qd, x), 0)) < 1e-6
    assert rel(dqdd_dqd, central(cd.aba, (q, qd, x), 1)) < 1e-6
    assert rel(dqdd_dtau @ cd.crba(tree, q), np.eye(5)) < 1e-10
    for i, j in [(1, 3), (1, 4), (2, 3), (2, 4)]:  # joints on different branches
        assert dtau_dq[i, j] == dtau_dq[j, i] == dtau_dqd[i, j] == dtau_dqd[j, i] == 0.0
    # parents i - 1: the chain Robot's derivatives
    kinds = ["revolute"] * 5
    chain, as_tree = cd.Robot(links, kinds), cd.TreeRobot(links, kinds, [-1, 0, 1, 2, 3])
    for a, b in zip(cd.rnea_derivatives(as_tree, q, qd, x), cd.rnea_derivatives(chain, q, qd, x)):
        assert rel(a, b) < 1e-12
    for a, b in zip(cd.aba_derivatives(as_tree, q, qd, x), cd.aba_derivatives(chain, q, qd, x)):
        assert rel(a, b) < 1e-12


def random_tree(parents, kinds, friction=True, seed=1718):
    """A TreeRobot of random links (damping, Coulomb friction and armature unless friction is
    False), and the links."""
    rng = np.random.default_rng(seed)
    links = []
    for i in range(len(parents)):
        link = cd.Link()
        link.placement = np.block([[np.eye(3), rng.uniform(-0.3, 0.3, (3, 1))], [0, 0, 0, 1]])
        link.axis = rng.uniform(-1, 1, 3)
        link.mass = 1.0 + i
        link.com = rng.uniform(-0.1, 0.1, 3)
        link.inertia = np.diag([0.02, 0.03, 0.04])
        if friction:
            link.damping, link.friction, link.armature = 0.1, 0.2, 0.01
        links.append(link)
    return cd.TreeRobot(links, kinds, parents), links


TORSO = ([-1, 0, 1, 0, 3], ["revolute", "revolute", "revolute", "revolute", "prismatic"])


def test_simulate_a_tree_gives_its_branches_chains_and_aba_at_every_sample():
    # two branches on the base: independent chains, simulated alone with the same steps
    kinds = ["revolute", "prismatic", "revolute", "revolute", "revolute"]
    tree, links = random_tree([-1, 0, 1, -1, 3], kinds)
    a = cd.Robot(links[:3], kinds[:3])
    b = cd.Robot(links[3:], kinds[3:])
    q0, qd0 = np.linspace(-0.5, 0.5, 5), np.linspace(0.3, -0.3, 5)
    for integrator in ("rk4", "semi_implicit_euler"):
        run = cd.simulate(tree, q0, qd0, None, 0.3, integrator=integrator, output_interval=0.01)
        ra = cd.simulate(a, q0[:3], qd0[:3], None, 0.3, integrator=integrator, output_interval=0.01)
        rb = cd.simulate(b, q0[3:], qd0[3:], None, 0.3, integrator=integrator, output_interval=0.01)
        assert np.array_equal(run["t"], ra["t"])
        assert rel(run["q"][:, :3], ra["q"]) < 1e-12 and rel(run["q"][:, 3:], rb["q"]) < 1e-12
        assert rel(run["qd"][:, :3], ra["qd"]) < 1e-12 and rel(run["qd"][:, 3:], rb["qd"]) < 1e-12
    # a branching tree under a controller (RK45; no Coulomb friction, whose jump at qd = 0 makes
    # an adaptive step chatter): qdd is aba's, tau the controller's
    torso, _ = random_tree(*TORSO, friction=False)
    gains = np.array([20.0, 15.0, 10.0, 15.0, 50.0])
    run = cd.simulate(torso, np.zeros(5), np.zeros(5), lambda t, q, qd: -gains * (q - 0.2) - qd,
                      0.5, rtol=1e-9, atol=1e-12)
    assert run["steps"] > 5
    for k in range(0, len(run["t"]), 5):
        q, qd, tau = run["q"][k], run["qd"][k], run["tau"][k]
        assert rel(tau, -gains * (q - 0.2) - qd) < 1e-14
        assert rel(run["qdd"][k], cd.aba(torso, q, qd, tau)) < 1e-12
    with pytest.raises(ValueError, match="controller"):
        cd.simulate(torso, np.zeros(5), np.zeros(5), lambda t, q, qd: np.zeros(4), 0.1)


def test_batch_on_a_tree_equals_the_one_state_functions():
    tree, _ = random_tree(*TORSO)
    rng = np.random.default_rng(1719)
    n = 9
    q, qd, qdd = (rng.uniform(-2, 2, (5, n)) for _ in range(3))
    for threads in (1, 2):
        tau = cd.batch.rnea(tree, q, qd, qdd, threads=threads)
        acc = cd.batch.aba(tree, q, qd, tau, threads=threads)
        ms = cd.batch.crba(tree, q, threads=threads)
        poses = cd.batch.frame_pose(tree, q, 4, threads=threads)
        js = cd.batch.jacobian(tree, q, 2, "local", threads=threads)
        for s in range(n):
            assert rel(tau[:, s], cd.rnea(tree, q[:, s], qd[:, s], qdd[:, s])) < 1e-13
            assert rel(acc[:, s], qdd[:, s]) < 1e-9
            assert rel(ms[s], cd.crba(tree, q[:, s])) < 1e-13
            assert ms[s][1, 3] == 0.0  # different branches
            assert rel(poses[s], cd.frame_pose(tree, q[:, s], 4)) < 1e-13
            assert rel(js[s], cd.jacobian(tree, q[:, s], 2, "local")) < 1e-13
    assert cd.batch.workspaces(tree) == [1, 2]
    with pytest.raises(TypeError):
        cd.batch.rnea_derivatives(tree, q, qd, qdd)  # serial chains only


def test_task_space_on_a_tree_equals_the_dense_route():
    tree, _ = random_tree(*TORSO)
    rng = np.random.default_rng(1720)
    q, qd = rng.uniform(-2, 2, 5), rng.uniform(-1, 1, 5)
    M = cd.crba(tree, q)
    for link in (2, 4):  # the end of each arm: three joints on its support
        offset = np.block([[np.eye(3), np.array([[0.1], [0.0], [0.05]])], [0, 0, 0, 1]])
        J = cd.jacobian(tree, q, link, "world", offset)[3:]
        lambda_inv = J @ np.linalg.solve(M, J.T)
        os = cd.operational_space_inertia(tree, q, link, "world", offset, position=True)
        assert rel(os["Lambda_inv"], lambda_inv) < 1e-12
        assert rel(os["Lambda"], np.linalg.inv(lambda_inv)) < 1e-9
        dyn = cd.operational_space_dynamics(tree, q, qd, link, "world", offset, position=True)
        jbar = np.linalg.solve(M, J.T) @ dyn["Lambda"]
        assert rel(dyn["jbar"], jbar) < 1e-9
        g = cd.gravity_torques(tree, q)
        assert rel(dyn["p"], jbar.T @ g) < 1e-9
        N = cd.null_space_projector(tree, q, link, offset, position=True)
        assert rel(N, np.eye(5) - jbar @ J) < 1e-9
        assert np.max(np.abs(J @ N)) < 1e-9


def test_two_hands_of_a_tree_at_once_equal_the_dense_route():
    tree, _ = random_tree(*TORSO)
    rng = np.random.default_rng(1721)
    q = rng.uniform(-2, 2, 5)
    M = cd.crba(tree, q)
    J = np.vstack([cd.jacobian(tree, q, 2), cd.jacobian(tree, q, 4)])
    os = cd.operational_space_inertia_frames(tree, q, [2, 4])
    assert rel(os["Lambda_inv"], J @ np.linalg.solve(M, J.T)) < 1e-12
    assert rel(os["Lambda_inv"][:6, :6], cd.operational_space_inertia(tree, q, 2)["Lambda_inv"]) < 1e-12
    with pytest.raises(ValueError):
        cd.operational_space_inertia_frames(tree, q, [2])
