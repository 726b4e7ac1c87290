// Instantiates cutlass::Kernel<> for the seven CUTLASS 2.3 GEMM kernels that broadcast warp_idx (kernel::Gemm, GemmUniversal, GemmBatched, GemmArray, GemmPlanarComplex/-Array, SparseGemm), the kernels the device-level operators of test/unit/gemm/device launch (SIMT f32; planar complex f16 sm75 and sparse f16 sm80 as in the *_planar_complex_*_sm75 and *_sparse_sm80 tests).
#include "cutlass/cutlass.h"
#include "cutlass/device_kernel.h"
#include "cutlass/gemm/device/gemm.h"
#include "cutlass/gemm/device/gemm_array.h"
#include "cutlass/gemm/device/gemm_batched.h"
#include "cutlass/gemm/device/gemm_sparse.h"
#include "cutlass/gemm/kernel/default_gemm_planar_complex_universal.h"
#include "cutlass/gemm/kernel/default_gemm_universal.h"

namespace recall {
using Row = cutlass::layout::RowMajor;
using Col = cutlass::layout::ColumnMajor;
using Simt = cutlass::gemm::device::DefaultGemmConfiguration<cutlass::arch::OpClassSimt, cutlass::arch::Sm50,
                                                             float, float, float, float>;

using GemmK = cutlass::gemm::device::Gemm<float, Row, float, Row, float, Row>::GemmKernel;
using BatchedK = cutlass::gemm::device::GemmBatched<float, Row, float, Row, float, Row>::GemmKernel;
using ArrayK = cutlass::gemm::device::GemmArray<float, Row, float, Row, float, Row>::GemmKernel;
using UniversalK = cutlass::gemm::kernel::DefaultGemmUniversal<
    float, Row, cutlass::ComplexTransform::kNone, 1, float, Row, cutlass::ComplexTransform::kNone, 1, float,
    Row, float, cutlass::arch::OpClassSimt, cutlass::arch::Sm50, Simt::ThreadblockShape, Simt::WarpShape,
    Simt::InstructionShape, Simt::EpilogueOutputOp, cutlass::gemm::threadblock::GemmIdentityThreadblockSwizzle<>,
    2, Simt::Operator>::GemmKernel;

using PlanarBase = cutlass::gemm::kernel::DefaultGemmPlanarComplexUniversal<
    cutlass::half_t, Row, cutlass::ComplexTransform::kNone, 8, cutlass::half_t, Col,
    cutlass::ComplexTransform::kNone, 8, float, Row, float, cutlass::arch::OpClassTensorOp,
    cutlass::arch::Sm75, cutlass::gemm::GemmShape<64, 64, 32>, cutlass::gemm::GemmShape<32, 32, 32>,
    cutlass::gemm::GemmShape<16, 8, 8>,
    cutlass::epilogue::thread::LinearCombinationPlanarComplex<float, 4, float, float>,
    cutlass::gemm::threadblock::GemmIdentityThreadblockSwizzle<>, 2, cutlass::arch::OpMultiplyAdd>;

using SparseK = cutlass::gemm::device::SparseGemm<
    cutlass::half_t, Col, cutlass::half_t, Col, float, Row, float, cutlass::arch::OpClassTensorOp,
    cutlass::arch::Sm80, cutlass::gemm::GemmShape<128, 256, 64>, cutlass::gemm::GemmShape<64, 64, 64>,
    cutlass::gemm::GemmShape<16, 8, 32>,
    cutlass::epilogue::thread::LinearCombination<float, 4, float, float>,
    cutlass::gemm::threadblock::GemmIdentityThreadblockSwizzle<>, 3>::GemmKernel;
}  // namespace recall

template __global__ void cutlass::Kernel<recall::GemmK>(recall::GemmK::Params);
template __global__ void cutlass::Kernel<recall::UniversalK>(recall::UniversalK::Params);
template __global__ void cutlass::Kernel<recall::BatchedK>(recall::BatchedK::Params);
template __global__ void cutlass::Kernel<recall::ArrayK>(recall::ArrayK::Params);
template __global__ void cutlass::Kernel<recall::PlanarBase::GemmKernel>(recall::PlanarBase::GemmKernel::Params);
template __global__ void cutlass::Kernel<recall::PlanarBase::GemmArrayKernel>(recall::PlanarBase::GemmArrayKernel::Params);
template __global__ void cutlass::Kernel<recall::SparseK>(recall::SparseK::Params);
