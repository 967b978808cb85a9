// Identification building blocks: the inverse mass matrix without forming M (checked against
// the inverse of crba and M Minv = I) and the inverse-dynamics regressor (checked against rnea,
// against a second model of the same kinematics, and against payload parameters built by hand).
#include "support/test_support.hpp"

#include <chaindyn/algorithms/inverse_mass_matrix.hpp>
#include <chaindyn/algorithms/regressor.hpp>

#include <catch2/catch.hpp>

using namespace chaindyn;
using chaindyn::test::relative_error;

namespace {

using Long = ChainN<double, 7, Revolute>;
using Mixed = Chain<double, RevoluteZ, PrismaticX, Revolute, Prismatic>;

/// rnea's rigid-body part: rnea minus friction and armature torques.
template <typename Model>
typename Model::Vector rigid_rnea(const Model& m, const typename Model::Vector& q,
                                  const typename Model::Vector& qd,
                                  const typename Model::Vector& qdd) {
  return rnea(m, q, qd, qdd) - friction_torques(m, qd) -
         typename Model::Vector(m.armature().cwiseProduct(qdd));
}

template <typename Model>
double check_minv(const Model& model, const typename Model::Vector& q) {
  using Matrix = typename Model::Matrix;
  Data<Model> data;
  inverse_mass_matrix(model, data, q);
  const Matrix M = crba(model, q);
  const Matrix ref = M.inverse();
  // relative to the size of M^-1 (relative_error would be absolute below 1)
  const double rel = (data.Minv - ref).cwiseAbs().maxCoeff() / ref.cwiseAbs().maxCoeff();
  const double ident = (M * data.Minv - Matrix::Identity()).cwiseAbs().maxCoeff();
  CHECK(rel < 1e-10);
  CHECK(ident < 1e-10);
  return std::max(rel, ident);
}

template <typename Model>
double check_regressor(const Model& model, const Model& other, const typename Model::Vector& q,
                       const typename Model::Vector& qd, const typename Model::Vector& qdd) {
  Data<Model> data;
  RegressorMatrix<Model> Y;
  regressor(model, data, q, qd, qdd, Y);
  const double e1 = relative_error(Y * inertial_parameters(model), rigid_rnea(model, q, qd, qdd));
  // Y depends on kinematics only: another model with the same placements and axes but other
  // inertias is reproduced by the same Y with its own parameters
  const double e2 = relative_error(Y * inertial_parameters(other), rigid_rnea(other, q, qd, qdd));
  // Y(i, 10 k + p) = 0 for i > k: a joint feels only the links after it
  double below = 0;
  for (int k = 0; k < Model::nq; ++k) {
    for (int i = k + 1; i < Model::nq; ++i) {
      below = std::max(below, Y.row(i).segment(10 * k, 10).cwiseAbs().maxCoeff());
    }
  }
  CHECK(e1 < 1e-12);
  CHECK(e2 < 1e-12);
  CHECK(below == 0.0);
  return std::max(e1, e2);
}

/// `links` with other random inertial parameters (and joint dynamics), same kinematics.
std::vector<Link<double>> reweighted(std::mt19937& gen, std::vector<Link<double>> links) {
  for (Link<double>& l : links) {
    const Link<double> r = test::random_link(gen, true);
    l.mass = r.mass;
    l.com = r.com;
    l.inertia = r.inertia;
    l.dynamics = r.dynamics;
  }
  return links;
}

}  // namespace

TEST_CASE("inverse_mass_matrix equals the inverse of crba and M times Minv is the identity",
          "[identification][minv]") {
  std::mt19937 gen(test::kSeed + 601);
  double worst = 0;
  for (int trial = 0; trial < 30; ++trial) {
    INFO("trial " << trial);
    const Long lm(test::random_links<Long>(gen, trial % 2 == 0));  // armature on even trials
    worst = std::max(worst, check_minv(lm, test::random_state<Long::Vector>(gen, 3.0)));
    const Mixed mm(test::random_links<Mixed>(gen, trial % 2 == 0));
    worst = std::max(worst, check_minv(mm, test::random_state<Mixed::Vector>(gen, 1.0)));
  }
  const auto iiwa = robots::kuka_iiwa();
  for (int trial = 0; trial < 10; ++trial) {
    worst = std::max(worst, check_minv(iiwa, test::random_state<Long::Vector>(gen, 2.5)));
  }
  // the returning form agrees with the in-place one
  const Long::Vector q = test::random_state<Long::Vector>(gen, 2.0);
  Data<decltype(iiwa)> data;
  inverse_mass_matrix(iiwa, data, q);
  REQUIRE(inverse_mass_matrix(iiwa, q) == data.Minv);
  WARN("inverse_mass_matrix: worst relative error vs crba^-1 or |M Minv - I|: " << worst);
}

TEST_CASE("regressor times inertial parameters equals rnea without joint dynamics",
          "[identification][regressor]") {
  std::mt19937 gen(test::kSeed + 602);
  double worst = 0;
  for (int trial = 0; trial < 30; ++trial) {
    INFO("trial " << trial);
    const auto ll = test::random_links<Long>(gen, true);
    Long lm(ll);
    lm.set_gravity(test::random_vector(gen, -10, 10));
    Long lo(reweighted(gen, ll));
    lo.set_gravity(lm.gravity());
    worst = std::max(worst, check_regressor(lm, lo, test::random_state<Long::Vector>(gen, 3.0),
                                            test::random_state<Long::Vector>(gen, 2.0),
                                            test::random_state<Long::Vector>(gen, 2.0)));
    const auto ml = test::random_links<Mixed>(gen, true);
    const Mixed mm(ml), mo(reweighted(gen, ml));
    worst = std::max(worst, check_regressor(mm, mo, test::random_state<Mixed::Vector>(gen, 1.0),
                                            test::random_state<Mixed::Vector>(gen, 2.0),
                                            test::random_state<Mixed::Vector>(gen, 2.0)));
  }
  const auto iiwa = robots::kuka_iiwa();
  auto heavy = robots::kuka_iiwa();
  heavy.set_payload(6, Payload<double>::point_mass(0.851, Eigen::Vector3d(0.01, -0.02, 0.1)));
  for (int trial = 0; trial < 10; ++trial) {
    worst = std::max(worst, check_regressor(iiwa, heavy, test::random_state<Long::Vector>(gen, 2.5),
                                            test::random_state<Long::Vector>(gen, 2.0),
                                            test::random_state<Long::Vector>(gen, 2.0)));
  }
  WARN("regressor: worst relative error of Y pi vs rnea: " << worst);
}

TEST_CASE("inertial_parameters follow the documented order and a payload adds its own parameters",
          "[identification][regressor]") {
  std::mt19937 gen(test::kSeed + 603);
  Long model(test::random_links<Long>(gen, false));
  const auto before = inertial_parameters(model);
  // link 2's parameters by hand from the URDF-style triple: m, m c, I_C + m (|c|^2 1 - c c^T)
  const Link<double>& l = model.link(2);
  const Eigen::Matrix3d io =
      l.inertia + l.mass * (l.com.squaredNorm() * Eigen::Matrix3d::Identity() - l.com * l.com.transpose());
  Eigen::Matrix<double, 10, 1> expect;
  expect << l.mass, l.mass * l.com, io(0, 0), io(0, 1), io(0, 2), io(1, 1), io(1, 2), io(2, 2);
  REQUIRE(relative_error(before.segment<10>(20), expect) < 1e-15);

  Payload<double> p;
  p.mass = 0.851;
  p.com = Eigen::Vector3d(0.05, -0.03, 0.12);
  p.inertia = Eigen::Vector3d(0.002, 0.003, 0.004).asDiagonal();
  model.set_payload(6, p);
  const auto after = inertial_parameters(model);
  const Eigen::Matrix3d po =
      p.inertia + p.mass * (p.com.squaredNorm() * Eigen::Matrix3d::Identity() - p.com * p.com.transpose());
  Eigen::Matrix<double, 10, 1> dp;
  dp << p.mass, p.mass * p.com, po(0, 0), po(0, 1), po(0, 2), po(1, 1), po(1, 2), po(2, 2);
  REQUIRE(relative_error(after.head<60>(), before.head<60>()) == 0.0);
  REQUIRE(relative_error(Eigen::Matrix<double, 10, 1>(after.tail<10>() - before.tail<10>()), dp) < 1e-14);

  // the payload's torques are Y times its parameters alone
  Long::Vector q = test::random_state<Long::Vector>(gen, 2.0), qd = test::random_state<Long::Vector>(gen, 2.0),
               qdd = test::random_state<Long::Vector>(gen, 2.0);
  const auto Y = regressor(model, q, qd, qdd);
  Long bare = model;
  bare.clear_payload(6);
  const Long::Vector dtau = rnea(model, q, qd, qdd) - rnea(bare, q, qd, qdd);
  REQUIRE(relative_error(Long::Vector(Y.rightCols<10>() * dp), dtau) < 1e-12);
}
