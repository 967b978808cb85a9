// Floating bases (FloatingBase<Tree>) against independent paths: the configuration space's
// integrate / difference round trip with the quaternion kept unit; a single free body against
// Newton-Euler written out by hand; the base held still giving the fixed-base tree's numbers;
// a free-flyer against the same robot on six 1-DoF joints in a row (3 prismatic + 3 revolute)
// for M, rnea and aba; aba inverting rnea, the free-base rnea against aba, M from rnea columns,
// 1/2 v^T M v = T, crba + Cholesky against aba, A_G v against the body-by-body centroidal
// momentum, Jacobians against finite differences on the manifold; momentum conserved in free
// fall (no gravity) under RK4 on the manifold; the regressor times the parameters against rnea;
// typed errors for bad input. The planar base
// (PlanarBaseRobot<Tree>): SE(2)'s integrate / difference against the closed-form arc; rnea,
// crba, aba, gravity, energies and the Jacobian against the same robot on prismatic x,
// prismatic y and revolute z joints in a row (exact maps: its body velocity is R^T (xd, yd));
// the base held still giving the fixed-base tree's numbers; aba o rnea, crba + Cholesky,
// 1/2 v^T M v = T, A_G v; RK4 conserving energy and the momentum the ground cannot change.
#include "support/test_support.hpp"

#include <chaindyn/algorithms/floating_base.hpp>
#include <chaindyn/identification/floating_regressor.hpp>
#include <chaindyn/model/tree.hpp>
#include <chaindyn/simulation/simulate.hpp>

#include <Eigen/Geometry>
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdio>

using namespace chaindyn;
using chaindyn::test::relative_error;

namespace {

// test_trees.cpp's compile-time tree (two branches from joint 1 and one from the root)
using FloatTree = Tree<double, Parents<-1, 0, 1, 1, 3, 0, 5>, RevoluteZ, Revolute, RevoluteY,
                       Prismatic, Revolute, RevoluteX, Revolute>;
using FloatFixed = FloatingBase<FloatTree>;
using FloatAny = FloatingBase<TreeX<double>>;
using PlanarAny = PlanarBaseRobot<TreeX<double>>;

Link<double> base_body(std::mt19937& gen) {
  Link<double> body;
  body.mass = test::uniform(gen, 2.0, 5.0);
  body.com = test::random_vector(gen, -0.2, 0.2);
  const Eigen::Vector3d d(test::uniform(gen, 0.2, 0.4), test::uniform(gen, 0.2, 0.4),
                          test::uniform(gen, 0.2, 0.4));
  const Eigen::Matrix3d r = test::rot_z(0.3) * test::rot_x(0.2);
  body.inertia = r * d.asDiagonal() * r.transpose();
  return body;
}

FloatFixed random_fixed(std::mt19937& gen) {
  const Link<double> body = base_body(gen);
  return FloatFixed(body, FloatTree(test::random_links<FloatTree>(gen, true)));
}

const std::vector<std::size_t> kFloatParents = {no_parent, 0, 1, no_parent, 3};

std::vector<Link<double>> random_tree_links(std::mt19937& gen) {
  std::vector<Link<double>> links;
  for (std::size_t i = 0; i < kFloatParents.size(); ++i) links.push_back(test::random_link(gen));
  return links;
}
std::vector<JointKind> tree_kinds() {
  return {JointKind::revolute, JointKind::revolute, JointKind::prismatic, JointKind::revolute,
          JointKind::revolute};
}

template <typename Model>
typename Model::TangentVector random_tangent(const Model& model, std::mt19937& gen) {
  typename Model::TangentVector v(model.nv_size());
  for (Eigen::Index k = 0; k < v.size(); ++k) v[k] = test::uniform(gen, -1.0, 1.0);
  return v;
}

}  // namespace

TEST_CASE("floating base: integrate and difference are inverse, the quaternion stays unit") {
  std::mt19937 gen(test::kSeed);
  const FloatFixed model = random_fixed(gen);
  for (int trial = 0; trial < 20; ++trial) {
    const FloatFixed::ConfigVector q0 = random_configuration(model, gen);
    FloatFixed::TangentVector v = random_tangent(model, gen);
    if (trial == 0) v.head<3>().setZero();                 // a pure translation
    if (trial == 1) v.head<3>() *= 1e-9;                   // the series branch
    const double dt = test::uniform(gen, 0.1, 1.5);
    const FloatFixed::ConfigVector q1 = integrate(model, q0, v, dt);
    CHECK(std::abs(q1.segment<4>(3).norm() - 1.0) < 1e-14);
    // |omega dt| < pi: the shorter rotation is the one integrated
    if ((v.head<3>() * dt).norm() < 3.0) CHECK(relative_error(difference(model, q0, q1), (dt * v).eval()) < 1e-12);
    CHECK(relative_error(integrate(model, q0, difference(model, q0, q1), 1.0), q1) < 1e-12);
    CHECK(difference(model, q0, q0).norm() == 0.0);
  }
  // the base pose: exp of a twist against a rotation about z with a constant body velocity
  FloatFixed::ConfigVector q = model.neutral();
  FloatFixed::TangentVector v = FloatFixed::TangentVector::Zero();
  v[2] = test::kPi / 2;  // 90 degrees about z in one second
  v[3] = 1.0;            // forward along the body x axis: a quarter circle of radius 2 / pi
  q = integrate(model, q, v, 1.0);
  CHECK(relative_error(q.head<3>(), Eigen::Vector3d(2 / test::kPi, 2 / test::kPi, 0.0)) < 1e-14);
  CHECK(std::abs(q[5] - std::sin(test::kPi / 4)) < 1e-15);
  // normalize
  q.segment<4>(3) *= 3.0;
  normalize(model, q);
  CHECK(std::abs(q.segment<4>(3).norm() - 1.0) < 1e-15);
  // random configurations: unit quaternions, joints within [-pi, pi]
  const FloatFixed::ConfigVector r = random_configuration(model, gen, 2.0);
  CHECK(std::abs(r.segment<4>(3).norm() - 1.0) < 1e-14);
  CHECK(r.head<3>().cwiseAbs().maxCoeff() <= 2.0);
  CHECK(r.tail<7>().cwiseAbs().maxCoeff() <= test::kPi);
}

TEST_CASE("floating base: a single free body against Newton-Euler by hand") {
  std::mt19937 gen(test::kSeed + 1);
  const Link<double> body = base_body(gen);
  // the tree: one massless joint (kinematics only), so that the system is the base body
  Link<double> massless;
  massless.axis = Eigen::Vector3d::UnitZ();
  ModelChecks checks;
  checks.regular = false;
  const FloatAny model(body, TreeX<double>({massless}, {JointKind::revolute}, {no_parent},
                                           Eigen::Vector3d(0.3, -0.2, -9.81), checks));
  const Eigen::Vector3d g = model.gravity();
  for (int trial = 0; trial < 5; ++trial) {
    const FloatAny::ConfigVector q = random_configuration(model, gen);
    const FloatAny::TangentVector v = random_tangent(model, gen), a = random_tangent(model, gen);
    const Eigen::Matrix3d rot = Eigen::Quaterniond(q[6], q[3], q[4], q[5]).toRotationMatrix();
    const Eigen::Vector3d w = v.head<3>(), vo = v.segment<3>(3);
    const Eigen::Vector3d dw = a.head<3>(), dvo = a.segment<3>(3);
    const Eigen::Vector3d c = body.com;
    const double m = body.mass;
    const Eigen::Matrix3d ic = body.inertia;
    // body coordinates: the centre of mass's velocity v_c = v_O + w x c and its acceleration
    // (the derivative of the body-frame velocity plus w x v_c) dv_c + w x v_c
    const Eigen::Vector3d vc = vo + w.cross(c);
    const Eigen::Vector3d ac = dvo + dw.cross(c) + w.cross(vc);
    const Eigen::Vector3d force = m * (ac - rot.transpose() * g);
    const Eigen::Vector3d moment_c = ic * dw + w.cross(ic * w);
    const Eigen::Vector3d moment_o = moment_c + c.cross(force);
    const FloatAny::TangentVector tau = rnea(model, q, v, a);
    CHECK(relative_error(tau.head<3>(), moment_o) < 1e-12);
    CHECK(relative_error(tau.segment<3>(3), force) < 1e-12);
    CHECK(std::abs(tau[6]) < 1e-15);
    // the free body's motion: no wrench, gravity only: the centre of mass falls with g and
    // Euler's equations I_c dw = -w x I_c w turn it
    const auto free = rnea_free_base(model, q, v, Eigen::VectorXd::Zero(1));
    const Eigen::Vector3d dw_free = -ic.ldlt().solve(w.cross(ic * w));
    const Eigen::Vector3d ac_free = rot.transpose() * g;  // = dv_c + w x v_c
    const Eigen::Vector3d dvo_free = ac_free - w.cross(vc) - dw_free.cross(c);
    CHECK(relative_error(free.base_acceleration.head<3>(), dw_free) < 1e-12);
    CHECK(relative_error(free.base_acceleration.tail<3>(), dvo_free) < 1e-12);
    // the kinetic energy 1/2 m v_c^2 + 1/2 w.I_c w and the mass matrix's base block
    Data<FloatAny> data(model);
    CHECK(relative_error(kinetic_energy(model, data, q, v), 0.5 * m * vc.squaredNorm() + 0.5 * w.dot(ic * w)) < 1e-13);
    CHECK(relative_error(potential_energy(model, data, q), -m * g.dot(q.head<3>() + rot * c)) < 1e-13);
  }
}

TEST_CASE("floating base: the base held still gives the fixed-base tree's numbers") {
  std::mt19937 gen(test::kSeed + 2);
  const FloatFixed model = random_fixed(gen);
  const FloatTree& tree = model.tree();
  for (int trial = 0; trial < 5; ++trial) {
    FloatFixed::ConfigVector q = random_configuration(model, gen);
    q.head<7>() = FreeFlyer<double>::neutral();  // the base frame is the world frame
    FloatFixed::TangentVector v = random_tangent(model, gen), a = random_tangent(model, gen);
    v.head<6>().setZero();
    a.head<6>().setZero();
    const FloatTree::Vector qt = q.tail<7>(), vt = v.tail<7>(), at = a.tail<7>();
    const FloatFixed::TangentVector tau = rnea(model, q, v, a);
    CHECK(relative_error(tau.tail<7>(), rnea(tree, qt, vt, at)) < 1e-13);
    const FloatFixed::Matrix m = crba(model, q);
    CHECK(relative_error(m.bottomRightCorner<7, 7>(), crba(tree, qt)) < 1e-13);
    CHECK(relative_error(gravity_torques(model, q).tail<7>(), gravity_torques(tree, qt)) < 1e-13);
    // the base wrench that holds it: gravity's and the joints' reaction, the same as the
    // total wrench of all bodies' rates of momentum minus gravity, i.e. rnea's first six rows
    // equal (M a + h)'s
    CHECK(relative_error(tau, (m * a + nonlinear_effects(model, q, v)).eval()) < 1e-12);
  }
}

TEST_CASE("floating base: a free-flyer agrees with six 1-DoF joints in a row on M, rnea, aba") {
  std::mt19937 gen(test::kSeed + 3);
  const Link<double> body = base_body(gen);
  const std::vector<Link<double>> links = random_tree_links(gen);
  const FloatAny model(body, TreeX<double>(links, tree_kinds(), kFloatParents));
  // the same robot on a fixed base: prismatic x, y, z, then revolute z, y, x (Z-Y-X Euler
  // angles), the base body as the sixth link, the tree after it
  std::vector<Link<double>> six(6);
  std::vector<JointKind> kinds = {JointKind::prismatic, JointKind::prismatic, JointKind::prismatic,
                                  JointKind::revolute,  JointKind::revolute,  JointKind::revolute};
  std::vector<std::size_t> parents = {no_parent, 0, 1, 2, 3, 4};
  const Eigen::Vector3d axes[6] = {Eigen::Vector3d::UnitX(), Eigen::Vector3d::UnitY(),
                                   Eigen::Vector3d::UnitZ(), Eigen::Vector3d::UnitZ(),
                                   Eigen::Vector3d::UnitY(), Eigen::Vector3d::UnitX()};
  for (int k = 0; k < 6; ++k) six[std::size_t(k)].axis = axes[k];
  six[5].mass = body.mass;
  six[5].com = body.com;
  six[5].inertia = body.inertia;
  for (std::size_t i = 0; i < links.size(); ++i) {
    six.push_back(links[i]);
    kinds.push_back(tree_kinds()[i]);
    parents.push_back(kFloatParents[i] == no_parent ? 5 : kFloatParents[i] + 6);
  }
  const TreeX<double> chain6(six, kinds, parents);
  const auto frame = chain6.frame(5, Transform<double>::Identity());
  const Eigen::Index n = 5, nv = 11;
  for (int trial = 0; trial < 4; ++trial) {
    Eigen::VectorXd q6(nv), qd6(nv), qdd6(nv);
    for (Eigen::Index k = 0; k < nv; ++k) {
      q6[k] = test::uniform(gen, -1.0, 1.0);  // pitch q6[4] in (-1, 1): away from +-pi/2
      qd6[k] = test::uniform(gen, -1.0, 1.0);
      qdd6[k] = test::uniform(gen, -1.0, 1.0);
    }
    const Eigen::Matrix3d rot = test::rot_z(q6[3]) * test::rot_y(q6[4]) * test::rot_x(q6[5]);
    const Eigen::Quaterniond quat(rot);
    Eigen::VectorXd q(nv + 1);
    q << q6.head<3>(), quat.x(), quat.y(), quat.z(), quat.w(), q6.tail(n);
    // T maps the six joints' rates to the base's body twist: the local Jacobian of link 5
    const auto jacobian_at = [&](const Eigen::VectorXd& at) {
      Eigen::MatrixXd t = Eigen::MatrixXd::Identity(nv, nv);
      t.topRows(6) = jacobian(chain6, at, frame, ReferenceFrame::local);
      return t;
    };
    const Eigen::MatrixXd t = jacobian_at(q6);
    // d/dt T along qd6 by central differences
    const double h = 1e-6;
    const Eigen::MatrixXd tdot = (jacobian_at(q6 + h * qd6) - jacobian_at(q6 - h * qd6)) / (2 * h);
    const Eigen::VectorXd v = t * qd6, a = t * qdd6 + tdot * qd6;
    // M6 = T^T M T (the same kinetic energy for every qd6)
    const Eigen::MatrixXd m = crba(model, q);
    CHECK(relative_error((t.transpose() * m * t).eval(), crba(chain6, q6)) < 1e-12);
    // rnea: the same power tau6 . qd6 = tau . v for every qd6, so tau6 = T^T tau
    const Eigen::VectorXd tau = rnea(model, q, v, a);
    const Eigen::VectorXd tau6 = rnea(chain6, q6, qd6, qdd6);
    CHECK(relative_error((t.transpose() * tau).eval(), tau6) < 1e-7);  // finite-difference Tdot
    // aba: the free-flyer's accelerations for the forces tau = T^-T tau6
    CHECK(relative_error(aba(model, q, v, tau), a) < 1e-7);
    CHECK(relative_error(aba(chain6, q6, qd6, tau6), qdd6) < 1e-12);
  }
}

TEST_CASE("floating base: identities (aba o rnea, free-base rnea, M columns, energy, momentum, Jacobian)") {
  std::mt19937 gen(test::kSeed + 4);
  const FloatFixed model = random_fixed(gen);
  Data<FloatFixed> data;
  for (int trial = 0; trial < 5; ++trial) {
    const FloatFixed::ConfigVector q = random_configuration(model, gen);
    const FloatFixed::TangentVector v = random_tangent(model, gen), a = random_tangent(model, gen);
    rnea(model, data, q, v, a);
    const FloatFixed::TangentVector tau = data.tau;
    aba(model, data, q, v, tau);
    CHECK(relative_error(data.a, a) < 1e-11);
    forward_dynamics_crba(model, data, q, v, tau);
    CHECK(relative_error(data.a, a) < 1e-11);
    // M from rnea columns: M e_k = rnea(q, 0, e_k) - rnea(q, 0, 0)
    crba(model, data, q);
    const FloatFixed::Matrix m = data.M;
    const FloatFixed::TangentVector zero = FloatFixed::TangentVector::Zero();
    const FloatFixed::TangentVector g = rnea(model, q, zero, zero);
    for (Eigen::Index k = 0; k < FloatFixed::nv; ++k) {
      const FloatFixed::TangentVector col = rnea(model, q, zero, FloatFixed::TangentVector::Unit(k)) - g;
      CHECK(relative_error(col, m.col(k).eval()) < 1e-12);
    }
    CHECK(relative_error(g, gravity_torques(model, q)) < 1e-14);
    // 1/2 v^T M v = T (every body's velocity); the potential energy's gradient is g
    CHECK(relative_error(kinetic_energy(model, data, q, v), 0.5 * v.dot(m * v)) < 1e-12);
    FloatFixed::TangentVector grad;
    for (Eigen::Index k = 0; k < FloatFixed::nv; ++k) {
      const double h = 1e-6;
      const FloatFixed::TangentVector e = FloatFixed::TangentVector::Unit(k);
      grad[k] = (potential_energy(model, data, integrate(model, q, e, h)) -
                 potential_energy(model, data, integrate(model, q, e, -h))) / (2 * h);
    }
    CHECK(relative_error(grad, g) < 1e-8);
    // the free-base form: no wrench on the base, and aba gives back its accelerations
    const FloatTree::Vector qdd = a.tail<7>();
    rnea_free_base(model, data, q, v, qdd);
    const FloatFixed::TangentVector a_free = data.a, tau_free = data.tau;
    CHECK(tau_free.head<6>().norm() < 1e-11);
    CHECK(relative_error(a_free.tail<7>(), qdd) == 0.0);
    CHECK(relative_error(aba(model, q, v, tau_free), a_free) < 1e-11);
    // centroidal momentum: A_G v against the sum over the bodies
    centroidal_momentum_matrix(model, data, q);
    const Eigen::Matrix<double, 6, 1> hg = data.Ag * v;
    CHECK(relative_error(centroidal_momentum(model, data, q, v), hg) < 1e-12);
    // a frame's Jacobian (world and local): J v against the frame's motion over a short step
    const auto frame = model.tree().frame(4, Transform<double>::Translation({0.1, -0.2, 0.05}));
    FloatingJacobian<FloatTree> jw, jl;
    jacobian(model, data, q, frame, ReferenceFrame::world, jw);
    const Transform<double> pose0 = data.oMb * data.tree.oMf;
    jacobian(model, data, q, frame, ReferenceFrame::local, jl);
    const double h = 1e-6;
    const auto pose_at = [&](const FloatFixed::ConfigVector& qq) {
      FloatingJacobian<FloatTree> unused;
      jacobian(model, data, qq, frame, ReferenceFrame::world, unused);
      return Transform<double>(data.oMb * data.tree.oMf);
    };
    const Transform<double> plus = pose_at(integrate(model, q, v, h));
    const Transform<double> minus = pose_at(integrate(model, q, v, -h));
    const Eigen::Vector3d lin = (plus.translation - minus.translation) / (2 * h);
    const Eigen::Matrix3d dr = (plus.rotation - minus.rotation) / (2 * h);
    const Eigen::Matrix3d wx = dr * pose0.rotation.transpose();
    const Eigen::Vector3d omega(wx(2, 1), wx(0, 2), wx(1, 0));
    Eigen::Matrix<double, 6, 1> twist;
    twist << omega, lin;
    CHECK(relative_error((jw * v).eval(), twist) < 1e-8);
    Eigen::Matrix<double, 6, 1> local;
    local << pose0.rotation.transpose() * omega, pose0.rotation.transpose() * lin;
    CHECK(relative_error((jl * v).eval(), local) < 1e-8);
  }
}

TEST_CASE("floating base: momentum is conserved in free fall (RK4 on the manifold)") {
  std::mt19937 gen(test::kSeed + 5);
  const Link<double> body = base_body(gen);
  const FloatFixed model(body, FloatTree(test::random_links<FloatTree>(gen), Eigen::Vector3d::Zero()));
  Data<FloatFixed> data;
  FloatFixed::ConfigVector q = random_configuration(model, gen);
  FloatFixed::TangentVector v = random_tangent(model, gen);
  FloatFixed::TangentVector tau = FloatFixed::TangentVector::Zero();
  const Eigen::Matrix<double, 6, 1> h0 = centroidal_momentum(model, data, q, v);
  // in the world frame about its origin (constant without external forces): k_O = k_G + c x l
  const auto world_momentum = [&](const Eigen::Matrix<double, 6, 1>& hg) {
    Eigen::Matrix<double, 6, 1> out = hg;
    out.head<3>() += data.com.cross(hg.tail<3>());
    return out;
  };
  const Eigen::Matrix<double, 6, 1> w0 = world_momentum(h0);
  const double e0 = kinetic_energy(model, data, q, v);
  const int steps = test::kUnoptimised ? 100 : 1000;
  const double dt = 1e-3;
  double worst = 0.0;
  for (int s = 0; s < steps; ++s) {
    tau.tail<7>() = 0.5 * Eigen::Matrix<double, 7, 1>::Constant(std::sin(0.01 * s));  // the joints drive
    rk4_step(model, data, q, v, tau, dt);
    const Eigen::Matrix<double, 6, 1> w = world_momentum(centroidal_momentum(model, data, q, v));
    worst = std::max(worst, relative_error(w, w0));
    // A_G v: the same momentum by the matrix
    centroidal_momentum_matrix(model, data, q);
    CHECK(relative_error((data.Ag * v).eval(), data.hg) < 1e-11);
  }
  CHECK(std::abs(q.segment<4>(3).norm() - 1.0) < 1e-14);
  CHECK(worst < 1e-10);
  // without joint torques the energy is conserved too (to the integrator's error)
  tau.setZero();
  const double e1 = kinetic_energy(model, data, q, v);
  for (int s = 0; s < 50; ++s) rk4_step(model, data, q, v, tau, dt);
  const double energy_error = relative_error(kinetic_energy(model, data, q, v), e1);
  CHECK(energy_error < 1e-10);
  CHECK(e0 > 0.0);
  // the method's order: halving dt divides the error at t = 0.5 s by ~16 (RKMK4 is of order 4),
  // and so the difference between the results of dt and dt / 2 (Richardson: no reference run)
  const FloatFixed::ConfigVector q_start = q;
  const FloatFixed::TangentVector v_start = v;
  tau.tail<7>().setConstant(0.3);
  const auto run = [&](int steps_per_half_second) {
    FloatFixed::ConfigVector qq = q_start;
    FloatFixed::TangentVector vv = v_start;
    for (int s = 0; s < steps_per_half_second; ++s) rk4_step(model, data, qq, vv, tau, 0.5 / steps_per_half_second);
    return std::make_pair(qq, vv);
  };
  const auto r20 = run(20), r40 = run(40), r80 = run(80);
  const auto distance = [&](const auto& a, const auto& b) {
    return difference(model, a.first, b.first).norm() + (a.second - b.second).norm();
  };
  const double ratio = distance(r20, r40) / distance(r40, r80);
  std::printf("floating base, RK4 on the manifold: momentum error %.2e, energy error %.2e "
              "(relative), |x(dt) - x(dt/2)| / |x(dt/2) - x(dt/4)| = %.2f at dt = 25 ms\n",
              worst, energy_error, ratio);
  CHECK(ratio > 12.0);
  CHECK(ratio < 20.0);
}

TEST_CASE("floating base: bad input gets a typed error") {
  std::mt19937 gen(test::kSeed + 6);
  const FloatAny model(base_body(gen), TreeX<double>(random_tree_links(gen), tree_kinds(), kFloatParents));
  Data<FloatAny> data(model);
  Eigen::VectorXd q = model.neutral(), v = Eigen::VectorXd::Zero(11);
  CHECK_THROWS_AS(rnea(model, Eigen::VectorXd::Zero(11), v, v), ArgumentError);  // q of nv
  CHECK_THROWS_AS(rnea(model, data, q, Eigen::VectorXd::Zero(12), v), ArgumentError);
  CHECK_THROWS_AS(aba(model, data, q, v, Eigen::VectorXd::Zero(5)), ArgumentError);
  Eigen::VectorXd bad = q;
  bad[6] = 2.0;  // a quaternion of norm 2
  CHECK_THROWS_WITH(crba(model, bad), Catch::Contains("unit quaternion"));
  CHECK_THROWS_AS(integrate(model, bad, v, 0.1), ArgumentError);
  bad.segment<4>(3).setZero();
  CHECK_THROWS_AS(normalize(model, bad), ArgumentError);
  Link<double> no_mass;
  CHECK_THROWS_AS(FloatAny(no_mass, model.tree()), ModelError);
  Data<FloatAny> small(FloatAny(base_body(gen), TreeX<double>({test::random_link(gen)}, {JointKind::revolute}, {no_parent})));
  CHECK_THROWS_AS(crba(model, small, q), ArgumentError);
  CHECK_NOTHROW(rnea(model, data, q, v, v));
}

TEST_CASE("floating base: the regressor times the base's and the links' parameters is rnea (a "
          "free-flyer and a planar base)") {
  std::mt19937 gen(test::kSeed + 901);
  const auto check = [&](const auto& model) {
    using Model = std::decay_t<decltype(model)>;
    using Tree = typename Model::Tree;
    const auto n = Eigen::Index(model.joint_count());
    const typename Model::ConfigVector q = random_configuration(model, gen);
    const typename Model::TangentVector v = random_tangent(model, gen);
    const typename Model::TangentVector a = random_tangent(model, gen);
    constexpr int nb = Model::Base::nv;
    const FloatingRegressorMatrix<Tree, typename Model::Base> Y = regressor(model, q, v, a);
    REQUIRE(Y.rows() == nb + n);
    REQUIRE(Y.cols() == 10 * (n + 1));
    // the joints' damping, friction and armature are not inertial parameters: the fixed-base
    // tree's rnea minus its (separately tested) regressor gives them
    const typename Tree::Vector qd = v.tail(n), qdd = a.tail(n);
    const typename Tree::Vector q_tree = q.tail(n);
    Eigen::VectorXd joint_terms = Eigen::VectorXd::Zero(nb + n);
    joint_terms.tail(n) = rnea(model.tree(), q_tree, qd, qdd) -
                          regressor(model.tree(), q_tree, qd, qdd) *
                              inertial_parameters(model.tree());
    const Eigen::VectorXd tau = rnea(model, q, v, a);
    CHECK(relative_error(Eigen::VectorXd(Y * inertial_parameters(model) + joint_terms), tau) <
          1e-12);
    // the base body's columns reach the base's rows only
    CHECK(Y.block(nb, 0, n, 10).norm() == 0.0);
  };
  for (int trial = 0; trial < 3; ++trial) {
    check(random_fixed(gen));
    check(FloatAny(base_body(gen), TreeX<double>(random_tree_links(gen), tree_kinds(),
                                                  kFloatParents)));
    check(PlanarAny(base_body(gen), TreeX<double>(random_tree_links(gen), tree_kinds(),
                                                   kFloatParents)));
  }
  // checked arguments
  const FloatAny any(base_body(gen), TreeX<double>(random_tree_links(gen), tree_kinds(),
                                                    kFloatParents));
  const Eigen::VectorXd q = any.neutral(), v = Eigen::VectorXd::Zero(any.nv_size());
  CHECK_THROWS_AS(regressor(any, q, v, Eigen::VectorXd::Zero(3)), ArgumentError);
}

namespace {

// The base's planar rotation R(yaw) and the map T = blkdiag(R, 1, 1_n) from the planar base's
// velocity [v_x; v_y; omega; qd] to the rates of the prismatic x, prismatic y, revolute z
// joints in a row ([xd; yd; yawd; qd]).
Eigen::MatrixXd planar_map(double yaw, Eigen::Index nv) {
  Eigen::MatrixXd t = Eigen::MatrixXd::Identity(nv, nv);
  t.topLeftCorner<2, 2>() << std::cos(yaw), -std::sin(yaw), std::sin(yaw), std::cos(yaw);
  return t;
}

PlanarAny random_planar(std::mt19937& gen) {
  return PlanarAny(base_body(gen), TreeX<double>(random_tree_links(gen), tree_kinds(), kFloatParents));
}

}  // namespace

TEST_CASE("planar base: integrate and difference on SE(2) (the exact arc, the shorter turn)") {
  std::mt19937 gen(test::kSeed + 7);
  const PlanarAny model = random_planar(gen);
  CHECK(model.neutral().norm() == 0.0);
  for (int trial = 0; trial < 20; ++trial) {
    const Eigen::VectorXd q0 = random_configuration(model, gen, 3.0);
    Eigen::VectorXd v = random_tangent(model, gen);
    if (trial == 0) v[2] = 0.0;    // a straight line
    if (trial == 1) v[2] = 1e-9;   // the series branch
    if (trial == 2) v[2] = 2.5;    // past pi in one step
    const double dt = test::uniform(gen, 0.1, 1.5);
    const Eigen::VectorXd q1 = integrate(model, q0, v, dt);
    CHECK(q1[2] == q0[2] + dt * v[2]);  // yaw is not wrapped by integrate
    if (std::abs(v[2] * dt) < 3.0) CHECK(relative_error(difference(model, q0, q1), (dt * v).eval()) < 1e-12);
    // integrate o difference: the same pose (yaw up to a whole turn), the same joints
    const Eigen::VectorXd back = integrate(model, q0, difference(model, q0, q1), 1.0);
    CHECK(relative_error(back.head<2>(), q1.head<2>()) < 1e-12);
    CHECK(std::abs(std::remainder(back[2] - q1[2], 2 * test::kPi)) < 1e-12);
    CHECK(relative_error(back.tail(5), q1.tail(5)) < 1e-15);
    CHECK(std::abs(difference(model, q0, q1)[2]) <= test::kPi);
    CHECK(difference(model, q0, q0).norm() == 0.0);
    // the exact arc: the base turns at the constant rate omega while moving with the constant
    // body velocity (v_x, v_y), so its origin moves with R(yaw0 + omega t) (v_x, v_y):
    // integrated in closed form, p1 - p0 = [sin(yaw) - sin(yaw0), cos(yaw0) - cos(yaw); ...]
    const double w = v[2] * dt, y0 = q0[2], y1 = y0 + w;
    if (std::abs(w) > 1e-3) {
      const double cx = (std::sin(y1) - std::sin(y0)) / v[2], cy = (std::cos(y0) - std::cos(y1)) / v[2];
      const Eigen::Vector2d moved(cx * v[0] - cy * v[1], cy * v[0] + cx * v[1]);
      CHECK(relative_error((q1.head<2>() - q0.head<2>()).eval(), moved) < 1e-12);
    }
  }
  // a quarter circle of radius 2 / pi: forward at 1 m/s, turning 90 degrees in one second
  Eigen::VectorXd v = Eigen::VectorXd::Zero(model.nv_size());
  v[0] = 1.0;
  v[2] = test::kPi / 2;
  const Eigen::VectorXd q = integrate(model, model.neutral(), v, 1.0);
  CHECK(relative_error(q.head<3>(), Eigen::Vector3d(2 / test::kPi, 2 / test::kPi, test::kPi / 2)) < 1e-15);
  // normalize wraps yaw into [-pi, pi), the same pose
  Eigen::VectorXd turned = q;
  turned[2] = 7.5;
  normalize(model, turned);
  CHECK(std::abs(turned[2] - (7.5 - 2 * test::kPi)) < 1e-15);
  const Eigen::VectorXd r = random_configuration(model, gen, 2.0);
  CHECK(r.head<2>().cwiseAbs().maxCoeff() <= 2.0);
  CHECK(std::abs(r[2]) <= test::kPi);
  turned[2] = std::nan("");
  CHECK_THROWS_AS(normalize(model, turned), ArgumentError);
}

TEST_CASE("planar base: agrees with prismatic x, prismatic y, revolute z in a row; held still, the fixed-base tree") {
  std::mt19937 gen(test::kSeed + 8);
  const Link<double> body = base_body(gen);
  const std::vector<Link<double>> links = random_tree_links(gen);
  const PlanarAny model(body, TreeX<double>(links, tree_kinds(), kFloatParents));
  // the same robot on a fixed base: x, y, yaw joints, the base body as the third link
  std::vector<Link<double>> three(3);
  std::vector<JointKind> kinds = {JointKind::prismatic, JointKind::prismatic, JointKind::revolute};
  std::vector<std::size_t> parents = {no_parent, 0, 1};
  three[0].axis = Eigen::Vector3d::UnitX();
  three[1].axis = Eigen::Vector3d::UnitY();
  three[2].axis = Eigen::Vector3d::UnitZ();
  three[2].mass = body.mass;
  three[2].com = body.com;
  three[2].inertia = body.inertia;
  for (std::size_t i = 0; i < links.size(); ++i) {
    three.push_back(links[i]);
    kinds.push_back(tree_kinds()[i]);
    parents.push_back(kFloatParents[i] == no_parent ? 2 : kFloatParents[i] + 3);
  }
  const TreeX<double> chain3(three, kinds, parents);
  const Eigen::Index nv = 8;
  Data<PlanarAny> data(model);
  Data<TreeX<double>> chain_data(chain3);
  for (int trial = 0; trial < 4; ++trial) {
    const Eigen::VectorXd q = random_configuration(model, gen, 2.0);  // the chain's q too
    const Eigen::VectorXd v = random_tangent(model, gen), a = random_tangent(model, gen);
    const Eigen::MatrixXd t = planar_map(q[2], nv);
    // the chain's rates: (xd, yd) = R (v_x, v_y); (xdd, ydd) = R ((vd_x, vd_y) + omega J v)
    const Eigen::VectorXd qd3 = t * v;
    Eigen::VectorXd qdd3 = t * a;
    qdd3.head<2>() += t.topLeftCorner<2, 2>() * Eigen::Vector2d(-v[2] * v[1], v[2] * v[0]);
    // M = T^T M3 T; rnea: the same power, tau3 = T^-T tau = T tau
    const Eigen::MatrixXd m = crba(model, q);
    CHECK(relative_error((t.transpose() * crba(chain3, q) * t).eval(), m) < 1e-12);
    const Eigen::VectorXd tau = rnea(model, q, v, a);
    CHECK(relative_error((t * tau).eval(), rnea(chain3, q, qd3, qdd3)) < 1e-12);
    CHECK(relative_error(aba(model, q, v, tau), a) < 1e-11);
    CHECK(relative_error(aba(chain3, q, qd3, (t * tau).eval()), qdd3) < 1e-11);
    CHECK(relative_error((t * gravity_torques(model, q)).eval(), gravity_torques(chain3, q)) < 1e-12);
    CHECK(relative_error(kinetic_energy(model, data, q, v), kinetic_energy(chain3, chain_data, q, qd3)) < 1e-12);
    CHECK(relative_error(potential_energy(model, data, q), potential_energy(chain3, chain_data, q)) < 1e-12);
    // the Jacobian of a frame on link 4: J = J3 T (world and local)
    const Transform<double> offset = Transform<double>::Translation({0.1, -0.2, 0.05});
    FloatingJacobian<TreeX<double>, PlanarBase<double>> jw(6, nv), jl(6, nv);
    jacobian(model, data, q, model.tree().frame(4, offset), ReferenceFrame::world, jw);
    jacobian(model, data, q, model.tree().frame(4, offset), ReferenceFrame::local, jl);
    const auto frame3 = chain3.frame(7, offset);
    CHECK(relative_error((jacobian(chain3, q, frame3, ReferenceFrame::world) * t).eval(), jw) < 1e-12);
    CHECK(relative_error((jacobian(chain3, q, frame3, ReferenceFrame::local) * t).eval(), jl) < 1e-12);
    // the base held still (anywhere: gravity is along z) gives the fixed-base tree's numbers;
    // the base's forces hold nothing horizontal then, the ground carries the weight
    Eigen::VectorXd still_v = v, still_a = a;
    still_v.head<3>().setZero();
    still_a.head<3>().setZero();
    const Eigen::VectorXd still = rnea(model, q, still_v, still_a);
    CHECK(relative_error(still.tail(5), rnea(model.tree(), q.tail(5), v.tail(5), a.tail(5))) < 1e-13);
    CHECK(relative_error(m.bottomRightCorner(5, 5), crba(model.tree(), q.tail(5))) < 1e-13);
    CHECK(gravity_torques(model, q).head<3>().norm() < 1e-12);
    rnea(model, data, q, still_v, still_a);
    const Eigen::Matrix<double, 6, 1> ground = data.tree.root.f.vector();  // [moment; force]
    CHECK(ground[5] > 0.0);  // the ground pushes up
  }
}

TEST_CASE("planar base: identities (aba o rnea, crba + Cholesky, energy, momentum) and RK4") {
  std::mt19937 gen(test::kSeed + 9);
  const PlanarAny model = random_planar(gen);
  Data<PlanarAny> data(model);
  for (int trial = 0; trial < 4; ++trial) {
    const Eigen::VectorXd q = random_configuration(model, gen, 2.0);
    const Eigen::VectorXd v = random_tangent(model, gen), a = random_tangent(model, gen);
    rnea(model, data, q, v, a);
    const Eigen::VectorXd tau = data.tau;
    aba(model, data, q, v, tau);
    CHECK(relative_error(data.a, a) < 1e-11);
    forward_dynamics_crba(model, data, q, v, tau);
    CHECK(relative_error(data.a, a) < 1e-11);
    crba(model, data, q);
    const Eigen::MatrixXd m = data.M;
    CHECK(relative_error(kinetic_energy(model, data, q, v), 0.5 * v.dot(m * v)) < 1e-12);
    // rnea = M a + h
    CHECK(relative_error(tau, (m * a + nonlinear_effects(model, q, v)).eval()) < 1e-12);
    // the base free to roll: no force on it, and aba gives back its accelerations
    const auto free = rnea_free_base(model, q, v, a.tail(5));
    Eigen::VectorXd tau_free = Eigen::VectorXd::Zero(8);
    tau_free.tail(5) = free.tau;
    Eigen::VectorXd a_free(8);
    a_free << free.base_acceleration, a.tail(5);
    CHECK(relative_error(aba(model, q, v, tau_free), a_free) < 1e-11);
    centroidal_momentum_matrix(model, data, q);
    const Eigen::Matrix<double, 6, 1> hg = data.Ag * v;
    CHECK(relative_error(centroidal_momentum(model, data, q, v), hg) < 1e-12);
  }
  // RK4 with no forces: the energy stays, and so do the horizontal linear momentum and the
  // angular momentum about the vertical (the ground pushes along z and turns about x, y only)
  Eigen::VectorXd q = random_configuration(model, gen), v = random_tangent(model, gen);
  const Eigen::VectorXd tau = Eigen::VectorXd::Zero(8);
  const auto energy = [&] { return kinetic_energy(model, data, q, v) + potential_energy(model, data, q); };
  const auto momentum = [&] {  // [k_z about the world origin; l_x; l_y]
    const Eigen::Matrix<double, 6, 1> hg = centroidal_momentum(model, data, q, v);
    return Eigen::Vector3d(hg[2] + data.com.x() * hg[4] - data.com.y() * hg[3], hg[3], hg[4]);
  };
  const double e0 = energy();
  const Eigen::Vector3d h0 = momentum();
  for (int s = 0; s < 200; ++s) rk4_step(model, data, q, v, tau, 1e-3);
  CHECK(relative_error(energy(), e0) < 1e-9);
  CHECK(relative_error(momentum(), h0) < 1e-10);
  CHECK(h0.norm() > 0.1);
  // typed errors: sizes, a base body that cannot turn
  CHECK_THROWS_AS(rnea(model, Eigen::VectorXd::Zero(9), v, v), ArgumentError);
  Link<double> flat = base_body(gen);
  flat.inertia.setZero();
  CHECK_THROWS_AS(PlanarAny(flat, model.tree()), ModelError);
}

// --- simulate on a moving base -----------------------------------------------------------------

namespace {

FloatAny random_floating_tree(std::mt19937& gen, const Eigen::Vector3d& gravity) {
  return FloatAny(base_body(gen), TreeX<double>(random_tree_links(gen), tree_kinds(), kFloatParents, gravity));
}

SimulationOptions<double> tight_rk45() {
  SimulationOptions<double> o;
  o.rtol = 1e-11;
  o.atol = 1e-12;
  return o;
}

}  // namespace

TEST_CASE("floating base: simulate (RK45, RK4 on the manifold) conserves momentum and energy, the quaternion stays unit") {
  std::mt19937 gen(test::kSeed + 11);
  const double t_end = test::kUnoptimised ? 0.1 : 1.0;
  SECTION("no gravity: the centroidal momentum and T constant") {
    const FloatAny model = random_floating_tree(gen, Eigen::Vector3d::Zero());
    Data<FloatAny> data(model);
    const Eigen::VectorXd q0 = random_configuration(model, gen), v0 = random_tangent(model, gen);
    const Eigen::Matrix<double, 6, 1> h0 = centroidal_momentum(model, data, q0, v0);
    const double e0 = kinetic_energy(model, data, q0, v0);
    double worst_h = 0.0, worst_e = 0.0, worst_norm = 0.0;
    const auto result = simulate(model, q0, v0, ZeroTorque{}, t_end, tight_rk45(),
                                 [&](const SimulationSample<FloatAny>& s) {
      worst_h = std::max(worst_h, relative_error(centroidal_momentum(model, data, s.q, s.qd), h0));
      worst_e = std::max(worst_e, std::abs(kinetic_energy(model, data, s.q, s.qd) - e0) / e0);
      worst_norm = std::max(worst_norm, std::abs(s.q.segment<4>(3).norm() - 1.0));
      CHECK(relative_error(s.qdd, aba(model, s.q, s.qd, s.tau)) < 1e-12);
    });
    CHECK(result.steps > 10);
    CHECK(worst_h < 1e-9);
    CHECK(worst_e < 1e-9);
    CHECK(worst_norm < 1e-14);
  }
  SECTION("gravity: T + V constant; RK45 against RK4 with a fine step and against rk4_step") {
    const FloatAny model = random_floating_tree(gen, Eigen::Vector3d(0.0, 0.0, -9.81));
    Data<FloatAny> data(model);
    const Eigen::VectorXd q0 = random_configuration(model, gen), v0 = random_tangent(model, gen);
    const auto energy = [&](const Eigen::VectorXd& q, const Eigen::VectorXd& v) {
      return kinetic_energy(model, data, q, v) + potential_energy(model, data, q);
    };
    const double e0 = energy(q0, v0);
    const auto adaptive = simulate(model, q0, v0, ZeroTorque{}, t_end, tight_rk45());
    double worst_e = 0.0, worst_norm = 0.0;
    for (std::size_t k = 0; k < adaptive.size(); ++k) {
      worst_e = std::max(worst_e, std::abs(energy(adaptive.q[k], adaptive.qd[k]) - e0) / std::abs(e0));
      worst_norm = std::max(worst_norm, std::abs(adaptive.q[k].segment<4>(3).norm() - 1.0));
    }
    CHECK(worst_e < 1e-9);
    CHECK(worst_norm < 1e-14);
    SimulationOptions<double> fixed;
    fixed.integrator = Integrator::rk4;
    // RK4's error at dt = 1 ms is ~3e-11 over the 0.1 s of the unoptimised builds
    fixed.dt = test::kUnoptimised ? 1e-3 : 2.5e-4;
    const auto fine = simulate(model, q0, v0, ZeroTorque{}, t_end, fixed);
    REQUIRE(fine.t.back() == t_end);
    std::printf("floating base under gravity, %g s: |E - E0| / |E0| %.2e (RK45), RK45 against "
                "RK4 (dt %g) %.2e in q, %.2e in v\n", t_end, worst_e, fixed.dt,
                difference(model, fine.q.back(), adaptive.q.back()).norm(),
                (fine.qd.back() - adaptive.qd.back()).norm() / fine.qd.back().norm());
    CHECK(difference(model, fine.q.back(), adaptive.q.back()).norm() < 1e-8);
    CHECK((fine.qd.back() - adaptive.qd.back()).norm() < 1e-8 * fine.qd.back().norm());
    // simulate's RK4 is rk4_step's RKMK4 (the same stages, summed in another order)
    Eigen::VectorXd q = q0, v = v0;
    const Eigen::VectorXd tau = Eigen::VectorXd::Zero(v.size());
    for (std::size_t k = 1; k < fine.size(); ++k) rk4_step(model, data, q, v, tau, fine.t[k] - fine.t[k - 1]);
    CHECK(difference(model, fine.q.back(), q).norm() < 1e-12);
    CHECK((fine.qd.back() - v).norm() < 1e-12 * v.norm());
  }
}

TEST_CASE("floating base: simulate a free rigid body spinning about a principal axis (constant omega, R0 exp(omega t))") {
  // the base body alone (its tree one massless joint with armature: at rest, it moves nothing)
  Link<double> body;
  body.mass = 3.0;
  body.inertia = Eigen::Vector3d(0.4, 0.7, 0.9).asDiagonal();
  Link<double> massless;
  massless.axis = Eigen::Vector3d::UnitZ();
  massless.dynamics.armature = 1.0;
  ModelChecks checks;
  checks.regular = false;
  const FloatAny model(body, TreeX<double>({massless}, {JointKind::revolute}, {no_parent},
                                           Eigen::Vector3d::Zero(), checks));
  std::mt19937 gen(test::kSeed + 12);
  const Eigen::VectorXd q0 = random_configuration(model, gen, 1.0);
  const Eigen::Quaterniond r0(q0[6], q0[3], q0[4], q0[5]);
  const Eigen::Vector3d omega(0.0, 2.5, 0.0);  // about the principal axis y
  const Eigen::Vector3d u(0.3, -0.2, 0.5);     // the centre of mass's (= origin's) world velocity
  Eigen::VectorXd v0 = Eigen::VectorXd::Zero(7);
  v0 << omega, r0.toRotationMatrix().transpose() * u, 0.0;
  for (const Integrator method : {Integrator::rk45, Integrator::rk4}) {
    SimulationOptions<double> o = tight_rk45();
    o.integrator = method;
    o.dt = 1e-3;
    o.output_interval = 0.05;
    // 1.25 rad of the spin in unoptimised builds (CI time under the sanitizers), 5 rad otherwise
    const double t_end = test::kUnoptimised ? 0.5 : 2.0;
    const auto run = simulate(model, q0, v0, ZeroTorque{}, t_end, o);
    CHECK(run.size() == std::size_t(std::lround(t_end / 0.05)) + 1);
    for (std::size_t k = 0; k < run.size(); ++k) {
      const double t = run.t[k];
      const Eigen::Quaterniond r = r0 * Eigen::Quaterniond(Eigen::AngleAxisd(omega.norm() * t, omega.normalized()));
      Eigen::VectorXd expected(8);
      expected << q0.head<3>() + t * u, r.coeffs(), q0[7];
      CHECK(difference(model, expected, run.q[k]).norm() < 1e-9);
      CHECK((run.qd[k].head<3>() - omega).norm() < 1e-9);
      CHECK((run.qd[k].segment<3>(3) - r.toRotationMatrix().transpose() * u).norm() < 1e-9);
      CHECK(std::abs(run.q[k].segment<4>(3).norm() - 1.0) < 1e-14);
    }
  }
}

TEST_CASE("planar base: simulate conserves T + V and the momentum the ground cannot change") {
  std::mt19937 gen(test::kSeed + 13);
  const PlanarAny model = random_planar(gen);
  Data<PlanarAny> data(model);
  const Eigen::VectorXd q0 = random_configuration(model, gen), v0 = random_tangent(model, gen);
  const auto energy = [&](const Eigen::VectorXd& q, const Eigen::VectorXd& v) {
    return kinetic_energy(model, data, q, v) + potential_energy(model, data, q);
  };
  const auto momentum = [&](const Eigen::VectorXd& q, const Eigen::VectorXd& v) {  // [k_z about O; l_x; l_y]
    const Eigen::Matrix<double, 6, 1> hg = centroidal_momentum(model, data, q, v);
    return Eigen::Vector3d(hg[2] + data.com.x() * hg[4] - data.com.y() * hg[3], hg[3], hg[4]);
  };
  const double e0 = energy(q0, v0);
  const Eigen::Vector3d h0 = momentum(q0, v0);
  const double t_end = test::kUnoptimised ? 0.1 : 1.0;
  const auto adaptive = simulate(model, q0, v0, ZeroTorque{}, t_end, tight_rk45());
  for (std::size_t k = 0; k < adaptive.size(); ++k) {
    CHECK(std::abs(energy(adaptive.q[k], adaptive.qd[k]) - e0) < 1e-9 * std::abs(e0));
    CHECK((momentum(adaptive.q[k], adaptive.qd[k]) - h0).norm() < 1e-9 * (1.0 + h0.norm()));
  }
  SimulationOptions<double> fixed;
  fixed.integrator = Integrator::rk4;
  fixed.dt = 2.5e-4;
  const auto fine = simulate(model, q0, v0, ZeroTorque{}, t_end, fixed);
  CHECK(difference(model, fine.q.back(), adaptive.q.back()).norm() < 1e-8);
  CHECK((fine.qd.back() - adaptive.qd.back()).norm() < 1e-8 * fine.qd.back().norm());
}

TEST_CASE("floating base: simulate's bad input gets a typed error") {
  std::mt19937 gen(test::kSeed + 14);
  const FloatAny model = random_floating_tree(gen, Eigen::Vector3d::Zero());
  const Eigen::VectorXd q0 = model.neutral(), v0 = Eigen::VectorXd::Zero(model.nv_size());
  CHECK_THROWS_AS(simulate(model, q0, Eigen::VectorXd::Zero(model.nq_size()), ZeroTorque{}, 0.1), ArgumentError);
  CHECK_THROWS_AS(simulate(model, v0, v0, ZeroTorque{}, 0.1), ArgumentError);
  Eigen::VectorXd scaled = q0;
  scaled.segment<4>(3) *= 1.1;  // not a unit quaternion
  CHECK_THROWS_AS(simulate(model, scaled, v0, ZeroTorque{}, 0.1), ArgumentError);
  const auto short_tau = [](double, const Eigen::VectorXd&, const Eigen::VectorXd&) { return Eigen::VectorXd::Zero(3).eval(); };
  CHECK_THROWS_AS(simulate(model, q0, v0, short_tau, 0.1), ArgumentError);
  // a quaternion unit to 1e-6 is normalized: the first sample's is unit to rounding
  Eigen::VectorXd nearly = q0;
  nearly.segment<4>(3) *= 1.0 + 5e-7;
  const auto run = simulate(model, nearly, v0, ZeroTorque{}, 0.01);
  CHECK(std::abs(run.q.front().segment<4>(3).norm() - 1.0) < 1e-15);
}
