// hd — code compiled for both the host and the CUDA device (docs/cuda.md).
//
// AKM_HD marks a function nvcc compiles for both sides (__host__ __device__); the host
// compiler sees nothing. The math wrappers below pick CUDA's device functions on the device
// and the C++ library's on the host, so a single-source body names one function for each.
// Plain C++ (no CUDA header) when the compiler is not nvcc.
#pragma once
#include <cmath>

#if defined(__CUDACC__)
#define AKM_HD __host__ __device__
#else
#define AKM_HD
#endif
// A rarely taken host-and-device function kept out of line under nvcc, so its call sites
// stay small (the device's instruction cache); the host compiler decides for itself.
#if defined(__CUDACC__)
#define AKM_HD_COLD __noinline__
#else
#define AKM_HD_COLD
#endif
// Loop unrolling for the device pass only (the host compiler knows no `#pragma unroll`).
#if defined(__CUDA_ARCH__)
#define AKM_UNROLL _Pragma("unroll")
#else
#define AKM_UNROLL
#endif

namespace akm::hd {

/// √x (sqrtf on the device, std::sqrt on the host).
AKM_HD inline float sqrt_(float x) {
#if defined(__CUDA_ARCH__)
  return sqrtf(x);
#else
  return std::sqrt(x);
#endif
}
/// √x in double (sqrt on the device, std::sqrt on the host).
AKM_HD inline double sqrt_(double x) {
#if defined(__CUDA_ARCH__)
  return ::sqrt(x);
#else
  return std::sqrt(x);
#endif
}
/// ln x (logf on the device, std::log on the host).
AKM_HD inline float log_(float x) {
#if defined(__CUDA_ARCH__)
  return logf(x);
#else
  return std::log(x);
#endif
}
/// ln x in double (log on the device, std::log on the host).
AKM_HD inline double log_(double x) {
#if defined(__CUDA_ARCH__)
  return ::log(x);
#else
  return std::log(x);
#endif
}
/// eˣ in double (exp on the device, std::exp on the host).
AKM_HD inline double exp_(double x) {
#if defined(__CUDA_ARCH__)
  return ::exp(x);
#else
  return std::exp(x);
#endif
}
/// a·b + c rounded once, float or double (__fmaf_rn / __fma_rn on the device, std::fma on the
/// host: all exactly rounded, so the emulation rounds as the device does). The .cu files are
/// built with --fmad=false, so nvcc contracts no a·b + c of its own: a kernel's FMAs are
/// exactly the fma_ its source writes.
template <class T>
AKM_HD inline T fma_(T a, T b, T c) {
#if defined(__CUDA_ARCH__)
  if constexpr (sizeof(T) == sizeof(float)) return __fmaf_rn(a, b, c);
  else return __fma_rn(a, b, c);
#else
  return std::fma(a, b, c);
#endif
}
/// s = sin θ, c = cos θ (one call on the device: sincosf / sincos).
AKM_HD inline void sincos_(float t, float* s, float* c) {
#if defined(__CUDA_ARCH__)
  sincosf(t, s, c);
#else
  *s = std::sin(t);
  *c = std::cos(t);
#endif
}
/// s = sin θ, c = cos θ in double (sincos on the device).
AKM_HD inline void sincos_(double t, double* s, double* c) {
#if defined(__CUDA_ARCH__)
  ::sincos(t, s, c);
#else
  *s = std::sin(t);
  *c = std::cos(t);
#endif
}
}  // namespace akm::hd
