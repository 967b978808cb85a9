#!/usr/bin/env python3
"""Draws chaindyn's figures from the CSV files the examples and benchmarks/op_count write.

    scripts/plot.py DIR [--formats png,svg]

For each figure of FIGURES whose CSV file is in DIR, writes DIR/<name>.png and DIR/<name>.svg
(--formats: which of the two; CTest's example:plots draws one, the checks are the same).
A missing CSV file skips its figures with a message; a malformed one (ragged rows, a missing
column, a value that is not a number) is an error naming the file. Exit status: 0 when every
figure whose CSV was there is drawn (and at least one was), 1 on an error, 77 when matplotlib
is missing (Debian: python3-matplotlib; ctest counts 77 as skipped).

The CSV columns carry their units (t_s, q_rad, tau_Nm: examples/support/output.hpp); each
figure is a row of the table below: its CSV, x column, lines (y columns), titles and scales.
"""
import argparse
import csv
import math
import os
import sys

try:
    import matplotlib
except ImportError:
    # Debian's python3-matplotlib is installed for /usr/bin/python3, which another python3
    # first on PATH (pyenv, a virtualenv) does not see: try that one before giving up.
    DEBIAN = "/usr/bin/python3"
    if os.path.exists(DEBIAN) and os.path.realpath(sys.executable) != os.path.realpath(DEBIAN):
        os.execv(DEBIAN, [DEBIAN] + sys.argv)
    print("plot.py: matplotlib is missing (Debian: apt install python3-matplotlib)",
          file=sys.stderr)
    sys.exit(77)
matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import numpy as np  # noqa: E402
from matplotlib.ticker import FormatStrFormatter  # noqa: E402

DEG = 180 / math.pi  # rad -> deg, for a figure's y_factor
GREY = "0.45"
OUTSIDE = dict(loc="upper left", bbox_to_anchor=(1.01, 1))  # legend right of the axes


def line(y, label=None, x=None, **style):
    """One line of a figure: the column y (in a figure with `group`: the rows whose group column
    equals y), its legend label (None: not in the legend), the column x if not the figure's,
    matplotlib style keywords."""
    return {"y": y, "label": label, "x": x, "style": style}


JOINTS = range(1, 8)  # the iiwa's
BAXTER_JOINTS = ("s0", "s1", "e0", "e1", "w0", "w1", "w2")  # each arm's, in the URDF's names
OP_COUNT_STYLE = {  # the algorithms' colours in both op_count figures; O(n^4) ones dashed
    "rnea": {"color": "#0072B2"}, "crba": {"color": "#E69F00"}, "aba": {"color": "#009E73"},
    "forward_dynamics_crba": {"color": "#D55E00"},
    "lagrange_euler": {"color": "black", "ls": "--"},
    "lagrange_euler_mass_matrix": {"color": GREY, "ls": "--"},
}

# Keys: name (output file stem), csv, title, x, xlabel, ylabel, lines; optional: where (only
# rows whose columns equal these values), group (lines select rows by this column, y is the
# column plotted), y_factor (multiplies every y), xlim, xlog / ylog (log axis of that base;
# base 2 labels plain numbers), equal (same scale on both axes), size (inches), legend
# (matplotlib legend keywords).
FIGURES = [
    dict(name="one_link_trajectory", csv="one_link_inverse_dynamics.csv",
         title="One-link arm: cycloidal trajectory 0 → π in 10 s",
         x="t_s", xlabel="t [s]", ylabel="q [rad], qd [rad/s], qdd [rad/s²]",
         lines=[line("q_rad", "q"), line("qd_rad_s", "qd", ls=":"),
                line("qdd_rad_s2", "qdd", ls="-.")]),
    dict(name="one_link_torque", csv="one_link_inverse_dynamics.csv",
         title="One-link arm: joint torque along the cycloid",
         x="t_s", xlabel="t [s]", ylabel="τ [N m]",
         lines=[line("tau_rnea_Nm", "rnea"),
                line("tau_closed_form_Nm", "closed form (the notes' 51 samples)", ls="none",
                     marker="o", ms=4, markevery=4)]),
    dict(name="one_link_free_swing", csv="one_link_free_swing.csv",
         title="One-link arm swinging freely from q = π/2 (RK45, rtol 1e-10)",
         x="t_s", xlabel="t [s]", ylabel="q [rad], qd [rad/s]",
         lines=[line("q_rk45_tight_rad", "q"), line("qd_rk45_tight_rad_s", "qd", ls="--")]),
    dict(name="one_link_energy_drift", csv="one_link_free_swing.csv",
         title="Energy error |E(t) − E(0)| of each integrator",
         x="t_s", xlabel="t [s]", ylabel="|E(t) − E(0)| [J]", ylog=10,
         legend=OUTSIDE,
         lines=[line("abs_dE_euler_J", "semi-implicit Euler, dt 1 ms"),
                line("abs_dE_rk4_J", "RK4, dt 1 ms"),
                line("abs_dE_rk45_ode45_J", "RK45, rtol 1e-3 (ode45 default)", ls="--"),
                line("abs_dE_rk45_tight_J", "RK45, rtol 1e-10", ls="-.")]),
    dict(name="two_link_angles", csv="two_link_falling.csv",
         title="Two-link arm falling from rest at q = 0: joint angles",
         x="t_s", xlabel="t [s]", ylabel="q [rad]",
         lines=[line("q1_rad", "q1", color="C0"), line("q2_rad", "q2", color="C1"),
                line("q1_ode45_defaults_rad", "q1, ode45's default tolerances", color="C0",
                     ls=":"),
                line("q2_ode45_defaults_rad", "q2, ode45's default tolerances", color="C1",
                     ls=":")]),
    dict(name="two_link_rates", csv="two_link_falling.csv",
         title="Two-link arm falling from rest at q = 0: joint rates",
         x="t_s", xlabel="t [s]", ylabel="qd [rad/s]",
         lines=[line("qd1_rad_s", "qd1"), line("qd2_rad_s", "qd2")]),
    dict(name="spherical_pendulum_path", csv="spherical_pendulum.csv",
         title="Spherical pendulum from above: the bob's path",
         x="x_m", xlabel="x [m]", ylabel="y [m]", equal=True, size=(5.6, 5.6),
         legend=dict(loc="center"),  # the orbit leaves the middle free
         lines=[line("y_m", "bob"),
                line("y_m", "release", ls="none", marker="o", markevery=[0], color="C1")]),
    dict(name="spherical_pendulum_angles", csv="spherical_pendulum.csv",
         title="Spherical pendulum: polar angle θ",
         x="t_s", xlabel="t [s]", ylabel="θ [deg]", y_factor=DEG, legend=OUTSIDE,
         lines=[line("theta_rad", "θ"),
                line("theta_turning_upper_rad", "turning points from E and p_φ", color=GREY,
                     ls="--", lw=1),
                line("theta_turning_lower_rad", None, color=GREY, ls="--", lw=1)]),
    dict(name="arm_control_pd", csv="arm_control_pd.csv",
         title="iiwa: gravity compensation + PD to a set point",
         x="t_s", xlabel="t [s]", ylabel="q [deg]", y_factor=DEG, xlim=(0, 2),
         legend=OUTSIDE,
         lines=[line(f"q{j}_rad", f"joint {j}") for j in JOINTS] +
               [line(f"q{j}_goal_rad", "goal" if j == 1 else None, color=GREY, ls="--", lw=1)
                for j in JOINTS]),
    dict(name="arm_control_tracking_error", csv="arm_control_tracking.csv",
         title="iiwa: computed-torque tracking error",
         x="t_s", xlabel="t [s]", ylabel="e = q_d − q [deg]", y_factor=DEG, xlim=(0, 1.5),
         legend=OUTSIDE,
         lines=[line(f"e{j}_rad", f"joint {j}") for j in JOINTS] +
               [line(f"e{j}_analytic_rad", "e0 (1 + ωt) exp(−ωt)" if j == 1 else None,
                     color=GREY, ls=":", lw=1.5) for j in JOINTS]),
    dict(name="operational_space_path", csv="operational_space_control.csv",
         title="iiwa operational-space control: the flange's circle on the wall (y-z plane)",
         x="y_m", xlabel="y [m]", ylabel="z [m]", equal=True, legend=OUTSIDE,
         lines=[line("z_d_m", "desired", color=GREY, ls="--", x="y_d_m"),
                line("z_m", "flange", color="C0")]),
    dict(name="operational_space_error", csv="operational_space_control.csv",
         title="iiwa operational-space control: path error in the wall's plane",
         x="t_s", xlabel="t [s]", ylabel="|e_yz| [mm]", y_factor=1e3, legend=OUTSIDE,
         lines=[line("e_yz_m", "|p_d − p| in y, z", color="C0"),
                line("e_yz_analytic_m", "e0 (1 + ωt) exp(−ωt)", color=GREY, ls=":", lw=1.5)]),
    dict(name="operational_space_force", csv="operational_space_control.csv",
         title="iiwa operational-space control: contact force on the wall",
         x="t_s", xlabel="t [s]", ylabel="force [N]", legend=OUTSIDE,
         lines=[line("f_contact_N", "contact force", color="C3"),
                line("f_push_N", "F_push", color=GREY, ls="--", lw=1)]),
    dict(name="mppi", csv="mppi.csv",
         title="iiwa: MPPI, 1,024 rollouts per control step (batch::aba)",
         x="t_s", xlabel="t [s]", ylabel="q [deg]", y_factor=DEG, legend=OUTSIDE,
         lines=[line(f"q{j}_rad", f"joint {j}") for j in JOINTS] +
               [line(f"q{j}_goal_rad", "goal" if j == 1 else None, color=GREY, ls="--", lw=1)
                for j in JOINTS]),
    dict(name="pick_and_place_tracking", csv="pick_and_place_adaptive.csv",
         title="iiwa pick and place: tracking error |q_d − q| of three computed-torque models",
         x="t_s", xlabel="t [s] (grasp at 2 s, release at 5 s)", ylabel="|q_d − q| [mrad]",
         y_factor=1e3, ylog=10, legend=OUTSIDE,
         lines=[line("e_without_rad", "without the object", color="C3"),
                line("e_exact_rad", "exact object (oracle)", color="C2"),
                line("e_adapted_rad", "adapted online", color="C0")]),
    dict(name="pick_and_place_residual", csv="pick_and_place_adaptive.csv",
         title="iiwa pick and place: torque prediction residual of each model",
         x="t_s", xlabel="t [s]", ylabel="|τ − rnea_model(q, qd, qdd)| [N m] (filtered)",
         ylog=10, legend=OUTSIDE,
         lines=[line("r_without_Nm", "without the object", color="C3"),
                line("r_exact_Nm", "exact object (oracle)", color="C2"),
                line("r_adapted_Nm", "adapted online", color="C0")]),
    dict(name="pick_and_place_mass", csv="pick_and_place_adaptive.csv",
         title="iiwa pick and place: the payload mass attached by the adapted controller",
         x="t_s", xlabel="t [s]", ylabel="mass [kg]", legend=OUTSIDE,
         lines=[line("mass_true_kg", "held object (truth)", color=GREY, ls="--"),
                line("mass_adapted_kg", "attached (OnlinePayloadEstimator)", color="C0")]),
    dict(name="learning_vs_adaptation_prediction", csv="learning_vs_adaptation_near.csv",
         title="elastic iiwa, held-out pick and place near the training motions: torque prediction",
         x="t_s", xlabel="t [s] (grasp 1.9–2.4 s, carry, place 4.3–4.8 s, return)",
         ylabel="|τ − model(q, qd, qdd)| [N m] (a priori)", ylog=10, legend=OUTSIDE,
         lines=[line("r_rigid_Nm", "(a) rigid CAD", color="C3"),
                line("r_adapted_Nm", "(b) adapted online", color="C0"),
                line("r_learned_Nm", "(c) learned residual (sparse GP)", color="C2"),
                line("r_both_Nm", "(d) adapted + learned", color="C1")]),
    dict(name="learning_vs_adaptation_tracking", csv="learning_vs_adaptation_near.csv",
         title="elastic iiwa, held-out pick and place near the training motions: tracking",
         x="t_s", xlabel="t [s]", ylabel="|q_d − q| [mrad]", y_factor=1e3, ylog=10,
         legend=OUTSIDE,
         lines=[line("e_rigid_rad", "(a) rigid CAD", color="C3"),
                line("e_adapted_rad", "(b) adapted online", color="C0"),
                line("e_learned_rad", "(c) learned residual (sparse GP)", color="C2"),
                line("e_both_rad", "(d) adapted + learned", color="C1")]),
    dict(name="learning_vs_adaptation_far", csv="learning_vs_adaptation_far.csv",
         title="elastic iiwa, held-out pick and place far from the training motions",
         x="t_s", xlabel="t [s] (grasp 1.4–1.9 s, carry, place 3.3–3.8 s, return)",
         ylabel="|τ − model(q, qd, qdd)| [N m] (a priori)", ylog=10, legend=OUTSIDE,
         lines=[line("r_rigid_Nm", "(a) rigid CAD", color="C3"),
                line("r_adapted_Nm", "(b) adapted online", color="C0"),
                line("r_learned_Nm", "(c) learned residual (sparse GP)", color="C2", ls="--"),
                line("r_both_Nm", "(d) adapted + learned", color="C1", ls="--")]),
    dict(name="space_manipulator_attitude", csv="space_manipulator.csv",
         title="iiwa on a free-floating satellite: the arm's loop turns the satellite",
         x="t_s", xlabel="t [s]", ylabel="angle [rad]", legend=OUTSIDE,
         lines=[line("roll_rad", "satellite roll"), line("pitch_rad", "satellite pitch"),
                line("yaw_rad", "satellite yaw"),
                line("q1_rad", "joint 1", color=GREY, ls=":"),
                line("q4_rad", "joint 4", color=GREY, ls="--")]),
    dict(name="space_manipulator_momentum", csv="space_manipulator.csv",
         title="Total momentum and centre of mass: change from t = 0 (RK4 on the manifold, 1 ms)",
         x="t_s", xlabel="t [s]", ylabel="|h(t) − h(0)| [N m s], |c(t) − c(0)| [m]", ylog=10,
         legend=OUTSIDE,
         lines=[line("abs_dh_bodies", "momentum, summed over the bodies (Jacobians)"),
                line("abs_dh_Ag", "momentum, A_G v", ls="--"),
                line("abs_dcom_m", "centre of mass", ls=":")]),
    dict(name="mobile_manipulator_path", csv="mobile_manipulator.csv",
         title="UR5 on a wheeled base, from above: the base drives an arc, the tool holds a line",
         x="base_x_m", xlabel="x [m]", ylabel="y [m]", equal=True, legend=OUTSIDE,
         lines=[line("base_y_m", "base origin"),
                line("target_y_m", "tool target (a straight line)", x="target_x_m", color=GREY,
                     ls="--"),
                line("tool_y_m", "tool, simulated from the computed torques", x="tool_x_m",
                     ls=":", lw=2.5)]),
    dict(name="mobile_manipulator_torques", csv="mobile_manipulator.csv",
         title="UR5 on a wheeled base: joint torques (rnea along the motion)",
         x="t_s", xlabel="t [s]", ylabel="τ [N m]", legend=OUTSIDE,
         lines=[line(f"tau{j}_Nm", f"joint {j}") for j in range(1, 7)]),
    dict(name="mobile_manipulator_base_forces", csv="mobile_manipulator.csv",
         title="UR5 on a wheeled base: what the wheels apply (base coordinates)",
         x="t_s", xlabel="t [s]", ylabel="force [N], moment [N m]", legend=OUTSIDE,
         lines=[line("f_x_N", "f_x (forward)"), line("f_y_N", "f_y (sideways)"),
                line("tau_z_Nm", "τ_z (turning)")]),
    dict(name="mobile_manipulator_errors", csv="mobile_manipulator.csv",
         title="UR5 on a wheeled base: tool errors",
         x="t_s", xlabel="t [s]", ylabel="[m]", ylog=10, legend=OUTSIDE,
         lines=[line("plan_error_m", "plan vs the line (resolved acceleration)"),
                line("sim_error_m", "simulation (ABA, RK4, 0.5 s windows) vs plan", ls="--")]),
    dict(name="panda_grasp_fingers", csv="panda_grasp.csv",
         title="Panda with its fingers: finger forces of a 20 N grasp on a 0.5 kg object",
         x="t_s", xlabel="t [s] (fingers close until 0.8 s, squeeze by 1 s; the arm moves 0-3 s)",
         ylabel="finger joint force [N]", legend=OUTSIDE,
         lines=[line("f1_N", "left finger", color="C0"),
                line("f2_N", "right finger", color="C1")]),
    dict(name="panda_grasp_arm", csv="panda_grasp.csv",
         title="Panda with its fingers: arm torques while grasping and carrying",
         x="t_s", xlabel="t [s]", ylabel="τ [N m]", legend=OUTSIDE,
         lines=[line(f"tau{j}_Nm", f"joint {j}") for j in JOINTS] +
               [line("tau6_free_Nm", "joint 6, no object", color=GREY, ls="--", lw=1),
                line("tau7_free_Nm", "joint 7, no object", color=GREY, ls=":", lw=1)]),
    dict(name="dual_arm_carry_left", csv="dual_arm_carry.csv",
         title="Baxter carrying a 3 kg box with both arms: left arm torques",
         x="t_s", xlabel="t [s] (lift 0-2 s; sideways and turn 1.5-4 s)", ylabel="τ [N m]",
         legend=OUTSIDE, lines=[line(f"tauL_{j}_Nm", j) for j in BAXTER_JOINTS]),
    dict(name="dual_arm_carry_right", csv="dual_arm_carry.csv",
         title="Baxter carrying a 3 kg box with both arms: right arm torques",
         x="t_s", xlabel="t [s] (lift 0-2 s; sideways and turn 1.5-4 s)", ylabel="τ [N m]",
         legend=OUTSIDE, lines=[line(f"tauR_{j}_Nm", j) for j in BAXTER_JOINTS]),
    dict(name="dual_arm_carry_forces", csv="dual_arm_carry.csv",
         title="Baxter carrying a box: each gripper's force on the box (30 N squeeze)",
         x="t_s", xlabel="t [s]", ylabel="force [N] (base axes)", legend=OUTSIDE,
         lines=[line(f"f{s}_{a}_N", f"{side} gripper, {a}", color=c, ls=ls)
                for s, side, ls in (("L", "left", "-"), ("R", "right", "--"))
                for a, c in (("x", "C0"), ("y", "C1"), ("z", "C2"))]),
    dict(name="dual_arm_carry_moments", csv="dual_arm_carry.csv",
         title="Baxter carrying a box: each gripper's moment on the box (the same for both)",
         x="t_s", xlabel="t [s]", ylabel="moment [N m] (base axes)", legend=OUTSIDE,
         lines=[line(f"n_{a}_Nm", a) for a in ("x", "y", "z")]),
    *[dict(name=f"hand_grasp_{finger}", csv="hand_grasp.csv",
           title=f"Allegro hand holding a 0.1 kg ball: {finger} joint torques",
           x="t_s", xlabel="t [s] (the fingers close 0-1 s, take the ball's weight 1-1.3 s)",
           ylabel="τ [N m]", legend=OUTSIDE,
           lines=[line(f"tau{4 * k + j}_Nm", f"joint {4 * k + j}") for j in range(4)])
      for k, finger in enumerate(("index", "middle", "ring", "thumb"))],
    dict(name="hand_grasp_forces", csv="hand_grasp.csv",
         title="Allegro hand holding a 0.1 kg ball: fingertip normal forces",
         x="t_s", xlabel="t [s]", ylabel="force towards the ball's centre [N]", legend=OUTSIDE,
         lines=[line(f"f_{finger}_N", finger) for finger in ("index", "middle", "ring", "thumb")]),
    dict(name="elastic_joints_tracking", csv="elastic_joints_tracking.csv",
         title="elastic-joint iiwa, pick and place: link tracking error, motor-side feedback",
         x="t_s", xlabel="t [s]", ylabel="max_j |q_d − q| [rad]", ylog=10, legend=OUTSIDE,
         lines=[line("e_rigid_rad", "rigid-model feedforward + PD", color="C3"),
                line("e_elastic_rad", "flatness feedforward + PD", color="C0")]),
    dict(name="elastic_joints_regulation", csv="elastic_joints_regulation.csv",
         title="elastic-joint iiwa: regulation with gravity compensation",
         x="t_s", xlabel="t [s]", ylabel="max_j |q_goal − q| [rad]", ylog=10, legend=OUTSIDE,
         lines=[line("e_rigid_rad", "g(θ) + PD (rigid model)", color="C3"),
                line("e_tomei_rad", "g(q_goal) + PD on θ_goal (Tomei 1991)", color="C0")]),
    dict(name="friction_lag", csv="friction_lag.csv",
         title="LuGre: frictional lag under v = v0 + a sin(ωt) (Canudas de Wit et al. 1995)",
         x="v_map_rad_s", xlabel="v [rad/s]", ylabel="F [N m]", legend=OUTSIDE,
         lines=[line("F_map_Nm", "static map", color=GREY, ls="--"),
                line("F_w0_05_Nm", "ω = 0.05 rad/s", x="v_w0_05_rad_s"),
                line("F_w1_Nm", "ω = 1 rad/s", x="v_w1_rad_s"),
                line("F_w10_Nm", "ω = 10 rad/s", x="v_w10_rad_s"),
                line("F_w25_Nm", "ω = 25 rad/s", x="v_w25_rad_s")]),
    dict(name="friction_presliding", csv="friction_presliding.csv",
         title="LuGre: pre-sliding displacement under a torque up to 1.2 N m and back (Fs = 1.5)",
         x="F_Nm", xlabel="applied torque [N m]", ylabel="x [µrad]", y_factor=1e6,
         lines=[line("x_rad", "x(F): up, then down", color="C0")]),
    dict(name="friction_identification", csv="friction_identification.csv",
         title="identify_stribeck: 1 % torque noise, v > 0 half of the runs",
         x="v_rad_s", xlabel="v [rad/s]", ylabel="τ [N m]", xlog=10, legend=OUTSIDE,
         lines=[line("tau_Nm", "measured", color="black", ls="none", marker="."),
                line("tau_true_Nm", "true map", color=GREY, ls="--"),
                line("tau_fit_Nm", "identified map", color="C0")]),
    dict(name="op_count_flops", csv="op_counts.csv",
         title="Exact flops per call, ChainN<n, RevoluteZ> (counting scalar)",
         where={"joint": "RevoluteZ"}, group="algorithm",
         x="n", y="flops", xlabel="joints n", ylabel="flops per call (mul + add + div + sqrt)",
         xlog=2, ylog=10, legend=OUTSIDE,
         lines=[line(a, a, marker="o", ms=4, **style) for a, style in OP_COUNT_STYLE.items()]),
    dict(name="op_count_timing", csv="op_count_timing.csv",
         title="Time per call (fastest repetition), ChainN<double, n, RevoluteZ>",
         group="algorithm", x="n", y="min_ns", xlabel="joints n", ylabel="time per call [ns]",
         xlog=2, ylog=10, legend=OUTSIDE,
         lines=[line(a, a, marker="o", ms=4, **style) for a, style in OP_COUNT_STYLE.items()
                if a != "lagrange_euler_mass_matrix"]),
]


class PlotError(Exception):
    pass


class Table:
    """A CSV file with a header row, kept as text columns; numbers() converts on use."""

    def __init__(self, path):
        self.path = path
        try:
            with open(path, newline="") as f:
                rows = list(csv.reader(f))
        except (OSError, UnicodeDecodeError, csv.Error) as e:
            raise PlotError(f"{path}: cannot read: {e}") from None
        if len(rows) < 2:
            raise PlotError(f"{path}: malformed: no header or no data rows")
        header, body = rows[0], rows[1:]
        for number, row in enumerate(body, start=2):
            if len(row) != len(header):
                raise PlotError(f"{path}:{number}: malformed: {len(row)} fields, the header "
                                f"has {len(header)}")
        self.columns = {name: [row[k] for row in body] for k, name in enumerate(header)}
        self.rows = len(body)

    def text(self, name):
        if name not in self.columns:
            raise PlotError(f"{self.path}: malformed: no column '{name}' "
                            f"(has: {', '.join(self.columns)})")
        return np.array(self.columns[name])

    def numbers(self, name):
        values = np.empty(self.rows)
        for k, v in enumerate(self.text(name)):
            try:
                values[k] = float(v)  # also "nan", "inf" (the examples' %.12g writes those)
            except ValueError:
                raise PlotError(f"{self.path}:{k + 2}: malformed: column '{name}': "
                                f"'{v}' is not a number") from None
        return values


def draw(spec, table, out_dir, formats):
    fig, ax = plt.subplots(figsize=spec.get("size", (7.2, 4.2)))
    try:
        rows = np.ones(table.rows, dtype=bool)
        for column, value in spec.get("where", {}).items():
            rows &= table.text(column) == value
        x = table.numbers(spec["x"])
        factor = spec.get("y_factor", 1)
        if "group" in spec:
            groups, y_grouped = table.text(spec["group"]), table.numbers(spec["y"])
        for ln in spec["lines"]:
            if "group" in spec:
                selected, y = rows & (groups == ln["y"]), y_grouped
                if not selected.any():
                    raise PlotError(f"{table.path}: no rows with {spec['group']} = {ln['y']}")
            else:
                selected, y = rows, table.numbers(ln["y"])
            label = {} if ln["label"] is None else {"label": ln["label"]}
            xs = x if ln["x"] is None else table.numbers(ln["x"])
            ax.plot(xs[selected], factor * y[selected], **label, **ln["style"])

        ax.set_title(spec["title"])
        ax.set_xlabel(spec["xlabel"])
        ax.set_ylabel(spec["ylabel"])
        for base, set_scale, axis in ((spec.get("xlog"), ax.set_xscale, ax.xaxis),
                                      (spec.get("ylog"), ax.set_yscale, ax.yaxis)):
            if base:  # values <= 0 (an energy error of exactly 0) leave a gap
                set_scale("log", base=base, nonpositive="mask")
                if base == 2:
                    axis.set_major_formatter(FormatStrFormatter("%g"))
        if spec.get("xlog"):
            ax.margins(x=0.03)
        if "xlim" in spec:
            ax.set_xlim(*spec["xlim"])
        if spec.get("equal"):
            ax.set_aspect("equal", adjustable="datalim")
            ax.margins(0.05)
        ax.grid(True, which="major", color="0.88")
        ax.legend(**spec.get("legend", {}))
        for ext, metadata in (("png", {}), ("svg", {"Date": None})):
            if ext not in formats:
                continue
            fig.savefig(os.path.join(out_dir, f"{spec['name']}.{ext}"), dpi=120,
                        bbox_inches="tight", metadata=metadata)
    finally:
        plt.close(fig)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("dir", help="the directory with the CSV files; the figures go there")
    parser.add_argument("--formats", default="png,svg",
                        help="the files to write, comma-separated: png, svg (default: both)")
    args = parser.parse_args()
    out_dir = args.dir
    formats = args.formats.split(",")
    if not formats or any(f not in ("png", "svg") for f in formats):
        parser.error(f"--formats {args.formats}: expected png, svg or png,svg")
    if not os.path.isdir(out_dir):
        parser.error(f"{out_dir} is not a directory")
    plt.rcParams.update({
        "axes.xmargin": 0,  # time axes start and end with the run
        # Okabe & Ito's colour-blind-safe palette (Color Universal Design, 2002), yellow last.
        "axes.prop_cycle": matplotlib.cycler(color=[
            "#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9", "#000000",
            "#F0E442"]),
        "svg.hashsalt": "chaindyn",  # the same data give the same SVG file
    })

    drawn, errors = 0, 0
    for csv_name in dict.fromkeys(spec["csv"] for spec in FIGURES):  # in order, once each
        specs = [spec for spec in FIGURES if spec["csv"] == csv_name]
        path = os.path.join(out_dir, csv_name)
        if not os.path.exists(path):
            print(f"plot.py: no {csv_name}, skipped "
                  f"{', '.join(spec['name'] for spec in specs)}")
            continue
        try:
            table = Table(path)
        except PlotError as e:
            print(f"plot.py: error: {e}", file=sys.stderr)
            errors += 1
            continue
        for spec in specs:
            try:
                draw(spec, table, out_dir, formats)
            except PlotError as e:
                print(f"plot.py: error: {spec['name']}: {e}", file=sys.stderr)
                errors += 1
                continue
            print(f"plot.py: wrote {os.path.join(out_dir, spec['name'])}."
                  + " and .".join(formats))
            drawn += 1
    if errors:
        return 1
    if drawn == 0:
        print(f"plot.py: error: no CSV file of a known figure in {out_dir}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
