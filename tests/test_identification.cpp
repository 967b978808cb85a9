// Identification building blocks: the inverse mass matrix without forming M (checked against
// the inverse of crba and M Minv = I) and the inverse-dynamics regressor (checked against rnea,
// against a second model of the same kinematics, and against payload parameters built by hand);
// payload identification (exact on noise-free torques, within its own standard deviations on
// noisy ones, and refusing data that do not determine the payload).
#include "support/test_support.hpp"

#include <chaindyn/algorithms/inverse_mass_matrix.hpp>
#include <chaindyn/identification/payload_identification.hpp>
#include <chaindyn/identification/regressor.hpp>
#include <chaindyn/simulation.hpp>

#include <catch2/catch.hpp>

using namespace chaindyn;
using chaindyn::test::relative_error;

namespace {

using Long = ChainN<double, 7, Revolute>;
using IdentificationMixed = Chain<double, RevoluteZ, PrismaticX, Revolute, Prismatic>;

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
  const Matrix ref = test::inverse(M);
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
    const IdentificationMixed mm(test::random_links<IdentificationMixed>(gen, trial % 2 == 0));
    worst = std::max(worst, check_minv(mm, test::random_state<IdentificationMixed::Vector>(gen, 1.0)));
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
    const auto ml = test::random_links<IdentificationMixed>(gen, true);
    const IdentificationMixed mm(ml), mo(reweighted(gen, ml));
    worst = std::max(worst, check_regressor(mm, mo, test::random_state<IdentificationMixed::Vector>(gen, 1.0),
                                            test::random_state<IdentificationMixed::Vector>(gen, 2.0),
                                            test::random_state<IdentificationMixed::Vector>(gen, 2.0)));
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

TEST_CASE("regressor with joint dynamics times its parameters equals rnea with friction and "
          "armature",
          "[identification][regressor]") {
  std::mt19937 gen(test::kSeed + 607);
  double worst = 0;
  const auto check = [&](const auto& model, const auto& q, const auto& qd, const auto& qdd) {
    using Model = std::decay_t<decltype(model)>;
    constexpr int n = Model::nq;
    Data<Model> data;
    RegressorWithJointDynamicsMatrix<Model> Y;
    regressor_with_joint_dynamics(model, data, q, qd, qdd, Y);
    const double e = relative_error(Y * parameters_with_joint_dynamics(model), rnea(model, q, qd, qdd));
    CHECK(e < 1e-12);
    // the inertial block is regressor's; each joint-dynamics column lives on its joint's row
    CHECK(Y.template leftCols<10 * n>() == regressor(model, q, qd, qdd));
    CHECK((Y.template rightCols<3 * n>().array() != 0.0).count() == 3 * n);
    for (int i = 0; i < n; ++i) {
      CHECK(Y(i, 10 * n + i) == qd[i]);
      CHECK(Y(i, 11 * n + i) == (qd[i] > 0 ? 1.0 : -1.0));
      CHECK(Y(i, 12 * n + i) == qdd[i]);
    }
    worst = std::max(worst, e);
  };
  for (int trial = 0; trial < 20; ++trial) {
    INFO("trial " << trial);
    const Long lm(test::random_links<Long>(gen, true));  // damping, friction, armature
    check(lm, test::random_state<Long::Vector>(gen, 3.0), test::random_state<Long::Vector>(gen, 2.0),
          test::random_state<Long::Vector>(gen, 2.0));
    const IdentificationMixed mm(test::random_links<IdentificationMixed>(gen, true));
    check(mm, test::random_state<IdentificationMixed::Vector>(gen, 1.0), test::random_state<IdentificationMixed::Vector>(gen, 2.0),
          test::random_state<IdentificationMixed::Vector>(gen, 2.0));
  }
  WARN("regressor with joint dynamics: worst relative error vs rnea " << worst);
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

namespace {

/// A box-like payload: mass m, centre of mass `com`, principal moments `moments` turned by a
/// random rotation (a valid, non-diagonal inertia).
Payload<double> random_payload(std::mt19937& gen, double m, const Eigen::Vector3d& moments) {
  Payload<double> p;
  p.mass = m;
  p.com = test::random_vector(gen, -0.1, 0.1);
  const Eigen::Matrix3d r = test::random_rotation(gen);
  p.inertia = r * moments.asDiagonal() * r.transpose();
  return p;
}

/// The payload's parameters in the order of inertial_parameters (about the link origin).
Eigen::Matrix<double, 10, 1> payload_parameters(const Payload<double>& p) {
  const Eigen::Matrix3d io =
      p.inertia + p.mass * (p.com.squaredNorm() * Eigen::Matrix3d::Identity() - p.com * p.com.transpose());
  Eigen::Matrix<double, 10, 1> out;
  out << p.mass, p.mass * p.com, io(0, 0), io(0, 1), io(0, 2), io(1, 1), io(1, 2), io(2, 2);
  return out;
}

/// Feeds `samples` points of a cycloidal motion between two random poses of `loaded` (with
/// Gaussian torque noise of standard deviation `noise`) to `id`.
void add_motion(std::mt19937& gen, PayloadIdentification<Long>& id, const Long& loaded,
                int samples, double noise) {
  const CycloidalTrajectory<Long::Vector> motion(test::random_state<Long::Vector>(gen, 2.0),
                                                 test::random_state<Long::Vector>(gen, 2.0), 1.5);
  std::normal_distribution<double> gauss(0.0, 1.0);
  for (int k = 0; k < samples; ++k) {
    const auto s = motion(1.5 * (k + 0.5) / samples);
    Long::Vector tau = rnea(loaded, s.q, s.qd, s.qdd);
    for (int j = 0; j < Long::nq; ++j) {
      const double e = gauss(gen);  // one draw per statement: same sequence with every compiler
      tau[j] += noise * e;
    }
    id.add_sample(s.q, s.qd, s.qdd, tau);
  }
}

}  // namespace

TEST_CASE("payload identification recovers a payload exactly from noise-free torques",
          "[identification][payload]") {
  std::mt19937 gen(test::kSeed + 604);
  double worst = 0;
  for (int trial = 0; trial < 6; ++trial) {
    INFO("trial " << trial);
    const Long bare(test::random_links<Long>(gen, true));  // friction and armature are known
    const std::size_t link = trial % 2 == 0 ? 6 : 3;     // on the flange or a middle link
    const Payload<double> truth = random_payload(gen, 0.851, Eigen::Vector3d(1e-3, 2e-3, 2.5e-3));
    Long loaded = bare;
    loaded.set_payload(link, truth);
    PayloadIdentification<Long> id(bare, link);
    add_motion(gen, id, loaded, 100, 0.0);
    const PayloadEstimate<double> e = id.estimate();
    REQUIRE(e.ok());
    REQUIRE(e.rank == 10);
    CHECK(e.samples == 100);
    CHECK(e.equations == 100 * (link + 1));
    const double err = relative_error(e.parameters, payload_parameters(truth));
    CHECK(err < 1e-9);
    CHECK(std::abs(e.payload->mass - truth.mass) < 1e-9);
    CHECK((e.payload->com - truth.com).cwiseAbs().maxCoeff() < 1e-9);
    CHECK((e.payload->inertia - truth.inertia).cwiseAbs().maxCoeff() < 1e-9);
    CHECK(e.residual_rms < 1e-9);
    // mass and centre of mass alone, the inertia about the centre of mass given
    const PayloadEstimate<double> f = id.estimate_mass_and_com(truth.inertia);
    REQUIRE(f.ok());
    CHECK(std::abs(f.payload->mass - truth.mass) < 1e-9);
    CHECK((f.payload->com - truth.com).cwiseAbs().maxCoeff() < 1e-9);
    worst = std::max({worst, err, relative_error(f.parameters, payload_parameters(truth))});
  }
  WARN("payload identification, noise-free: worst relative parameter error " << worst);
}

TEST_CASE("payload identification from noisy torques lies within its standard deviations and "
          "its residual is the noise",
          "[identification][payload]") {
  std::mt19937 gen(test::kSeed + 605);
  const double noise = 0.05;  // N m, on every joint
  double worst_sigmas = 0, worst_rms = 0;
  for (int trial = 0; trial < 3; ++trial) {
    INFO("trial " << trial);
    const Long bare(test::random_links<Long>(gen, true));
    const Payload<double> truth = random_payload(gen, 2.0, Eigen::Vector3d(0.02, 0.03, 0.04));
    Long loaded = bare;
    loaded.set_payload(6, truth);
    PayloadIdentification<Long> id(bare);
    add_motion(gen, id, loaded, 500, noise);
    const PayloadEstimate<double> e = id.estimate();
    REQUIRE(e.rank == 10);
    // 3500 equations: the residual RMS estimates the noise to ~1.2 % (one standard deviation;
    // measured: 1.4 % at worst)
    CHECK(std::abs(e.residual_rms - noise) < 0.05 * noise);
    worst_rms = std::max(worst_rms, std::abs(e.residual_rms / noise - 1));
    const Eigen::Matrix<double, 10, 1> err = e.parameters - payload_parameters(truth);
    for (int j = 0; j < 10; ++j) {
      INFO("parameter " << id.parameter_name(j) << ": error " << err[j] << ", standard deviation "
                        << e.standard_deviation[j]);
      REQUIRE(e.standard_deviation[j] > 0.0);
      CHECK(std::abs(err[j]) < 4.5 * e.standard_deviation[j]);
      worst_sigmas = std::max(worst_sigmas, std::abs(err[j]) / e.standard_deviation[j]);
    }
    // the fit without the inertia, given the true one: mass and first moment within theirs
    const PayloadEstimate<double> f = id.estimate_mass_and_com(truth.inertia);
    REQUIRE(f.ok());
    for (int j = 0; j < 4; ++j) {
      CHECK(std::abs(f.parameters[j] - payload_parameters(truth)[j]) < 4.5 * f.standard_deviation[j]);
    }
  }
  WARN("payload identification, noise " << noise << " N m: worst |error| / standard deviation "
                                        << worst_sigmas << ", residual RMS / noise - 1 "
                                        << worst_rms);
}

TEST_CASE("payload identification reports data that do not determine the payload instead of "
          "solving them",
          "[identification][payload]") {
  std::mt19937 gen(test::kSeed + 606);
  const Long bare(test::random_links<Long>(gen, false));
  const Payload<double> truth = random_payload(gen, 0.851, Eigen::Vector3d(1e-3, 2e-3, 2.5e-3));
  Long loaded = bare;
  loaded.set_payload(6, truth);
  const Long::Vector zero = Long::Vector::Zero();

  SECTION("a single static pose") {
    PayloadIdentification<Long> id(bare);
    const Long::Vector q = test::random_state<Long::Vector>(gen, 2.0);
    for (int k = 0; k < 50; ++k) id.add_sample(q, zero, zero, rnea(loaded, q, zero, zero));
    const PayloadEstimate<double> e = id.estimate();
    CHECK(e.status == PayloadFitStatus::rank_deficient);
    CHECK(!e.payload);
    CHECK(e.rank <= 4);
    CHECK(e.message.find("I_xx") != std::string::npos);  // names the unexcited parameters
    // gravity alone in one pose cannot tell the first moment along gravity either
    const PayloadEstimate<double> f = id.estimate_mass_and_com();
    CHECK(f.status == PayloadFitStatus::rank_deficient);
    CHECK(!f.payload);
    CHECK(f.rank < 4);
  }
  SECTION("static poses determine mass and centre of mass, not the inertia") {
    PayloadIdentification<Long> id(bare);
    for (int k = 0; k < 10; ++k) {
      const Long::Vector q = test::random_state<Long::Vector>(gen, 2.0);
      id.add_sample(q, zero, zero, rnea(loaded, q, zero, zero));
    }
    const PayloadEstimate<double> e = id.estimate();
    CHECK(e.status == PayloadFitStatus::rank_deficient);
    CHECK(e.rank == 4);
    const PayloadEstimate<double> f = id.estimate_mass_and_com(truth.inertia);
    REQUIRE(f.ok());
    CHECK(std::abs(f.payload->mass - truth.mass) < 1e-9);
    CHECK((f.payload->com - truth.com).cwiseAbs().maxCoeff() < 1e-9);
  }
  SECTION("too few equations, bad numbers, a link out of range") {
    PayloadIdentification<Long> id(bare, 0);  // one equation per sample
    const Long::Vector q = test::random_state<Long::Vector>(gen, 2.0);
    for (int k = 0; k < 9; ++k) id.add_sample(q, q, q, rnea(loaded, q, q, q));
    CHECK(id.estimate().status == PayloadFitStatus::too_few_equations);
    CHECK(!id.estimate().payload);
    Long::Vector bad = q;
    bad[3] = std::nan("");
    CHECK_THROWS_AS(id.add_sample(q, bad, q, q), ArgumentError);
    CHECK(id.samples() == 9);
    CHECK_THROWS_AS(PayloadIdentification<Long>(bare, 7), IndexError);
  }
  SECTION("an inconsistent model: a negative mass is refused as not physical") {
    // the "known" model carries the payload, the torques are the bare arm's: the fit finds
    // minus the payload
    PayloadIdentification<Long> negative(loaded);
    add_motion(gen, negative, bare, 100, 0.0);
    const PayloadEstimate<double> e = negative.estimate();
    CHECK(e.status == PayloadFitStatus::not_physical);
    CHECK(!e.payload);
    CHECK(std::abs(e.parameters[0] + truth.mass) < 1e-9);
  }
}
