//===--- CudaInstallation.h - Locate the CUDA toolkit ---------------------===//
//
// warp-tidy analyses CUDA device code with clang, which needs the toolkit's
// headers. Users should not have to say where CUDA is: this finds it the way
// a CUDA engineer would (explicit flag, the usual environment variables, the
// nvcc on PATH, /usr/local/cuda), and derives what depends on the version.
//
//===----------------------------------------------------------------------===//

#ifndef WARP_TIDY_TOOL_CUDAINSTALLATION_H
#define WARP_TIDY_TOOL_CUDAINSTALLATION_H

#include "llvm/ADT/StringRef.h"
#include <optional>
#include <string>
#include <vector>

namespace warp_tidy {

/// The version nvcc reports as `__CUDACC_VER_MAJOR__`, `_MINOR__` and
/// `_BUILD__` (nvcc 13.0.88: 13, 0, 88).
struct NvccVersion {
  unsigned Major = 0;
  unsigned Minor = 0;
  unsigned Build = 0;
};

struct CudaInstallation {
  std::string Root;        ///< Directory holding include/cuda.h.
  unsigned Version = 0;    ///< CUDA_VERSION from cuda.h, e.g. 13000.
  std::string CcclInclude; ///< <Root>/include/cccl when it exists (CUDA 13).
  /// The toolkit's nvcc version, for the macros nvcc predefines. Read from
  /// version.json, the pip wheel's metadata or `nvcc --version`; when none
  /// says, major and minor from CUDA_VERSION and build 0.
  NvccVersion Nvcc;

  /// Oldest device architecture (sm_XX as XX) this toolkit still supports;
  /// the default target when a compile command names none.
  unsigned oldestSupportedArch() const;
};

/// Parses the CUDA_VERSION macro out of the text of cuda.h.
std::optional<unsigned> parseCudaVersion(llvm::StringRef CudaHeaderText);

/// The nvcc version in a toolkit's version.json (`"cuda_nvcc": {"version":
/// "12.4.131"}`).
std::optional<NvccVersion> parseVersionJson(llvm::StringRef Text);

/// The nvcc version in the output of `nvcc --version` ("..., V13.0.88").
std::optional<NvccVersion> parseNvccVersionOutput(llvm::StringRef Text);

/// Looks for a toolkit. \p Explicit (from --cuda-path) wins when non-empty.
/// On failure returns std::nullopt and explains in \p Why which places were
/// searched, so the error the user sees is actionable.
std::optional<CudaInstallation> findCudaInstallation(llvm::StringRef Explicit, std::string &Why);

/// Checks one candidate root; used by findCudaInstallation and the tests.
std::optional<CudaInstallation> probeCudaRoot(llvm::StringRef Root);

} // namespace warp_tidy

#endif
