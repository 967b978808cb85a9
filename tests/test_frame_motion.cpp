// Frame velocities and accelerations, spatial and classical, and the Jacobian's time derivative
// (frame_motion.hpp), on the iiwa, a Chain of mixed Placed joints and a ChainX: against central
// finite differences of frame_pose, of the frame velocity and of the Jacobian along a path,
// against jdot_qd, and against AutoDiff of the frame velocity.
#include "support/chains.hpp"
#include "support/test_support.hpp"

#include <chaindyn/algorithms/frame_motion.hpp>

#include <catch2/catch.hpp>

#include <unsupported/Eigen/AutoDiff>

using namespace chaindyn;
using chaindyn::test::relative_error;

namespace {

using FmVec6 = Eigen::Matrix<double, 6, 1>;

/// q(t) = q + t qd + t^2/2 qdd and qd(t) = qd + t qdd: the path along which the velocity is qd
/// and the acceleration qdd at t = 0.
template <typename Vector>
struct FmPath {
  Vector q, qd, qdd;
  Vector q_at(double t) const { return q + t * qd + 0.5 * t * t * qdd; }
  Vector qd_at(double t) const { return qd + t * qdd; }
};

/// Runs f(model, path, frame) on the iiwa, a mixed Chain and a ChainX of MixedChains, random
/// states and frames on random links (seeded).
template <typename F>
void for_frame_motion_cases(F&& f) {
  std::mt19937 gen(test::kSeed + 400u);
  const auto run = [&](const auto& model) {
    using Model = std::decay_t<decltype(model)>;
    using Vector = typename Model::Vector;
    const auto n = Eigen::Index(model.joint_count());
    for (int s = 0; s < 6; ++s) {
      const FmPath<Vector> path{test::random_state<Vector>(gen, 2.0, n),
                                test::random_state<Vector>(gen, 2.0, n),
                                test::random_state<Vector>(gen, 2.0, n)};
      const std::size_t link = std::size_t(gen() % std::uint32_t(n));
      const auto frame = model.frame(link, Transform<double>(test::random_rotation(gen),
                                                              test::random_vector(gen, -0.3, 0.3)));
      INFO("state " << s << ", link " << link);
      f(model, path, frame);
    }
  };
  run(robots::kuka_iiwa());
  run(test::random_model<std::tuple_element_t<1, test::MixedChains<double>>>(gen));
  run(test::random_model<std::tuple_element_t<4, test::MixedChains<double>>>(gen));
}

/// (omega; v) of a frame from two poses h apart in time: skew(omega) = dR/dt R^T.
FmVec6 velocity_from_poses(const Transform<double>& before, const Transform<double>& now,
                           const Transform<double>& after, double h) {
  const Eigen::Matrix3d w = (after.rotation - before.rotation) / (2 * h) * now.rotation.transpose();
  FmVec6 out;
  out << 0.5 * (w(2, 1) - w(1, 2)), 0.5 * (w(0, 2) - w(2, 0)), 0.5 * (w(1, 0) - w(0, 1)),
      (after.translation - before.translation) / (2 * h);
  return out;
}

FmVec6 fm_rotated(const Eigen::Matrix3d& r, const FmVec6& m) {
  FmVec6 out;
  out << r * m.head<3>(), r * m.tail<3>();
  return out;
}

}  // namespace

TEST_CASE("frame_velocity equals finite differences of frame_pose and J qd, in world and local axes",
          "[frame_motion]") {
  constexpr double h = 1e-6;
  for_frame_motion_cases([&](const auto& model, const auto& path, const auto& frame) {
    const auto before = frame_pose(model, path.q_at(-h), frame);
    const auto now = frame_pose(model, path.q_at(0), frame);
    const auto after = frame_pose(model, path.q_at(h), frame);
    const FmVec6 fd = velocity_from_poses(before, now, after, h);
    const FmVec6 world = frame_velocity(model, path.q, path.qd, frame).vector();
    const FmVec6 local = frame_velocity(model, path.q, path.qd, frame, ReferenceFrame::local).vector();
    CHECK(relative_error(world, fd) < 1e-7);
    CHECK(relative_error(fm_rotated(now.rotation, local), world) < 1e-13);
    CHECK(relative_error(world, FmVec6(jacobian(model, path.q, frame) * path.qd)) < 1e-13);
  });
}

TEST_CASE("frame accelerations equal finite differences of frame velocities; at qdd = 0 they are jdot_qd",
          "[frame_motion]") {
  constexpr double h = 1e-6;
  for_frame_motion_cases([&](const auto& model, const auto& path, const auto& frame) {
    using Model = std::decay_t<decltype(model)>;
    const auto v_at = [&](double t, ReferenceFrame rf) {
      return frame_velocity(model, path.q_at(t), path.qd_at(t), frame, rf).vector();
    };
    const Eigen::Matrix3d r = frame_pose(model, path.q, frame).rotation;
    for (const ReferenceFrame rf : {ReferenceFrame::world, ReferenceFrame::local}) {
      const FmVec6 fd = (v_at(h, rf) - v_at(-h, rf)) / (2 * h);
      const FmVec6 spatial = frame_acceleration(model, path.q, path.qd, path.qdd, frame, rf).vector();
      const FmVec6 classical =
          frame_classical_acceleration(model, path.q, path.qd, path.qdd, frame, rf).vector();
      // the time derivative of the local velocity is the spatial acceleration, of the world
      // velocity the classical one
      if (rf == ReferenceFrame::local) {
        CHECK(relative_error(spatial, fd) < 1e-6);
      } else {
        CHECK(relative_error(classical, fd) < 1e-6);
      }
      // J qdd + Jdot qd, with Jdot qd = jdot_qd at qdd = 0 and the Jacobian's derivative
      const FmVec6 jqdd = jacobian(model, path.q, frame, rf) * path.qdd;
      const FmVec6 jdqd = jdot_qd(model, path.q, path.qd, frame, rf);
      const FmVec6 derivative = rf == ReferenceFrame::local ? spatial : classical;
      CHECK(relative_error(derivative, FmVec6(jqdd + jdqd)) < 1e-12);
      const FrameJacobian<Model> jdot = jacobian_time_derivative(model, path.q, path.qd, frame, rf);
      CHECK(relative_error(FmVec6(jdot * path.qd), jdqd) < 1e-12);
    }
    // the two coordinate choices of each reading differ by the frame's rotation
    const FmVec6 spatial_local =
        frame_acceleration(model, path.q, path.qd, path.qdd, frame, ReferenceFrame::local).vector();
    const FmVec6 spatial_world = frame_acceleration(model, path.q, path.qd, path.qdd, frame).vector();
    CHECK(relative_error(fm_rotated(r, spatial_local), spatial_world) < 1e-13);
    const FmVec6 classical_local = frame_classical_acceleration(model, path.q, path.qd, path.qdd,
                                                                frame, ReferenceFrame::local)
                                       .vector();
    const FmVec6 classical_world =
        frame_classical_acceleration(model, path.q, path.qd, path.qdd, frame).vector();
    CHECK(relative_error(fm_rotated(r, classical_local), classical_world) < 1e-13);
  });
}

TEST_CASE("jacobian_time_derivative equals central finite differences of the Jacobian along q + t qd",
          "[frame_motion]") {
  constexpr double h = 1e-6;
  for_frame_motion_cases([&](const auto& model, const auto& path, const auto& frame) {
    using Model = std::decay_t<decltype(model)>;
    for (const ReferenceFrame rf : {ReferenceFrame::world, ReferenceFrame::local}) {
      const FrameJacobian<Model> fd = (jacobian(model, path.q + h * path.qd, frame, rf) -
                                       jacobian(model, path.q - h * path.qd, frame, rf)) /
                                      (2 * h);
      CHECK(relative_error(jacobian_time_derivative(model, path.q, path.qd, frame, rf), fd) < 1e-7);
    }
  });
}

TEST_CASE("iiwa frame accelerations equal the automatic derivative of the frame velocity",
          "[frame_motion][autodiff]") {
  using AD = Eigen::AutoDiffScalar<Eigen::Matrix<double, 1, 1>>;
  using Arm = robots::KukaIiwa<double>;
  const auto arm = robots::kuka_iiwa();
  const auto arm_ad = robots::kuka_iiwa<AD>();
  std::mt19937 gen(test::kSeed + 410u);
  for (int s = 0; s < 5; ++s) {
    const Arm::Vector q = test::random_state<Arm::Vector>(gen, 2.0);
    const Arm::Vector qd = test::random_state<Arm::Vector>(gen, 2.0);
    const Arm::Vector qdd = test::random_state<Arm::Vector>(gen, 2.0);
    const auto frame = arm.frame(std::size_t(s + 2), Transform<double>(test::random_rotation(gen),
                                                                        test::random_vector(gen, -0.2, 0.2)));
    // q(t), qd(t) with d/dt q = qd, d/dt qd = qdd at t = 0
    robots::KukaIiwa<AD>::Vector q_ad, qd_ad;
    for (int i = 0; i < 7; ++i) {
      q_ad[i] = AD(q[i], Eigen::Matrix<double, 1, 1>(qd[i]));
      qd_ad[i] = AD(qd[i], Eigen::Matrix<double, 1, 1>(qdd[i]));
    }
    for (const ReferenceFrame rf : {ReferenceFrame::world, ReferenceFrame::local}) {
      const Motion<AD> v = frame_velocity(arm_ad, q_ad, qd_ad, FrameFor<robots::KukaIiwa<AD>>(frame), rf);
      FmVec6 derivative;
      for (int a = 0; a < 3; ++a) {
        derivative[a] = v.angular[a].derivatives()[0];
        derivative[a + 3] = v.linear[a].derivatives()[0];
      }
      const FmVec6 expected =
          rf == ReferenceFrame::local
              ? frame_acceleration(arm, q, qd, qdd, frame, rf).vector()
              : frame_classical_acceleration(arm, q, qd, qdd, frame, rf).vector();
      CHECK(relative_error(derivative, expected) < 1e-13);
    }
  }
}

TEST_CASE("frame motion of a base frame is zero; a ChainX checks the Jacobian derivative's size",
          "[frame_motion]") {
  const auto arm = robots::kuka_iiwa();
  using Arm = robots::KukaIiwa<double>;
  const Arm::Vector q = Arm::Vector::Constant(0.4);
  const auto base = arm.base_frame(Transform<double>::Translation(Eigen::Vector3d(0, 0.2, 0)));
  CHECK(frame_velocity(arm, q, q, base).vector().isZero(0.0));
  CHECK(frame_acceleration(arm, q, q, q, base).vector().isZero(0.0));
  CHECK(frame_classical_acceleration(arm, q, q, q, base).vector().isZero(0.0));
  CHECK(jacobian_time_derivative(arm, q, q, base).isZero(0.0));
  const auto x = ChainX<double>::from(arm);
  Data<ChainX<double>> data(x);
  FrameJacobian<ChainX<double>> jdot(6, 6);
  const Eigen::VectorXd qx = q;
  CHECK_THROWS_AS(jacobian_time_derivative(x, data, qx, qx, x.frame(3), ReferenceFrame::world, jdot),
                  ArgumentError);
  CHECK_THROWS_AS(frame_velocity(x, Eigen::VectorXd::Zero(6), qx, x.frame(3)), ArgumentError);
}
