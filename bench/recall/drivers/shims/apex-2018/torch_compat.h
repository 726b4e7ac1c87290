// Forced include (-include) for apex's 2018 csrc/welford.cu against the PyTorch 2.x headers of the corpus:
// the three ATen names that file uses and PyTorch has since removed, mapped onto their replacements.
#pragma once
#include <ATen/ATen.h>

#ifndef AT_CHECK
#define AT_CHECK TORCH_CHECK
#endif

namespace at::native {
using at::empty;
}

namespace detail {
// AT_DISPATCH_* used to accept tensor.type(); PyTorch 2.x takes the ScalarType only.
inline torch::headeronly::ScalarType scalar_type(const at::DeprecatedTypeProperties& t) { return t.scalarType(); }
}  // namespace detail
