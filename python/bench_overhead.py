#!/usr/bin/env python3
"""Microseconds per call from Python on the iiwa (chaindyn.robots.kuka_iiwa(), a ChainX),
minimum over 7 repetitions of 20000 calls, and the cost per state of chaindyn.batch against a
Python loop of one-state calls: the numbers of docs/python.md, "Per-call overhead".

Times are the process's CPU time (time.process_time: the time this process ran, whatever else
runs on the machine; with threads=2 it sums both threads, so the speed-up of a second thread
is shown in wall time, meaningful only on a quiet machine).

    PYTHONPATH=build/release/python python3 python/bench_overhead.py
"""
import os
import time
import timeit

import numpy as np

import chaindyn as cd


def best(f, number, repeat=7, timer=time.process_time):
    return min(timeit.repeat(f, number=number, repeat=repeat, timer=timer)) / number


robot = cd.robots.kuka_iiwa()
q, qd, qdd = np.full(7, 0.3), np.full(7, 0.2), np.full(7, -0.1)
calls = {
    "rnea": lambda: cd.rnea(robot, q, qd, qdd),
    "crba": lambda: cd.crba(robot, q),
    "aba": lambda: cd.aba(robot, q, qd, qdd),
    "gravity_torques": lambda: cd.gravity_torques(robot, q),
    "jacobian (frame by index)": lambda: cd.jacobian(robot, q, 6),
    "rnea, lists instead of arrays": lambda: cd.rnea(robot, [0.3] * 7, [0.2] * 7, [-0.1] * 7),
    "numpy: q + qd (for scale)": lambda: q + qd,
    "batch.rnea, 1 state": lambda: cd.batch.rnea(robot, q[:, None], qd[:, None], qdd[:, None]),
}
print(f"load average {os.getloadavg()[0]:.2f}; CPU time per call, us")
for name, f in calls.items():
    print(f"  {name:32s} {best(f, 20000) * 1e6:7.2f}")

# Many states: one batch call against the one-state calls in a Python loop, per state.
n = 1000
rng = np.random.default_rng(0)
Q, Qd, Qdd = (rng.uniform(-2, 2, (7, n)) for _ in range(3))
Tau = cd.batch.rnea(robot, Q, Qd, Qdd)
# the loop's best case: each state's vectors as contiguous 1-D arrays (read without a copy)
cols = [tuple(np.ascontiguousarray(x[:, s]) for x in (Q, Qd, Qdd, Tau)) for s in range(n)]
pairs = {
    "rnea": (lambda th: cd.batch.rnea(robot, Q, Qd, Qdd, threads=th),
             lambda: [cd.rnea(robot, a, b, c) for a, b, c, _ in cols]),
    "aba": (lambda th: cd.batch.aba(robot, Q, Qd, Tau, threads=th),
            lambda: [cd.aba(robot, a, b, t) for a, b, _, t in cols]),
    "crba": (lambda th: cd.batch.crba(robot, Q, threads=th),
             lambda: [cd.crba(robot, a) for a, _, _, _ in cols]),
    "rnea_derivatives": (lambda th: cd.batch.rnea_derivatives(robot, Q, Qd, Qdd, threads=th),
                         lambda: [cd.rnea_derivatives(robot, a, b, c) for a, b, c, _ in cols]),
    "aba_derivatives": (lambda th: cd.batch.aba_derivatives(robot, Q, Qd, Tau, threads=th),
                        lambda: [cd.aba_derivatives(robot, a, b, t) for a, b, _, t in cols]),
}
print(f"\n{n} states, us per state: Python loop of one-state calls, one batch call (CPU time, "
      "1 thread), speed-up; batch with 1 and 2 threads (wall time)")
for name, (batch, loop) in pairs.items():
    t_loop = best(loop, 3) / n
    t_batch = best(lambda: batch(1), 20) / n
    w1 = best(lambda: batch(1), 20, timer=time.perf_counter) / n
    w2 = best(lambda: batch(2), 20, timer=time.perf_counter) / n
    print(f"  {name:18s} loop {t_loop * 1e6:6.2f}  batch {t_batch * 1e6:6.3f}  "
          f"x{t_loop / t_batch:5.1f}   wall: 1 thread {w1 * 1e6:6.3f}, 2 threads {w2 * 1e6:6.3f}")
