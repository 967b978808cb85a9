// Spatial algebra against its 6x6 matrix definitions (RBDA ch. 2), and forward kinematics
// against 4x4 homogeneous matrices built independently.
#include "support/chains.hpp"
#include "support/test_support.hpp"

#include <catch2/catch.hpp>

#include <Eigen/Geometry>

#include <array>
#include <type_traits>
#include <vector>

using namespace chaindyn;
using chaindyn::test::relative_error;
using Vector6 = Eigen::Matrix<double, 6, 1>;
using Matrix6 = Eigen::Matrix<double, 6, 6>;

namespace {

Matrix6 motion_cross_matrix(const Vector6& m) {  // RBDA eq. (2.31), [angular; linear]
  Matrix6 x = Matrix6::Zero();
  const Eigen::Matrix3d w = chaindyn::detail::skew<double>(m.head<3>());
  x.topLeftCorner<3, 3>() = w;
  x.bottomRightCorner<3, 3>() = w;
  x.bottomLeftCorner<3, 3>() = chaindyn::detail::skew<double>(m.tail<3>());
  return x;
}

Motion<double> random_motion(std::mt19937& gen) {
  return Motion<double>(test::random_vector(gen, -2, 2), test::random_vector(gen, -2, 2));
}
Force<double> random_force(std::mt19937& gen) {
  return Force<double>(test::random_vector(gen, -2, 2), test::random_vector(gen, -2, 2));
}
Transform<double> random_transform(std::mt19937& gen) {
  return Transform<double>(test::random_rotation(gen), test::random_vector(gen, -1, 1));
}

Eigen::Matrix4d spatial_homogeneous(const Eigen::Matrix3d& r, const Eigen::Vector3d& p) {
  Eigen::Matrix4d t = Eigen::Matrix4d::Identity();
  t.topLeftCorner<3, 3>() = r;
  t.topRightCorner<3, 1>() = p;
  return t;
}

}  // namespace

namespace {
/// |x - ref| in units of the spacing of doubles at |ref| (ulp).
double ulp_error(double x, long double ref) {
  const double r = double(ref);
  const double ulp = std::nextafter(std::abs(r), INFINITY) - std::abs(r);
  return double(std::abs((long double)x - ref) / (long double)ulp);
}
}  // namespace

TEST_CASE("the batched sincos is within 2.5 ulp of long double sin and cos", "[spatial][sincos]") {
  // 4 x 250,000 seeded angles in ranges up to the kernel's limit of 1e5 rad; the reference is
  // sinl / cosl (64-bit mantissa), the C library's double sin / cos are themselves <= 0.52 ulp.
  std::mt19937 gen(test::kSeed);
  double worst = 0.0;
  for (const double range : {0.8, 4.0, 100.0, 1e5}) {
    for (int rep = 0; rep < 250000 / 8; ++rep) {
      std::array<double, 8> x, s, c;
      for (double& v : x) v = test::uniform(gen, -range, range);
      chaindyn::detail::sincos(x.data(), s.data(), c.data(), 8);
      for (int i = 0; i < 8; ++i) {
        worst = std::max(worst, ulp_error(s[std::size_t(i)], std::sin((long double)x[std::size_t(i)])));
        worst = std::max(worst, ulp_error(c[std::size_t(i)], std::cos((long double)x[std::size_t(i)])));
      }
    }
  }
  INFO("worst error " << worst << " ulp");
  CHECK(worst <= 2.5);
  // Exact quadrant points, and what the kernel hands to the C library (beyond 1e5, inf, NaN).
  std::array<double, 9> x = {0.0, M_PI / 2, M_PI, -M_PI, 3 * M_PI / 2, 1e5, 1e6, -1e300, INFINITY};
  std::array<double, 9> s, c;
  chaindyn::detail::sincos(x.data(), s.data(), c.data(), 9);
  for (std::size_t i = 0; i + 1 < x.size(); ++i) {
    CHECK(std::abs(s[i] - std::sin(x[i])) <= 4e-16);
    CHECK(std::abs(c[i] - std::cos(x[i])) <= 4e-16);
  }
  CHECK(std::isnan(s[8]));
  CHECK(std::isnan(c[8]));
  // float goes through the same kernel in double and is rounded once: correctly rounded or
  // one float ulp off.
  std::array<float, 4> xf = {0.1f, -2.5f, 1000.0f, 3.0e4f}, sf, cf;
  chaindyn::detail::sincos(xf.data(), sf.data(), cf.data(), 4);
  for (std::size_t i = 0; i < xf.size(); ++i) {
    CHECK(std::abs(sf[i] - float(std::sin(double(xf[i])))) <= 1.2e-7f);
    CHECK(std::abs(cf[i] - float(std::cos(double(xf[i])))) <= 1.2e-7f);
  }
}

TEST_CASE("cross products equal crm(m) n and crf(m) f = -crm(m)^T f", "[spatial]") {
  std::mt19937 gen(test::kSeed);
  for (int k = 0; k < 100; ++k) {
    const Motion<double> m = random_motion(gen), n = random_motion(gen);
    const Force<double> f = random_force(gen);
    const Matrix6 crm = motion_cross_matrix(m.vector());
    REQUIRE(relative_error(cross(m, n).vector(), crm * n.vector()) < 1e-15);
    REQUIRE(relative_error(cross(m, f).vector(), -crm.transpose() * f.vector()) < 1e-15);
    // power is invariant: (m x n) . f = -n . (m x* f)
    REQUIRE(std::abs(dot(cross(m, n), f) + dot(n, cross(m, f))) < 1e-13);
  }
}

// The joint models' operations (joints/revolute.hpp lists them) against the spatial algebra on
// S qd, S = joint.motion(1): the algorithms use the joint's forms, which skip S's zeros.
TEMPLATE_TEST_CASE("every joint model's operations are the spatial algebra's on S qd",
                   "[spatial][joints]", RevoluteX, RevoluteY, RevoluteZ, Revolute, PrismaticX,
                   PrismaticY, PrismaticZ, Prismatic) {
  using JM = typename TestType::template model<double>;
  std::mt19937 gen(test::kSeed);
  for (int k = 0; k < 20; ++k) {
    JM joint;
    if constexpr (JM::has_runtime_axis) joint.a = test::random_vector(gen, -1, 1).normalized();
    const double qd = test::uniform(gen, -3, 3);
    const Motion<double> s = joint.motion(1.0), v = random_motion(gen);
    const Force<double> f = random_force(gen);
    const Link<double> link = test::random_link(gen);
    const Inertia<double> inertia = Inertia<double>::from_com(link.mass, link.com, link.inertia);
    CHECK(relative_error(joint.motion(qd).vector(), (qd * s.vector()).eval()) < 1e-15);
    CHECK(relative_error(joint.cross_motion(v, qd).vector(), cross(v, joint.motion(qd)).vector()) <
          1e-14);
    CHECK(relative_error(joint.cross_force(qd, f).vector(), cross(joint.motion(qd), f).vector()) <
          1e-14);
    CHECK(relative_error(joint.column(inertia).vector(), (inertia * s).vector()) < 1e-14);
    CHECK(std::abs(joint.project(f) - dot(s, f)) < 1e-14 * f.vector().norm());
  }
}

TEST_CASE("transforms act on motions by X and on forces by X^-T, preserving power",
          "[spatial]") {
  std::mt19937 gen(test::kSeed + 1);
  for (int k = 0; k < 100; ++k) {
    const Transform<double> x = random_transform(gen);
    const Motion<double> m = random_motion(gen);
    const Force<double> f = random_force(gen);
    const Matrix6 xm = x.motion_matrix(), xm_inv = test::inverse(xm);
    REQUIRE(relative_error(x.act(m).vector(), xm * m.vector()) < 1e-14);
    REQUIRE(relative_error(x.act_inv(m).vector(), xm_inv * m.vector()) < 1e-13);
    REQUIRE(relative_error(x.act(f).vector(), xm_inv.transpose() * f.vector()) < 1e-13);
    REQUIRE(relative_error(x.act_inv(f).vector(), xm.transpose() * f.vector()) < 1e-14);
    REQUIRE(std::abs(dot(x.act(m), x.act(f)) - dot(m, f)) < 1e-13);
    // composition and inverse agree with the matrices
    const Transform<double> y = random_transform(gen);
    REQUIRE(relative_error((x * y).motion_matrix(), xm * y.motion_matrix()) < 1e-14);
    REQUIRE(relative_error(x.inverse().motion_matrix(), xm_inv) < 1e-13);
  }
}

TEST_CASE("FromRPY follows URDF: R = Rz(yaw) Ry(pitch) Rx(roll)", "[spatial]") {
  std::mt19937 gen(test::kSeed + 5);
  for (int k = 0; k < 50; ++k) {
    const double r = test::uniform(gen, -3, 3), p = test::uniform(gen, -1.5, 1.5),
                 y = test::uniform(gen, -3, 3);
    Eigen::Matrix3d rx, ry, rz;  // elementary rotations written out
    rx << 1, 0, 0, 0, std::cos(r), -std::sin(r), 0, std::sin(r), std::cos(r);
    ry << std::cos(p), 0, std::sin(p), 0, 1, 0, -std::sin(p), 0, std::cos(p);
    rz << std::cos(y), -std::sin(y), 0, std::sin(y), std::cos(y), 0, 0, 0, 1;
    const Eigen::Vector3d t = test::random_vector(gen, -1, 1);
    const Transform<double> x = Transform<double>::FromRPY(r, p, y, t);
    REQUIRE(relative_error(x.rotation, rz * ry * rx) < 1e-15);
    REQUIRE(x.translation == t);
  }
}

TEST_CASE("FromRPY's closed form is Eigen's AngleAxis product to the last bit", "[spatial]") {
  // FromRPY computes the quaternion product itself (no Eigen/Geometry code in every user's
  // file); the numbers must stay those of the AngleAxis form it replaced: the built-in iiwa's
  // table and URDF models depend on them. Random angles and the right angles of robot tables.
  std::mt19937 gen(test::kSeed + 6);
  const auto eigen_rpy = [](double r, double p, double y) -> Eigen::Matrix3d {
    using Axis = Eigen::AngleAxisd;
    return (Axis(y, Eigen::Vector3d::UnitZ()) * Axis(p, Eigen::Vector3d::UnitY()) *
            Axis(r, Eigen::Vector3d::UnitX()))
        .toRotationMatrix();
  };
  std::vector<std::array<double, 3>> angles;
  const double kHalfPi = 1.5707963267948966, kPi = 3.141592653589793;
  for (const double a : {0.0, kHalfPi, -kHalfPi, kPi, -kPi, 1.5708, -3.14159}) {
    for (const double b : {0.0, kHalfPi, -kPi}) {
      angles.push_back({a, b, -a});
      angles.push_back({b, a, 0.5 * a});
    }
  }
  for (int k = 0; k < 200; ++k) {
    angles.push_back({test::uniform(gen, -4, 4), test::uniform(gen, -4, 4),
                      test::uniform(gen, -4, 4)});
  }
  std::size_t mismatches = 0;
  for (const auto& a : angles) {
    mismatches +=
        Transform<double>::FromRPY(a[0], a[1], a[2]).rotation != eigen_rpy(a[0], a[1], a[2]);
    const Eigen::Matrix3f expected_f =
        (Eigen::AngleAxisf(float(a[2]), Eigen::Vector3f::UnitZ()) *
         Eigen::AngleAxisf(float(a[1]), Eigen::Vector3f::UnitY()) *
         Eigen::AngleAxisf(float(a[0]), Eigen::Vector3f::UnitX()))
            .toRotationMatrix();
    mismatches +=
        Transform<float>::FromRPY(float(a[0]), float(a[1]), float(a[2])).rotation != expected_f;
  }
  CHECK(mismatches == 0);
}

TEST_CASE("Inertia::from_com is I_C - m [c]x[c]x as Eigen's product computes it, bit for bit",
          "[spatial]") {
  // from_com uses the 3x3 kernels (compile time of model construction); every chain's link
  // inertias, and so every published figure, must keep the numbers the Eigen product gave.
  std::mt19937 gen(test::kSeed + 7);
  std::size_t mismatches = 0;
  for (int k = 0; k < 200; ++k) {
    const double m = test::uniform(gen, 0, 5);
    const Eigen::Vector3d c = test::random_vector(gen, -1, 1);
    Eigen::Matrix3d a;
    for (int e = 0; e < 9; ++e) a.data()[e] = test::uniform(gen, -1, 1);
    const Eigen::Matrix3d ic = a * a.transpose();
    const Eigen::Matrix3d cx = chaindyn::detail::skew(c);
    const Eigen::Matrix3d expected = ic - m * (cx * cx);
    mismatches += Inertia<double>::from_com(m, c, ic).rotational != expected;
    const Eigen::Matrix3f cxf = chaindyn::detail::skew(Eigen::Vector3f(c.cast<float>()));
    const Eigen::Matrix3f expected_f = ic.cast<float>() - float(m) * (cxf * cxf);
    mismatches += Inertia<float>::from_com(float(m), c.cast<float>(), ic.cast<float>()).rotational !=
                  expected_f;
  }
  CHECK(mismatches == 0);
}

TEST_CASE("a rigid inertia from (m, c, I_c) matches RBDA eq. (2.63) and transforms as X^-T I X^-1",
          "[spatial]") {
  std::mt19937 gen(test::kSeed + 2);
  for (int k = 0; k < 100; ++k) {
    const Link<double> l = test::random_link(gen);
    const Inertia<double> inertia = Inertia<double>::from_com(l.mass, l.com, l.inertia);
    const Eigen::Matrix3d cx = chaindyn::detail::skew<double>(l.com);
    Matrix6 expected;
    expected << l.inertia + l.mass * cx * cx.transpose(), l.mass * cx,  //
        l.mass * cx.transpose(), l.mass * Eigen::Matrix3d::Identity();
    REQUIRE(relative_error(inertia.matrix(), expected) < 1e-14);
    REQUIRE(relative_error(inertia.com(), l.com) < 1e-14);
    REQUIRE(relative_error(inertia.inertia_about_com(), l.inertia) < 1e-14);
    const Motion<double> m = random_motion(gen);
    REQUIRE(relative_error((inertia * m).vector(), expected * m.vector()) < 1e-14);

    const Transform<double> x = random_transform(gen);
    const Matrix6 xinv = test::inverse(x.motion_matrix());
    const Matrix6 moved = xinv.transpose() * expected * xinv;
    REQUIRE(relative_error(inertia.transformed_by(x).matrix(), moved) < 1e-13);
    const ArticulatedInertia<double> ia(inertia);
    REQUIRE(relative_error(ia.matrix(), expected) < 1e-14);
    REQUIRE(relative_error(ia.transformed_by(x).matrix(), moved) < 1e-13);
    REQUIRE(relative_error((ia * m).vector(), expected * m.vector()) < 1e-14);
  }
}

TEST_CASE("the centre-of-mass form expresses an inertia in another frame as X^-T I X^-1, "
          "general, diagonal and massless",
          "[spatial]") {
  std::mt19937 gen(test::kSeed + 21);
  for (int k = 0; k < 300; ++k) {
    Link<double> l = test::random_link(gen);
    if (k % 3 == 1) l.inertia = l.inertia.diagonal().asDiagonal();  // the diagonal route
    if (k % 3 == 2) l.inertia(0, 2) = l.inertia(2, 0) = 0.0;       // general, one product 0
    if (k % 10 == 0) l.mass = 0.0;                                   // massless (c ignored)
    const ComInertia<double> central(l.mass, l.com, l.inertia);
    REQUIRE(central.diagonal == (k % 3 == 1));
    const Eigen::Matrix3d cx = chaindyn::detail::skew<double>(l.com);
    Matrix6 expected;  // RBDA eq. (2.63), built here from (m, c, I_C)
    expected << l.inertia + l.mass * cx * cx.transpose(), l.mass * cx,  //
        l.mass * cx.transpose(), l.mass * Eigen::Matrix3d::Identity();
    const Transform<double> x = random_transform(gen);
    const Matrix6 xinv = test::inverse(x.motion_matrix());
    const Matrix6 moved = xinv.transpose() * expected * xinv;
    const Inertia<double> out = central.expressed_in(x);
    REQUIRE(relative_error(out.matrix(), moved) < 1e-13);
    REQUIRE(out.rotational == out.rotational.transpose());  // symmetric by construction
    // and from the origin form (what set_payload converts): the same inertia
    const ComInertia<double> back{Inertia<double>::from_com(l.mass, l.com, l.inertia)};
    REQUIRE(relative_error(back.expressed_in(x).matrix(), moved) < 1e-12);
  }
}

TEST_CASE("a chain's inertia_in follows its payload: set, then cleared bit for bit",
          "[spatial][payload]") {
  using Arm = ChainN<double, 7, Revolute>;
  std::mt19937 gen(test::kSeed + 22);
  const Arm model0(test::random_links<Arm>(gen));
  Arm model = model0;
  const Transform<double> x = random_transform(gen);
  Payload<double> p;
  p.mass = 1.5;
  p.com = test::random_vector(gen, -0.2, 0.2);
  p.inertia = Eigen::Vector3d(0.02, 0.03, 0.04).asDiagonal();
  for (std::size_t i = 0; i < model.joint_count(); ++i) {
    REQUIRE(relative_error(model0.inertia_in(i, x).matrix(),
                           model0.inertia(i).transformed_by(x).matrix()) < 1e-13);
  }
  const std::size_t i = 6;
  model.set_payload(i, p);
  REQUIRE(relative_error(model.inertia_in(i, x).matrix(),
                         model.inertia(i).transformed_by(x).matrix()) < 1e-12);
  REQUIRE(relative_error(model.inertia_in(i, x).matrix(), model0.inertia_in(i, x).matrix()) >
          1e-3);  // the payload counts
  model.clear_payload(i);
  REQUIRE(model.inertia_in(i, x).matrix() == model0.inertia_in(i, x).matrix());
}

TEMPLATE_LIST_TEST_CASE("forward kinematics equals the product of homogeneous matrices",
                        "[spatial][kinematics]", test::MixedChains<double>) {
  using Vector = typename TestType::Vector;
  std::mt19937 gen(test::kSeed + 3);
  for (int trial = 0; trial < 20; ++trial) {
    const TestType model = test::random_model<TestType>(gen);
    const Vector q = test::random_state<Vector>(gen, 3.0, test::joints_of<TestType>);
    const auto poses = forward_kinematics(model, q);
    Eigen::Matrix4d t = Eigen::Matrix4d::Identity();
    const auto slots = model.joint_slots();
    for (std::size_t i = 0; i < model.joint_count(); ++i) {
      const Link<double>& l = model.link(i);
      t = t * spatial_homogeneous(l.placement.rotation, l.placement.translation);
      // the joint's axis: the link's own for run-time axes, else the type's (unknown here, so
      // read from the model and checked against the link for run-time axes)
      Eigen::Vector3d axis;
      JointKind kind{};
      auto read_joint = [&](const std::size_t j, const auto& joint) {
        if (j == i) {
          axis = joint.axis();
          using Joint = std::decay_t<decltype(joint)>;
          if constexpr (std::is_same_v<Joint, chaindyn::detail::AnyJointModel<double>>) {
            kind = joint.kind();
          } else {
            kind = Joint::kind;
          }
        }
      };
      model.joints_forward(read_joint);
      if (slots[i].axis < 0) {
        REQUIRE(relative_error(axis, l.axis->normalized()) < 1e-15);
      } else {
        REQUIRE(axis == Eigen::Vector3d::Unit(slots[i].axis));
      }
      REQUIRE(kind == slots[i].kind);
      const double qi = q[Eigen::Index(i)];
      t = t * (kind == JointKind::revolute
                   ? spatial_homogeneous(Eigen::AngleAxisd(qi, axis).toRotationMatrix(),
                                 Eigen::Vector3d::Zero())
                   : spatial_homogeneous(Eigen::Matrix3d::Identity(), qi * axis));
      REQUIRE(relative_error(spatial_homogeneous(poses[i].rotation, poses[i].translation), t) < 1e-13);
    }
  }
}

TEMPLATE_LIST_TEST_CASE("link velocities are the time derivatives of the link poses",
                        "[spatial][kinematics]", test::MixedChains<double>) {
  using Vector = typename TestType::Vector;
  std::mt19937 gen(test::kSeed + 4);
  for (int trial = 0; trial < 10; ++trial) {
    const TestType model = test::random_model<TestType>(gen);
    const Vector q = test::random_state<Vector>(gen, 3.0, test::joints_of<TestType>);
    const Vector qd = test::random_state<Vector>(gen, 1.0, test::joints_of<TestType>);
    Data<TestType> data(model);
    kinetic_energy(model, data, q, qd);  // fills data.v (link frames)
    const double h = 1e-6;
    const auto plus = forward_kinematics(model, Vector(q + h * qd));
    const auto minus = forward_kinematics(model, Vector(q - h * qd));
    const auto now = forward_kinematics(model, q);
    for (std::size_t i = 0; i < model.joint_count(); ++i) {
      const Eigen::Matrix3d rdot = (plus[i].rotation - minus[i].rotation) / (2 * h);
      const Eigen::Vector3d pdot = (plus[i].translation - minus[i].translation) / (2 * h);
      // body velocity: [w]x = R^T Rdot, v = R^T pdot (velocity of the link origin, link axes)
      const Eigen::Matrix3d wx = now[i].rotation.transpose() * rdot;
      const Eigen::Vector3d w(wx(2, 1), wx(0, 2), wx(1, 0));
      REQUIRE(relative_error(data.v[i].angular, w) < 1e-8);
      REQUIRE(relative_error(data.v[i].linear, now[i].rotation.transpose() * pdot) < 1e-8);
    }
  }
}
