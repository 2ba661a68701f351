// rebound — the stepping-rebound term of eq:rebound on the quadratic task [app:mom-grad-cos-sim].
#include "akm/theory/rebound.hpp"

#include <string>

#include "akm/base/errors.hpp"

namespace akm::theory {

double rebound_term(const Mat& M, const Mat& step, const Vec& lambda) {
  if (M.rows() != step.rows() || M.cols() != step.cols())
    throw InputError("step", std::to_string(step.rows()) + "x" + std::to_string(step.cols()),
                     "must have the buffer's shape " + std::to_string(M.rows()) + "x" + std::to_string(M.cols()));
  if (lambda.size() != M.cols())
    throw InputError("lambda", "length " + std::to_string(lambda.size()),
                     "must have one entry per input coordinate (" + std::to_string(M.cols()) + ")");
  // H[Δθ] = Δθ Σ with Σ diagonal scales column j by λ_j.
  return -(M.array() * (step.array().rowwise() * lambda.transpose().array())).sum();
}

}  // namespace akm::theory
