// cost — operation counts of the deployed rule [app:flops-memory].
#include "akm/rules/cost.hpp"

#include <map>
#include <set>

namespace akm::cost {

double norm_flops(double n, double N) { return N * (2 * n + 1 + 1 + n); }  // [lem:norm-cost]
double gram_shared_flops(double n, double N) { return 2 * n * n * N; }
double gram_layer_flops(double m, double n) { return 2 * m * n * n; }
double through_n_flops(double m, double n, double N) { return 2 * m * n * N + 2 * m * n * N; }
rules::Order cheaper_order(double m, double n, double N) {
  return gram_shared_flops(n, N) + gram_layer_flops(m, n) < through_n_flops(m, n, N) ? rules::Order::gram
                                                                                     : rules::Order::through_n;
}
double baseline_layer_flops(double m, double n, double N) { return 6 * m * n * N; }

std::vector<Layer> transformer_block(double d, double d_ffn) {
  return {{"W_Q", d, d, 0},        {"W_K", d, d, 0},        {"W_V", d, d, 0},
          {"W_O", d, d, 1},        {"W_up", d_ffn, d, 2},   {"W_gate", d_ffn, d, 2},
          {"W_down", d, d_ffn, 3}};
}

BlockCount count_block(const std::vector<Layer>& layers, double N) {
  BlockCount c;
  std::set<int> gram_done, norm_done;
  for (const auto& l : layers) {
    c.baseline_linear += baseline_layer_flops(l.m, l.n, N);
    if (norm_done.insert(l.input).second) c.normalization += norm_flops(l.n, N);
    if (rules::dispatch(static_cast<int>(l.n), static_cast<int>(l.m)) == rules::Order::gram) {
      if (gram_done.insert(l.input).second) {
        c.gram_shared += gram_shared_flops(l.n, N);
        c.correction += gram_shared_flops(l.n, N);
      }
      c.correction += gram_layer_flops(l.m, l.n);
    } else {
      c.correction += through_n_flops(l.m, l.n, N);
    }
  }
  return c;
}

double sequential_flops(double m, double n, double N) {
  const double read = 2 * m * n, write = 2 * m * n;  // v̂ = Mx̂; M += η(v − v̂)x̂ᵀ
  return N * (read + write);
}

double overhead_ratio(double g) { return (6 + 4 * g) / (24 + 18 * g); }

double block_overhead_closed(double d, double g, double N) {
  return (6 + 4 * g) * d * d * N + (8 + 4 * g) * d * d * d + (9 + 3 * g) * d * N;
}

double transient_bytes(double m, double n, double N, rules::Order order, bool in_place) {
  const double xhat = in_place ? 0.0 : 4 * N * n;
  return order == rules::Order::through_n ? xhat + 4 * m * N + 4 * N : xhat + 4 * n * n + 4 * N;
}

StepModel step_model(int L, double d, double d_ffn, double V, double L_seq, double N) {
  const BlockCount b = count_block(transformer_block(d, d_ffn), N);
  StepModel s;
  s.baseline_linear = L * b.baseline_linear;
  s.baseline_attention = L * 12 * d * L_seq * N;  // [eq:baseline-block]
  s.baseline_head = 6 * d * V * N;                // output projection; embedding lookup is no GEMM
  s.overhead = L * b.total();
  return s;
}

}  // namespace akm::cost
