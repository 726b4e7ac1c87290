//===--- NvccTranslation.h - nvcc command lines to clang ones -------------===//
//
// CMake writes nvcc command lines into compile_commands.json. clang rejects
// nearly every nvcc-only flag, and CMake hides include paths in
// `--options-file` response files, so feeding those lines to clang tooling
// fails. This turns an nvcc (or clang) CUDA command line into one clang 22
// accepts for a device-side analysis: nvcc flags with a clang equivalent are
// rewritten, nvcc-only flags that only affect code generation are dropped
// silently, and anything clang's own option table does not know is dropped
// and reported, so one odd flag never stops the analysis.
//
//===----------------------------------------------------------------------===//

#ifndef WARP_TIDY_TOOL_NVCCTRANSLATION_H
#define WARP_TIDY_TOOL_NVCCTRANSLATION_H

#include "CudaInstallation.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include <string>
#include <vector>

namespace warp_tidy {

struct TranslatedCommand {
  /// argv for clang (argv[0] is the compiler; the input file stays where it
  /// was). Arch flags are not included: see Archs.
  std::vector<std::string> Args;
  /// Virtual architectures the command compiles device code for, as numbers
  /// (sm_80 -> 80), sorted and unique. Empty when the command names none.
  std::vector<unsigned> Archs;
  /// True when the command names an architecture list we cannot resolve
  /// statically (`-arch=native`); the caller picks a default.
  bool HasNativeArch = false;
  /// Flags neither rewritten nor known to clang, dropped from Args.
  std::vector<std::string> Unknown;
  /// True when the command is a CUDA compile (-x cu, a .cu input, ...).
  bool IsCuda = false;

  /// argv[0] is nvcc: the code is written for what nvcc predefines.
  bool FromNvcc = false;
  /// nvcc flags that change what nvcc predefines (see nvccPredefinedMacros).
  bool RelaxedConstexpr = false; ///< --expt-relaxed-constexpr
  bool ExtendedLambda = false;   ///< --extended-lambda / --expt-extended-lambda
  bool RelocatableCode = false;  ///< -rdc=true, -dc
  bool DeviceDebug = false;      ///< -G / --device-debug
};

/// True when \p Compiler (argv[0]) is nvcc.
bool isNvcc(llvm::StringRef Compiler);

/// Translates \p Args (argv[0] included). \p Directory resolves relative
/// `--options-file` paths. \p OldestArch resolves `all`/`all-major` lists.
TranslatedCommand translateCompileCommand(llvm::ArrayRef<std::string> Args,
                                          llvm::StringRef Directory, unsigned OldestArch);

/// `-D` flags for the macros nvcc predefines in a CUDA compile and clang
/// does not: `__NVCC__`, `__CUDACC_VER_MAJOR__/_MINOR__/_BUILD__` of
/// \p Version, and the ones the command's flags switch on. Code written for
/// nvcc tests them (`#if defined(__NVCC__) && __CUDACC_VER_MAJOR__ >= 9`):
/// without them clang would analyse a branch no build compiles. Empty for
/// commands that are not nvcc's (clang's own CUDA compile defines neither).
std::vector<std::string> nvccPredefinedMacros(const TranslatedCommand &Command,
                                              const NvccVersion &Version);

/// Parses an nvcc architecture name: "sm_80", "compute_80", "sm_90a",
/// "80" -> 80. Returns 0 if it is not one.
unsigned parseArchName(llvm::StringRef Name);

} // namespace warp_tidy

#endif
