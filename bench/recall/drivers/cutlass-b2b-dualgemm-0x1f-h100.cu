// Instantiates cutlass::Kernel<> for example 13's B2bGemm kernel (f16 sm80, RF residency, as fused_two_gemms_f16_sm80_rf.cu) and example 45's DualGemm kernel (f16 sm80, as dual_gemm.cu), the kernels their device operators launch.
#include "cutlass/cutlass.h"
#include "cutlass/device_kernel.h"
#include "cutlass/gemm/device/gemm.h"

#include "device/b2b_gemm.h"
#include "device/dual_gemm.h"
#include "thread/left_silu_and_mul.h"

namespace recall {
using half = cutlass::half_t;
using Row = cutlass::layout::RowMajor;
using Col = cutlass::layout::ColumnMajor;
using Inst = cutlass::gemm::GemmShape<16, 8, 16>;
using NoBeta = cutlass::epilogue::thread::LinearCombinationRelu<
    half, Inst::kM * Inst::kN / 32, half, half, cutlass::epilogue::thread::ScaleType::NoBetaScaling>;
using Relu = cutlass::epilogue::thread::LinearCombinationRelu<half, 128 / cutlass::sizeof_bits<half>::value,
                                                              half, half,
                                                              cutlass::epilogue::thread::ScaleType::NoBetaScaling>;
using B2b = cutlass::gemm::device::B2bGemm<
    half, Row, half, Col, half, Row, half, cutlass::arch::OpClassTensorOp, cutlass::arch::Sm80,
    cutlass::gemm::GemmShape<64, 64, 32>, cutlass::gemm::GemmShape<64, 128, 32>,
    cutlass::gemm::GemmShape<16, 64, 32>, cutlass::gemm::GemmShape<16, 128, 32>, Inst, NoBeta, Relu,
    cutlass::gemm::threadblock::GemmIdentityThreadblockSwizzle<1>, 3>;

using Lin = cutlass::epilogue::thread::LinearCombination<half, 128 / cutlass::sizeof_bits<half>::value, half,
                                                         half, cutlass::epilogue::thread::ScaleType::NoBetaScaling>;
using SiLU = cutlass::epilogue::thread::LeftSiLUAndMul<half, 128 / cutlass::sizeof_bits<half>::value, half, half>;
using Dual = cutlass::gemm::device::DualGemm<
    half, Row, half, Col, Col, half, Row, half, cutlass::arch::OpClassTensorOp, cutlass::arch::Sm80,
    cutlass::gemm::GemmShape<128, 64, 32>, cutlass::gemm::GemmShape<64, 32, 32>, Inst, Lin, Lin, SiLU,
    cutlass::gemm::threadblock::GemmIdentityThreadblockSwizzle<1>, 3, true, true, false>;
}  // namespace recall

template __global__ void cutlass::Kernel<recall::B2b::B2bGemmKernel>(recall::B2b::B2bGemmKernel::Params);
template __global__ void cutlass::Kernel<recall::Dual::DualGemmKernel>(recall::Dual::DualGemmKernel::Params);
