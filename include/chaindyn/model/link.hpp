/// @file
/// A link of a chain: where its joint sits on the parent, what the joint's axis and dynamics
/// are, and the link's inertia; and the checks a chain runs on it.
#pragma once

#include "chaindyn/joints/joint_common.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <optional>
#include <utility>
#include <string>

namespace chaindyn {

/// Joint dynamics parameters: the eps(q, qd, qdd) term of the equation of motion and the rotor.
///   tau_i = ... + damping * qd_i + friction * sign(qd_i) + armature * qdd_i
/// All default to zero. Units: N m s/rad, N m, kg m^2 for a revolute joint; N s/m, N, kg for a
/// prismatic joint.
template <typename Scalar>
struct JointDynamics {
  Scalar damping = Scalar(0);   ///< viscous friction coefficient
  Scalar friction = Scalar(0);  ///< Coulomb friction magnitude (sign(0) = 0: no stiction)
  Scalar armature = Scalar(0);  ///< rotor inertia reflected to the joint side

  /// The armature of a motor of rotor inertia `rotor_inertia` behind a gear of ratio
  /// `gear_ratio` (motor speed / joint speed): G^2 I_rotor.
  static JointDynamics with_rotor(const Scalar& rotor_inertia, const Scalar& gear_ratio,
                                  const Scalar& damping_ = Scalar(0),
                                  const Scalar& friction_ = Scalar(0)) {
    JointDynamics d;
    d.damping = damping_;
    d.friction = friction_;
    d.armature = gear_ratio * gear_ratio * rotor_inertia;
    return d;
  }
};

/// A joint's limits as a URDF `<limit>` gives them, kept in the model for users (no algorithm
/// reads them). `lower`/`upper`: position limits (rad or m; -inf/+inf for an unbounded joint such
/// as URDF `continuous`); `velocity` (rad/s or m/s) and `effort` (N m or N): the magnitudes the
/// joint may reach. A chain checks: no NaN, lower <= upper, velocity >= 0, effort >= 0.
template <typename Scalar>
struct JointLimits {
  Scalar lower = Scalar(0);
  Scalar upper = Scalar(0);
  Scalar velocity = Scalar(0);
  Scalar effort = Scalar(0);
};

/// One link of a serial chain and the joint that moves it (URDF-style description).
///
/// - `placement`: the pose of the joint frame in the parent link frame (URDF joint `<origin>`);
///   the parent of the first link is the base.
/// - `axis`: for Revolute and Prismatic (run-time axis) joints, the joint axis in the joint
///   frame (normalized on construction). Joints with the axis in their type (RevoluteZ, ...)
///   leave it empty or give that same axis.
/// - The link frame is the joint frame after the joint's motion.
/// - `mass`, `com` (centre of mass in the link frame) and `inertia` (rotational inertia about
///   the centre of mass, in link-frame axes), as URDF `<inertial>`.
/// - `limits`, `joint_name`: the joint's `<limit>` and name (URDF), for users; the algorithms
///   ignore them. (Appended last, with default member initializers, so that aggregate
///   initializations of the members before them stay complete.)
template <typename Scalar>
struct Link {
  std::string name;
  Transform<Scalar> placement = Transform<Scalar>::Identity();
  std::optional<Vector3<Scalar>> axis;
  Scalar mass = Scalar(0);
  Vector3<Scalar> com = Vector3<Scalar>::Zero();
  Matrix3<Scalar> inertia = Matrix3<Scalar>::Zero();
  JointDynamics<Scalar> dynamics;
  std::optional<JointLimits<Scalar>> limits = std::nullopt;
  std::string joint_name = {};
};

/// What a chain's constructor refuses beyond what it always refuses (non-finite numbers, a
/// negative mass, a non-symmetric inertia, an improper placement rotation, bad limits or joint
/// dynamics). Both on by default; `urdf::LoadOptions` turns them off where the user asked for
/// it (docs/urdf.md).
struct ModelChecks {
  /// Refuse an inertia that is not positive semi-definite or breaks the triangle inequality of
  /// principal moments. Off: such an inertia is kept as given (urdf::InertiaPolicy::accept).
  bool physical_inertia = true;
  /// Refuse a model whose mass matrix is singular at every configuration (a joint that moves
  /// no mass, e.g. a chain without any inertia). Off: such a model is built for kinematics
  /// only, and its has_dynamics() is false (its dynamics mean nothing).
  bool regular = true;
};

namespace detail {

inline std::string link_label(std::size_t index, const std::string& name) {
  std::ostringstream os;
  os << "link " << index;
  if (!name.empty()) os << " ('" << name << "')";
  return os.str();
}

template <typename Derived>
bool all_finite(const Eigen::MatrixBase<Derived>& m) {
  for (Eigen::Index r = 0; r < m.rows(); ++r) {
    for (Eigen::Index c = 0; c < m.cols(); ++c) {
      if (!std::isfinite(scalar_value(m(r, c)))) return false;
    }
  }
  return true;
}

/// The smallest scale an inertia tensor's checks take (kg m^2): a tensor whose entries are all
/// rounding noise (a point mass written as ixx = -5.4e-20) is judged as the zero tensor it
/// stands for, not against its own noise.
inline constexpr double kInertiaScaleFloor = 1e-12;

/// A symmetric 3x3 inertia-like matrix is positive semi-definite iff all its principal minors
/// are >= 0; `tol` is relative to the matrix's scale s = max(largest |entry|,
/// kInertiaScaleFloor): the k x k minors are compared with -tol s^k.
inline bool symmetric_psd(const Eigen::Matrix3d& m, double tol) {
  const double s = std::max(m.cwiseAbs().maxCoeff(), kInertiaScaleFloor);
  const double s2 = s * s;
  for (int k = 0; k < 3; ++k) {
    if (m(k, k) < -tol * s) return false;
  }
  for (int i = 0; i < 3; ++i) {
    for (int j = i + 1; j < 3; ++j) {
      if (m(i, i) * m(j, j) - m(i, j) * m(j, i) < -tol * s2) return false;
    }
  }
  return m.determinant() >= -tol * s2 * s;
}

inline std::string format_matrix(const Eigen::Matrix3d& m) {
  std::ostringstream os;
  os << '[';
  for (int r = 0; r < 3; ++r) {
    os << (r ? "; " : "") << m(r, 0) << ' ' << m(r, 1) << ' ' << m(r, 2);
  }
  os << ']';
  return os.str();
}

/// The physical-consistency rule a rigid body's rotational inertia about its centre of mass
/// breaks, as a message fragment ("inertia [...] violates ..."), or an empty string if none:
/// the tensor must be positive semi-definite, and its principal moments must satisfy the
/// triangle inequality I1 + I2 >= I3 (they do iff the second moment of the mass distribution,
/// Sigma = tr(I)/2 * 1 - I, is positive semi-definite). `inertia` must be symmetric and finite.
/// Tolerance 1e-6 relative to the tensor's scale (symmetric_psd: its largest entry, at least
/// kInertiaScaleFloor), so a tensor on the boundary (a thin rod's) or one whose only nonzero
/// entries are rounding noise passes. The mass's sign is checked separately (validate_link).
inline std::string inertia_problem(const Eigen::Matrix3d& inertia) {
  constexpr double tol = 1e-6;
  if (!symmetric_psd(inertia, tol)) {
    return "inertia " + format_matrix(inertia) + " is not positive semi-definite";
  }
  const Eigen::Matrix3d sigma = 0.5 * inertia.trace() * Eigen::Matrix3d::Identity() - inertia;
  if (!symmetric_psd(sigma, tol)) {
    return "inertia " + format_matrix(inertia) +
           " violates the triangle inequality of principal moments (I1 + I2 >= I3)";
  }
  return std::string();
}

/// Checks a link's numbers (not its axis: the joint model checks that). Throws ModelError.
/// `physical_inertia` false (ModelChecks::physical_inertia, for inertias a user chose to keep as
/// written): the inertia is not checked for positive semi-definiteness and the triangle
/// inequality; everything else is.
template <typename Scalar>
void validate_link(const Link<Scalar>& link, const std::string& where,
                   bool physical_inertia = true) {
  constexpr double tol = 1e-6;
  const Matrix3<Scalar>& r = link.placement.rotation;
  if (!all_finite(r) || !all_finite(link.placement.translation)) {
    throw_model_error(where, ": placement is not finite (translation ",
                      format_vector(link.placement.translation), ")");
  }
  const Eigen::Matrix3d rd = r.unaryExpr([](const Scalar& x) { return scalar_value(x); });
  if (!((rd.transpose() * rd - Eigen::Matrix3d::Identity()).cwiseAbs().maxCoeff() < tol) ||
      !(rd.determinant() > 0.0)) {
    throw_model_error(where, ": placement rotation ", format_matrix(rd),
                      " is not a rotation matrix (orthonormal, determinant +1)");
  }
  const double m = scalar_value(link.mass);
  if (!std::isfinite(m)) throw_model_error(where, ": mass is not finite (", m, ")");
  if (m < 0.0) throw_model_error(where, ": mass is negative (", m, ")");
  if (!all_finite(link.com)) {
    throw_model_error(where, ": centre of mass ", format_vector(link.com), " is not finite");
  }
  const Eigen::Matrix3d in =
      link.inertia.unaryExpr([](const Scalar& x) { return scalar_value(x); });
  if (!all_finite(in)) {
    throw_model_error(where, ": inertia ", format_matrix(in), " is not finite");
  }
  const double scale = std::max(in.cwiseAbs().maxCoeff(), 1e-300);
  if (!((in - in.transpose()).cwiseAbs().maxCoeff() <= tol * scale)) {
    throw_model_error(where, ": inertia ", format_matrix(in), " is not symmetric");
  }
  if (physical_inertia) {
    const std::string problem = inertia_problem(in);
    if (!problem.empty()) throw_model_error(where, ": ", problem);
  }
  const JointDynamics<Scalar>& d = link.dynamics;
  const std::pair<const char*, double> params[] = {{"damping", scalar_value(d.damping)},
                                                   {"friction", scalar_value(d.friction)},
                                                   {"armature", scalar_value(d.armature)}};
  for (const auto& [name, value] : params) {
    if (!std::isfinite(value)) {
      throw_model_error(where, ": joint ", name, " is not finite (", value, ")");
    }
    if (value < 0.0) throw_model_error(where, ": joint ", name, " is negative (", value, ")");
  }
  if (link.limits) {
    const double lower = scalar_value(link.limits->lower);
    const double upper = scalar_value(link.limits->upper);
    const double velocity = scalar_value(link.limits->velocity);
    const double effort = scalar_value(link.limits->effort);
    if (std::isnan(lower) || std::isnan(upper) || !(lower <= upper)) {
      throw_model_error(where, ": joint limits lower ", lower, " and upper ", upper,
                        " do not satisfy lower <= upper");
    }
    if (!(velocity >= 0.0)) {
      throw_model_error(where, ": joint velocity limit ", velocity, " is not >= 0");
    }
    if (!(effort >= 0.0)) {
      throw_model_error(where, ": joint effort limit ", effort, " is not >= 0");
    }
  }
}


// ---- Regularity: does every joint move something? ------------------------------------------
//
// M(q) is positive definite iff every articulated-body pivot D_j = S_j^T IA_j S_j + armature_j
// is positive: the D_j of ABA (RBDA sec. 7.3, Table 7.1) are the pivots of a factorisation of M
// from the tip inwards (RBDA sec. 6.5: D_j is the Schur complement of joints j+1..n-1's block in
// joints j..n-1's block of M). What each pivot is:
//   - the tip joint's is S^T I S + armature, whatever q: a prismatic tip's is its link's mass, a
//     revolute tip's its link's moment of inertia about the joint axis;
//   - every joint's is at least what its own link gives it (IA_j = I_j + PSD terms, RBDA eq.
//     7.23): a prismatic joint's D_j >= m_j + armature_j, whatever q; a revolute joint's
//     D_j >= a^T I_O,j a + armature_j (I_O,j: link j's rotational inertia about the joint origin);
//   - beyond that, an inner joint's pivot depends on the outer joints' q: coaxial revolute axes
//     or parallel prismatic axes make the outer joints take up its motion.
// The check below runs the ABA backward pass in double (scalar, plain loops: it runs once per
// construction in every translation unit that builds a model, so it is kept cheap to compile)
// at q = 0 and, if a pivot vanished there, at a few fixed, seeded configurations, and refuses a
// joint whose pivot vanishes at every one of them. A model singular only at special
// configurations (e.g. coaxial axes at q = 0) is accepted.
//
// "Vanishes" is relative, in the joint's own units: D_j <= pivot_tolerance * scale_j, with
// scale_j what the joint would move if every joint after it were locked (the composite rigid
// body of links j..n-1, RBDA sec. 6.2) plus its armature: for a prismatic joint the mass of
// links j..n-1 (kg), for a revolute joint the trace of their rotational inertia about the joint
// origin (kg m^2). A joint that moves nothing at all has scale_j = 0 and D_j = 0.

/// Relative tolerance of a vanishing articulated-body pivot (see above).
inline constexpr double pivot_tolerance = 1e-9;
/// How many configurations the regularity check tries: q = 0 and (pivot_configurations - 1)
/// fixed, seeded ones.
inline constexpr int pivot_configurations = 4;

/// One joint and its link as the regularity check sees them, in double, and the check's
/// results for it.
struct PivotJoint {
  // input
  bool prismatic = false;
  double axis[3] = {0, 0, 1};  ///< unit axis in the joint frame
  double R[3][3] = {};         ///< placement: rotation of the joint frame in the parent link
  double p[3] = {};            ///< placement: translation
  double mass = 0;             ///< link inertia about the link origin: m, h = m c, I_O
  double h[3] = {};
  double I[3][3] = {};
  double armature = 0;
  /// The parent joint's index, -1 for a joint on the base; kPreviousJoint (the default): the
  /// joint before it (a chain's parent).
  int parent = kPreviousJoint;
  static constexpr int kPreviousJoint = -2;
  // scratch: the children's Ia and composite inertias, in this link's coordinates
  double ia_children[6][6] = {};
  double ic_children[6][6] = {};
  // results
  double q = 0;          ///< the configuration being tried
  double pivot = 0;      ///< D_j at the configuration tried last
  double scale = 0;      ///< scale_j at the configuration tried last
  double pivot0 = 0;     ///< D_j at q = 0
  double scale0 = 0;     ///< scale_j at q = 0
  bool vanishes = false; ///< D_j vanished at every configuration tried so far
};

/// out = Y^T in Y with Y = [R^T 0; -R^T [p]x R^T], the motion transform from the parent link's
/// coordinates to this link's (RBDA eq. 2.24; act_inv in docs/conventions.md): a spatial
/// inertia `in` in this link's coordinates, expressed in the parent's (RBDA eq. 2.66).
inline void pivot_congruence(const double R[3][3], const double p[3], const double in[6][6],
                             double out[6][6]) {
  const double px[3][3] = {{0, -p[2], p[1]}, {p[2], 0, -p[0]}, {-p[1], p[0], 0}};
  double y[6][6] = {};
  for (int r = 0; r < 3; ++r) {
    for (int c = 0; c < 3; ++c) {
      y[r][c] = R[c][r];
      y[r + 3][c + 3] = R[c][r];
      double v = 0;  // (-R^T [p]x)(r, c)
      for (int k = 0; k < 3; ++k) v -= R[k][r] * px[k][c];
      y[r + 3][c] = v;
    }
  }
  double t[6][6];
  for (int r = 0; r < 6; ++r) {
    for (int c = 0; c < 6; ++c) {
      double v = 0;
      for (int k = 0; k < 6; ++k) v += in[r][k] * y[k][c];
      t[r][c] = v;
    }
  }
  for (int r = 0; r < 6; ++r) {
    for (int c = 0; c < 6; ++c) {
      double v = 0;
      for (int k = 0; k < 6; ++k) v += y[k][r] * t[k][c];
      out[r][c] = v;
    }
  }
}

/// The ABA backward pass at the configuration in js[j].q (RBDA Table 7.1, steps 2-3 without
/// the bias forces), with the composite rigid-body inertias beside it for the scales: fills
/// js[j].pivot and js[j].scale. A vanishing pivot's projection is skipped: its IA S is then
/// zero too (IA is positive semi-definite), so nothing is lost. Children before parents (each
/// js[j].parent < j): each joint adds its Ia and composite inertia to its parent's.
inline void compute_pivots(PivotJoint* js, int n) {
  for (int j = 0; j < n; ++j) {
    for (int r = 0; r < 6; ++r) {
      for (int c = 0; c < 6; ++c) js[j].ia_children[r][c] = js[j].ic_children[r][c] = 0.0;
    }
  }
  for (int j = n - 1; j >= 0; --j) {
    PivotJoint& J = js[j];
    double ia[6][6], ic[6][6];
    // the link's rigid inertia [I_O [h]x; [h]x^T m 1] (RBDA eq. 2.63)
    const double hx[3][3] = {{0, -J.h[2], J.h[1]}, {J.h[2], 0, -J.h[0]}, {-J.h[1], J.h[0], 0}};
    for (int r = 0; r < 3; ++r) {
      for (int c = 0; c < 3; ++c) {
        ia[r][c] = J.I[r][c];
        ia[r][c + 3] = hx[r][c];
        ia[r + 3][c] = hx[c][r];
        ia[r + 3][c + 3] = (r == c) ? J.mass : 0.0;
      }
    }
    for (int r = 0; r < 6; ++r) {
      for (int c = 0; c < 6; ++c) {
        ic[r][c] = ia[r][c] + J.ic_children[r][c];
        ia[r][c] += J.ia_children[r][c];
      }
    }
    double s[6] = {};
    const int off = J.prismatic ? 3 : 0;
    for (int k = 0; k < 3; ++k) s[off + k] = J.axis[k];
    double u[6];
    double d = J.armature;
    for (int r = 0; r < 6; ++r) {
      double v = 0;
      for (int k = 0; k < 6; ++k) v += ia[r][k] * s[k];
      u[r] = v;
      d += s[r] * v;
    }
    J.pivot = d;
    J.scale = J.armature + (J.prismatic ? ic[3][3] : ic[0][0] + ic[1][1] + ic[2][2]);
    const int parent = J.parent == PivotJoint::kPreviousJoint ? j - 1 : J.parent;
    if (parent < 0) continue;
    if (d > pivot_tolerance * J.scale) {
      for (int r = 0; r < 6; ++r) {
        for (int c = 0; c < 6; ++c) ia[r][c] -= u[r] * u[c] / d;
      }
    }
    // the pose of link j in its parent: placement * joint motion (Rodrigues for a revolute joint)
    double rj[3][3] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
    double tj[3] = {};
    const double* a = J.axis;
    if (J.prismatic) {
      for (int k = 0; k < 3; ++k) tj[k] = a[k] * J.q;
    } else {
      const double cq = std::cos(J.q), sq = std::sin(J.q);
      const double ax[3][3] = {{0, -a[2], a[1]}, {a[2], 0, -a[0]}, {-a[1], a[0], 0}};
      for (int r = 0; r < 3; ++r) {
        for (int c = 0; c < 3; ++c) {
          rj[r][c] = (r == c ? cq : 0.0) + sq * ax[r][c] + (1 - cq) * a[r] * a[c];
        }
      }
    }
    double rot[3][3], pos[3];
    for (int r = 0; r < 3; ++r) {
      pos[r] = J.p[r];
      for (int c = 0; c < 3; ++c) {
        rot[r][c] = 0;
        for (int k = 0; k < 3; ++k) rot[r][c] += J.R[r][k] * rj[k][c];
        pos[r] += J.R[r][c] * tj[c];
      }
    }
    double ia_up[6][6], ic_up[6][6];
    pivot_congruence(rot, pos, ia, ia_up);
    pivot_congruence(rot, pos, ic, ic_up);
    PivotJoint& P = js[parent];
    for (int r = 0; r < 6; ++r) {
      for (int c = 0; c < 6; ++c) {
        P.ia_children[r][c] += ia_up[r][c];
        P.ic_children[r][c] += ic_up[r][c];
      }
    }
  }
}

/// The outermost joint whose articulated-body pivot vanishes at q = 0 and at every one of the
/// fixed, seeded configurations tried after it, or -1 when there is none (see above).
inline int find_singular_joint(PivotJoint* js, int n) {
  for (int j = 0; j < n; ++j) js[j].q = 0;
  compute_pivots(js, n);
  bool any = false;
  for (int j = 0; j < n; ++j) {
    js[j].pivot0 = js[j].pivot;
    js[j].scale0 = js[j].scale;
    js[j].vanishes = !(js[j].pivot > pivot_tolerance * js[j].scale);
    any = any || js[j].vanishes;
  }
  // splitmix64 (Steele, Lea, Flood 2014), fixed seed: the same configurations every time
  std::uint64_t state = 0x63686169'6e64796eULL;
  const auto uniform = [&state](double lo, double hi) {
    std::uint64_t z = (state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    z ^= z >> 31;
    return lo + (hi - lo) * double(z >> 11) * 0x1.0p-53;
  };
  for (int config = 1; any && config < pivot_configurations; ++config) {
    // revolute: an angle in [-pi, pi) rad; prismatic: a displacement in [-1, 1) m
    for (int j = 0; j < n; ++j) {
      const double pi = 3.141592653589793;
      js[j].q = js[j].prismatic ? uniform(-1.0, 1.0) : uniform(-pi, pi);
    }
    compute_pivots(js, n);
    any = false;
    for (int j = 0; j < n; ++j) {
      js[j].vanishes = js[j].vanishes && !(js[j].pivot > pivot_tolerance * js[j].scale);
      any = any || js[j].vanishes;
    }
  }
  for (int j = n - 1; j >= 0; --j) {
    if (js[j].vanishes) return j;
  }
  return -1;
}

/// The regularity check's view of a joint and its link: the kind and axis from the chain type's
/// slot (the link's own axis, normalized, for a run-time-axis joint, which its joint model has
/// checked by then), the placement, the spatial inertia about the link origin (payload
/// included) and the armature.
template <typename Scalar>
PivotJoint pivot_joint(const JointSlot& slot, const Link<Scalar>& link,
                       const Inertia<Scalar>& inertia, const Scalar& armature) {
  PivotJoint js;
  js.prismatic = !kind_info(slot.kind).rotates;
  if (slot.axis >= 0) {
    for (int k = 0; k < 3; ++k) js.axis[k] = (k == slot.axis) ? 1.0 : 0.0;
  } else if (link.axis) {
    double largest = 0;  // scaled by it first: (1e300, 1e300, 0)'s squared norm overflows
    for (int k = 0; k < 3; ++k) {
      js.axis[k] = scalar_value((*link.axis)[k]);
      largest = std::max(largest, std::abs(js.axis[k]));
    }
    if (largest > 0) {
      for (double& a : js.axis) a /= largest;
    }
    const double norm = std::sqrt(js.axis[0] * js.axis[0] + js.axis[1] * js.axis[1] +
                                  js.axis[2] * js.axis[2]);
    if (norm > 0) {
      for (double& a : js.axis) a /= norm;
    }
  }
  for (int r = 0; r < 3; ++r) {
    js.p[r] = scalar_value(link.placement.translation[r]);
    js.h[r] = scalar_value(inertia.first_moment[r]);
    for (int c = 0; c < 3; ++c) {
      js.R[r][c] = scalar_value(link.placement.rotation(r, c));
      js.I[r][c] = scalar_value(inertia.rotational(r, c));
    }
  }
  js.mass = scalar_value(inertia.mass);
  js.armature = scalar_value(armature);
  return js;
}

/// Throws the ModelError for joint j whose pivot vanishes (`where`: the link's label; `leaf`:
/// no joint after it moves with it): which joint, what kind, what it fails to move, why, and
/// what to do.
[[noreturn]] inline void throw_singular_joint(const PivotJoint& js, std::size_t j, bool leaf,
                                              const std::string& where) {
  std::ostringstream axis;
  axis << '(' << js.axis[0] << ", " << js.axis[1] << ", " << js.axis[2] << ')';
  if (!std::isfinite(js.pivot0) || !std::isfinite(js.scale0)) {
    throw_model_error(where, ": the ", js.prismatic ? "prismatic" : "revolute", " joint (axis ",
                      axis.str(), ")'s articulated-body inertia overflows (D = ", js.pivot0,
                      "): the masses, inertias or distances from here to the tip are too large");
  }
  const char* unit = js.prismatic ? " kg" : " kg m^2";
  std::ostringstream why;
  if (!(js.scale0 > 0.0)) {
    why << (leaf ? "the link has no " : "this link and the ones after it have no ")
        << (js.prismatic ? "mass" : "mass or inertia");
  } else if (js.prismatic) {
    why << "the link is massless (" << js.mass << " kg)";
    if (!leaf) {
      why << " and the joints after it take up all its motion (e.g. a parallel prismatic joint)";
    }
  } else if (leaf) {
    why << "the link's mass lies on the axis and it has no moment of inertia about it";
  } else {
    why << "this link has no moment of inertia about the axis (its mass, if any, lies on the "
           "axis) and the joints after it take up the rotation of the links beyond (e.g. a "
           "coaxial revolute joint)";
  }
  throw_model_error(
      where, ": the ", js.prismatic ? "prismatic" : "revolute", " joint (axis ", axis.str(),
      ") moves no ", js.prismatic ? "mass along its axis" : "inertia about its axis", ": ",
      why.str(), ". Its articulated-body pivot D = S^T IA S + armature vanishes at q = 0 (D = ",
      js.pivot0, unit, ", against ", js.scale0, unit,
      " with the joints after it locked) and at ", pivot_configurations - 1,
      " other configurations (relative tolerance ", pivot_tolerance,
      "), so the mass matrix is singular (forward dynamics divides by zero). Give link ", j,
      js.prismatic ? " mass" : " inertia about the axis or mass off it",
      ", or the joint an armature (rotor inertia)");
}

}  // namespace detail
}  // namespace chaindyn
