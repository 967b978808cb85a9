/// @file
/// Shared helpers for the tests: seeded random models and states, one approx comparison.
#pragma once

#include <chaindyn/chaindyn.hpp>

#include <cmath>
#include <cstdint>
#include <random>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

namespace chaindyn::test {

/// The seed every random test starts from; a failing case prints its own sub-seed.
inline constexpr std::uint32_t kSeed = 20261122u;

/// pi to double precision (one definition for every test source: chaindyn_tests is a unity build)
inline constexpr double kPi = 3.14159265358979323846;

/// true in an unoptimised build (the asan preset: ASan + UBSan at -O0, where the library runs
/// 20-50x slower than at -O2). The few tests that integrate long horizons or thousands of
/// estimator ticks run a shorter horizon there, with the same assertions; optimised builds
/// (the gcc preset, default, any -O1+) run the full length. CI time: docs/architecture.md, "CI".
#if defined(__OPTIMIZE__)
inline constexpr bool kUnoptimised = false;
#else
inline constexpr bool kUnoptimised = true;
#endif

/// max |a - b| / max(1, max |b|): relative to the reference's size, absolute near zero.
/// The operands go through one dynamic-size form: the reductions are compiled once, not once
/// per (fixed-size) operand type.
inline double relative_error_of(const Eigen::Ref<const Eigen::MatrixXd>& a,
                                const Eigen::Ref<const Eigen::MatrixXd>& b) {
  const double scale = std::max(1.0, b.cwiseAbs().maxCoeff());
  return (a - b).cwiseAbs().maxCoeff() / scale;
}
template <typename A, typename B>
double relative_error(const Eigen::MatrixBase<A>& a, const Eigen::MatrixBase<B>& b) {
  return relative_error_of(a.template cast<double>(), b.template cast<double>());
}
inline double relative_error(double a, double b) {
  return std::abs(a - b) / std::max(1.0, std::abs(b));
}

/// The eigenvalues of a symmetric matrix, ascending (Eigen::SelfAdjointEigenSolver, from its
/// lower triangle), its condition number max / min eigenvalue, and whether its Cholesky
/// factorization succeeds (Eigen::LLT: positive definite). Defined once, in
/// support/eigen_solvers.cpp, for dynamic sizes: Eigen's solvers cost seconds of compile time
/// per matrix type and translation unit (~7 s of g++ for the eigen-solver, ~5 s of clang++ with
/// the sanitizers for a 7 x 7 one), so tests pass their fixed-size matrices here.
Eigen::VectorXd symmetric_eigenvalues(const Eigen::MatrixXd& m);
double condition_number(const Eigen::MatrixXd& m);
bool positive_definite(const Eigen::MatrixXd& m);
/// a^-1 and a^-1 b by LU with partial pivoting (Eigen::PartialPivLU), likewise defined once.
Eigen::MatrixXd inverse(const Eigen::MatrixXd& a);
Eigen::VectorXd solve(const Eigen::MatrixXd& a, const Eigen::VectorXd& b);

inline double uniform(std::mt19937& gen, double lo, double hi) {
  return std::uniform_real_distribution<double>(lo, hi)(gen);
}

// Rotations written out from their definitions, independent of Transform::FromRPY.
inline Eigen::Matrix3d rot_x(double a) {
  Eigen::Matrix3d r;
  r << 1, 0, 0, 0, std::cos(a), -std::sin(a), 0, std::sin(a), std::cos(a);
  return r;
}
inline Eigen::Matrix3d rot_y(double a) {
  Eigen::Matrix3d r;
  r << std::cos(a), 0, std::sin(a), 0, 1, 0, -std::sin(a), 0, std::cos(a);
  return r;
}
inline Eigen::Matrix3d rot_z(double a) {
  Eigen::Matrix3d r;
  r << std::cos(a), -std::sin(a), 0, std::sin(a), std::cos(a), 0, 0, 0, 1;
  return r;
}
/// URDF/SDF rpy: R = Rz(yaw) Ry(pitch) Rx(roll).
inline Eigen::Matrix3d rpy(double roll, double pitch, double yaw) {
  return rot_z(yaw) * rot_y(pitch) * rot_x(roll);
}

// The draws are sequenced one statement each: the evaluation order of function arguments is
// unspecified (g++ and clang++ differ), and the random cases must be the same with both.
inline Eigen::Matrix3d random_rotation(std::mt19937& gen) {
  const double w = uniform(gen, -1, 1);
  const double x = uniform(gen, -1, 1);
  const double y = uniform(gen, -1, 1);
  const double z = uniform(gen, -1, 1);
  Eigen::Quaterniond qt(w, x, y, z);
  if (qt.norm() < 1e-3) qt = Eigen::Quaterniond::Identity();
  return qt.normalized().toRotationMatrix();
}

inline Eigen::Vector3d random_vector(std::mt19937& gen, double lo, double hi) {
  Eigen::Vector3d v;
  for (int k = 0; k < 3; ++k) v[k] = uniform(gen, lo, hi);
  return v;
}

/// A physically valid random link: random placement, mass in [0.5, 3] kg, centre of mass
/// within 0.3 m, principal moments that satisfy the triangle inequality in a random frame.
/// With `joint_dynamics`, positive damping, Coulomb friction and armature.
inline Link<double> random_link(std::mt19937& gen, bool joint_dynamics = false) {
  Link<double> l;
  const Eigen::Matrix3d placement_rotation = random_rotation(gen);
  l.placement = Transform<double>(placement_rotation, random_vector(gen, -0.5, 0.5));
  l.axis = random_vector(gen, -1, 1).normalized();
  l.mass = uniform(gen, 0.5, 3.0);
  l.com = random_vector(gen, -0.3, 0.3);
  // principal moments from a random positive second moment (always a valid body)
  const Eigen::Vector3d s = random_vector(gen, 0.01, 0.1);
  const Eigen::Vector3d moments(s.y() + s.z(), s.x() + s.z(), s.x() + s.y());
  const Eigen::Matrix3d r = random_rotation(gen);
  l.inertia = r * moments.asDiagonal() * r.transpose();
  l.inertia = 0.5 * (l.inertia + l.inertia.transpose()).eval();
  if (joint_dynamics) {
    l.dynamics.damping = uniform(gen, 0.0, 0.5);
    l.dynamics.friction = uniform(gen, 0.0, 0.5);
    l.dynamics.armature = uniform(gen, 0.0, 0.2);
  }
  return l;
}

/// A random placement with the structure of placement pattern P (joints/placed.hpp): the
/// rotation is P's signed axis permutation, a random angle about AboutAxis' axis, or random;
/// the translation is random where P allows it and zero elsewhere.
template <typename P>
Transform<double> random_placement_of(std::mt19937& gen) {
  int free_entries = 0, about = -1;
  for (int k = 0; k < 9; ++k) free_entries += P::rotation[std::size_t(k)] == 2;
  for (int k = 0; k < 3; ++k) {
    if (P::rotation[std::size_t(4 * k)] == 1 && free_entries == 4) about = k;
  }
  Eigen::Matrix3d r;
  if (free_entries == 0) {
    for (int k = 0; k < 9; ++k) r(k / 3, k % 3) = double(P::rotation[std::size_t(k)]);
  } else if (about >= 0) {
    const double angle = uniform(gen, -3.0, 3.0);
    r = about == 0 ? rot_x(angle) : about == 1 ? rot_y(angle) : rot_z(angle);
  } else {
    r = random_rotation(gen);
  }
  Eigen::Vector3d p = random_vector(gen, -0.5, 0.5);
  for (int k = 0; k < 3; ++k) {
    if (!P::translation[std::size_t(k)]) p[k] = 0;
  }
  return Transform<double>(r, p);
}

namespace detail {
/// The joint model of joint I of a Chain (its JointModels) or a ChainN (its one JointModel).
template <typename Model, std::size_t I, typename = void>
struct joint_model_at {
  using type = typename Model::JointModel;
};
template <typename Model, std::size_t I>
struct joint_model_at<Model, I, std::void_t<typename Model::JointModels>> {
  using type = std::tuple_element_t<I, typename Model::JointModels>;
};
template <typename Model, std::size_t... I>
void place_as_typed(std::mt19937& gen, std::vector<Link<double>>& links,
                    std::index_sequence<I...>) {
  const auto place = [&](std::size_t i, auto* joint_model_tag) {
    using JM = std::remove_pointer_t<decltype(joint_model_tag)>;
    if constexpr (chaindyn::detail::has_placement_pattern<JM>::value) {
      links[i].placement = random_placement_of<typename JM::PlacementPattern>(gen);
    }
  };
  (place(I, static_cast<typename joint_model_at<Model, I>::type*>(nullptr)), ...);
}
}  // namespace detail

/// Random links for a chain of type Model (Chain or ChainN): run-time-axis joints get a random
/// unit axis, joints with the axis in their type get none (the type's own), and Placed joints
/// a placement with their pattern's structure.
template <typename Model>
std::vector<Link<double>> random_links(std::mt19937& gen, bool joint_dynamics = false) {
  std::vector<Link<double>> links;
  for (const JointSlot& slot : Model::joint_slots()) {
    links.push_back(random_link(gen, joint_dynamics));
    if (slot.axis >= 0) links.back().axis.reset();
  }
  detail::place_as_typed<Model>(gen, links, std::make_index_sequence<std::size_t(Model::nq)>{});
  return links;
}

/// The same links in another scalar type.
template <typename To>
std::vector<Link<To>> cast_links(const std::vector<Link<double>>& links) {
  std::vector<Link<To>> out;
  for (const Link<double>& l : links) out.push_back(cast_link<To>(l));
  return out;
}

/// A vector of uniform entries in [-range, range]; a dynamic-size Vector gets `size` entries.
template <typename Vector>
Vector random_state(std::mt19937& gen, double range, Eigen::Index size = 0) {
  Vector v;
  if constexpr (Vector::SizeAtCompileTime == Eigen::Dynamic) v.resize(size);
  for (Eigen::Index i = 0; i < v.size(); ++i) v[i] = uniform(gen, -range, range);
  return v;
}

}  // namespace chaindyn::test
