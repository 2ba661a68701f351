// akm.hpp — the whole library API in one include (installed as <akm/akm.hpp>).
//
// Layers, bottom up (DESIGN.md). Units: eigenvalues λ are variances of the key coordinates
// (units of x²); β (EMA decay) and η (AK step, units 1/x²) are per step; μ = (1−β)/η has
// the units of λ; times t, lags and horizons τ are counted in steps. Paper labels are the
// \label names of the AK-Momentum paper.
//   linalg.hpp      Eigen aliases Vec, Mat, Mat2.
//   errors.hpp      InputError: bad input refused before any work (CLI exit 2).
//   random.hpp      Stream(seed, trial, Purpose): Philox4x32-10 counter streams, so a trial's
//                   numbers never depend on the thread running it.
//   spectrum.hpp    Σ = U diag(λ) Uᵀ from a spec ("spiked:n=64,spikes=10/5,floor=1", …).
//   moments.hpp     exact Gaussian-key moments λ̂_i, κ_i, Q_ij of x̂ = x/‖x‖.
//   theory.hpp      every closed form: μ, β̃_i, τ_i, φ_i [eq:dm-eigen, eq:transport-lemma,
//                   eq:horizon], 2×2 rate maps [eq:iter-matrices], lags [prop:nc1-main], …
//   rules.hpp       reference buffers: EMA [eq:ema-update], AK raw [eq:dm-update] and
//                   normalized [eq:dm-norm-update], the deployed batch rule [eq:deployed].
//   kernels.hpp     allocation-free per-trial steps (same arithmetic as rules.hpp).
//   optimizers.hpp  AdamW and AK-AdamW.
//   sim.hpp         monte_carlo(): trials × steps with streaming statistics, identical for
//                   any thread count and any number of MPI ranks; jackknife errors.
//   dist.hpp        MPI ranks (mpirun/srun) behind one interface; one process without MPI.
//   check.hpp       predicted vs measured with tolerances from standard errors and the
//                   declared false-alarm rate (Bonferroni).
//   report.hpp      CSV/JSON/figures per experiment, results/index.html.
//   notebook.hpp    one Jupyter notebook per experiment.
//   experiment.hpp  the experiment registry (link the whole archive to fill it, see
//                   akmConfig.cmake) and run_experiment().
//   keys.hpp, drift.hpp, one_sided.hpp, estimator.hpp, logistic.hpp, dataset_spectrum.hpp
//                   the libraries behind individual experiments (key laws, drifting
//                   targets, one-sided bounds, the estimator view, logistic models,
//                   spectra of datasets).
#pragma once

#include "akm/check/check.hpp"
#include "akm/spectrum/dataset_spectrum.hpp"
#include "akm/sim/dist.hpp"
#include "akm/theory/drift.hpp"
#include "akm/base/errors.hpp"
#include "akm/problems/estimator.hpp"
#include "akm/experiments/experiment.hpp"
#include "akm/rules/kernels.hpp"
#include "akm/spectrum/keys.hpp"
#include "akm/base/linalg.hpp"
#include "akm/problems/logistic.hpp"
#include "akm/spectrum/moments.hpp"
#include "akm/report/notebook.hpp"
#include "akm/check/one_sided.hpp"
#include "akm/rules/optimizers.hpp"
#include "akm/base/progress.hpp"
#include "akm/random/random.hpp"
#include "akm/report/report.hpp"
#include "akm/rules/rules.hpp"
#include "akm/sim/sim.hpp"
#include "akm/spectrum/spectrum.hpp"
#include "akm/theory/theory.hpp"
