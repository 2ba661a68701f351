// akm.hpp — the whole library API in one include (installed as <akm/akm.hpp>): every public
// header (tests/check_umbrella.py keeps it so; docs/api.md is the reference).
//
// One folder per layer, bottom up; each layer sees only the layers it depends on, directly
// or through them (the graph of docs/architecture.md, enforced by the build:
// cmake/layers.cmake). Units: eigenvalues λ are variances of the key
// coordinates (units of x²); β (EMA decay) and η (AK step, units 1/x²) are per step;
// μ = (1−β)/η has the units of λ; times t, lags and horizons τ are counted in steps. Paper
// labels are the \label names of the AK-Momentum paper.
//   base/        linalg (Eigen aliases Vec, Mat, Mat2), errors (InputError: bad input
//                refused before any work, CLI exit 2), key (enum Key), spec_text, version,
//                interrupt (SIGINT leaves no partial results), progress, hd (AKM_HD: code
//                compiled for both the host and the CUDA device), seed (derive_seed), median
//                (of values that may be infinite).
//   random/      Stream(seed, trial, Purpose): Philox4x32-10 counter streams, so a trial's
//                numbers never depend on the thread running it; stream_hd: the same stream
//                written once for the host and the device.
//   spectrum/    Σ = U diag(λ) Uᵀ from a spec ("spiked:n=64,spikes=10/5,floor=1", …); exact
//                Gaussian-key moments λ̂_i, κ_i, Q_ij of x̂ = x/‖x‖; key laws; data-set spectra.
//   rules/       reference buffers: EMA [eq:ema-update], AK raw [eq:dm-update] and normalized
//                [eq:dm-norm-update], the deployed batch rule [eq:deployed]; allocation-free
//                per-trial kernels (same arithmetic); AdamW and AK-AdamW; Newton–Schulz, Muon and
//                AK-Muon [cor:mup-base-lr]; FLOP counts.
//   problems/    the logistic teacher, the MLP tasks and training loop, the estimator view,
//                the training claims' tuning protocol (equal budgets, disjoint seeds).
//   theory/      every closed form: μ, β̃_i, τ_i, φ_i [eq:dm-eigen, eq:transport-lemma,
//                eq:horizon], 2×2 rate maps [eq:iter-matrices], lags [prop:nc1-main], the
//                exact mean recursion under a moving (Σ̂_t, Ĝ_t) [thm:fixedpoint], the
//                per-direction table of `akm theory`, closed-form phase maps.
//   sim/         monte_carlo(): trials × steps with streaming statistics (trial_stats),
//                identical for any thread count and any number of MPI ranks (dist); one
//                jackknife, one fitted 2×2 map with its errors (fitted_map); the fast
//                engine (engine/), CUDA offload (its launch grid, its host emulation),
//                measured phase maps, moments by simulation.
//   check/       predicted vs measured with tolerances from standard errors and the declared
//                false-alarm rate (Bonferroni); one-sided bounds; paired statistics of
//                training runs (sign test, order-statistics interval), the trend of a loss
//                over a grid; the claim ledger: a verdict per statement of the paper from
//                the recorded checks.
//   report/      CSV, gnuplot figures, staged result folders, results/index.html, notebooks,
//                the ledger's verdicts (ledger.json, the statements table).
//   experiments/ the experiment registry (link the experiments' whole archive to fill it,
//                see akmConfig.cmake), run_experiment() and the claims' expected statuses
//                (`akm run/reproduce --expect`).
//   app/         the drivers behind the program's commands: `akm theory` (validation and
//                the closed forms), `akm simulate` (options, validation, the run on a
//                backend, its verdict), `akm explore`'s request handling (the API, its
//                guard, the page), `akm phase` (the request, its validation, the map and
//                --measure), `akm bench` (the workloads, the machine's ceilings and their
//                judgement), akm.spectrum()'s moments, `akm ledger` and reproduce's
//                ledger step, `akm export-notebooks` and reproduce's notebooks, run's
//                --backend, the run's processes (rank 0 writes) as the commands see
//                them, and how the program's heap keeps freed memory.
#pragma once

#include "akm/app/bench.hpp"
#include "akm/app/bench_ceilings.hpp"
#include "akm/app/bench_device.hpp"
#include "akm/app/bench_machine.hpp"
#include "akm/app/explore_api.hpp"
#include "akm/app/explore_guard.hpp"
#include "akm/app/heap.hpp"
#include "akm/app/ledger.hpp"
#include "akm/app/notebooks.hpp"
#include "akm/app/phase.hpp"
#include "akm/app/processes.hpp"
#include "akm/app/run.hpp"
#include "akm/app/simulate.hpp"
#include "akm/app/spectrum.hpp"
#include "akm/app/theory.hpp"
#include "akm/base/errors.hpp"
#include "akm/base/hd.hpp"
#include "akm/base/interrupt.hpp"
#include "akm/base/key.hpp"
#include "akm/base/line_fit.hpp"
#include "akm/base/linalg.hpp"
#include "akm/base/median.hpp"
#include "akm/base/progress.hpp"
#include "akm/base/seed.hpp"
#include "akm/base/spec_text.hpp"
#include "akm/base/thread_pool.hpp"
#include "akm/base/version.hpp"
#include "akm/check/check.hpp"
#include "akm/check/equivalence.hpp"
#include "akm/check/ledger.hpp"
#include "akm/check/ledger_verdict.hpp"
#include "akm/check/one_sided.hpp"
#include "akm/check/paired.hpp"
#include "akm/check/paper_claims.hpp"
#include "akm/check/pooled.hpp"
#include "akm/check/power.hpp"
#include "akm/check/status.hpp"
#include "akm/check/trend.hpp"
#include "akm/experiments/expectations.hpp"
#include "akm/experiments/experiment.hpp"
#include "akm/experiments/paper_statements.hpp"
#include "akm/experiments/result_hash.hpp"
#include "akm/problems/classify.hpp"
#include "akm/problems/estimator.hpp"
#include "akm/problems/logistic.hpp"
#include "akm/problems/mlp.hpp"
#include "akm/problems/protocol.hpp"
#include "akm/problems/train.hpp"
#include "akm/random/random.hpp"
#include "akm/random/stream_hd.hpp"
#include "akm/report/claim_page.hpp"
#include "akm/report/csv.hpp"
#include "akm/report/figure.hpp"
#include "akm/report/figure_styles.hpp"
#include "akm/report/files.hpp"
#include "akm/report/html.hpp"
#include "akm/report/index.hpp"
#include "akm/report/katex.hpp"
#include "akm/report/ledger_report.hpp"
#include "akm/report/notebook.hpp"
#include "akm/report/phase_report.hpp"
#include "akm/report/report.hpp"
#include "akm/report/result_dir.hpp"
#include "akm/rules/bias_factor.hpp"
#include "akm/rules/buffer_kind.hpp"
#include "akm/rules/cost.hpp"
#include "akm/rules/kernels.hpp"
#include "akm/rules/muon.hpp"
#include "akm/rules/newton_schulz.hpp"
#include "akm/rules/optimizers.hpp"
#include "akm/rules/rules.hpp"
#include "akm/sim/backend.hpp"
#include "akm/sim/cuda.hpp"
#include "akm/sim/cuda_ceilings.hpp"
#include "akm/sim/cuda_grid.hpp"
#include "akm/sim/dist.hpp"
#include "akm/sim/engine/engine.hpp"
#include "akm/sim/engine/limits.hpp"
#include "akm/sim/engine/ziggurat.hpp"
#include "akm/sim/fitted_map.hpp"
#include "akm/sim/glm_moments.hpp"
#include "akm/sim/jackknife.hpp"
#include "akm/sim/key_law_moments.hpp"
#include "akm/sim/mean_estimate.hpp"
#include "akm/sim/ops/ak_sgd_ema.hpp"
#include "akm/sim/ops/batch_rule.hpp"
#include "akm/sim/ops/common.hpp"
#include "akm/sim/ops/deployed.hpp"
#include "akm/sim/ops/fit.hpp"
#include "akm/sim/ops/glm_buffer.hpp"
#include "akm/sim/ops/glm_pair.hpp"
#include "akm/sim/ops/key_law.hpp"
#include "akm/sim/ops/mlp_coord.hpp"
#include "akm/sim/ops/optimizer_loop.hpp"
#include "akm/sim/ops/phase_map.hpp"
#include "akm/sim/ops/phase_measure.hpp"
#include "akm/sim/ops/span_buffers.hpp"
#include "akm/sim/ops/row_buffers.hpp"
#include "akm/sim/ops/sample_minimizers.hpp"
#include "akm/sim/ops/tracking.hpp"
#include "akm/sim/ops/transport.hpp"
#include "akm/sim/ops/transport_product.hpp"
#include "akm/sim/ops/transport_product_layout.hpp"
#include "akm/sim/measured_map.hpp"
#include "akm/sim/sim.hpp"
#include "akm/sim/transport_control.hpp"
#include "akm/sim/trial_stats.hpp"
#include "akm/spectrum/data_keys.hpp"
#include "akm/spectrum/dataset_spectrum.hpp"
#include "akm/spectrum/fourth_moment.hpp"
#include "akm/spectrum/keys.hpp"
#include "akm/spectrum/moments.hpp"
#include "akm/spectrum/spectrum.hpp"
#include "akm/theory/direction_table.hpp"
#include "akm/theory/drift.hpp"
#include "akm/theory/phase.hpp"
#include "akm/theory/quasistatic.hpp"
#include "akm/theory/rebound.hpp"
#include "akm/theory/theory.hpp"
#include "akm/theory/tracking.hpp"
