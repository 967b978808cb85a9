/// @file
/// Explicit instantiation of the in-place algorithms for one model type, for programs that
/// want to compile them once instead of in every translation unit that calls them.
///
///     // robot.hpp, included everywhere
///     #include <chaindyn/instantiate.hpp>
///     using Arm = chaindyn::ChainN<double, 7, chaindyn::RevoluteZ>;
///     CHAINDYN_EXTERN_DYNAMICS(Arm);        // rnea, crba, aba ... for Arm compiled elsewhere
///
///     // robot.cpp, one translation unit (compiled with the flags you want for them: -O3 ...)
///     #include "robot.hpp"
///     CHAINDYN_INSTANTIATE_DYNAMICS(Arm);   // ... here
///
/// Instantiate what the program uses, by group (each has an EXTERN and an INSTANTIATE macro;
/// the ALGORITHMS pair is all three groups):
/// - CHAINDYN_*_DYNAMICS: rnea (with and without external wrenches), crba, aba (both),
///   nonlinear_effects, gravity_torques, forward_dynamics_crba, kinetic_energy,
///   potential_energy, inverse_mass_matrix, coriolis_matrix;
/// - CHAINDYN_*_KINEMATICS: forward_kinematics, frame_pose, jacobian, jdot_qd,
///   joint_torques_from_wrench (their frame-handle forms);
/// - CHAINDYN_*_DERIVATIVES: rnea_derivatives and aba_derivatives (most of the compile time of
///   the whole set).
/// The in-place forms are covered; the returning forms and the short overloads (the checked
/// link-index forms of the frame functions among them) stay inline and call them. Use the
/// macros at global scope. The calls then go out of line (a few ns each) and every other
/// translation unit skips the algorithms' code generation. Compile times: README.md.
#pragma once

#include "chaindyn/chaindyn.hpp"

/// The in-place forms are templates on their joint-vector arguments' types (model/arguments.hpp):
/// these name the specialisation for Model::Vector arguments (the model type is __VA_ARGS__).
#define CHAINDYN_DETAIL_VARG(...) const Eigen::MatrixBase<__VA_ARGS__::Vector>&
/// The in-place forms' exception specification: noexcept on a compile-time chain (a ChainX's
/// check their arguments' sizes, model/arguments.hpp).
#define CHAINDYN_DETAIL_NOEXCEPT(...) noexcept(!chaindyn::detail::checks_sizes<__VA_ARGS__>)
#define CHAINDYN_DETAIL_TARGS1(...) __VA_ARGS__, __VA_ARGS__::Vector
#define CHAINDYN_DETAIL_TARGS2(...) CHAINDYN_DETAIL_TARGS1(__VA_ARGS__), __VA_ARGS__::Vector
#define CHAINDYN_DETAIL_TARGS3(...) CHAINDYN_DETAIL_TARGS2(__VA_ARGS__), __VA_ARGS__::Vector

/// The external-wrench forms of rnea and aba. g++ 12 reports a call of one declared extern as
/// "used but never defined" (a warning no flag turns off, an error under -Werror), so with g++
/// they are declared nothing: each translation unit compiles them, INSTANTIATE still does.
#define CHAINDYN_DETAIL_EXTERNAL_WRENCH_FORMS(prefix, ...)                                          \
  prefix template void chaindyn::rnea<CHAINDYN_DETAIL_TARGS3(__VA_ARGS__)>(                         \
      const __VA_ARGS__&, chaindyn::Data<__VA_ARGS__>&, CHAINDYN_DETAIL_VARG(__VA_ARGS__),          \
      CHAINDYN_DETAIL_VARG(__VA_ARGS__), CHAINDYN_DETAIL_VARG(__VA_ARGS__),                         \
      const chaindyn::LinkForces<__VA_ARGS__>&) CHAINDYN_DETAIL_NOEXCEPT(__VA_ARGS__);                                           \
  prefix template void chaindyn::aba<CHAINDYN_DETAIL_TARGS3(__VA_ARGS__)>(                          \
      const __VA_ARGS__&, chaindyn::Data<__VA_ARGS__>&, CHAINDYN_DETAIL_VARG(__VA_ARGS__),          \
      CHAINDYN_DETAIL_VARG(__VA_ARGS__), CHAINDYN_DETAIL_VARG(__VA_ARGS__),                         \
      const chaindyn::LinkForces<__VA_ARGS__>&) CHAINDYN_DETAIL_NOEXCEPT(__VA_ARGS__)
#if defined(__GNUC__) && !defined(__clang__)
#define CHAINDYN_DETAIL_EXTERN_EXTERNAL_WRENCH_FORMS(...) static_assert(true, "")
#else
#define CHAINDYN_DETAIL_EXTERN_EXTERNAL_WRENCH_FORMS(...) \
  CHAINDYN_DETAIL_EXTERNAL_WRENCH_FORMS(extern, __VA_ARGS__)
#endif

/// The declarations of each group's EXTERN / INSTANTIATE macro, with `prefix` `extern` or
/// empty; the model type is __VA_ARGS__ (it may contain commas).
#define CHAINDYN_DETAIL_DYNAMICS(prefix, ...)                                                       \
  prefix template void chaindyn::rnea<CHAINDYN_DETAIL_TARGS3(__VA_ARGS__)>(                         \
      const __VA_ARGS__&, chaindyn::Data<__VA_ARGS__>&, CHAINDYN_DETAIL_VARG(__VA_ARGS__),          \
      CHAINDYN_DETAIL_VARG(__VA_ARGS__), CHAINDYN_DETAIL_VARG(__VA_ARGS__)) CHAINDYN_DETAIL_NOEXCEPT(__VA_ARGS__);               \
  prefix template void chaindyn::crba<CHAINDYN_DETAIL_TARGS1(__VA_ARGS__)>(                         \
      const __VA_ARGS__&, chaindyn::Data<__VA_ARGS__>&, CHAINDYN_DETAIL_VARG(__VA_ARGS__)) CHAINDYN_DETAIL_NOEXCEPT(__VA_ARGS__); \
  prefix template void chaindyn::aba<CHAINDYN_DETAIL_TARGS3(__VA_ARGS__)>(                          \
      const __VA_ARGS__&, chaindyn::Data<__VA_ARGS__>&, CHAINDYN_DETAIL_VARG(__VA_ARGS__),          \
      CHAINDYN_DETAIL_VARG(__VA_ARGS__), CHAINDYN_DETAIL_VARG(__VA_ARGS__)) CHAINDYN_DETAIL_NOEXCEPT(__VA_ARGS__);               \
  prefix template void chaindyn::nonlinear_effects<CHAINDYN_DETAIL_TARGS2(__VA_ARGS__)>(            \
      const __VA_ARGS__&, chaindyn::Data<__VA_ARGS__>&, CHAINDYN_DETAIL_VARG(__VA_ARGS__),          \
      CHAINDYN_DETAIL_VARG(__VA_ARGS__)) CHAINDYN_DETAIL_NOEXCEPT(__VA_ARGS__);                                                  \
  prefix template void chaindyn::gravity_torques<CHAINDYN_DETAIL_TARGS1(__VA_ARGS__)>(              \
      const __VA_ARGS__&, chaindyn::Data<__VA_ARGS__>&, CHAINDYN_DETAIL_VARG(__VA_ARGS__)) CHAINDYN_DETAIL_NOEXCEPT(__VA_ARGS__); \
  prefix template void chaindyn::forward_dynamics_crba<CHAINDYN_DETAIL_TARGS3(__VA_ARGS__)>(        \
      const __VA_ARGS__&, chaindyn::Data<__VA_ARGS__>&, CHAINDYN_DETAIL_VARG(__VA_ARGS__),          \
      CHAINDYN_DETAIL_VARG(__VA_ARGS__), CHAINDYN_DETAIL_VARG(__VA_ARGS__)) CHAINDYN_DETAIL_NOEXCEPT(__VA_ARGS__);               \
  prefix template __VA_ARGS__::Scalar chaindyn::kinetic_energy<CHAINDYN_DETAIL_TARGS2(__VA_ARGS__)>( \
      const __VA_ARGS__&, chaindyn::Data<__VA_ARGS__>&, CHAINDYN_DETAIL_VARG(__VA_ARGS__),          \
      CHAINDYN_DETAIL_VARG(__VA_ARGS__)) CHAINDYN_DETAIL_NOEXCEPT(__VA_ARGS__);                                                  \
  prefix template __VA_ARGS__::Scalar chaindyn::potential_energy<CHAINDYN_DETAIL_TARGS1(__VA_ARGS__)>( \
      const __VA_ARGS__&, chaindyn::Data<__VA_ARGS__>&, CHAINDYN_DETAIL_VARG(__VA_ARGS__)) CHAINDYN_DETAIL_NOEXCEPT(__VA_ARGS__); \
  prefix template void chaindyn::inverse_mass_matrix<CHAINDYN_DETAIL_TARGS1(__VA_ARGS__)>(          \
      const __VA_ARGS__&, chaindyn::Data<__VA_ARGS__>&, CHAINDYN_DETAIL_VARG(__VA_ARGS__)) CHAINDYN_DETAIL_NOEXCEPT(__VA_ARGS__); \
  prefix template void chaindyn::coriolis_matrix<CHAINDYN_DETAIL_TARGS2(__VA_ARGS__)>(              \
      const __VA_ARGS__&, chaindyn::Data<__VA_ARGS__>&, CHAINDYN_DETAIL_VARG(__VA_ARGS__),          \
      CHAINDYN_DETAIL_VARG(__VA_ARGS__)) CHAINDYN_DETAIL_NOEXCEPT(__VA_ARGS__)
#define CHAINDYN_DETAIL_KINEMATICS(prefix, ...)                                                     \
  prefix template void chaindyn::forward_kinematics<CHAINDYN_DETAIL_TARGS1(__VA_ARGS__)>(           \
      const __VA_ARGS__&, chaindyn::Data<__VA_ARGS__>&, CHAINDYN_DETAIL_VARG(__VA_ARGS__)) CHAINDYN_DETAIL_NOEXCEPT(__VA_ARGS__); \
  prefix template const chaindyn::Transform<__VA_ARGS__::Scalar>&                                   \
  chaindyn::frame_pose<CHAINDYN_DETAIL_TARGS1(__VA_ARGS__)>(const __VA_ARGS__&, chaindyn::Data<__VA_ARGS__>&, \
                                    CHAINDYN_DETAIL_VARG(__VA_ARGS__),                              \
                                    const chaindyn::FrameFor<__VA_ARGS__>&) CHAINDYN_DETAIL_NOEXCEPT(__VA_ARGS__);               \
  prefix template void chaindyn::jacobian<CHAINDYN_DETAIL_TARGS1(__VA_ARGS__)>(                     \
      const __VA_ARGS__&, chaindyn::Data<__VA_ARGS__>&, CHAINDYN_DETAIL_VARG(__VA_ARGS__),          \
      const chaindyn::FrameFor<__VA_ARGS__>&, chaindyn::ReferenceFrame,                             \
      chaindyn::FrameJacobian<__VA_ARGS__>&) CHAINDYN_DETAIL_NOEXCEPT(__VA_ARGS__);                                              \
  prefix template void chaindyn::jdot_qd<CHAINDYN_DETAIL_TARGS2(__VA_ARGS__)>(                      \
      const __VA_ARGS__&, chaindyn::Data<__VA_ARGS__>&, CHAINDYN_DETAIL_VARG(__VA_ARGS__),          \
      CHAINDYN_DETAIL_VARG(__VA_ARGS__), const chaindyn::FrameFor<__VA_ARGS__>&,                    \
      chaindyn::ReferenceFrame, chaindyn::FrameVector<__VA_ARGS__>&) CHAINDYN_DETAIL_NOEXCEPT(__VA_ARGS__);                      \
  prefix template void chaindyn::joint_torques_from_wrench<CHAINDYN_DETAIL_TARGS1(__VA_ARGS__)>(    \
      const __VA_ARGS__&, chaindyn::Data<__VA_ARGS__>&, CHAINDYN_DETAIL_VARG(__VA_ARGS__),          \
      const chaindyn::FrameFor<__VA_ARGS__>&, const chaindyn::Force<__VA_ARGS__::Scalar>&,          \
      chaindyn::ReferenceFrame) CHAINDYN_DETAIL_NOEXCEPT(__VA_ARGS__)
#define CHAINDYN_DETAIL_DERIVATIVES(prefix, ...)                                                    \
  prefix template void chaindyn::rnea_derivatives<CHAINDYN_DETAIL_TARGS3(__VA_ARGS__)>(             \
      const __VA_ARGS__&, chaindyn::DerivativesData<__VA_ARGS__>&, CHAINDYN_DETAIL_VARG(__VA_ARGS__), \
      CHAINDYN_DETAIL_VARG(__VA_ARGS__), CHAINDYN_DETAIL_VARG(__VA_ARGS__)) CHAINDYN_DETAIL_NOEXCEPT(__VA_ARGS__);               \
  prefix template void chaindyn::aba_derivatives<CHAINDYN_DETAIL_TARGS3(__VA_ARGS__)>(              \
      const __VA_ARGS__&, chaindyn::DerivativesData<__VA_ARGS__>&, CHAINDYN_DETAIL_VARG(__VA_ARGS__), \
      CHAINDYN_DETAIL_VARG(__VA_ARGS__), CHAINDYN_DETAIL_VARG(__VA_ARGS__)) CHAINDYN_DETAIL_NOEXCEPT(__VA_ARGS__)

/// Declares the dynamics for the model type as instantiated elsewhere: rnea (both), crba,
/// aba (both), nonlinear_effects, gravity_torques, forward_dynamics_crba, kinetic_energy,
/// potential_energy, inverse_mass_matrix, coriolis_matrix.
#define CHAINDYN_EXTERN_DYNAMICS(...)                   \
  CHAINDYN_DETAIL_DYNAMICS(extern, __VA_ARGS__);         \
  CHAINDYN_DETAIL_EXTERN_EXTERNAL_WRENCH_FORMS(__VA_ARGS__)
/// Instantiates the dynamics for the model type here (one translation unit).
#define CHAINDYN_INSTANTIATE_DYNAMICS(...) \
  CHAINDYN_DETAIL_DYNAMICS(, __VA_ARGS__);  \
  CHAINDYN_DETAIL_EXTERNAL_WRENCH_FORMS(, __VA_ARGS__)
/// Declares the kinematics (forward_kinematics, frame_pose, jacobian, jdot_qd,
/// joint_torques_from_wrench) for the model type as instantiated elsewhere.
#define CHAINDYN_EXTERN_KINEMATICS(...) CHAINDYN_DETAIL_KINEMATICS(extern, __VA_ARGS__)
/// Instantiates the kinematics for the model type here (one translation unit).
#define CHAINDYN_INSTANTIATE_KINEMATICS(...) CHAINDYN_DETAIL_KINEMATICS(, __VA_ARGS__)
/// Declares rnea_derivatives and aba_derivatives for the model type as instantiated elsewhere.
#define CHAINDYN_EXTERN_DERIVATIVES(...) CHAINDYN_DETAIL_DERIVATIVES(extern, __VA_ARGS__)
/// Instantiates rnea_derivatives and aba_derivatives for the model type here.
#define CHAINDYN_INSTANTIATE_DERIVATIVES(...) CHAINDYN_DETAIL_DERIVATIVES(, __VA_ARGS__)

/// Declares every in-place algorithm (the three groups) for the model type as instantiated
/// elsewhere.
#define CHAINDYN_EXTERN_ALGORITHMS(...)            \
  CHAINDYN_EXTERN_DYNAMICS(__VA_ARGS__);            \
  CHAINDYN_DETAIL_KINEMATICS(extern, __VA_ARGS__);  \
  CHAINDYN_DETAIL_DERIVATIVES(extern, __VA_ARGS__)
/// Instantiates every in-place algorithm for the model type here (one translation unit).
#define CHAINDYN_INSTANTIATE_ALGORITHMS(...)  \
  CHAINDYN_INSTANTIATE_DYNAMICS(__VA_ARGS__);  \
  CHAINDYN_DETAIL_KINEMATICS(, __VA_ARGS__);   \
  CHAINDYN_DETAIL_DERIVATIVES(, __VA_ARGS__)

/// Model construction and the built-in iiwa, compiled once. Building a chain validates every
/// link (chaindyn::detail::validate_link: finiteness, masses, inertias, rotations), code that a
/// program runs once but that every translation unit constructing a chain compiles;
/// `robots::kuka_iiwa<double>()` is that plus the iiwa's table. Next to the algorithms' macros:
///
///     // robot.hpp
///     CHAINDYN_EXTERN_MODEL_CONSTRUCTION(double);  // link validation compiled elsewhere
///     CHAINDYN_EXTERN_KUKA_IIWA();                 // robots::kuka_iiwa<double>() too
///
///     // robot.cpp
///     CHAINDYN_INSTANTIATE_MODEL_CONSTRUCTION(double);
///     CHAINDYN_INSTANTIATE_KUKA_IIWA();
///
/// The scalar of CHAINDYN_*_MODEL_CONSTRUCTION is the model's (double, float, ...).
#define CHAINDYN_DETAIL_MODEL_CONSTRUCTION(prefix, Scalar)                                        \
  prefix template void chaindyn::detail::validate_link<Scalar>(const chaindyn::Link<Scalar>&,    \
                                                               const std::string&, bool)
#define CHAINDYN_DETAIL_KUKA_IIWA(prefix)                                                         \
  prefix template std::array<chaindyn::Link<double>, 7>                                           \
  chaindyn::robots::kuka_iiwa_links<double>();                                                    \
  prefix template chaindyn::robots::KukaIiwa<double> chaindyn::robots::kuka_iiwa<double>()

/// Declares the link validation of chains of the scalar type as instantiated elsewhere.
#define CHAINDYN_EXTERN_MODEL_CONSTRUCTION(Scalar) \
  CHAINDYN_DETAIL_MODEL_CONSTRUCTION(extern, Scalar)
/// Instantiates the link validation of chains of the scalar type here (one translation unit).
#define CHAINDYN_INSTANTIATE_MODEL_CONSTRUCTION(Scalar) \
  CHAINDYN_DETAIL_MODEL_CONSTRUCTION(, Scalar)
/// Declares robots::kuka_iiwa<double>() and robots::kuka_iiwa_links<double>() as instantiated
/// elsewhere.
#define CHAINDYN_EXTERN_KUKA_IIWA() CHAINDYN_DETAIL_KUKA_IIWA(extern)
/// Instantiates robots::kuka_iiwa<double>() and robots::kuka_iiwa_links<double>() here (one
/// translation unit).
#define CHAINDYN_INSTANTIATE_KUKA_IIWA() CHAINDYN_DETAIL_KUKA_IIWA()
