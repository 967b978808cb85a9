#!/usr/bin/env python3
"""The falling two-link arm of the lecture notes (uniform rods 3 kg / 1 kg, 2 m / 1 m), released
horizontal with no torque: chaindyn's aba (rk45) against the Lagrangian closed form integrated
by the same integrator on the closed form's forward dynamics, and the energy balance; writes the
fall as a viewer page (chaindyn.view).

    python3 -m chaindyn.examples.two_link_falling [--out DIR]
    (from the build tree: PYTHONPATH=build/release/python)
"""
import argparse
import os

import numpy as np

import chaindyn as cd

parser = argparse.ArgumentParser()
parser.add_argument("--out", default="chaindyn_output")
out = parser.parse_args().out
os.makedirs(out, exist_ok=True)

arm = cd.closed_form.TwoLinkArm.uniform_rods(3.0, 1.0, 2.0, 1.0)
robot = arm.to_robot()  # gravity along -y, the arm in the x-y plane
run = cd.simulate(robot, [0.0, 0.0], [0.0, 0.0], None, 2.0, output_interval=0.01,
                  rtol=1e-10, atol=1e-12)
# the closed form's forward dynamics at the simulated states equals aba's accelerations
worst = max(float(np.max(np.abs(arm.forward_dynamics(q, qd, [0.0, 0.0]) - qdd)))
            for q, qd, qdd in zip(run["q"], run["qd"], run["qdd"]))
energy = np.array([arm.kinetic_energy(q, qd) + arm.potential_energy(q)
                   for q, qd in zip(run["q"], run["qd"])])
print(f"falling two-link arm, 2 s: {run['steps']} rk45 steps; max |qdd_aba - qdd_closed| = "
      f"{worst:.1e} rad/s^2; energy drift {np.max(np.abs(energy - energy[0])):.1e} J")
assert worst < 1e-9

try:  # the fall in the browser (chaindyn.view)
    cd.view(robot, run, title="two-link arm falling", open_browser=False,
            out=os.path.join(out, "py_two_link_falling.html"))
except cd.viewer.ViewerError as error:
    print("no viewer page:", error)

try:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
except ImportError:
    print("matplotlib not installed: no plot")
    raise SystemExit(0)
fig, ax = plt.subplots(figsize=(7, 4))
ax.plot(run["t"], run["q"][:, 0], label="q1")
ax.plot(run["t"], run["q"][:, 1], label="q2")
ax.set(xlabel="t (s)", ylabel="rad", title="Two-link arm falling from horizontal (aba, rk45)")
ax.legend()
fig.tight_layout()
path = os.path.join(out, "py_two_link_falling.png")
fig.savefig(path)
print("plot:", os.path.abspath(path))
