"""chaindyn.batch (many states per call) against the one-state bindings, column by column:
every batch function, batch sizes around the pack width (1, 3, 8, 9) and 100, one and two
threads, inputs in Fortran order, C order and as slices; the workspace cache; bad inputs."""
import threading

import numpy as np
import pytest

import chaindyn as cd

TOL = 1e-12  # relative, per state (the C++ tests: 1e-14, aba's outputs times cond(M))
SIZES = (1, 3, 8, 9, 100)


def rel(a, b):
    a, b = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
    assert a.shape == b.shape, (a.shape, b.shape)
    return float(np.max(np.abs(a - b)) / max(1.0, float(np.max(np.abs(b)))))


def random_robot():
    """Five joints of both kinds about random axes, with damping, Coulomb friction, armature."""
    rng = np.random.default_rng(1717)
    links = []
    for i in range(5):
        link = cd.Link()
        link.placement = np.block([[np.eye(3), rng.uniform(-0.3, 0.3, (3, 1))], [0, 0, 0, 1]])
        link.axis = rng.uniform(-1, 1, 3)
        link.mass = 1.0 + i
        link.com = rng.uniform(-0.1, 0.1, 3)
        link.inertia = np.diag([0.02, 0.03, 0.04])
        link.damping, link.friction, link.armature = 0.1, 0.2, 0.01
        links.append(link)
    return cd.Robot(links, ["revolute", "prismatic", "revolute", "prismatic", "revolute"])


ROBOTS = {"kuka_iiwa": cd.robots.kuka_iiwa, "random": random_robot}


def states(rng, nq, n):
    """Q, Qd, Qdd as (nq, n) arrays; column 0 has qd = 0 (Coulomb friction's sign 0)."""
    q = rng.uniform(-3, 3, (nq, n))
    qd = rng.uniform(-2, 2, (nq, n))
    qd[:, 0] = 0.0
    return q, qd, rng.uniform(-2, 2, (nq, n))


@pytest.mark.parametrize("name", sorted(ROBOTS))
@pytest.mark.parametrize("threads", (1, 2))
def test_every_batch_function_equals_the_one_state_function_column_by_column(name, threads):
    r = ROBOTS[name]()
    nq, last = r.nq, r.nq - 1
    rng = np.random.default_rng(17 + threads)
    for n in SIZES:
        q, qd, qdd = states(rng, nq, n)
        tau = cd.batch.rnea(r, q, qd, qdd, threads=threads)
        acc = cd.batch.aba(r, q, qd, tau, threads=threads)
        ms = cd.batch.crba(r, q, threads=threads)
        poses = cd.batch.frame_pose(r, q, last, threads=threads)
        jw = cd.batch.jacobian(r, q, last, threads=threads)
        jl = cd.batch.jacobian(r, q, last, "local", threads=threads)
        vel = cd.batch.frame_velocity(r, q, qd, last, threads=threads)
        acl = cd.batch.frame_acceleration(r, q, qd, qdd, last, "local", threads=threads)
        dq, dqd = cd.batch.rnea_derivatives(r, q, qd, qdd, threads=threads)
        aq, aqd, atau = cd.batch.aba_derivatives(r, q, qd, tau, threads=threads)
        assert tau.shape == acc.shape == (nq, n)
        assert ms.shape == dq.shape == aq.shape == atau.shape == (n, nq, nq)
        assert poses.shape == (n, 4, 4) and jw.shape == (n, 6, nq)
        assert vel.shape == acl.shape == (6, n)
        for s in range(n):
            x, xd, xdd, t = q[:, s], qd[:, s], qdd[:, s], tau[:, s]
            assert rel(tau[:, s], cd.rnea(r, x, xd, xdd)) < TOL
            assert rel(acc[:, s], cd.aba(r, x, xd, t)) < TOL
            assert rel(ms[s], cd.crba(r, x)) < TOL
            assert rel(poses[s], cd.frame_pose(r, x, last)) < TOL
            assert rel(jw[s], cd.jacobian(r, x, last)) < TOL
            assert rel(jl[s], cd.jacobian(r, x, last, "local")) < TOL
            assert rel(vel[:, s], cd.frame_velocity(r, x, xd, last)) < TOL
            assert rel(acl[:, s], cd.frame_acceleration(r, x, xd, xdd, last, "local")) < TOL
            one = cd.rnea_derivatives(r, x, xd, xdd)
            assert rel(dq[s], one[0]) < TOL and rel(dqd[s], one[1]) < TOL
            one = cd.aba_derivatives(r, x, xd, t)
            assert rel(aq[s], one[0]) < TOL and rel(aqd[s], one[1]) < TOL
            assert rel(atau[s], one[2]) < TOL


def test_any_memory_order_and_dtype_is_read_and_outputs_are_fortran_ordered():
    r = cd.robots.kuka_iiwa()
    rng = np.random.default_rng(3)
    q, qd, qdd = states(rng, 7, 20)
    tau = cd.batch.rnea(r, q, qd, qdd)
    assert tau.flags.f_contiguous
    # C order, Fortran order, a strided slice, a reversed slice (copied), float32 (converted)
    wide = rng.uniform(-1, 1, (7, 40))
    wide[:, ::2] = q
    for args in [(np.ascontiguousarray(q), np.asfortranarray(qd), qdd),
                 (wide[:, ::2], qd, qdd)]:
        assert np.array_equal(cd.batch.rnea(r, *args), tau)
    assert np.array_equal(cd.batch.rnea(r, q[:, ::-1], qd[:, ::-1], qdd[:, ::-1]), tau[:, ::-1])
    q32 = q.astype(np.float32)
    assert np.array_equal(cd.batch.crba(r, q32), cd.batch.crba(r, q32.astype(np.float64)))
    # each state's matrix is a Fortran-ordered block of the (N, nq, nq) result
    ms = cd.batch.crba(r, q)
    assert ms[5].flags.f_contiguous
    # no states: empty results of the documented shapes
    empty = np.zeros((7, 0))
    assert cd.batch.rnea(r, empty, empty, empty).shape == (7, 0)
    assert cd.batch.crba(r, empty).shape == (0, 7, 7)
    assert cd.batch.frame_pose(r, empty, 6).shape == (0, 4, 4)


def test_workspace_is_kept_per_robot_and_thread_count_and_follows_the_model():
    r = cd.robots.kuka_iiwa()
    rng = np.random.default_rng(5)
    q, qd, qdd = states(rng, 7, 9)
    assert cd.batch.workspaces(r) == []
    cd.batch.rnea(r, q, qd, qdd)
    cd.batch.rnea(r, q, qd, qdd, threads=2)
    cd.batch.rnea(r, q, qd, qdd, threads=2)
    cd.batch.aba(r, q, qd, qdd, threads=0)  # every hardware thread
    kept = cd.batch.workspaces(r)
    assert kept[:2] == [1, 2] and len(kept) in (2, 3)  # 3: threads=0 is not 1 or 2
    # the state is the binding's, not the robot's __dict__; a copy starts without workspaces
    assert "_batch_workspaces" not in r.__dict__
    assert cd.batch.workspaces(r.copy()) == []
    # a payload, gravity: the workspaces are dropped and the next call sees the new model
    r.set_payload(6, 2.0, [0, 0, 0.1])
    assert cd.batch.workspaces(r) == []
    tau = cd.batch.rnea(r, q, qd, qdd, threads=2)
    assert rel(tau[:, 4], cd.rnea(r, q[:, 4], qd[:, 4], qdd[:, 4])) < TOL
    r.gravity = [0.0, -9.81, 0.0]
    tau = cd.batch.rnea(r, q, qd, qdd)
    assert rel(tau[:, 8], cd.rnea(r, q[:, 8], qd[:, 8], qdd[:, 8])) < TOL
    r.clear_payload(6)
    assert rel(cd.batch.crba(r, q)[3], cd.crba(r, q[:, 3])) < TOL
    # two Python threads with one robot (the GIL is released during the call)
    big = states(rng, 7, 500)
    want = cd.batch.aba(r, *big)
    results = []
    workers = [threading.Thread(target=lambda: results.append(cd.batch.aba(r, *big)))
               for _ in range(4)]
    for w in workers:
        w.start()
    for w in workers:
        w.join()
    assert len(results) == 4 and all(np.array_equal(x, want) for x in results)


def test_bad_batch_inputs_raise_with_clear_messages():
    r = cd.robots.kuka_iiwa()
    q = np.zeros((7, 5))
    with pytest.raises(ValueError, match=r"batch.rnea: Qd has shape \(7, 4\); expected \(7, 5\)"):
        cd.batch.rnea(r, q, np.zeros((7, 4)), q)
    with pytest.raises(ValueError, match=r"batch.crba: Q has shape \(7,\); expected \(7, N\)"):
        cd.batch.crba(r, np.zeros(7))
    with pytest.raises(ValueError, match=r"batch.aba: Q has shape \(5, 7\); expected \(7, N\)"):
        cd.batch.aba(r, q.T, q, q)
    bad = q.copy()
    bad[3, 2] = np.inf
    with pytest.raises(ValueError, match=r"batch.aba_derivatives: Tau\[3, 2\] is not finite"):
        cd.batch.aba_derivatives(r, q, q, bad)
    # the check in every memory order (C: rows contiguous, Fortran: columns, a strided view:
    # neither), for inf, -inf and NaN; large finite numbers pass
    for view in (lambda x: np.ascontiguousarray(x), lambda x: np.asfortranarray(x),
                 lambda x: np.repeat(x, 2, axis=1)[:, ::2]):
        for value in (np.inf, -np.inf, np.nan):
            bad = q.copy()
            bad[6, 4] = value
            with pytest.raises(ValueError, match=r"batch.rnea: Qdd\[6, 4\] is not finite"):
                cd.batch.rnea(r, q, q, view(bad))
        assert cd.batch.rnea(r, q, q, view(np.full((7, 5), 1e300))).shape == (7, 5)
    with pytest.raises(TypeError, match="must be an array of real numbers"):
        cd.batch.rnea(r, "abc", q, q)
    with pytest.raises(TypeError, match="complex"):
        cd.batch.rnea(r, q + 1j, q, q)
    with pytest.raises(ValueError, match="options.threads is -1"):
        cd.batch.rnea(r, q, q, q, threads=-1)
    with pytest.raises(TypeError):
        cd.batch.rnea(r, q, q, q, 2)  # threads is keyword-only
    with pytest.raises(IndexError, match="no frame named 'tool0'"):
        cd.batch.frame_pose(r, q, "tool0")
    with pytest.raises(ValueError, match="reference is 'world' or 'local'"):
        cd.batch.jacobian(r, q, 6, "base")
