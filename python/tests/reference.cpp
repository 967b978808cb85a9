// Prints, as JSON, the C++ results the Python tests compare with: the iiwa and the two-link arm
// as the compile-time chains (ChainN, Chain; two chain types only: each costs ~6 s of compile
// time), and the Panda from its URDF as
// ChainN<double, 7, RevoluteZ> (frames turned onto z), at fixed states. The Python module runs
// ChainX, so the two sides share the algorithms' code but not the chain type or its walk.
// With a second argument it writes a simulated motion as the viewer's CSV file (test_viewer.py).
#include <chaindyn/all.hpp>
#ifdef CHAINDYN_REFERENCE_URDF
#include <chaindyn/urdf.hpp>
#endif

#include <cstdio>
#include <iostream>
#include <sstream>
#include <string>

using namespace chaindyn;

namespace {

template <typename Derived>
std::string json(const Eigen::MatrixBase<Derived>& m) {
  std::ostringstream os;
  os.precision(17);
  os << '[';
  for (Eigen::Index r = 0; r < m.rows(); ++r) {
    if (m.cols() > 1 || m.rows() == 1) os << (r ? ",[" : "[");
    else os << (r ? "," : "");
    for (Eigen::Index c = 0; c < m.cols(); ++c) os << (c ? "," : "") << m(r, c);
    if (m.cols() > 1 || m.rows() == 1) os << ']';
  }
  os << ']';
  return os.str();
}

std::string pose(const Transform<double>& x) {
  Eigen::Matrix4d m = Eigen::Matrix4d::Identity();
  m.topLeftCorner<3, 3>() = x.rotation;
  m.topRightCorner<3, 1>() = x.translation;
  return json(m);
}

/// One robot's results at q_i = 0.1 (i + 1) - 0.3, qd_i = 0.2 - 0.05 i, qdd_i = 0.3 (-1)^i,
/// tau = 2 qd.
template <typename Model>
std::string results(const Model& model, const std::string& frame) {
  using V = typename Model::Vector;
  V q, qd, qdd;
  for (Eigen::Index i = 0; i < q.size(); ++i) {
    q[i] = 0.1 * double(i + 1) - 0.3;
    qd[i] = 0.2 - 0.05 * double(i);
    qdd[i] = i % 2 ? -0.3 : 0.3;
  }
  const V tau = 2.0 * qd;
  std::ostringstream os;
  os.precision(17);
  os << "{\"q\":" << json(q) << ",\"qd\":" << json(qd) << ",\"qdd\":" << json(qdd)
     << ",\"tau\":" << json(tau) << ",\"rnea\":" << json(rnea(model, q, qd, qdd))
     << ",\"crba\":" << json(crba(model, q)) << ",\"aba\":" << json(aba(model, q, qd, tau))
     << ",\"forward_dynamics_crba\":" << json(forward_dynamics_crba(model, q, qd, tau))
     << ",\"gravity_torques\":" << json(gravity_torques(model, q))
     << ",\"nonlinear_effects\":" << json(nonlinear_effects(model, q, qd))
     << ",\"coriolis_matrix\":" << json(coriolis_matrix(model, q, qd))
     << ",\"inverse_mass_matrix\":" << json(inverse_mass_matrix(model, q))
     << ",\"kinetic_energy\":" << kinetic_energy(model, q, qd)
     << ",\"potential_energy\":" << potential_energy(model, q);
  const auto f = frame.empty() ? model.frame(std::size_t(Model::nq - 1)) : model.frame(frame);
  os << ",\"frame_pose\":" << pose(frame_pose(model, q, f))
     << ",\"jacobian_world\":" << json(jacobian(model, q, f, ReferenceFrame::world))
     << ",\"jacobian_local\":" << json(jacobian(model, q, f, ReferenceFrame::local))
     << ",\"jdot_qd\":" << json(jdot_qd(model, q, qd, f, ReferenceFrame::world));
  const auto rd = rnea_derivatives(model, q, qd, qdd);
  const auto ad = aba_derivatives(model, q, qd, tau);
  os << ",\"dtau_dq\":" << json(rd.dtau_dq) << ",\"dtau_dqd\":" << json(rd.dtau_dqd)
     << ",\"dqdd_dq\":" << json(ad.dqdd_dq) << ",\"dqdd_dqd\":" << json(ad.dqdd_dqd)
     << ",\"dqdd_dtau\":" << json(ad.dqdd_dtau)
     << ",\"regressor\":" << json(regressor(model, q, qd, qdd))
     << ",\"inertial_parameters\":" << json(inertial_parameters(model)) << "}";
  return os.str();
}

}  // namespace

int main(int argc, char** argv) {
  // reference DATA_DIR MOTION.csv: also the two-link arm's fall from q = (0.5, 0), simulated by
  // the compile-time chain and written by write_motion_csv (the viewer's motion file)
  if (argc > 2) {
    SimulationOptions<double> options;
    options.rtol = 1e-10;
    options.atol = 1e-12;
    options.output_interval = 0.05;
    const auto arm = robots::two_link_arm();
    write_motion_csv(argv[2], simulate(arm, Eigen::Vector2d(0.5, 0.0), Eigen::Vector2d::Zero(),
                                       ZeroTorque{}, 1.0, options));
  }
  std::cout << "{\"kuka_iiwa\":" << results(robots::kuka_iiwa(), "")
            << ",\"two_link_arm\":" << results(robots::two_link_arm(), "");
#ifdef CHAINDYN_REFERENCE_URDF
  if (argc > 1) {
    const std::string path = std::string(argv[1]) + "/urdf/panda.urdf";
    std::cout << ",\"panda_urdf\":"
              << results(urdf::load<ChainN<double, 7, RevoluteZ>>(path, "panda_hand"),
                         "panda_hand");
  }
#else
  (void)argc;
  (void)argv;
#endif
  std::cout << "}\n";
  return 0;
}
