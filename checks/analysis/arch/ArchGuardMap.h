//===--- ArchGuardMap.h - The target archs of each piece of code -*- C++ -*-===//
//
// What the arch guard recorder (ArchGuards.h) finds, and what the checks and
// the PCH's guard record (ArchGuardRecord.h) read: the conditional branches
// of user code, each with the set of target architectures that compile it,
// and the calls of arch-limited intrinsics found in text the analysed pass
// skipped. A location's architectures are the intersection over the
// branches that contain it. Sets are bit masks over the target list (bit i =
// Archs[i]); each comes as "definitely" and "possibly" (unknown conditions)
// masks.
//
//===----------------------------------------------------------------------===//

#ifndef WARP_TIDY_ARCH_ARCHGUARDMAP_H
#define WARP_TIDY_ARCH_ARCHGUARDMAP_H

#include "arch/ArchConditions.h"
#include "intrinsics/WarpIntrinsics.h"
#include "clang/Basic/SourceLocation.h"
#include <string>
#include <vector>

namespace clang {
class Preprocessor;
class SourceManager;
} // namespace clang

namespace warp_tidy {

/// A set of target archs: Definite ⊆ Possible.
struct ArchMask {
  uint64_t Definite = 0;
  uint64_t Possible = 0;
  ArchMask operator&(const ArchMask &O) const {
    return {Definite & O.Definite, Possible & O.Possible};
  }
};

enum class GuardKind { PreprocessorIf, NvTarget };

/// One branch of a conditional chain, in one file.
struct GuardBranch {
  clang::FileID File;
  unsigned Begin = 0, End = 0; ///< Offsets: the branch's text (directive on).
  ArchMask Own;                ///< Archs taking this branch, given the chain
                               ///< is reached (earlier branches excluded).
  unsigned Chain = 0;          ///< Index into chains().
  bool Else = false;           ///< `#else` or NV_IF_ELSE_TARGET's else arm.
  clang::SourceLocation DirectiveLoc;
  std::string Condition; ///< As written, for messages.
  bool Compiled = false; ///< This parse's preprocessor took the branch
                         ///< (false for branches of skipped text).
};

struct GuardChain {
  GuardKind Kind = GuardKind::PreprocessorIf;
  clang::SourceLocation Begin; ///< `#if` / the NV_ macro name.
  clang::SourceLocation End;   ///< `#endif` / the closing parenthesis.
  bool HasElse = false;
  std::vector<unsigned> Branches;
};

/// An arch-limited intrinsic call (or inline PTX instruction) found in text
/// clang did not parse.
struct TextualCall {
  clang::SourceLocation Loc; ///< The intrinsic's name.
  const WarpIntrinsic *Intrinsic = nullptr;
  std::string AssignedVar;                  ///< `x = ...call...;` / `x += ...`: "x".
  bool SimpleReduction = false;             ///< Exactly `x = __reduce_op_sync(mask, x);`.
  std::string MaskText;                     ///< The mask argument as written.
  std::optional<int64_t> MaskValue;         ///< When it folds to a constant.
  clang::SourceLocation StmtBegin, StmtEnd; ///< The statement (to its ';').
  /// Set for an instruction of an inline asm template ("redux.sync.add.s32"),
  /// then Loc is the template's first string and AssignedVar the variable of
  /// its single output operand.
  std::string PtxInstruction;
};

class ArchGuardMap {
public:
  std::vector<unsigned> Archs; ///< The target list the masks refer to.
  unsigned AnalysedArch = 0;
  std::vector<GuardBranch> Branches;
  std::vector<GuardChain> Chains;
  std::vector<TextualCall> Calls;

private:
  bool TargetsRead = false;

public:
  /// Reads the target list and the analysed arch from \p PP (once command
  /// line macros are defined). The recorder does this at the first directive;
  /// clangd replays no directive of the preamble, so a main file without
  /// `#if` gets it at the end of the translation unit instead.
  void readTargets(const clang::Preprocessor &PP, unsigned MinimumArch);
  bool hasTargets() const { return TargetsRead; }
  /// Uses \p Archs instead of the target list (warp-tidy's arch passes ask
  /// about every architecture the source may distinguish, not only the
  /// targets); \p Analysed is the arch of the pass. Call before
  /// preprocessing starts.
  void useArchs(std::vector<unsigned> Archs, unsigned Analysed);

  uint64_t allArchs() const { return Archs.size() >= 64 ? ~0ull : ((1ull << Archs.size()) - 1); }
  /// The archs compiling the code at \p FileLoc (a file location).
  ArchMask archsAt(clang::SourceLocation FileLoc, const clang::SourceManager &SM) const;
  /// Indices of branches containing \p FileLoc, outermost first.
  std::vector<unsigned> branchesAt(clang::SourceLocation FileLoc,
                                   const clang::SourceManager &SM) const;
};

} // namespace warp_tidy

#endif
