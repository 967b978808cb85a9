#!/usr/bin/env python3
"""Microseconds per call from Python on the iiwa (chaindyn.robots.kuka_iiwa(), a ChainX),
minimum over repetitions of 20000 calls: the numbers of docs/python.md, "Per-call overhead".

    PYTHONPATH=build/release/python python3 python/bench_overhead.py
"""
import timeit

import numpy as np

import chaindyn as cd

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
}
n = 20000
for name, f in calls.items():
    best = min(timeit.repeat(f, number=n, repeat=7)) / n
    print(f"{name:32s} {best * 1e6:6.2f} us")
