//===--- ArchConditions.h - Evaluate #if conditions for any __CUDA_ARCH__ -===//
//
// clang's preprocessor evaluates each `#if` once, for the architecture being
// analysed. warp-missing-arch-guard needs the answer for every target
// architecture, so this is a small, independent evaluator of preprocessor
// conditions over plain tokens: macros (object- and function-like) are
// expanded through a caller-supplied table, `defined X` / `defined(X)` work,
// and `__CUDA_ARCH__` takes the value of the architecture asked about (or is
// undefined, for the host pass). Anything it cannot evaluate (`__has_include`,
// token pasting, character literals) makes the result unknown rather than
// wrong, so callers can stay silent.
//
// No clang dependency: the checks convert clang tokens to CondToken; unit
// tests build them from text with lexConditionText().
//
//===----------------------------------------------------------------------===//

#ifndef WARP_TIDY_ANALYSIS_ARCHCONDITIONS_H
#define WARP_TIDY_ANALYSIS_ARCHCONDITIONS_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace warp_tidy {

struct CondToken {
  enum KindT { Number, Identifier, Punct, Other } Kind = Other;
  std::string Text;
  int64_t Value = 0; ///< For numbers.
  bool IsUnsigned = false;
};

struct CondMacro {
  bool FunctionLike = false;
  std::vector<std::string> Params;
  bool Variadic = false;
  std::vector<CondToken> Body;
};

/// Finds the definition of a macro (nullptr when undefined). Never asked
/// about __CUDA_ARCH__, which the evaluator owns.
using MacroLookup = std::function<const CondMacro *(llvm::StringRef)>;

/// Converts one token's spelling into a CondToken (numbers parsed, suffixes
/// dropped).
CondToken makeCondToken(llvm::StringRef Spelling, bool IsIdentifier, bool IsNumber);

/// A tiny lexer for tests and for macro bodies given as text.
std::vector<CondToken> lexConditionText(llvm::StringRef Text);

/// Evaluates \p Tokens as an `#if` condition with `__CUDA_ARCH__` defined as
/// \p CudaArch (e.g. 800) or undefined when \p CudaArch is nullopt. Returns
/// the value, or nullopt when the condition cannot be evaluated.
std::optional<int64_t> evaluateCondition(llvm::ArrayRef<CondToken> Tokens,
                                         const MacroLookup &Macros,
                                         std::optional<unsigned> CudaArch);

/// Whether the value of \p Tokens may differ from one architecture to
/// another with the macro table \p Macros: its expansion names
/// `__CUDA_ARCH__` (or another `__CUDA_ARCH*` macro) or asks whether a
/// builtin exists or the target is some processor (`__has_builtin`,
/// `__is_target_*`: NVPTX builtins come with sm_/ptx features), or it
/// cannot be expanded (pasting, stringising, unbalanced calls). A condition
/// that reads none of these (`__has_include(<x>)`,
/// `__has_cpp_attribute(nodiscard)`, `FMT_VERSION > 9`) has, with the same
/// table, one value at every architecture: the one this pass's preprocessor
/// gave it, even where evaluateCondition cannot compute it.
bool conditionReadsArch(llvm::ArrayRef<CondToken> Tokens, const MacroLookup &Macros);

/// Expands macros in \p Tokens (the same rules as evaluateCondition) and
/// evaluates the result as an integer constant expression; used for mask
/// arguments written in code that the analysed pass skipped.
std::optional<int64_t> evaluateExpression(llvm::ArrayRef<CondToken> Tokens,
                                          const MacroLookup &Macros);

/// Which architectures an `NV_IF_TARGET` condition (`NV_PROVIDES_SM_80`,
/// `NV_IS_EXACTLY_SM_75`, `NV_IS_DEVICE`, `NV_IS_HOST`, `NV_ANY_TARGET`,
/// `NV_NO_TARGET`) selects for device arch \p Arch (75 = sm_75); nullopt when
/// the name is not one of those.
std::optional<bool> evaluateNvTarget(llvm::StringRef Condition, unsigned Arch);

} // namespace warp_tidy

#endif
