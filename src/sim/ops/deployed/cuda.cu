// deployed/cuda — W4, the deployed batch rule [eq:deployed], with cuBLAS (float).
#include "../../cuda/common.cuh"

namespace akm::cuda {
using namespace detail;

wl::W4Result w4(const wl::W4& w, const Mat& M0, const Mat& Delta, const Mat& Xhat) {
  require_device();
  const int m = int(M0.rows()), n = int(M0.cols()), N = int(Xhat.rows());
  auto to_f = [](const Mat& a) { return std::vector<float>(a.data(), a.data() + a.size()); };
  DevBuf<float> dM(std::size_t(m) * n), dD(std::size_t(N) * m), dX(std::size_t(N) * n),
      dR(std::size_t(m) * n), dS(std::size_t(n) * n), dT(std::size_t(m) * N);
  upload(dM, to_f(M0));
  upload(dD, to_f(Delta));
  upload(dX, to_f(Xhat));
  cublasHandle_t h;
  check(cublasCreate(&h), "cublasCreate");
  wl::W4Result res{Mat(m, n), Mat(m, n)};
  const float beta = float(w.beta), eta = float(w.eta), inv_n = 1.f / float(N);
  for (int gram = 1; gram >= 0; --gram) {
    // R = βM;  R += (η/N) ΔᵀX̂  [G];  then R −= η M Σ̂_B in the chosen order [eq:dispatch].
    check(cudaMemcpy(dR.p, dM.p, sizeof(float) * m * n, cudaMemcpyDeviceToDevice), "copy");
    check(cublasSscal(h, m * n, &beta, dR.p, 1), "sscal");
    const float a_g = eta * inv_n, one = 1.f, zero = 0.f, minus_eta = -eta, mi = -eta * inv_n;
    check(cublasSgemm(h, CUBLAS_OP_T, CUBLAS_OP_N, m, n, N, &a_g, dD.p, N, dX.p, N, &one, dR.p, m), "G");
    if (gram) {
      check(cublasSgemm(h, CUBLAS_OP_T, CUBLAS_OP_N, n, n, N, &inv_n, dX.p, N, dX.p, N, &zero, dS.p, n), "Σ̂");
      check(cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, m, n, n, &minus_eta, dM.p, m, dS.p, n, &one, dR.p, m), "MΣ̂");
    } else {
      check(cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_T, m, N, n, &one, dM.p, m, dX.p, N, &zero, dT.p, m), "MX̂ᵀ");
      check(cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, m, n, N, &mi, dT.p, m, dX.p, N, &one, dR.p, m), "(MX̂ᵀ)X̂");
    }
    const auto r = download(dR, std::size_t(m) * n);
    Mat& dst = gram ? res.gram : res.through_n;
    for (std::size_t i = 0; i < r.size(); ++i) dst.data()[i] = r[i];
  }
  cublasDestroy(h);
  return res;
}

}  // namespace akm::cuda
