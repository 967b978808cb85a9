/// @file
/// Task-space (operational-space) dynamics of a frame F: the operational-space inertia
/// Lambda = (J M^-1 J^T)^-1 and its inverse, the task-space Coriolis and gravity forces mu and
/// p, the dynamically consistent generalized inverse Jbar = M^-1 J^T Lambda and the null-space
/// projector N = 1 - Jbar J (Khatib, "A unified approach for motion and force control of robot
/// manipulators: the operational space formulation", IEEE J. Robotics and Automation 3(1),
/// 1987). The task equation of motion, with F the task force applied through tau = J^T F:
///     Lambda xdd + mu + p = F,     xdd = J qdd + Jdot qd.
///
/// The task is a 6-D pose task (`pose_task`: rows [angular; linear] of the frame's Jacobian in
/// `rf`, jacobian.hpp) or the 3-D position task of F's origin (`position_task`: the linear rows
/// only; its Lambda is the inverse of the 3x3 block of Lambda^-1, not a block of the 6-D
/// Lambda).
///
/// M^-1 is never formed. Lambda^-1 comes from the recursion of the inverse articulated-body
/// inertias Omega_i (the acceleration of link i per unit force on link i, the rest of the chain
/// free): with ABA's articulated inertias in base coordinates (RBDA Table 7.1: U_i = IA_i S_i,
/// D_i = S_i^T U_i) and the projector P_i = 1 - S_i D_i^-1 U_i^T that a force crossing joint i
/// leaves to the parent,
///     Omega_i = P_i Omega_p(i) P_i^T + S_i D_i^-1 S_i^T,      Omega of the fixed base = 0,
/// and Lambda^-1 = X_F Omega_L X_F^T with X_F the motion transform from base coordinates to the
/// task's (K. Kreutz-Delgado, A. Jain, G. Rodriguez, "Recursive formulation of operational space
/// control", IJRR 11(4), 1992). Derivation: with a force f on link i alone, ABA's bias pass
/// gives u_i = S_i^T f and hands P_i^T f to the parent, and its acceleration pass
/// a_i = P_i a_p(i) + S_i D_i^-1 S_i^T f. Unrolled, Lambda^-1 = sum over the joints k of L's
/// support of r_k D_k^-1 r_k^T, r_k = Y_k S_k, where Y (the task's rows, X_F at L) is carried
/// from L to the base by Y <- Y P_k: the task's unit forces propagated to the base, Chang and
/// Khatib's extended force propagation (K.-S. Chang, O. Khatib, "Operational space dynamics:
/// efficient algorithms for modeling and control of branching mechanisms", ICRA 2000). That
/// runs inside the articulated pass, tip to base (TaskForceSweep): O(n Dim), Dim x 6 rank-one
/// updates per joint and no 6x6 product. For several frames (a std::array of handles) block
/// (a, b) of the stacked Lambda^-1 sums over the joints that support both frames' links
/// (Wensing, Featherstone and Orin's cross terms, "A reduced-order recursive algorithm for the
/// computation of the operational-space inertia matrix", ICRA 2012): on a tree, frames on
/// different branches couple through their common ancestors.
///
/// Jbar is the joint acceleration of the chain under the task forces Lambda e_k, by the same
/// bias and acceleration passes driven by the Dim forces at once (extended force propagation
/// again): O(n Dim).
/// mu and p come from ABA with tau = 0 split in two: the joint accelerations qdd_v = -M^-1 C qd
/// (no gravity) and qdd_g = -M^-1 g (no velocity) move F with task accelerations xdd_v (its
/// velocity products Jdot qd included) and xdd_g, and mu = -Lambda xdd_v, p = -Lambda xdd_g
/// (from mu + p = Lambda (J M^-1 (C qd + g) - Jdot qd)). Joint friction is not part of mu or
/// p (a controller compensates it in joint space, friction.hpp).
///
/// On a kinematic tree (Tree, TreeX; docs/trees.md) the same passes run with each link's
/// articulated inertia and bias force summed over its children (as in aba), and the task
/// forces and the task accelerations walk L's support, the joints on L's path to the base: a
/// force on L reaches the base along it (F's Jacobian has columns there only), and the other
/// branches move only through their parents' accelerations (Jbar's rows off the support).
///
/// The dense route operational_space_inertia_dense (crba, Cholesky of M, J M^-1 J^T) is the
/// reference the tests compare with; docs/benchmarks.md times both.
#pragma once

#include "chaindyn/algorithms/jacobian.hpp"
#include "chaindyn/algorithms/forward_dynamics_crba.hpp"

#include <array>
#include <type_traits>
#include <utility>
#include <limits>

namespace chaindyn {

/// The task dimensions: a frame's pose (6: [angular; linear]) or its origin's position (3).
inline constexpr int pose_task = 6;
inline constexpr int position_task = 3;

/// The operational-space inertia of a task of dimension Dim (pose_task or position_task; 6 K for
/// the pose tasks of K frames at once).
template <typename Scalar, int Dim = pose_task>
struct OperationalSpaceInertia {
  static_assert(Dim > 0 && Dim % position_task == 0,
                "chaindyn: a task is a pose (6), a position (3), or K frames' poses (6 K)");
  using TaskMatrix = Eigen::Matrix<Scalar, Dim, Dim>;
  /// Lambda^-1 = J M^-1 J^T (the Delassus matrix of the task): symmetric positive
  /// semi-definite, defined at every configuration, singular where J loses rank.
  TaskMatrix Lambda_inv = TaskMatrix::Zero();
  /// Lambda = (J M^-1 J^T)^-1 (kg, kg m^2 and their coupling): the inverse of Lambda_inv by
  /// Cholesky, symmetric. NaN where Lambda_inv is not positive definite (rcond == 0).
  TaskMatrix Lambda = TaskMatrix::Zero();
  /// The reciprocal condition number of Lambda_inv in the 1-norm, 1 / (|Lambda_inv|_1
  /// |Lambda|_1): 1 for an isotropic task, near 0 near a singular configuration (the relative
  /// errors of Lambda grow as 1 / rcond), exactly 0 where Cholesky fails.
  Scalar rcond = Scalar(0);
};

/// The operational-space inertia and the task-space bias forces of a task (see the file
/// comment): Lambda xdd + mu + p = F.
template <typename Scalar, int Dim = pose_task>
struct OperationalSpaceDynamics : OperationalSpaceInertia<Scalar, Dim> {
  using TaskVector = Eigen::Matrix<Scalar, Dim, 1>;
  /// mu = Lambda (J M^-1 C qd - Jdot qd): Coriolis and centrifugal task forces.
  TaskVector mu = TaskVector::Zero();
  /// p = Lambda J M^-1 g = Jbar^T g: gravity task forces.
  TaskVector p = TaskVector::Zero();
};

/// A dynamically consistent inverse Jbar = M^-1 J^T Lambda: nq x Dim.
template <typename Model, int Dim = pose_task>
using TaskInverse = Eigen::Matrix<typename Model::Scalar, Model::nq, Dim>;

namespace detail {

/// The transform X whose act_inv maps a spatial motion in base coordinates (about the base
/// origin) to the task coordinates `rf` of the frame at pose oMf: world, the base axes at F's
/// origin (a translation by F's origin); local, F itself.
template <typename Scalar>
Transform<Scalar> task_transform(const Transform<Scalar>& oMf, ReferenceFrame rf) noexcept {
  return rf == ReferenceFrame::world ? Transform<Scalar>::Translation(oMf.translation) : oMf;
}

template <typename F, int... I>
inline CHAINDYN_ALWAYS_INLINE void index_range_unrolled(int begin, int end, F& f,
                                                 std::integer_sequence<int, I...>) {
  ((I >= begin && I < end ? f(std::integral_constant<int, I>{}) : void()), ...);
}

/// f(i) for begin <= i < end, 0 <= begin, end <= N: written out for N <= 6 (each i a
/// std::integral_constant, so that after inlining every bound is a constant and small arrays
/// indexed by i live in registers; g++ 12 leaves triangular loops rolled), a loop beyond.
template <int N, typename F>
inline CHAINDYN_ALWAYS_INLINE void index_range(int begin, int end, F&& f) {
  if constexpr (N <= 6) {
    index_range_unrolled(begin, end, f, std::make_integer_sequence<int, N>{});
  } else {
    for (int i = begin; i < end; ++i) f(i);
  }
}

/// ABA's articulated inertias in base coordinates for a model at rest (RBDA Table 7.1, pass 2
/// without bias forces; the coordinates of aba.hpp), after world_kinematics: data.oU, D, Dinv.
/// The articulated inertia of link i is its rigid inertia plus what its children hand on: on a
/// chain the one child's, link i + 1's, in a register; on a tree each child adds its Ia to its
/// parent's data.oIA (aba.hpp's tree path), which the parent's step then reads. The
/// articulated inertia handed to the parent is a symmetric rank-one downdate,
/// Ia = IA - U U^T / D, and each link's rigid inertia comes to base coordinates from its
/// centre-of-mass form (a rotated 3x3 inertia and a moved centre of mass, no 6x6 transform).
/// visit(i, S_i, U_i, 1 / D_i) runs at each joint, tip to base, once its U_i and D_i are known.
template <typename Model, typename Visit>
void articulated_inertias(const Model& model, DataFor<Model>& data,
                          Visit&& visit) noexcept {
  using Scalar = typename Model::Scalar;
  [[maybe_unused]] const std::size_t n = joint_count(model);
  ArticulatedInertia<Scalar> ia_child;
  if constexpr (!Model::serial) {
    model.indices_forward([&](const std::size_t i) CHAINDYN_ALWAYS_INLINE {
      data.oIA[i] = ArticulatedInertia<Scalar>();
    });
  }
  model.indices_backward([&](const std::size_t i) CHAINDYN_ALWAYS_INLINE {
    const auto k = Eigen::Index(i);
    const Motion<Scalar>& s = data.oS[i];
    // IA_i = I_i + sum of the children's Ia;  U_i = IA_i S_i;  D_i = S_i^T U_i + armature
    //                                                                          RBDA Table 7.1
    const Inertia<Scalar> inertia = model.inertia_in(i, data.oMi[i]);
    ArticulatedInertia<Scalar> ia(inertia);
    if constexpr (Model::serial) {
      if (i + 1 < n) {
        ia = ia_child;
        ia += inertia;
      }
    } else {
      ia = data.oIA[i];  // the children's
      ia += inertia;
    }
    const Force<Scalar> u = ia * s;
    data.oU[i] = u;
    const Scalar d = dot(s, u) + model.armature()[k];
    const Scalar inv_d = Scalar(1) / d;
    data.D[k] = d;
    data.Dinv[k] = inv_d;
    // Ia = IA_i - U_i U_i^T / D_i, for the parent
    if (!model.is_root(i)) {
      ia.subtract_outer(u, inv_d, ia_child);
      if constexpr (!Model::serial) data.oIA[model.parent(i)] += ia_child;
    }
    visit(i, s, u, inv_d);
  });
}

/// The tip-to-base half of the operational-space inertia of K frames' tasks of Rows rows each
/// (Rows = 6 or 3 for one frame, 6 for several), run inside the articulated pass: the
/// extended force propagation of Chang and Khatib (ICRA 2000), the force form of the inverse
/// articulated-body inertia recursion (Kreutz-Delgado, Jain and Rodriguez, IJRR 1992). Unrolled,
///     Omega_L = sum over the joints k of L's support of z_k D_k^-1 z_k^T,
///     z_k = P_L ... P_{k+1} S_k,   P_j = 1 - S_j D_j^-1 U_j^T,
/// so with X_a frame a's motion transform to its task coordinates and Y_a = X_a P_{L_a} ... (its
/// rows the task's unit forces carried down to the joint reached), r_a = Y_a S_k at each joint k
/// of a's support, and
///     block (a, b) of Lambda^-1 = sum over the joints k supporting both L_a and L_b of
///                                  r_a D_k^-1 r_b^T,     Y_a <- Y_a - r_a D_k^-1 U_k^T
/// (Wensing, Featherstone and Orin's cross terms, ICRA 2012: frames on different branches of a
/// tree meet at their common ancestors only). The sweep visits each frame's support tip to base
/// (parents before children in joint order), so `next` (the joint of its support it meets next)
/// tells whether a joint is on it: O(n Rows K + d Rows^2 K^2), d the depth of the frames' links,
/// and no 6 x 6 product. The rows of Y_a and r_a are padded with zeros to a multiple of four
/// for a built-in scalar (Pad: whole SIMD registers), and the sweep works column by column:
/// r_a = sum_j Y_a(:, j) S_k(j) and Y_a(:, j) -= (r_a / D_k) U_k(j), one vector
/// multiply-add each. One frame's block is summed in full into `acc` (padded, finish() copies
/// it into Lambda^-1); with several frames only the upper triangle of blocks is summed. Either
/// way mirror_upper finishes Lambda^-1 (exactly symmetric).
template <typename Scalar, int Rows, std::size_t K>
struct TaskForceSweep {
  static constexpr int Pad = std::is_arithmetic_v<Scalar> ? (Rows + 3) / 4 * 4 : Rows;
  using Column = Eigen::Matrix<Scalar, Pad, 1>;
  /// Y_a (Rows x 6, padded to Pad rows with zeros) of each frame.
  std::array<Eigen::Matrix<Scalar, Pad, 6>, K> y;
  /// The joint of frame a's support the sweep meets next; no_parent when none is left (a frame
  /// on the base has none).
  std::array<std::size_t, K> next;
  /// One frame's Lambda^-1 (K = 1), padded.
  Eigen::Matrix<Scalar, Pad, Rows> acc;

  /// Frame a, on link `link` (no_parent: on the base) with task transform x (task_transform).
  void start(std::size_t a, std::size_t link, const Transform<Scalar>& x) noexcept {
    next[a] = link;
    // the rows of x.act_inv on motions, [R^T 0; -R^T P R^T] (P = [p]x), the last Rows
    auto& ya = y[a];
    ya.setZero();
    for (int r = 0; r < 3; ++r) {
      const Vector3<Scalar> row = x.rotation.col(r);  // row r of R^T
      // row r of -R^T P: -(R^T P)(r, :) = (P row)^T = p x row
      const Vector3<Scalar> moment = detail::cross3(x.translation, row);
      if constexpr (Rows == 6) {
        ya.template block<1, 3>(r, 0) = row.transpose();
        ya.template block<1, 3>(3 + r, 0) = moment.transpose();
        ya.template block<1, 3>(3 + r, 3) = row.transpose();
      } else {
        ya.template block<1, 3>(r, 0) = moment.transpose();
        ya.template block<1, 3>(r, 3) = row.transpose();
      }
    }
    if constexpr (K == 1) acc.setZero();
  }

  template <typename Model, int Total>
  CHAINDYN_ALWAYS_INLINE void step(const Model& model, std::size_t i, const Motion<Scalar>& s,
                                   const Force<Scalar>& u, const Scalar& inv_d,
                                   Eigen::Matrix<Scalar, Total, Total>& lambda_inv) noexcept {
    std::array<Column, K> r;
    std::array<bool, K> on;
    for (std::size_t a = 0; a < K; ++a) {
      on[a] = next[a] == i;
      if (!on[a]) continue;
      next[a] = model.parent(i);
      // r_a = Y_a S_i, by the two halves of S (two shorter dependency chains)
      const auto& ya = y[a];
      Column ra = ya.col(0) * s.angular[0];
      Column rl = ya.col(3) * s.linear[0];
      ra += ya.col(1) * s.angular[1];
      rl += ya.col(4) * s.linear[1];
      ra += ya.col(2) * s.angular[2];
      rl += ya.col(5) * s.linear[2];
      r[a] = ra + rl;
    }
    for (std::size_t a = 0; a < K; ++a) {
      if (!on[a]) continue;
      const Column rd = r[a] * inv_d;
      if constexpr (K == 1) {
        for (int c = 0; c < Rows; ++c) acc.col(c) += rd * r[a][c];
      } else {
        for (std::size_t b = a; b < K; ++b) {
          if (!on[b]) continue;
          lambda_inv.template block<Rows, Rows>(Eigen::Index(Rows * a), Eigen::Index(Rows * b))
              .noalias() += rd.template head<Rows>() * r[b].template head<Rows>().transpose();
        }
      }
      // Y_a P_i
      auto& ya = y[a];
      for (int j = 0; j < 3; ++j) {
        ya.col(j) -= rd * u.angular[j];
        ya.col(3 + j) -= rd * u.linear[j];
      }
    }
  }

  /// Lambda^-1 (one frame: the block summed in acc).
  template <int Total>
  void finish(Eigen::Matrix<Scalar, Total, Total>& lambda_inv) const noexcept {
    if constexpr (K == 1) lambda_inv = acc.template topRows<Rows>();
  }
};

/// m's lower triangle from its upper one: exactly symmetric.
template <typename Derived>
void mirror_upper(Eigen::MatrixBase<Derived>& m) noexcept {
  for (Eigen::Index c = 0; c < m.cols(); ++c) {
    for (Eigen::Index r = c + 1; r < m.rows(); ++r) m(r, c) = m(c, r);
  }
}

/// The inverse of the symmetric Dim x Dim matrix a by the square-root-free Cholesky
/// factorization a = L D L^T (L unit lower triangular; Golub & Van Loan, Matrix Computations,
/// 4th ed., sec. 4.1.2), a^-1 = L^-T D^-1 L^-1, written out for a small fixed Dim, into `out`;
/// false unless every pivot is > 0 (a positive definite). Arranged for a short dependency chain
/// (the pivots are sequential: each waits for the previous one's reciprocal): right-looking
/// elimination whose updates a(i, k) -= (a(i, j) a(k, j)) / d_j form the products before 1 / d_j
/// is known, the rows of L^-1 formed as soon as the rows of L, and every entry of the inverse
/// summed with its last pivot's term last. No branch until every pivot is known.
template <int Dim, typename Scalar>
bool inverse_spd_ldlt(const Eigen::Matrix<Scalar, Dim, Dim>& a,
                      Eigen::Matrix<Scalar, Dim, Dim>& out) noexcept {
  Scalar w[Dim][Dim];    // the lower triangle of a, eliminated in place
  Scalar l[Dim][Dim];    // L below the diagonal
  Scalar m[Dim][Dim];    // L^-1 below the diagonal (its diagonal is 1)
  Scalar d_inv[Dim];     // 1 / D
  index_range<Dim>(0, Dim, [&](const int j) CHAINDYN_ALWAYS_INLINE {
    index_range<Dim>(j, Dim, [&](const int i) CHAINDYN_ALWAYS_INLINE { w[i][j] = a(i, j); });
  });
  bool positive = true;
  index_range<Dim>(0, Dim, [&](const int j) CHAINDYN_ALWAYS_INLINE {
    positive = positive && w[j][j] > Scalar(0);
    d_inv[j] = Scalar(1) / w[j][j];
    index_range<Dim>(j + 1, Dim, [&](const int i) CHAINDYN_ALWAYS_INLINE {
      index_range<Dim>(j + 1, i + 1, [&](const int k) CHAINDYN_ALWAYS_INLINE {
        w[i][k] -= (w[i][j] * w[k][j]) * d_inv[j];
      });
      l[i][j] = w[i][j] * d_inv[j];
    });
    // row j of L^-1: m(j, c) = -l(j, c) - sum_{c < k < j} l(j, k) m(k, c)
    index_range<Dim>(0, j, [&](const int c) CHAINDYN_ALWAYS_INLINE {
      Scalar t = -l[j][c];
      index_range<Dim>(c + 1, j, [&](const int k) CHAINDYN_ALWAYS_INLINE {
        t -= l[j][k] * m[k][c];
      });
      m[j][c] = t;
    });
  });
  // a^-1(r, c) = sum_{k >= max(r, c)} m(k, r) d_inv(k) m(k, c), r <= c
  index_range<Dim>(0, Dim, [&](const int c) CHAINDYN_ALWAYS_INLINE {
    index_range<Dim>(0, c + 1, [&](const int r) CHAINDYN_ALWAYS_INLINE {
      Scalar t = (r == c ? Scalar(1) : m[c][r]) * d_inv[c];
      index_range<Dim>(c + 1, Dim, [&](const int k) CHAINDYN_ALWAYS_INLINE {
        t += (m[k][r] * m[k][c]) * d_inv[k];
      });
      out(r, c) = out(c, r) = t;
    });
  });
  return positive;
}

/// Lambda from Lambda^-1 by LDL^T (inverse_spd_ldlt, whose pivots in sequence make a singular
/// Lambda^-1 show: a pivot at rounding level, Lambda huge, rcond tiny), and the reciprocal
/// condition number in the 1-norm,
/// 1 / (|Lambda^-1|_1 |Lambda|_1). NaN and rcond 0 where Lambda^-1 is not positive definite.
template <typename Scalar, int Dim>
void invert_task_inertia(OperationalSpaceInertia<Scalar, Dim>& out) noexcept {
  using std::abs;
  const auto& a = out.Lambda_inv;
  if (!inverse_spd_ldlt<Dim>(a, out.Lambda)) {
    out.Lambda.setConstant(std::numeric_limits<Scalar>::quiet_NaN());
    out.rcond = Scalar(0);
    return;
  }
  Scalar norm_inv(0), norm(0);
  for (int c = 0; c < Dim; ++c) {
    Scalar sum_inv(0), sum(0);
    for (int r = 0; r < Dim; ++r) {
      sum_inv += abs(a(r, c));
      sum += abs(out.Lambda(r, c));
    }
    if (sum_inv > norm_inv) norm_inv = sum_inv;
    if (sum > norm) norm = sum;
  }
  out.rcond = Scalar(1) / (norm_inv * norm);
}

/// The checks and the common start of the in-place forms: Lambda^-1 and Lambda of the task,
/// and the task transform (returned). Fills data.oMf.
template <int Dim, typename Model>
Transform<typename Model::Scalar> operational_space_inertia_of(
    const Model& model, DataFor<Model>& data, const typename Model::Vector& q,
    const FrameFor<Model>& frame, ReferenceFrame rf,
    OperationalSpaceInertia<typename Model::Scalar, Dim>& out) noexcept {
  static_assert(Dim == pose_task || Dim == position_task,
                "chaindyn: one frame's task is a pose (6) or a position (3)");
  using Scalar = typename Model::Scalar;
  world_kinematics(model, data, q);
  data.oMf = frame.on_base() ? frame.placement() : data.oMi[frame.link()] * frame.placement();
  const Transform<Scalar> x = task_transform(data.oMf, rf);
  TaskForceSweep<Scalar, Dim, 1> sweep;
  sweep.start(0, frame.on_base() ? no_parent : frame.link(), x);
  out.Lambda_inv.setZero();
  articulated_inertias(model, data,
                       [&](std::size_t i, const Motion<Scalar>& s, const Force<Scalar>& u,
                           const Scalar& inv_d) CHAINDYN_ALWAYS_INLINE {
                         sweep.step(model, i, s, u, inv_d, out.Lambda_inv);
                       });
  sweep.finish(out.Lambda_inv);
  mirror_upper(out.Lambda_inv);
  invert_task_inertia(out);
  return x;
}

}  // namespace detail

/// The operational-space inertia of the frame F `frame` (a handle, model/frame.hpp) for a task
/// of dimension Dim (pose_task: the six rows of F's Jacobian in `rf`; position_task: its three
/// linear rows): out.Lambda_inv = J M^-1 J^T by the recursion of the file comment (O(n), M^-1
/// never formed), out.Lambda its inverse by a Dim x Dim Cholesky, out.rcond its conditioning.
/// Armature is part of M. A frame on the base has Lambda_inv = 0 (Lambda NaN, rcond 0). No
/// check (the handle was checked when made). Fills data.liMi, oMi, oS, oU, D, Dinv and oMf (and
/// on a tree oIA, the children's sums).
template <typename Model, typename Q, int Dim>
void operational_space_inertia(const Model& model, DataFor<Model>& data,
                               const Eigen::MatrixBase<Q>& q_in, const FrameFor<Model>& frame,
                               ReferenceFrame rf,
                               OperationalSpaceInertia<typename Model::Scalar, Dim>& out)
    noexcept(!detail::checks_sizes<Model>) {
  static_assert(detail::fixed_joint_vectors<Model, Q>, CHAINDYN_FIXED_SIZE_MESSAGE);
  detail::check_in_place("operational_space_inertia", model, data, "q", q_in, "frame", frame);
  detail::operational_space_inertia_of<Dim>(
      model, data, detail::as_joint_vector<Model>(q_in.derived()), frame, rf, out);
}

/// Returning form: operational_space_inertia<position_task>(model, q, frame) for the position
/// task; any Eigen vector q, checked (ArgumentError).
template <int Dim = pose_task, typename Model, typename Q>
OperationalSpaceInertia<typename Model::Scalar, Dim> operational_space_inertia(
    const Model& model, const Eigen::MatrixBase<Q>& q, const FrameFor<Model>& frame,
    ReferenceFrame rf = ReferenceFrame::world) {
  Data<Model>& data = detail::thread_workspace(model);
  OperationalSpaceInertia<typename Model::Scalar, Dim> out;
  operational_space_inertia(
      model, data, detail::checked_joint_vector(model, q, "operational_space_inertia", "q"),
      frame, rf, out);
  return out;
}

/// Returning form for link `link`'s (user) frame. Throws IndexError if link >= the joint count.
template <int Dim = pose_task, typename Model, typename Q>
OperationalSpaceInertia<typename Model::Scalar, Dim> operational_space_inertia(
    const Model& model, const Eigen::MatrixBase<Q>& q, std::size_t link,
    ReferenceFrame rf = ReferenceFrame::world) {
  return operational_space_inertia<Dim>(model, q, model.frame(link), rf);
}

/// Returning form for a named frame. Throws IndexError if there is none.
template <int Dim = pose_task, typename Model, typename Q>
OperationalSpaceInertia<typename Model::Scalar, Dim> operational_space_inertia(
    const Model& model, const Eigen::MatrixBase<Q>& q, std::string_view name,
    ReferenceFrame rf = ReferenceFrame::world) {
  return operational_space_inertia<Dim>(model, q, model.frame(name), rf);
}


/// The operational-space inertia of the pose tasks of K frames at once (two hands, a tool and
/// an elbow): out.Lambda_inv is the 6K x 6K matrix J M^-1 J^T of the stacked Jacobian
/// J = [J_1; ...; J_K] (each in `rf`), its block (b, a) the acceleration of frame b per unit
/// force on frame a; out.Lambda its inverse (NaN, rcond 0, when the K tasks need more than the
/// model's joints or meet a singularity). On a chain and on a kinematic tree (Tree, TreeX): the
/// task forces of every frame are carried from its link to the base inside the articulated
/// pass (extended force propagation, Chang & Khatib 2000; the cross terms of Wensing,
/// Featherstone & Orin 2012), and block (a, b) sums over the joints that support both frames'
/// links: frames on different branches of a tree are coupled through their common ancestors
/// only, and not at all when they share none. O(n K + d K^2) after the kinematics (d the depth
/// of the frames' links), plus the 6K x 6K factorization. Frames on the base have zero rows.
/// Fills what operational_space_inertia fills (data.oMf: the last frame's pose).
template <typename Model, typename Q, std::size_t K>
void operational_space_inertia(
    const Model& model, DataFor<Model>& data, const Eigen::MatrixBase<Q>& q_in,
    const std::array<FrameFor<Model>, K>& frames, ReferenceFrame rf,
    OperationalSpaceInertia<typename Model::Scalar, int(6 * K)>& out)
    noexcept(!detail::checks_sizes<Model>) {
  static_assert(detail::fixed_joint_vectors<Model, Q>, CHAINDYN_FIXED_SIZE_MESSAGE);
  static_assert(K > 0, "chaindyn: operational_space_inertia of no frame");
  detail::check_in_place("operational_space_inertia", model, data, "q", q_in);
  if constexpr (detail::checks_sizes<Model>) {
    for (const auto& frame : frames) {
      detail::check_size(model, "operational_space_inertia", "frames", frame);
    }
  }
  using Scalar = typename Model::Scalar;
  detail::world_kinematics(model, data, detail::as_joint_vector<Model>(q_in.derived()));
  detail::TaskForceSweep<Scalar, pose_task, K> sweep;
  for (std::size_t a = 0; a < K; ++a) {
    const auto& frame = frames[a];
    data.oMf = frame.on_base() ? frame.placement() : data.oMi[frame.link()] * frame.placement();
    sweep.start(a, frame.on_base() ? no_parent : frame.link(),
                detail::task_transform(data.oMf, rf));
  }
  out.Lambda_inv.setZero();
  detail::articulated_inertias(model, data,
                               [&](std::size_t i, const Motion<Scalar>& s, const Force<Scalar>& u,
                                   const Scalar& inv_d) CHAINDYN_ALWAYS_INLINE {
                                 sweep.step(model, i, s, u, inv_d, out.Lambda_inv);
                               });
  detail::mirror_upper(out.Lambda_inv);
  detail::invert_task_inertia(out);
}

/// Returning form for K frames (their pose tasks stacked).
template <typename Model, typename Q, std::size_t K>
OperationalSpaceInertia<typename Model::Scalar, int(6 * K)> operational_space_inertia(
    const Model& model, const Eigen::MatrixBase<Q>& q,
    const std::array<FrameFor<Model>, K>& frames, ReferenceFrame rf = ReferenceFrame::world) {
  Data<Model>& data = detail::thread_workspace(model);
  OperationalSpaceInertia<typename Model::Scalar, int(6 * K)> out;
  operational_space_inertia(
      model, data, detail::checked_joint_vector(model, q, "operational_space_inertia", "q"),
      frames, rf, out);
  return out;
}

/// The dense route to the same numbers, the reference for the recursive one: M by crba, its
/// Cholesky factor L (L L^T = M, forward_dynamics_crba's detail::cholesky_factor), J by
/// jacobian, Y = L^-1 J^T by forward substitution and Lambda^-1 = Y^T Y = J M^-1 J^T
/// (O(n^3)), Lambda by Cholesky. Allocation-free on a compile-time chain (fixed-size
/// temporaries); a ChainX's J and Y are allocated. Fills data.M, data.L (and what crba and
/// jacobian fill) and data.oMf.
template <typename Model, typename Q, int Dim>
void operational_space_inertia_dense(const Model& model, DataFor<Model>& data,
                                     const Eigen::MatrixBase<Q>& q_in,
                                     const FrameFor<Model>& frame, ReferenceFrame rf,
                                     OperationalSpaceInertia<typename Model::Scalar, Dim>& out) {
  static_assert(detail::fixed_joint_vectors<Model, Q>, CHAINDYN_FIXED_SIZE_MESSAGE);
  detail::check_in_place("operational_space_inertia_dense", model, data, "q", q_in, "frame",
                         frame);
  using Scalar = typename Model::Scalar;
  const auto& q = detail::as_joint_vector<Model>(q_in.derived());
  const auto n = Eigen::Index(detail::joint_count(model));
  crba(model, data, q);
  detail::cholesky_factor(data.M, data.L);
  FrameJacobian<Model> j(6, n);
  jacobian(model, data, q, frame, rf, j);
  // Y = L^-1 J^T, one forward substitution per task row
  Eigen::Matrix<Scalar, Model::nq, Dim> y(n, Dim);
  for (int c = 0; c < Dim; ++c) {
    for (Eigen::Index i = 0; i < n; ++i) {
      Scalar s = j(6 - Dim + c, i);
      for (Eigen::Index k = 0; k < i; ++k) s -= data.L(i, k) * y(k, c);
      y(i, c) = s / data.L(i, i);
    }
  }
  // Lambda^-1 = Y^T Y, one dot product per entry of the upper triangle
  for (int c = 0; c < Dim; ++c) {
    for (int r = 0; r <= c; ++r) {
      Scalar s(0);
      for (Eigen::Index i = 0; i < n; ++i) s += y(i, r) * y(i, c);
      out.Lambda_inv(r, c) = out.Lambda_inv(c, r) = s;
    }
  }
  detail::invert_task_inertia(out);
}

/// Returning form of the dense route.
template <int Dim = pose_task, typename Model, typename Q>
OperationalSpaceInertia<typename Model::Scalar, Dim> operational_space_inertia_dense(
    const Model& model, const Eigen::MatrixBase<Q>& q, const FrameFor<Model>& frame,
    ReferenceFrame rf = ReferenceFrame::world) {
  Data<Model>& data = detail::thread_workspace(model);
  OperationalSpaceInertia<typename Model::Scalar, Dim> out;
  operational_space_inertia_dense(
      model, data,
      detail::checked_joint_vector(model, q, "operational_space_inertia_dense", "q"), frame, rf,
      out);
  return out;
}

/// Lambda, Lambda^-1 and the task-space bias forces mu (Coriolis, centrifugal) and p (gravity)
/// of the frame F's task at (q, qd), in one sweep of ABA's passes (file comment): the
/// articulated inertias and bias forces tip to base, then base to F's link the recursion of
/// Omega and two acceleration recursions, one driven by the velocity products alone (a_0 = 0),
/// one by gravity alone (qd = 0, a_0 = -g). mu and p are in the task's coordinates `rf`, the
/// task acceleration being J qdd + Jdot qd with jdot_qd's convention (world: classical
/// acceleration of F's origin; local: F's spatial acceleration in F's axes). O(n). Fills
/// data.liMi, oMi, oS, ov, oc, oU, D, Dinv, u and oMf (and on a tree oIA and opA, the children's
/// sums).
template <typename Model, typename Q, typename Qd, int Dim>
void operational_space_dynamics(const Model& model, DataFor<Model>& data,
                                const Eigen::MatrixBase<Q>& q_in,
                                const Eigen::MatrixBase<Qd>& qd_in, const FrameFor<Model>& frame,
                                ReferenceFrame rf,
                                OperationalSpaceDynamics<typename Model::Scalar, Dim>& out)
    noexcept(!detail::checks_sizes<Model>) {
  static_assert(detail::fixed_joint_vectors<Model, Q, Qd>, CHAINDYN_FIXED_SIZE_MESSAGE);
  detail::check_in_place("operational_space_dynamics", model, data, "q", q_in, "qd", qd_in,
                         "frame", frame);
  using Scalar = typename Model::Scalar;
  const auto& q = detail::as_joint_vector<Model>(q_in.derived());
  const auto& qd = detail::as_joint_vector<Model>(qd_in.derived());
  [[maybe_unused]] const std::size_t n = detail::joint_count(model);
  // Pass 1, base to tip: poses, motion subspaces, velocities v_i = v_p(i) + S_i qd_i and
  // velocity products c_i = v_i x S_i qd_i, in base coordinates (a chain carries v_p(i) in a
  // register, a tree reads its parent's)                                        RBDA Table 7.1
  detail::world_kinematics(model, data, q);
  Motion<Scalar> v_parent;
  model.indices_forward([&](const std::size_t i) CHAINDYN_ALWAYS_INLINE {
    const auto k = Eigen::Index(i);
    const Motion<Scalar>& s = data.oS[i];
    const Motion<Scalar> v =
        model.is_root(i) ? s * qd[k]
                         : (Model::serial ? v_parent : data.ov[model.parent(i)]) + s * qd[k];
    data.ov[i] = v;
    if constexpr (Model::serial) v_parent = v;
    data.oc[i] = cross(v, s) * qd[k];
  });
  // Pass 2, tip to base: IA_i, pA_i = v_i x* I_i v_i + the children's pa, U_i, D_i and
  // u_i = -S_i^T pA_i (tau = 0, no friction), and Ia, pa = pA_i + Ia c_i + U_i u_i / D_i for
  // the parent (on a chain, link i + 1 is link i's one child, its Ia and pa in registers; on a
  // tree each child adds them to its parent's oIA and opA, as aba does)         RBDA Table 7.1
  // and, on L's support, Lambda^-1 by the task forces carried to the base (TaskForceSweep)
  data.oMf = frame.on_base() ? frame.placement() : data.oMi[frame.link()] * frame.placement();
  const Transform<Scalar> x = detail::task_transform(data.oMf, rf);
  detail::TaskForceSweep<Scalar, Dim, 1> sweep;
  sweep.start(0, frame.on_base() ? no_parent : frame.link(), x);
  out.Lambda_inv.setZero();
  ArticulatedInertia<Scalar> ia_child;
  Force<Scalar> pa_child;
  if constexpr (!Model::serial) {
    model.indices_forward([&](const std::size_t i) CHAINDYN_ALWAYS_INLINE {
      data.oIA[i] = ArticulatedInertia<Scalar>();
      data.opA[i] = Force<Scalar>();
    });
  }
  model.indices_backward([&](const std::size_t i) CHAINDYN_ALWAYS_INLINE {
    const auto k = Eigen::Index(i);
    const Motion<Scalar>& s = data.oS[i];
    const Motion<Scalar>& v = data.ov[i];
    const Inertia<Scalar> inertia = model.inertia_in(i, data.oMi[i]);
    ArticulatedInertia<Scalar> ia(inertia);
    Force<Scalar> pa = cross(v, inertia * v);
    if constexpr (Model::serial) {
      if (i + 1 < n) {
        ia = ia_child;
        ia += inertia;
        pa += pa_child;
      }
    } else {
      ia = data.oIA[i];  // the children's
      ia += inertia;
      pa += data.opA[i];
    }
    const Force<Scalar> u_force = ia * s;
    data.oU[i] = u_force;
    const Scalar d = dot(s, u_force) + model.armature()[k];
    const Scalar inv_d = Scalar(1) / d;
    data.D[k] = d;
    data.Dinv[k] = inv_d;
    const Scalar u = -dot(s, pa);
    data.u[k] = u;
    if (!model.is_root(i)) {
      const Motion<Scalar>& c = data.oc[i];
      const Force<Scalar> iac = ia * c;
      pa_child = pa + iac + ((u - dot(c, u_force)) * inv_d) * u_force;
      ia.subtract_outer(u_force, inv_d, ia_child);
      if constexpr (!Model::serial) {
        const std::size_t p = model.parent(i);
        data.oIA[p] += ia_child;
        data.opA[p] += pa_child;
      }
    }
    sweep.step(model, i, s, u_force, inv_d, out.Lambda_inv);
  });
  sweep.finish(out.Lambda_inv);
  detail::mirror_upper(out.Lambda_inv);
  detail::invert_task_inertia(out);
  if (frame.on_base()) {
    out.mu.setZero();
    out.p.setZero();
    return;
  }
  // Pass 3, base to L: the accelerations of tau = 0 split in two:
  //   velocity part: a'_i = a_p + c_i (a_0 = 0),  qdd_i = (u_i - U_i^T a'_i) / D_i
  //   gravity part:  a'_i = a_p (a_0 = -g),       qdd_i = -U_i^T a'_i / D_i
  //   a_i = a'_i + S_i qdd_i                                                       RBDA Table 7.1
  const std::size_t link = frame.link();
  Motion<Scalar> a_v;
  Motion<Scalar> a_g = model.base_acceleration();
  // L's support, base to L (joints 0..L on a chain): each joint visited is the previous one's
  // child, so a_v and a_g are carried from parent to child
  model.indices_forward([&](const std::size_t i) CHAINDYN_ALWAYS_INLINE {
    if (!model.supports(i, link)) return;
    const auto k = Eigen::Index(i);
    const Motion<Scalar>& s = data.oS[i];
    const Force<Scalar>& u_force = data.oU[i];
    a_v += data.oc[i];
    a_v += s * ((data.u[k] - dot(a_v, u_force)) * data.Dinv[k]);
    a_g += s * (-dot(a_g, u_force) * data.Dinv[k]);
  });
  // the real acceleration of the gravity part: the fictitious a_0 = -g removed (RBDA sec. 5.3)
  a_g -= model.base_acceleration();
  // Task accelerations. xdd_v: F's spatial acceleration in the task coordinates, plus, for
  // world, omega x pdot (the classical acceleration of F's origin, RBDA sec. 2.11, as jdot_qd)
  Eigen::Matrix<Scalar, 6, 1> xdd_v = x.act_inv(a_v).vector();
  if (rf == ReferenceFrame::world) {
    const Motion<Scalar>& v = data.ov[link];
    const Vector3<Scalar> pdot = v.linear + detail::cross3(v.angular, data.oMf.translation);
    xdd_v.template tail<3>() += detail::cross3(v.angular, pdot);
  }
  const Eigen::Matrix<Scalar, 6, 1> xdd_g = x.act_inv(a_g).vector();
  out.mu.noalias() = -(out.Lambda * xdd_v.template tail<Dim>());
  out.p.noalias() = -(out.Lambda * xdd_g.template tail<Dim>());
}

/// Returning form of operational_space_dynamics (Dim: pose_task or position_task).
template <int Dim = pose_task, typename Model, typename Q, typename Qd>
OperationalSpaceDynamics<typename Model::Scalar, Dim> operational_space_dynamics(
    const Model& model, const Eigen::MatrixBase<Q>& q, const Eigen::MatrixBase<Qd>& qd,
    const FrameFor<Model>& frame, ReferenceFrame rf = ReferenceFrame::world) {
  Data<Model>& data = detail::thread_workspace(model);
  OperationalSpaceDynamics<typename Model::Scalar, Dim> out;
  operational_space_dynamics(
      model, data, detail::checked_joint_vector(model, q, "operational_space_dynamics", "q"),
      detail::checked_joint_vector(model, qd, "operational_space_dynamics", "qd"), frame, rf, out);
  return out;
}

/// Returning form for a named frame. Throws IndexError if there is none.
template <int Dim = pose_task, typename Model, typename Q, typename Qd>
OperationalSpaceDynamics<typename Model::Scalar, Dim> operational_space_dynamics(
    const Model& model, const Eigen::MatrixBase<Q>& q, const Eigen::MatrixBase<Qd>& qd,
    std::string_view name, ReferenceFrame rf = ReferenceFrame::world) {
  return operational_space_dynamics<Dim>(model, q, qd, model.frame(name), rf);
}

namespace detail {

/// Jbar = M^-1 J^T Lambda from the articulated pass (data.oS, oU, Dinv) and out.Lambda: the
/// joint accelerations of the model at rest under the Dim task forces Lambda e_k, all at once
/// (extended force propagation). The forces in base coordinates, F = X^T E Lambda (E the
/// task's rows), climb from L to the base along L's support, each joint taking u_i = S_i^T F
/// and passing F - U_i D_i^-1 u_i on (u_i = 0 off the support); then from the base to the tips
/// qdd_i = D_i^-1 (u_i - U_i^T A_p(i)) and A_i = A_p(i) + S_i qdd_i, A the acceleration of the
/// links, zero at the base. u_i waits in row i of jbar until the acceleration pass overwrites
/// it with qdd_i. A chain carries A (6 x Dim) from link to link; a tree keeps each link's A in
/// data.oa, one task column at a time (every joint moves: the branches off L's support are
/// carried by their parents' accelerations).
template <typename Model, int Dim>
void task_inverse(const Model& model, DataFor<Model>& data, std::size_t link,
                  const Transform<typename Model::Scalar>& x,
                  const Eigen::Matrix<typename Model::Scalar, Dim, Dim>& lambda,
                  TaskInverse<Model, Dim>& jbar) noexcept {
  using Scalar = typename Model::Scalar;
  using Block = Eigen::Matrix<Scalar, 6, Dim>;
  Block f;  // column k: the wrench of task force Lambda e_k on link L, base coordinates
  for (int k = 0; k < Dim; ++k) {
    Force<Scalar> task;
    if constexpr (Dim == 6) {
      task = Force<Scalar>(lambda.col(k).template head<3>(), lambda.col(k).template tail<3>());
    } else {
      task.linear = lambda.col(k);
    }
    f.col(k) = x.act(task).vector();
  }
  model.indices_backward([&](const std::size_t i) CHAINDYN_ALWAYS_INLINE {
    const auto k = Eigen::Index(i);
    if (!model.supports(i, link)) {
      jbar.row(k).setZero();
      return;
    }
    const Eigen::Matrix<Scalar, 1, 6> s = data.oS[i].vector().transpose();
    const Eigen::Matrix<Scalar, 6, 1> u = data.oU[i].vector();
    const Eigen::Matrix<Scalar, 1, Dim> ui = s * f;
    jbar.row(k) = ui;
    f.noalias() -= (u * data.Dinv[k]) * ui;
  });
  if constexpr (Model::serial) {
    Block a = Block::Zero();
    model.indices_forward([&](const std::size_t i) CHAINDYN_ALWAYS_INLINE {
      const auto k = Eigen::Index(i);
      const Eigen::Matrix<Scalar, 6, 1> s = data.oS[i].vector();
      const Eigen::Matrix<Scalar, 1, 6> u = data.oU[i].vector().transpose();
      const Eigen::Matrix<Scalar, 1, Dim> qdd = (jbar.row(k) - u * a) * data.Dinv[k];
      jbar.row(k) = qdd;
      a.noalias() += s * qdd;
    });
  } else {
    for (int c = 0; c < Dim; ++c) {
      model.indices_forward([&](const std::size_t i) CHAINDYN_ALWAYS_INLINE {
        const auto k = Eigen::Index(i);
        const Motion<Scalar> a_parent =
            model.is_root(i) ? Motion<Scalar>() : data.oa[model.parent(i)];
        const Scalar qdd = (jbar(k, c) - dot(a_parent, data.oU[i])) * data.Dinv[k];
        jbar(k, c) = qdd;
        data.oa[i] = a_parent + data.oS[i] * qdd;
      });
    }
  }
}

}  // namespace detail

/// The dynamically consistent generalized inverse of the task's Jacobian, Jbar = M^-1 J^T
/// Lambda (nq x Dim; Khatib 1987), and the task's Lambda, Lambda^-1 and rcond into `lambda`:
/// J Jbar = 1, and Jbar F is the joint acceleration that a task force F causes at rest. By
/// the recursion of operational_space_inertia and extended force propagation (file comment),
/// O(n Dim), M^-1 never formed. Jbar in the task coordinates `rf` (its rows are the task's
/// force directions). For a frame on the base Jbar is zero. Fills what operational_space_inertia
/// fills (and on a tree data.oa, the links' accelerations under the last task force).
template <typename Model, typename Q, int Dim>
void dynamically_consistent_inverse(const Model& model, DataFor<Model>& data,
                                    const Eigen::MatrixBase<Q>& q_in,
                                    const FrameFor<Model>& frame, ReferenceFrame rf,
                                    OperationalSpaceInertia<typename Model::Scalar, Dim>& lambda,
                                    TaskInverse<Model, Dim>& jbar)
    noexcept(!detail::checks_sizes<Model>) {
  static_assert(detail::fixed_joint_vectors<Model, Q>, CHAINDYN_FIXED_SIZE_MESSAGE);
  detail::check_in_place("dynamically_consistent_inverse", model, data, "q", q_in, "frame",
                         frame);
  detail::check_matrix<Model>("dynamically_consistent_inverse", "jbar", jbar,
                              Eigen::Index(detail::joint_count(model)), Dim);
  const Transform<typename Model::Scalar> x = detail::operational_space_inertia_of<Dim>(
      model, data, detail::as_joint_vector<Model>(q_in.derived()), frame, rf, lambda);
  if (frame.on_base()) {
    jbar.setZero();
    return;
  }
  detail::task_inverse(model, data, frame.link(), x, lambda.Lambda, jbar);
}

/// operational_space_dynamics and, from the same passes, Jbar = M^-1 J^T Lambda
/// (dynamically_consistent_inverse): what an operational-space controller needs at each tick,
/// in one call, O(n Dim). The null-space projector is then 1 - Jbar J.
template <typename Model, typename Q, typename Qd, int Dim>
void operational_space_dynamics(const Model& model, DataFor<Model>& data,
                                const Eigen::MatrixBase<Q>& q, const Eigen::MatrixBase<Qd>& qd,
                                const FrameFor<Model>& frame, ReferenceFrame rf,
                                OperationalSpaceDynamics<typename Model::Scalar, Dim>& out,
                                TaskInverse<Model, Dim>& jbar)
    noexcept(!detail::checks_sizes<Model>) {
  detail::check_matrix<Model>("operational_space_dynamics", "jbar", jbar,
                              Eigen::Index(detail::joint_count(model)), Dim);
  operational_space_dynamics(model, data, q, qd, frame, rf, out);
  if (frame.on_base()) {
    jbar.setZero();
    return;
  }
  detail::task_inverse(model, data, frame.link(), detail::task_transform(data.oMf, rf),
                       out.Lambda, jbar);
}

/// Returning form: Jbar (nq x Dim) alone.
template <int Dim = pose_task, typename Model, typename Q>
TaskInverse<Model, Dim> dynamically_consistent_inverse(const Model& model,
                                                       const Eigen::MatrixBase<Q>& q,
                                                       const FrameFor<Model>& frame,
                                                       ReferenceFrame rf = ReferenceFrame::world) {
  Data<Model>& data = detail::thread_workspace(model);
  OperationalSpaceInertia<typename Model::Scalar, Dim> lambda;
  TaskInverse<Model, Dim> jbar(Eigen::Index(detail::joint_count(model)), Dim);
  dynamically_consistent_inverse(
      model, data, detail::checked_joint_vector(model, q, "dynamically_consistent_inverse", "q"),
      frame, rf, lambda, jbar);
  return jbar;
}

/// The dynamically consistent null-space projector of the task, N = 1 - Jbar J (nq x nq), with
/// Jbar and Lambda of dynamically_consistent_inverse in `jbar` and `lambda`: J N = 0, N N = N,
/// N M^-1 = M^-1 N^T, and Jbar^T M N = 0 (the null space is M-orthogonal to the task). A
/// posture torque tau_0 added as N^T tau_0 causes no task acceleration (Khatib 1987). N does
/// not depend on the task coordinates (J and Jbar change by inverse transforms); `rf` is that
/// of Jbar.
/// O(n^2 Dim) for the product; the rest as dynamically_consistent_inverse.
template <typename Model, typename Q, int Dim>
void null_space_projector(const Model& model, DataFor<Model>& data,
                          const Eigen::MatrixBase<Q>& q_in, const FrameFor<Model>& frame,
                          ReferenceFrame rf,
                          OperationalSpaceInertia<typename Model::Scalar, Dim>& lambda,
                          TaskInverse<Model, Dim>& jbar, typename Model::Matrix& N)
    noexcept(!detail::checks_sizes<Model>) {
  static_assert(detail::fixed_joint_vectors<Model, Q>, CHAINDYN_FIXED_SIZE_MESSAGE);
  const auto n = Eigen::Index(detail::joint_count(model));
  detail::check_matrix<Model>("null_space_projector", "N", N, n, n);
  dynamically_consistent_inverse(model, data, q_in, frame, rf, lambda, jbar);
  using Scalar = typename Model::Scalar;
  N.setIdentity();
  if (frame.on_base()) return;
  const Transform<Scalar> x = detail::task_transform(data.oMf, rf);
  // column j of J: joint j's motion subspace in the task coordinates (jacobian.hpp)
  model.indices_forward([&](const std::size_t j) CHAINDYN_ALWAYS_INLINE {
    if (!model.supports(j, frame.link())) return;
    const Eigen::Matrix<Scalar, 6, 1> column = x.act_inv(data.oS[j]).vector();
    N.col(Eigen::Index(j)).noalias() -= jbar * column.template tail<Dim>();
  });
}

/// Returning form: N alone.
template <int Dim = pose_task, typename Model, typename Q>
typename Model::Matrix null_space_projector(const Model& model, const Eigen::MatrixBase<Q>& q,
                                            const FrameFor<Model>& frame) {
  Data<Model>& data = detail::thread_workspace(model);
  const auto n = Eigen::Index(detail::joint_count(model));
  OperationalSpaceInertia<typename Model::Scalar, Dim> lambda;
  TaskInverse<Model, Dim> jbar(n, Dim);
  typename Model::Matrix N(n, n);
  null_space_projector(model, data,
                       detail::checked_joint_vector(model, q, "null_space_projector", "q"), frame,
                       ReferenceFrame::world, lambda, jbar, N);
  return N;
}

}  // namespace chaindyn
