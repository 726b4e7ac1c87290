//===--- TargetArchs.h - The device architectures a compile targets -------===//
//
// clang tooling parses one device pass (one sm_XX) per translation unit, but
// whether a warp intrinsic is usable, and whether a guard has a fallback,
// depends on *every* architecture the project builds for. warp-tidy's command
// translation collects the full list (nvcc -arch/-gencode/--generate-code,
// clang --cuda-gpu-arch/--offload-arch), analyses the lowest one and passes
// the list to the checks as `-D__WARP_TIDY_TARGET_ARCHS__=75,80,90`. This is
// the one place that reads it back, so every check agrees on the list.
//
// Architectures are numbers as nvcc spells them without the prefix: sm_75 is
// 75 (not __CUDA_ARCH__'s 750).
//
//===----------------------------------------------------------------------===//

#ifndef WARP_TIDY_ANALYSIS_TARGETARCHS_H
#define WARP_TIDY_ANALYSIS_TARGETARCHS_H

#include "llvm/ADT/StringRef.h"
#include <string>
#include <vector>

namespace clang {
class ASTContext;
class LangOptions;
class Preprocessor;
class TargetInfo;
} // namespace clang

namespace warp_tidy {

/// The macro warp-tidy defines with the comma-separated arch list.
inline constexpr const char *TargetArchsMacroName = "__WARP_TIDY_TARGET_ARCHS__";

/// Name of the check option (also read as a global option) with which a
/// project states the oldest architecture it supports, e.g. `80` or `sm_80`.
/// Targets below it are ignored; 0 / empty means "no minimum".
inline constexpr const char *MinimumArchOption = "MinimumArch";

/// Parses "75,80,90" (also "sm_75, compute_80") into sorted unique numbers;
/// entries that are not architectures are skipped.
std::vector<unsigned> parseArchList(llvm::StringRef Text);

/// Parses a MinimumArch option value ("80", "sm_80", "compute_80"); 0 when
/// empty or invalid.
unsigned parseMinimumArch(llvm::StringRef Text);

/// The architecture of the device pass being analysed (from the target CPU,
/// "sm_75" -> 75), or 0 when this is not a CUDA device compilation.
unsigned analysedDeviceArch(const clang::ASTContext &Ctx);

/// Every architecture the compile targets, sorted, unique, never empty in a
/// device compilation: the __WARP_TIDY_TARGET_ARCHS__ list when \p PP is
/// given and the macro is defined, else the analysed device arch. Archs below
/// \p MinimumArch are dropped (when that drops them all, the minimum itself
/// is the one target). Empty only for a non-device (host) pass with neither
/// macro nor minimum.
std::vector<unsigned> targetArchs(const clang::ASTContext &Ctx, const clang::Preprocessor *PP,
                                  unsigned MinimumArch = 0);

/// The same, for callers that have a preprocessor but no AST yet (PP
/// callbacks); the target CPU comes from the preprocessor's TargetInfo.
std::vector<unsigned> targetArchs(const clang::Preprocessor &PP, unsigned MinimumArch = 0);

/// "sm_75, sm_80 and sm_90" for messages.
std::string describeArchs(const std::vector<unsigned> &Archs);

} // namespace warp_tidy

#endif
