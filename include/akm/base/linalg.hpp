// linalg — Eigen aliases shared by every layer.
#pragma once
#include <Eigen/Dense>

namespace akm {
using Vec = Eigen::VectorXd;
using Mat = Eigen::MatrixXd;
using Vec2 = Eigen::Vector2d;
using Mat2 = Eigen::Matrix2d;
using ConstVecRef = const Eigen::Ref<const Eigen::VectorXd>&;
using ConstMatRef = const Eigen::Ref<const Eigen::MatrixXd>&;
}  // namespace akm
