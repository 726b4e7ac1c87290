//===--- SkippedWarpCode.h - Warp code in text a pass did not compile -----===//
//
// An analysis pass at one arch skips the branches of `#if __CUDA_ARCH__ ...`
// (and NV_IF_TARGET) that other archs compile. ArchPasses runs another pass
// only where that skipped text holds warp code; this finds it, on the raw
// text and pass 1's AST:
//
//   * a warp intrinsic or a warp library name (cub, WarpReduce,
//     tiled_partition, ...) is warp code outright;
//   * `asm` is warp code unless its template is plain string literals in
//     which the checks' own PTX reader finds no collective and no
//     lane-varying register (`mma.sync`, `ldmatrix`, `cvt`: outputs computed
//     from operands, scalar code to the analysis);
//   * `name(` is warp code when a user function of that name may reach a
//     warp collective (it calls one, holds asm that matters by the same
//     rule, or calls such a function);
//   * `#include` may bring in anything: warp code;
//   * `#define NAME` / `#undef NAME` changes other code only through NAME:
//     warp code when NAME was ever a macro in this pass (its expansions may
//     change; not when both definitions stand for qualifiers alone, such as
//     `__restrict__` or nothing), or when a conditional of user code tests
//     NAME and some branch of that conditional holds warp code (by these
//     same rules). ggml's
//     `#define BLACKWELL_MMA_AVAILABLE` under an sm_120 condition, tested
//     only around scalar fp8 code, is then no reason for a whole pass.
//
// All of these lean towards another pass: a pass that finds nothing costs
// time, a path never analysed costs findings. Names are judged by name
// (overloads, methods of other classes count alike).
//
//===----------------------------------------------------------------------===//

#ifndef WARP_TIDY_TOOL_SKIPPEDWARPCODE_H
#define WARP_TIDY_TOOL_SKIPPEDWARPCODE_H

#include "arch/ArchGuards.h"
#include "clang/AST/ASTContext.h"
#include "clang/Lex/Preprocessor.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"
#include <optional>
#include <string>
#include <vector>

namespace warp_tidy {

/// Finds warp code in the text one pass skipped. Built once the pass's AST
/// is complete (the call graph and the macro table are final).
class SkippedWarpCode {
public:
  SkippedWarpCode(clang::ASTContext &Ctx, clang::Preprocessor &PP, const ArchGuardMap &Map);

  /// The pieces of [Begin, End) of \p File: those that are (or may reach)
  /// warp code, and the other calls and macro directives (skipped here, but
  /// judged anew by any later pass that skips them too).
  struct Pieces {
    std::vector<unsigned> Warp, Other;
  };
  Pieces scan(clang::FileID File, unsigned Begin, unsigned End);

private:
  /// `#define NAME ...` / `#undef NAME`.
  struct MacroPiece {
    unsigned Offset = 0;
    std::string Name;
    bool QualifiersOnly = true; ///< its tokens are qualifier words or none
  };
  struct Tokens {
    std::vector<unsigned> Direct;                        ///< warp code as written
    std::vector<std::pair<unsigned, std::string>> Calls; ///< `name(`
    std::vector<MacroPiece> Macros;
  };
  Tokens lex(clang::FileID File, unsigned Begin, unsigned End) const;
  bool reaches(llvm::StringRef Callee);
  bool macroMayChangeWarpCode(const MacroPiece &Macro, unsigned Depth);
  bool holdsWarpCode(clang::FileID File, unsigned Begin, unsigned End, unsigned Depth);

  clang::ASTContext &Ctx;
  clang::Preprocessor &PP;
  const ArchGuardMap &Map;
  std::optional<llvm::StringSet<>> Reaching; ///< built on first use
  llvm::StringMap<bool> MacroVerdicts;
};

} // namespace warp_tidy

#endif
