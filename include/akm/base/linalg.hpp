// linalg — Eigen aliases shared by every layer.
#pragma once
#include <Eigen/Dense>

namespace akm {
/// Dense vector of doubles.
using Vec = Eigen::VectorXd;
/// Dense matrix of doubles.
using Mat = Eigen::MatrixXd;
/// 2-vector (the state of a 2×2 map).
using Vec2 = Eigen::Vector2d;
/// 2×2 matrix (the rate maps).
using Mat2 = Eigen::Matrix2d;
/// Read-only vector argument (any Eigen vector expression without a copy).
using ConstVecRef = const Eigen::Ref<const Eigen::VectorXd>&;
/// Read-only matrix argument (any Eigen matrix expression without a copy).
using ConstMatRef = const Eigen::Ref<const Eigen::MatrixXd>&;
}  // namespace akm
