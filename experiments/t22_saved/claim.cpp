// T22 saved activations — [sec:realized-flops]
//
// "No additional activation tensors must be saved between forward and backward." The deployed
// rule [eq:deployed] forms its update from the layer input X and the output gradient ∇Y, and
// the weight gradient ∇YᵀX already needs X, so an implementation that captures X without a copy
// keeps nothing autograd does not keep already. Measured on akm.torch, the paper's optimizers as
// PyTorch optimizers, by akm.torch.saved_activations (run here through Python: only autograd can
// say what it saves): per optimizer, middle layer trainable or frozen, and training step,
//  extra   bytes alive between forward and backward that autograd did not save: predicted 0;
//  saved   tensors autograd saved: predicted the count with no optimizer at all.
// The rival is "an activation is kept". Negative controls (design checks) show the measurement
// can tell the two apart: a hook that keeps a copy of a layer's input, and a hook that keeps a
// reference to a frozen layer's input, must each read exactly the input's bytes; a reference to
// a trainable layer's input (aliasing what autograd saves) must read 0. torch.optim.AdamW, the
// plain reference, is measured the same way (design: the measurement reads 0 without akm).
#include "common.hpp"
#include "python_module.hpp"

namespace akm::exp {

static void t22_saved(ExperimentContext& ctx) {
  // ---- Measure: one Python run, seeded from the run's seed (network and batches) ----
  const long long seed = static_cast<long long>(derive_seed(ctx.opts.seed, "T22/network") % (1ULL << 31));
  const nlohmann::json m = run_python_module("akm.torch.saved_activations", {"--seed", std::to_string(seed)});
  ctx.params = {{"module", "akm.torch.saved_activations"}, {"python_seed", seed}, {"network", m.at("network")},
                {"torch", m.at("torch")}, {"python", m.at("python")}, {"input_bytes", m.at("input_bytes")},
                {"optimizers", nlohmann::json::array()}};

  // ---- Check: every optimizer, layer setting and step ----
  CsvTable t{{"optimizer", "layers", "step", "extra_bytes", "saved_tensors", "plain_saved_tensors"}, {}};
  for (const auto& r : m.at("runs")) {
    const std::string opt = r.at("optimizer"), layers = r.at("layers");
    const int step = r.at("step");
    const double extra = r.at("extra_bytes"), saved = r.at("saved_tensors"), plain = r.at("plain_saved_tensors");
    const bool reference = opt.rfind("torch.optim.", 0) == 0;
    const std::string where = fmt::format("{}/{}/step={}", opt, layers, step);
    ctx.checks.exact((reference ? "reference/extra/" : "extra/") + where, 0.0, extra, 0.0, 0.0);
    if (reference) ctx.checks.design();
    ctx.checks.exact((reference ? "reference/saved/" : "saved/") + where, plain, saved, 0.0, 0.0);
    if (reference) ctx.checks.design();
    t.add({opt, layers, step, extra, saved, plain});
    if (step == 1 && layers == "trainable") ctx.params["optimizers"].push_back(opt);
  }
  // ---- Check: the negative controls (the measurement sees a kept activation) ----
  const double input_bytes = m.at("input_bytes");
  const auto& c = m.at("controls");
  ctx.checks.exact("control/a kept copy reads the input's bytes", input_bytes, c.at("copy").get<double>(), 0.0, 0.0).design();
  ctx.checks.exact("control/a frozen layer's kept input reads its bytes", input_bytes,
                   c.at("frozen reference").get<double>(), 0.0, 0.0).design();
  ctx.checks.exact("control/a trainable layer's kept input reads 0", 0.0, c.at("trainable reference").get<double>(),
                   0.0, 0.0).design();

  // ---- Record ----
  ctx.out.write_csv("data_saved.csv", t);
}

const Registrar registration{{
    .id = "T22",
    .slug = "saved-activations",
    .title = "No additional activation is saved between forward and backward (akm.torch, autograd's saved tensors)",
    .labels = "sec:realized-flops",
    .claim = "extra bytes alive between forward and backward = 0, tensors autograd saves = as with no optimizer",
    .body = t22_saved,
}};

}  // namespace akm::exp
