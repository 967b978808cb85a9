// Payloads on a chain: a payload equals a model built with the combined link inertia, clearing
// restores the model bit for bit, a point mass at the iiwa flange changes g(q) by the Jacobian
// transpose of its weight, and bad payloads are refused with the link named.
#include "support/test_support.hpp"

#include <chaindyn/algorithms/jacobian.hpp>

#include <catch2/catch.hpp>

using namespace chaindyn;
using chaindyn::test::relative_error;

namespace {

using PayloadMixed = Chain<double, PrismaticZ, Revolute, RevoluteX, PrismaticY, RevoluteZ, Prismatic>;
using Iiwa = robots::KukaIiwa<double>;

Payload<double> random_payload(std::mt19937& gen) {
  Payload<double> p;
  p.mass = test::uniform(gen, 0.1, 2.0);
  p.com = test::random_vector(gen, -0.2, 0.2);
  const Eigen::Vector3d s(test::uniform(gen, 0.001, 0.01), test::uniform(gen, 0.001, 0.01),
                          test::uniform(gen, 0.001, 0.01));
  const Eigen::Matrix3d r = test::random_rotation(gen);
  p.inertia = r * Eigen::Vector3d(s.y() + s.z(), s.x() + s.z(), s.x() + s.y()).asDiagonal() *
              r.transpose();
  p.inertia = 0.5 * (p.inertia + p.inertia.transpose()).eval();
  return p;
}

/// The link with the payload merged by hand: total mass, combined centre of mass, and both
/// rotational inertias moved to it by the parallel-axis theorem I + m (|d|^2 1 - d d^T).
Link<double> merged(Link<double> link, const Payload<double>& p) {
  const double m = link.mass + p.mass;
  const Eigen::Vector3d c = (link.mass * link.com + p.mass * p.com) / m;
  const auto shifted = [&](const Eigen::Matrix3d& i, double mass, const Eigen::Vector3d& com) {
    const Eigen::Vector3d d = com - c;
    return Eigen::Matrix3d(i + mass * (d.squaredNorm() * Eigen::Matrix3d::Identity() -
                                       d * d.transpose()));
  };
  link.inertia = shifted(link.inertia, link.mass, link.com) + shifted(p.inertia, p.mass, p.com);
  link.mass = m;
  link.com = c;
  return link;
}

template <typename Model>
void check_against_merged(Model model, std::mt19937& gen, double& worst) {
  using V = typename Model::Vector;
  const std::size_t n = std::size_t(Model::nq);
  for (int trial = 0; trial < 6; ++trial) {
    const std::size_t link = std::size_t(trial) % n;
    const Payload<double> p = random_payload(gen);
    model.set_payload(link, p);
    std::vector<Link<double>> links(model.links().begin(), model.links().end());
    links[link] = merged(links[link], p);
    const Model reference(links, model.gravity());
    const V q = test::random_state<V>(gen, 2.5), qd = test::random_state<V>(gen, 2.0),
            qdd = test::random_state<V>(gen, 2.0);
    INFO("link " << link << ", trial " << trial);
    const double errs[] = {
        relative_error(rnea(model, q, qd, qdd), rnea(reference, q, qd, qdd)),
        relative_error(crba(model, q), crba(reference, q)),
        relative_error(aba(model, q, qd, qdd), aba(reference, q, qd, qdd))};
    for (const double e : errs) {
      worst = std::max(worst, e);
      REQUIRE(e < 1e-12);
    }
    model.clear_payload(link);
  }
}

}  // namespace

TEST_CASE("a payload equals a model built with the combined link inertia (rnea, crba, aba)",
          "[payload]") {
  std::mt19937 gen(test::kSeed + 303u);
  double worst = 0;
  check_against_merged(robots::kuka_iiwa(), gen, worst);
  for (int m = 0; m < 3; ++m) check_against_merged(PayloadMixed(test::random_links<PayloadMixed>(gen, true)), gen, worst);
  WARN("worst |payload - merged link| = " << worst);
}

TEST_CASE("clear_payload restores the model bit for bit, set_payload replaces", "[payload]") {
  std::mt19937 gen(test::kSeed + 304u);
  Iiwa arm = robots::kuka_iiwa();
  const Iiwa original = arm;
  using V = Iiwa::Vector;
  const V q = test::random_state<V>(gen, 2.0), qd = test::random_state<V>(gen, 2.0),
          qdd = test::random_state<V>(gen, 2.0);
  const V tau0 = rnea(arm, q, qd, qdd);
  for (std::size_t link = 0; link < 7; ++link) REQUIRE_FALSE(arm.payload(link).has_value());

  const Payload<double> first = random_payload(gen), second = random_payload(gen);
  arm.set_payload(3, first);
  arm.set_payload(3, second);  // replaces, does not add
  REQUIRE(arm.payload(3).has_value());
  REQUIRE(arm.payload(3)->mass == second.mass);
  Iiwa only_second = original;
  only_second.set_payload(3, second);
  REQUIRE(rnea(arm, q, qd, qdd) == rnea(only_second, q, qd, qdd));
  REQUIRE(rnea(arm, q, qd, qdd) != tau0);
  REQUIRE(arm.link_inertia(3).mass == original.inertia(3).mass);
  REQUIRE(arm.inertia(3).mass == original.inertia(3).mass + second.mass);

  arm.clear_payload(3);
  REQUIRE_FALSE(arm.payload(3).has_value());
  const Inertia<double>& a = arm.inertia(3);
  const Inertia<double>& b = original.inertia(3);
  REQUIRE(a.mass == b.mass);
  REQUIRE(a.first_moment == b.first_moment);
  REQUIRE(a.rotational == b.rotational);
  REQUIRE(rnea(arm, q, qd, qdd) == tau0);
  REQUIRE(crba(arm, q) == crba(original, q));
}

TEST_CASE("a 0.851 kg point payload at the iiwa flange changes g(q) by J^T of its weight",
          "[payload]") {
  // Independent path: the weight m g of a point at p (base frame) needs the extra holding
  // torque -J_p^T (0; m g), J_p the world Jacobian of the point (seeds: pick and place, 851 g).
  constexpr double m = 0.851;
  const Eigen::Vector3d com(0.0, 0.0, 0.08);  // 8 cm beyond the flange, on its axis
  Iiwa arm = robots::kuka_iiwa();
  const Iiwa bare = arm;
  arm.set_payload(6, Payload<double>::point_mass(m, com));
  std::mt19937 gen(test::kSeed + 305u);
  double worst = 0;
  for (int s = 0; s < 20; ++s) {
    const Iiwa::Vector q = test::random_state<Iiwa::Vector>(gen, 2.0);
    const Iiwa::Vector dg = gravity_torques(arm, q) - gravity_torques(bare, q);
    const Force<double> weight(Eigen::Vector3d::Zero(), m * bare.gravity());
    const FrameJacobian<Iiwa> J =
        jacobian(bare, q, 6, Transform<double>::Translation(com), ReferenceFrame::world);
    const Iiwa::Vector expected = -(J.transpose() * weight.vector());
    const double err = relative_error(dg, expected);
    worst = std::max(worst, err);
    REQUIRE(err < 1e-12);
    REQUIRE(expected.cwiseAbs().maxCoeff() > 0.1);  // the payload matters at these q
    // the same through joint_torques_from_wrench: the weight reversed, at the point
    const Iiwa::Vector holding = joint_torques_from_wrench(
        bare, q, 6, -weight, Transform<double>::Translation(com), ReferenceFrame::world);
    REQUIRE(relative_error(dg, holding) < 1e-12);
  }
  WARN("worst |delta g - J^T (0; m g)| = " << worst);
}

TEST_CASE("set_payload refuses bad payloads with a ModelError naming the link, bad indices with an IndexError",
          "[payload][validation]") {
  Iiwa arm = robots::kuka_iiwa();
  const auto message_of = [&](std::size_t link, const Payload<double>& p) {
    try {
      arm.set_payload(link, p);
    } catch (const ModelError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  using Catch::Matchers::Contains;
  Payload<double> p = Payload<double>::point_mass(-1.0, Eigen::Vector3d::Zero());
  CHECK_THAT(message_of(6, p), Contains("link 6 ('iiwa_link_7')") && Contains("mass is negative"));
  p = Payload<double>::point_mass(1.0, Eigen::Vector3d(0, std::nan(""), 0));
  CHECK_THAT(message_of(2, p), Contains("link 2") && Contains("not finite"));
  p = Payload<double>::point_mass(1.0, Eigen::Vector3d::Zero());
  p.inertia << 1, 0.5, 0, 0, 1, 0, 0, 0, 1;
  CHECK_THAT(message_of(0, p), Contains("not symmetric"));
  p.inertia = Eigen::Vector3d(1, 1, 3).asDiagonal();
  CHECK_THAT(message_of(0, p), Contains("triangle inequality"));
  p.inertia = Eigen::Vector3d(1, -1, 1).asDiagonal();
  CHECK_THAT(message_of(0, p), Contains("positive semi-definite"));
  REQUIRE_THROWS_WITH(arm.set_payload(7, Payload<double>()),
                      Contains("link index 7 is out of range for a chain of 7 links"));
  REQUIRE_THROWS_AS(arm.set_payload(7, Payload<double>()), IndexError);
  REQUIRE_THROWS_AS(arm.clear_payload(7), IndexError);
  // nothing was attached by the refused calls
  for (std::size_t link = 0; link < 7; ++link) REQUIRE_FALSE(arm.payload(link).has_value());
  REQUIRE(message_of(6, Payload<double>::point_mass(0.0, Eigen::Vector3d::Zero())) == "no error");
}

TEST_CASE("payloads cannot make an accepted model singular: no ABA pivot drops below the bare model's",
          "[payload][validation][singular]") {
  // The constructor refuses a joint whose articulated-body pivot D_j vanishes (model/link.hpp).
  // set_payload and clear_payload do not check again: every state they reach is the checked
  // model plus positive semi-definite inertias, so M(q) only grows, and with it each D_j (a
  // Schur complement of M). Here: random payloads set, replaced and cleared, D_j at random q
  // never below the bare model's, including the zero payload and a chain whose tip is light.
  std::mt19937 gen(test::kSeed + 4);
  auto links = test::random_links<PayloadMixed>(gen, false);
  links.back().mass = 1e-3;
  links.back().inertia = 1e-7 * Eigen::Matrix3d::Identity();
  const PayloadMixed bare(links);
  PayloadMixed model = bare;
  Data<PayloadMixed> with, without;
  for (int trial = 0; trial < 40; ++trial) {
    const std::size_t link = std::size_t(trial) % 6;
    switch (trial % 4) {
      case 0: model.set_payload(link, random_payload(gen)); break;
      case 1: model.set_payload(link, Payload<double>()); break;
      case 2: model.clear_payload(link); break;
      default: model.set_payload(link, random_payload(gen)); model.clear_payload(link);
    }
    const PayloadMixed::Vector q = test::random_state<PayloadMixed::Vector>(gen, 3.0);
    aba(model, with, q, PayloadMixed::Vector::Zero(), PayloadMixed::Vector::Zero());
    aba(bare, without, q, PayloadMixed::Vector::Zero(), PayloadMixed::Vector::Zero());
    INFO("trial " << trial << ": D " << with.D.transpose() << ", bare " << without.D.transpose());
    REQUIRE((with.D.array() >= without.D.array() * (1 - 1e-12)).all());
    REQUIRE(with.D.minCoeff() > 0);
  }
}
