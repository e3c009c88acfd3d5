#pragma once
// BLAS and LAPACK routines that Armadillo does not wrap, called directly. libdpbo links the same
// libblas.so.3 / liblapack.so.3 that Armadillo's wrapper uses (core/CMakeLists.txt), so these run in
// the same OpenBLAS, under the same thread setting. Fortran convention: every argument by pointer,
// hidden character lengths last (ignored by OpenBLAS's C implementations, needed by Fortran ones).
#include <cstddef>

#include <armadillo>

#include "few_column_solve.hpp"

extern "C" {
void dtrmm_(const char* side, const char* uplo, const char* transa, const char* diag, const arma::blas_int* m,
            const arma::blas_int* n, const double* alpha, const double* a, const arma::blas_int* lda, double* b,
            const arma::blas_int* ldb, std::size_t side_len, std::size_t uplo_len, std::size_t transa_len,
            std::size_t diag_len);
void dsymm_(const char* side, const char* uplo, const arma::blas_int* m, const arma::blas_int* n, const double* alpha,
            const double* a, const arma::blas_int* lda, const double* b, const arma::blas_int* ldb, const double* beta,
            double* c, const arma::blas_int* ldc, std::size_t side_len, std::size_t uplo_len);
void dtrsm_(const char* side, const char* uplo, const char* transa, const char* diag, const arma::blas_int* m,
            const arma::blas_int* n, const double* alpha, const double* a, const arma::blas_int* lda, double* b,
            const arma::blas_int* ldb, std::size_t side_len, std::size_t uplo_len, std::size_t transa_len,
            std::size_t diag_len);
void dlauum_(const char* uplo, const arma::blas_int* n, double* a, const arma::blas_int* lda, arma::blas_int* info,
             std::size_t uplo_len);
}

namespace dpbo::gp::detail {

// B ← alpha · T · B (left) or alpha · B · T (right) for the lower-triangular T at `triangle` (of
// order rows when left, columns when right) and the rows × columns block B at `block`; both share the
// leading dimension `stride` (blocks of one matrix).
inline void multiply_by_lower(bool left, double alpha, const double* triangle, double* block, arma::blas_int rows,
                              arma::blas_int columns, arma::blas_int stride) {
    const char side = left ? 'L' : 'R';
    const char uplo = 'L';
    const char trans = 'N';
    const char diag = 'N';
    dtrmm_(&side, &uplo, &trans, &diag, &rows, &columns, &alpha, triangle, &stride, block, &stride, 1, 1, 1, 1);
}

// C ← S · B for the symmetric n × n S of which only the lower triangle is read (leading dimension
// n), and the n × columns B and C.
inline void multiply_symmetric_lower(const arma::mat& symmetric, const arma::mat& right, arma::mat& product) {
    const char side = 'L';
    const char uplo = 'L';
    const arma::blas_int n = static_cast<arma::blas_int>(symmetric.n_rows);
    const arma::blas_int columns = static_cast<arma::blas_int>(right.n_cols);
    const double one = 1.0;
    const double zero = 0.0;
    product.set_size(right.n_rows, right.n_cols);
    if (n == 0 || columns == 0) return;
    dsymm_(&side, &uplo, &n, &columns, &one, symmetric.memptr(), &n, right.memptr(), &n, &zero, product.memptr(), &n, 1,
           1);
}

// The lower triangle of the n × n `lower` (a lower-triangular matrix M, leading dimension n)
// becomes that of Mᵀ M; the strictly upper triangle is not touched.
inline arma::blas_int lower_gram_in_place(arma::mat& lower) {
    const char uplo = 'L';
    const arma::blas_int n = static_cast<arma::blas_int>(lower.n_rows);
    arma::blas_int info = 0;
    if (n > 0) dlauum_(&uplo, &n, lower.memptr(), &n, &info, 1);
    return info;
}

// block ← T⁻¹ block, or T⁻ᵀ block when `transposed`, for the lower-triangular T that is the
// rows(block) × rows(block) block of `factor` starting at (first, first); `factor` may hold spare
// capacity (its leading dimension is its row count). LAPACK's trtrs info: 0, or the 1-based index
// within T of a zero on its diagonal. A forward solve of at most kFewColumns columns is our own
// (few_column_solve.hpp); the rest is LAPACK's.
inline arma::blas_int solve_with_lower_block(const arma::mat& factor, arma::uword first, arma::mat& block,
                                             bool transposed) {
    if (block.n_rows == 0 || block.n_cols == 0) return 0;
    if (!transposed && block.n_cols <= kFewColumns) {
        return static_cast<arma::blas_int>(few_column_lower_solve(factor.memptr() + first + first * factor.n_rows,
                                                                  factor.n_rows, block.n_rows, block.memptr(),
                                                                  block.n_cols));
    }
    char uplo = 'L';
    char trans = transposed ? 'T' : 'N';
    char diag = 'N';
    arma::blas_int order = static_cast<arma::blas_int>(block.n_rows);
    arma::blas_int stride = static_cast<arma::blas_int>(factor.n_rows);
    arma::blas_int columns = static_cast<arma::blas_int>(block.n_cols);
    arma::blas_int info = 0;
    arma::lapack::trtrs(&uplo, &trans, &diag, &order, &columns, factor.memptr() + first + first * factor.n_rows,
                        &stride, block.memptr(), &order, &info);
    return info;
}

// X ← X T⁻ᵀ for the columns × columns lower-triangular T at `triangle` (leading dimension
// `triangle_stride`) and the rows × columns X at `block` (leading dimension `block_stride`): the
// solve of every row of X at once, for query points stored one per row. Level-3 BLAS; a zero on T's
// diagonal is the caller's to rule out (T is a Cholesky factor that was checked when it was formed).
inline void solve_rows_with_lower_transposed(const double* triangle, arma::blas_int triangle_stride, double* block,
                                             arma::blas_int rows, arma::blas_int columns, arma::blas_int block_stride) {
    if (rows == 0 || columns == 0) return;
    const char side = 'R';
    const char uplo = 'L';
    const char trans = 'T';
    const char diag = 'N';
    const double one = 1.0;
    dtrsm_(&side, &uplo, &trans, &diag, &rows, &columns, &one, triangle, &triangle_stride, block, &block_stride, 1, 1,
           1, 1);
}

}  // namespace dpbo::gp::detail
