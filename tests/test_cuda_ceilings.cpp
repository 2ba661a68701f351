// The device ceilings of `akm bench --backend cuda` (akm/sim/cuda_ceilings.hpp,
// akm/app/bench_device.hpp, docs/cuda.md "Device ceilings"): the measuring kernels' bodies,
// which the host runs to check every measurement, against plain references; the device rows'
// limits and the contradicted-ceiling rule on them; the refusal without a device; and, on a
// device, the measurement itself (skipped without one).
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <string>

#include <nlohmann/json.hpp>

#include "akm/app/bench_ceilings.hpp"
#include "akm/app/bench_device.hpp"
#include "akm/random/random.hpp"
#include "akm/sim/cuda.hpp"
#include "akm/sim/cuda_ceilings.hpp"

using namespace akm;
using json = nlohmann::json;

namespace {

bool device_present() {
  std::string why;
  return cuda::built() && !cuda::device_name(&why).empty();
}

// A synthetic set of measured device ceilings (figures of no device: the rule is what is tested).
cuda::DeviceCeilings synthetic() {
  cuda::DeviceCeilings d;
  d.device = "synthetic";
  d.fma.per_s = 50e12;
  d.normals_float.per_s = 2e11;
  d.normals_double.per_s = 2e10;
  d.triad.per_s = 3e12;
  d.copy.per_s = 3e12;
  return d;
}

}  // namespace

TEST(DeviceCeilingBodies, FmaChainsDoEveryCountedFma) {
  // a = b = 1 from x0 = 0: each FMA adds exactly 1, so the sum counts the FMAs done.
  for (int iters : {0, 1, 7, 1000, 1 << 16}) {
    const double want = double(cuda::kFmaChains) * iters + cuda::kFmaChains * (cuda::kFmaChains - 1) / 2.0;
    EXPECT_EQ(double(cuda::fma_chains(0.f, 1.f, 1.f, iters)), want) << iters;
  }
  // Any a, b: the plain chains, one fused multiply-add per step, summed in chain order.
  const float a = 0.999f, b = 0.25f, x0 = 0.5f;
  float x[cuda::kFmaChains], s = 0.f;
  for (int k = 0; k < cuda::kFmaChains; ++k) {
    x[k] = x0 + float(k);
    for (int i = 0; i < 333; ++i) x[k] = std::fma(x[k], a, b);
  }
  for (int k = 0; k < cuda::kFmaChains; ++k) s += x[k];
  EXPECT_EQ(cuda::fma_chains(x0, a, b, 333), s);
}

TEST(DeviceCeilingBodies, TriadIsTheProductRoundedThenTheSum) {
  for (long long i : {0LL, 1LL, 1023LL, 1024LL, 123456789LL, (1LL << 28) - 1}) {
    const float b = cuda::triad_b(i), c = cuda::triad_c(i);
    EXPECT_EQ(b, float(i % 1024));
    EXPECT_EQ(c, float(i % 7));
    const volatile float prod = 3.f * c;  // rounded to float before the sum
    EXPECT_EQ(cuda::triad(b, 3.f, c), b + prod);
  }
}

TEST(DeviceCeilingBodies, NormalsSumDrawsTheOpsStream) {
  // Double: akm::Stream (the plain reference engine's stream) bit for bit, summed in order.
  for (std::uint64_t seed : {1ULL, 0x5eedULL})
    for (long long t : {0LL, 5LL, 270335LL}) {
      Stream ref(seed, std::uint64_t(t), Purpose::keys);
      double s = 0.0;
      for (int k = 0; k < 257; ++k) s += ref.normal();
      const double got = cuda::normals_sum<double>(seed, t, 257);
      EXPECT_EQ(std::memcmp(&got, &s, sizeof s), 0) << seed << " " << t;
      // Float: the same draws in float (uniforms rounded, float log/sqrt/sincos), so within the
      // float rounding of 257 draws and their sum of the double sum.
      double abs_sum = 0.0;
      Stream ref2(seed, std::uint64_t(t), Purpose::keys);
      for (int k = 0; k < 257; ++k) abs_sum += std::fabs(ref2.normal());
      EXPECT_NEAR(double(cuda::normals_sum<float>(seed, t, 257)), s, 2e-4 * abs_sum);
    }
}

TEST(DeviceLimits, TrialStepRowsNameTheirBindingLimitAndFraction) {
  const cuda::DeviceCeilings d = synthetic();
  // 64 normals and 128 flops per trial-step: normals 3.2e-10 s, flops 2.56e-15 s → normals bind.
  json l = bench::device_limit(1e9, 64, 128, d);
  EXPECT_EQ(l["binding"], "normal variates");
  const double t = 64 / 2e11 + 128 / 50e12;
  EXPECT_DOUBLE_EQ(l["fraction_of_limit"].get<double>(), 1e9 * t);
  EXPECT_DOUBLE_EQ(l["ceilings"]["device_normals_float"].get<double>(), 1e9 * 64 / 2e11);
  EXPECT_DOUBLE_EQ(l["ceilings"]["device_fma_float"].get<double>(), 1e9 * 128 / 50e12);
  // Flops only: the FMA peak binds.
  EXPECT_EQ(bench::device_limit(1e9, 0, 1e4, d)["binding"], "FMA peak");
  // Comparable parts: both named.
  EXPECT_EQ(bench::device_limit(1e9, 1, 250, d)["binding"], "normals + FMA");
  json g = bench::device_gemm_limit(25e12, d);
  EXPECT_EQ(g["binding"], "FMA peak");
  EXPECT_DOUBLE_EQ(g["fraction_of_limit"].get<double>(), 0.5);
}

TEST(DeviceLimits, ARowAboveADeviceCeilingContradictsIt) {
  const cuda::DeviceCeilings d = synthetic();
  json rows = json::array();
  rows.push_back({{"workload", "W1"}, {"precision", "float"}, {"limit", bench::device_limit(1e9, 64, 128, d)}});
  rows.push_back({{"workload", "W4"}, {"precision", "float"}, {"limit", bench::device_gemm_limit(60e12, d)}});
  json machine = json::object();
  EXPECT_EQ(app::judge_ceilings(machine, rows), 1);
  ASSERT_EQ(machine["contradicted_ceilings"].size(), 1u);
  EXPECT_EQ(machine["contradicted_ceilings"][0]["ceiling"], "device_fma_float");
  EXPECT_EQ(machine["contradicted_ceilings"][0]["exceeded_by"], "W4 float");
  // W4's fraction (1.2) is never a fraction; W1's rests on the contradicted FMA ceiling too.
  EXPECT_TRUE(rows[1]["limit"]["fraction_of_limit"].is_null());
  EXPECT_DOUBLE_EQ(rows[1]["limit"]["measured_over_limit"].get<double>(), 1.2);
  EXPECT_EQ(rows[1]["limit"]["contradicted"], "ceiling");
  EXPECT_TRUE(rows[0]["limit"]["fraction_of_limit"].is_null());
  EXPECT_EQ(rows[0]["limit"]["contradicted"], "ceiling");
}

TEST(DeviceLimits, CeilingsJsonCarriesEveryRate) {
  const json j = bench::device_ceilings_json(synthetic());
  EXPECT_EQ(j["device"], "synthetic");
  EXPECT_DOUBLE_EQ(j["fma_gflops_float"].get<double>(), 50e3);
  EXPECT_DOUBLE_EQ(j["triad_gbs"].get<double>(), 3e3);
  EXPECT_DOUBLE_EQ(j["normals_per_s_float"].get<double>(), 2e11);
  for (const char* k : {"fma", "triad", "copy", "normals_float", "normals_double"})
    EXPECT_TRUE(j["kernels"].contains(k)) << k;
}

TEST(DeviceCeilings, RefusedWithoutADevice) {
  if (device_present()) GTEST_SKIP() << "a CUDA device is present";
  try {
    cuda::measure_device_ceilings(true);
    FAIL() << "measured without a device";
  } catch (const std::exception& e) {
    EXPECT_NE(std::string(e.what()).find(cuda::built() ? "no CUDA device" : "no CUDA backend"), std::string::npos)
        << e.what();
  }
}

TEST(DeviceCeilings, MeasuredAndCheckedOnTheDevice) {
  if (!device_present()) GTEST_SKIP() << "no CUDA device";
  // Every kernel's result is checked against its host body inside (a failed check throws).
  const cuda::DeviceCeilings d = cuda::measure_device_ceilings(true);
  EXPECT_FALSE(d.device.empty());
  EXPECT_GT(d.multiprocessors, 0);
  for (const cuda::Rate* r : {&d.fma, &d.triad, &d.copy, &d.normals_float, &d.normals_double}) {
    EXPECT_GT(r->per_s, 0.0);
    EXPECT_GT(r->best_seconds, 0.0);
  }
  EXPECT_GE(d.array_bytes, 1LL << 30);
  EXPECT_LE(d.normals_check_float, 1.0);
  EXPECT_LE(d.normals_check_double, 1.0);
  // The FMA kernel cannot beat the FP32 peak of the device's properties at its highest clock.
  EXPECT_LE(d.fma.per_s, 1.02 * cuda::device_fp32_peak());
  RecordProperty("fma_gflops", std::to_string(d.fma.per_s / 1e9));
  RecordProperty("triad_gbs", std::to_string(d.triad.per_s / 1e9));
  RecordProperty("normals_float_per_s", std::to_string(d.normals_float.per_s));
}
