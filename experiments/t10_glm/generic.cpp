// T10 glm, part C: a generic w* (K and Σ̂ need not commute). The claim and the design of all parts: claim.cpp.
#include "t10_glm.hpp"

namespace akm::exp::t10 {
namespace {

// ‖KΣ̂ − Σ̂K‖_F/(‖K‖_F‖Σ̂‖_F) with Σ̂ = diag(λ̂); the mass of K off Σ̂'s eigenspaces (blocks of
// equal λ̂, where any basis is an eigenbasis) and off the diagonal; the 2n×2n linearized map
// [[I − αηK, −α(βI−ηΣ̂)],[ηK, βI−ηΣ̂]], whose determinant is det(βI−ηΣ̂) = Π β̃_i.
Commutation commutation(const Mat& K, const Vec& lh, double alpha) {
  const int n = static_cast<int>(lh.size());
  Commutation c{};
  Mat comm(n, n);
  double off_b = 0, off_d = 0;
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) {
      comm(i, j) = K(i, j) * (lh[j] - lh[i]);
      if (i == j) continue;
      off_d += K(i, j) * K(i, j);
      if (std::abs(lh[i] - lh[j]) > 1e-9 * std::max(lh[i], lh[j])) off_b += K(i, j) * K(i, j);
    }
  c.commutator = comm.norm() / (K.norm() * lh.norm());
  c.off_block = std::sqrt(off_b) / K.norm();
  c.off_diagonal = std::sqrt(off_d) / K.norm();
  const Mat B = (kBeta - kEta * lh.array()).matrix().asDiagonal();
  Mat J(2 * n, 2 * n);
  J << Mat::Identity(n, n) - alpha * kEta * K, -alpha * B, kEta * K, B;
  c.det_joint = J.partialPivLu().determinant();
  c.det_pred = B.diagonal().prod();
  c.rho_joint = J.eigenvalues().cwiseAbs().maxCoeff();
  c.rho_blocks = 0;
  for (int i = 0; i < n; ++i) c.rho_blocks = std::max(c.rho_blocks, rho_of(alpha, K(i, i), B(i, i)));
  return c;
}

}  // namespace

GenericRun measure_generic(const Vec& lh, const Mat& k_gen, const Mat& k_eig) {
  const double alpha = 0.05 / (kEta * k_eig(0, 0));  // the checked soft arm's step
  return {alpha, commutation(k_eig, lh, alpha), commutation(k_gen, lh, alpha)};
}

void check_generic(ExperimentContext& ctx, const GenericRun& run) {
  for (const auto& [name, c] : {std::pair<std::string, const Commutation&>{"on-u1", run.on_u1}, {"generic", run.generic}})
    ctx.checks.exact(fmt::format("C/{}/det of joint 2n x 2n map = prod beta_tilde", name), c.det_pred,
                     c.det_joint, 1e-10);
}

void record_generic(ExperimentContext& ctx, const Vec& lh, const Mat& k_gen, const GenericRun& run,
                    nlohmann::json& findings) {
  CsvTable t{{"w_star", "commutator_rel", "off_eigenspace_mass", "off_diagonal_mass", "det_joint",
              "prod_beta_tilde", "rho_joint", "max_rho_diag_blocks"}, {}};
  for (const auto& [name, c] : {std::pair<std::string, const Commutation&>{"on-u1", run.on_u1}, {"generic", run.generic}}) {
    t.add({name, c.commutator, c.off_block, c.off_diagonal, c.det_joint, c.det_pred, c.rho_joint, c.rho_blocks});
    ctx.params["part_C"][name] = {{"commutator_rel", c.commutator}, {"off_eigenspace_mass", c.off_block},
                                  {"off_diagonal_mass", c.off_diagonal}, {"rho_joint", c.rho_joint},
                                  {"max_rho_diag_blocks", c.rho_blocks}};
  }
  const Commutation& c = run.generic;
  findings.push_back(fmt::format(
      "generic w*: K and Sigma_hat do not share eigenvectors: ||K S - S K||_F/(||K|| ||S||) = {:.3g}, "
      "mass of K off Sigma_hat's eigenspaces {:.3g} (w* on u1, exact value 0, measures {:.2g} / {:.2g}: "
      "the Monte-Carlo floor); the joint linearized map still has det = prod beta_tilde, its spectral "
      "radius {:.6f} vs {:.6f} from the diagonal blocks alone (alpha*c_1 = 0.05)",
      c.commutator, c.off_block, run.on_u1.commutator, run.on_u1.off_block, c.rho_joint, c.rho_blocks));
  ctx.params["part_C"]["alpha"] = run.alpha;
  ctx.out.write_csv("data_commutation.csv", t);

  // |K_ij|/√(K_ii K_jj) for the generic w*, in Σ̂'s eigenbasis.
  const int n = static_cast<int>(lh.size());
  CsvTable h{{"i", "j", "abs_corr"}, {}};
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j)
      h.add({i + 1, j + 1,
             std::abs(k_gen(i, j)) / std::sqrt(k_gen(i, i) * k_gen(j, j))});
  ctx.out.write_csv("data_k_generic.csv", h);
  Figure f;
  f.name = "k-generic";
  f.title = "T10 generic w*: |K_{ij}|/√(K_{ii}K_{jj}) in Σ's eigenbasis (colour capped at 0.25)";
  f.xlabel = "i";
  f.ylabel = "j";
  f.extra = {"set palette defined (0 '#f7f7f7', 0.5 '#fdae61', 1 '#b2182b')", "set cbrange [0:0.25]",
             "set xrange [0.5:32.5]", "set yrange [32.5:0.5]", "set size ratio -1"};
  f.functions = {heatmap_item("data_k_generic.csv", "1", "2", "3")};
  ctx.out.figure(f);
}

}  // namespace akm::exp::t10
