#include "fft_convolution.hpp"

#include <complex>
#include <cstddef>
#include <mutex>
#include <stdexcept>

#include <fftw3.h>

namespace dpbo::pld {
namespace {

// FFTW's planner is not thread-safe (executing a plan is): accountants may run on several threads.
std::mutex& planner_mutex() {
    static std::mutex mutex;
    return mutex;
}

// The smallest 2^a·3^b·5^c ≥ n: lengths FFTW transforms fastest.
std::size_t fast_length(std::size_t n) {
    std::size_t best = 1;
    while (best < n) best *= 2;
    for (std::size_t p5 = 1; p5 < best; p5 *= 5)
        for (std::size_t p35 = p5; p35 < best; p35 *= 3) {
            std::size_t candidate = p35;
            while (candidate < n) candidate *= 2;
            if (candidate < best) best = candidate;
        }
    return best;
}

struct FftwBuffer {
    explicit FftwBuffer(std::size_t bytes) : data(fftw_malloc(bytes)) {
        if (data == nullptr) throw std::bad_alloc();
    }
    ~FftwBuffer() { fftw_free(data); }
    FftwBuffer(const FftwBuffer&) = delete;
    FftwBuffer& operator=(const FftwBuffer&) = delete;
    void* data;
};

class Transform {
public:
    explicit Transform(std::size_t length)
        : length_(length), real_(sizeof(double) * length), spectrum_(sizeof(fftw_complex) * (length / 2 + 1)) {
        const std::lock_guard lock(planner_mutex());
        const int n = static_cast<int>(length);
        forward_ = fftw_plan_dft_r2c_1d(n, real(), spectrum(), FFTW_ESTIMATE);
        backward_ = fftw_plan_dft_c2r_1d(n, spectrum(), real(), FFTW_ESTIMATE);
        if (forward_ == nullptr || backward_ == nullptr) throw std::runtime_error("FFTW could not plan a transform");
    }
    ~Transform() {
        const std::lock_guard lock(planner_mutex());
        fftw_destroy_plan(forward_);
        fftw_destroy_plan(backward_);
    }
    Transform(const Transform&) = delete;
    Transform& operator=(const Transform&) = delete;

    double* real() { return static_cast<double*>(real_.data); }
    fftw_complex* spectrum() { return static_cast<fftw_complex*>(spectrum_.data); }
    std::size_t bins() const { return length_ / 2 + 1; }

    // The spectrum of `values`, zero-padded to the transform's length.
    std::vector<std::complex<double>> forward(const std::vector<double>& values) {
        std::fill(real(), real() + length_, 0.0);
        std::copy(values.begin(), values.end(), real());
        fftw_execute(forward_);
        std::vector<std::complex<double>> result(bins());
        for (std::size_t k = 0; k < bins(); ++k) result[k] = {spectrum()[k][0], spectrum()[k][1]};
        return result;
    }
    // The first `count` values whose spectrum is `product` (FFTW's inverse is unnormalised).
    std::vector<double> backward(const std::vector<std::complex<double>>& product, std::size_t count) {
        for (std::size_t k = 0; k < bins(); ++k) {
            spectrum()[k][0] = product[k].real();
            spectrum()[k][1] = product[k].imag();
        }
        fftw_execute(backward_);
        const double scale = 1.0 / static_cast<double>(length_);
        std::vector<double> result(count);
        for (std::size_t i = 0; i < count; ++i) result[i] = real()[i] * scale;
        return result;
    }

private:
    std::size_t length_;
    FftwBuffer real_;
    FftwBuffer spectrum_;
    fftw_plan forward_ = nullptr;
    fftw_plan backward_ = nullptr;
};

// Below this length the direct sum is faster than planning and running three transforms.
constexpr std::size_t kDirectLimit = 64;

std::vector<double> direct(const std::vector<double>& a, const std::vector<double>& b) {
    std::vector<double> result(a.size() + b.size() - 1, 0.0);
    for (std::size_t i = 0; i < a.size(); ++i)
        for (std::size_t j = 0; j < b.size(); ++j) result[i + j] += a[i] * b[j];
    return result;
}

}  // namespace

std::vector<double> convolve(const std::vector<double>& a, const std::vector<double>& b) {
    if (a.empty() || b.empty()) return {};
    const std::size_t count = a.size() + b.size() - 1;
    if (std::min(a.size(), b.size()) <= kDirectLimit) return direct(a, b);
    Transform transform(fast_length(count));
    std::vector<std::complex<double>> product = transform.forward(a);
    const std::vector<std::complex<double>> other = transform.forward(b);
    for (std::size_t k = 0; k < product.size(); ++k) product[k] *= other[k];
    return transform.backward(product, count);
}

std::vector<double> self_convolve_window(const std::vector<double>& a, std::size_t times, std::size_t first,
                                         std::size_t last) {
    const std::size_t count = last - first + 1;
    const std::size_t length = fast_length(std::max(count, a.size()));
    Transform transform(length);
    std::vector<std::complex<double>> spectrum = transform.forward(a);
    for (std::complex<double>& value : spectrum) {
        std::complex<double> power = 1.0;
        std::complex<double> base = value;
        for (std::size_t left = times; left > 0; left >>= 1U) {
            if (left & 1U) power *= base;
            base *= base;
        }
        value = power;
    }
    const std::vector<double> circular = transform.backward(spectrum, length);
    std::vector<double> window(count);
    for (std::size_t j = 0; j < count; ++j) window[j] = circular[(first + j) % length];
    return window;
}

}  // namespace dpbo::pld
