// cost — FLOP and memory counts of the deployed rule [app:flops-memory].
//
// Counts are built layer by layer from the operations the rule performs, so the closed
// forms of the paper (lem:norm-cost, eq:dispatch, eq:block-overhead-deployed,
// thm:deployed-overhead, eq:peak-mem) can be checked against them.
#pragma once
#include <string>
#include <vector>

#include "akm/rules/rules.hpp"

namespace akm::cost {

/// Normalization of N keys of dimension n as the paper counts it: per row 2n (norm, with
/// 2n − 1 ≈ 2n), 1 sqrt, 1 reciprocal, n scalings [lem:norm-cost].
double norm_flops(double n, double N);
/// Gram order: shared Gram X̂ᵀX̂ (2n²N, counted once per distinct input) and the per-layer
/// product M·Gram (2mn²) [sec:dispatch].
double gram_shared_flops(double n, double N);
/// Gram order, per layer: M·Gram at 2mn² [sec:dispatch].
double gram_layer_flops(double m, double n);
/// Through-N order: (MX̂ᵀ)X̂ at 4mnN [sec:dispatch]; also the batched read/write lower bound.
double through_n_flops(double m, double n, double N);
/// The cheaper order of one layer's correction on the full single-layer counts
/// (Gram 2n²N + 2mn², no sharing, vs through-N 4mnN): Gram iff n(N + m) < 2mN. As N → ∞
/// this is eq:dispatch (n < 2m); at small batches (N ≲ m) the per-layer 2mn² term decides.
rules::Order cheaper_order(double m, double n, double N);
/// A fully sequential pass over N samples with the per-sample work app:flops-memory lists:
/// read v̂_t = M x̂_t (2mn) and write M += η(v_t − v̂_t)x̂_tᵀ (2mn) [app:flops-memory].
double sequential_flops(double m, double n, double N);
/// Baseline forward + backward of one linear layer, 6mnN [eq:baseline-layer].
double baseline_layer_flops(double m, double n, double N);

/// One linear layer of a block: shape m×n and the input it reads (layers with the same
/// input share its Gram matrix and its normalization).
struct Layer {
  std::string name;  ///< layer name (Q, K, V, O, up, gate, down)
  double m;  ///< output dimension m
  double n;  ///< input dimension n
  int input;  ///< id of the input tensor
};

/// The seven linear layers of a gated-MLP transformer block of width d and ffn width
/// d_ffn: Q, K, V (input 0), O (input 1), up, gate (input 2), down (input 3).
std::vector<Layer> transformer_block(double d, double d_ffn);

/// FLOP counts of one block's AK correction and of its baseline linear layers.
struct BlockCount {
  double correction = 0;      ///< Gram (shared) + per-layer products + through-N terms
  double gram_shared = 0;     ///< of the correction, the shared X̂ᵀX̂ = N·Σ̂ GEMMs (2n²N per input)
  double normalization = 0;   ///< 3nN + 2N per distinct input
  double baseline_linear = 0; ///< Σ 6mnN
  /// Correction + normalization.
  double total() const { return correction + normalization; }
};
/// Applies the dispatch rule [eq:dispatch] layer by layer with Gram sharing.
BlockCount count_block(const std::vector<Layer>& layers, double N);

/// Closed forms: f(γ) [thm:deployed-overhead] and the block count
/// (6+4γ)d²N + (8+4γ)d³ + (9+3γ)dN [eq:block-overhead-deployed].
double overhead_ratio(double gamma);
/// The block count (6+4γ)d²N + (8+4γ)d³ + (9+3γ)dN [eq:block-overhead-deployed].
double block_overhead_closed(double d, double gamma, double N);

/// Transient bytes (fp32) of one layer's update [app:flops-memory tables]:
/// through-N 4Nn + 4mN + 4N, Gram 4Nn + 4n² + 4N; with X̂ written over X in place the
/// 4Nn term is absorbed.
double transient_bytes(double m, double n, double N, rules::Order order, bool in_place);

/// Per-step model of a decoder-only transformer [sec:realized-flops]: L blocks, attention
/// 12·d·L_seq·N per block [eq:baseline-block], untied embeddings (the lookup costs no GEMM,
/// the output head 6·d·V·N), correction on the block linear layers only.
struct StepModel {
  double baseline_linear;  ///< Σ 6mnN over the block linear layers
  double baseline_attention;  ///< attention 12·d·L_seq·N per block
  double baseline_head;  ///< output head 6·d·V·N
  double overhead;  ///< the AK correction and normalization
  /// Overhead over the whole baseline.
  double ratio() const { return overhead / (baseline_linear + baseline_attention + baseline_head); }
};
/// The per-step model for L blocks of width d, ffn width d_ffn, vocabulary V, sequence length L_seq, batch N.
StepModel step_model(int L, double d, double d_ffn, double V, double L_seq, double N);

}  // namespace akm::cost
