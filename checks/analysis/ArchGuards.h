//===--- ArchGuards.h - Which target archs compile each piece of code -----===//
//
// clang parses one device pass (the lowest target arch); code under
// `#if __CUDA_ARCH__ >= 800` or in an NV_IF_TARGET(NV_PROVIDES_SM_80, ...)
// branch is simply absent from that pass. This recorder watches the
// preprocessor and builds, for every conditional branch in user code, the
// set of *target* architectures that compile it:
//   * `#if/#elif/#ifdef/#ifndef/#else/#endif` chains, their conditions
//     re-evaluated for each arch with ArchConditions (macros, defined(),
//     &&/||, comparisons); for the analysed arch the preprocessor's own
//     answer is used, so the two never disagree;
//   * NV_IF_TARGET / NV_IF_ELSE_TARGET / NV_DISPATCH_TARGET (from
//     <nv/target>), whose branches clang selects in the preprocessor too;
//   * text the analysed pass skipped is lexed raw: nested directives build
//     nested branches, and calls of arch-limited warp intrinsics found there
//     are recorded as TextualCall so checks can judge code clang never parsed.
// A location's architectures are the intersection over the branches that
// contain it. Sets are bit masks over the target list (bit i = Archs[i]);
// each comes as "definitely" and "possibly" (unknown conditions) masks.
//
//===----------------------------------------------------------------------===//

#ifndef WARP_TIDY_ANALYSIS_ARCHGUARDS_H
#define WARP_TIDY_ANALYSIS_ARCHGUARDS_H

#include "ArchConditions.h"
#include "WarpIntrinsics.h"
#include "clang/Basic/SourceLocation.h"
#include "clang/Lex/PPCallbacks.h"
#include "llvm/ADT/StringMap.h"
#include <memory>
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
  std::string Condition;       ///< As written, for messages.
  bool Compiled = false;       ///< This parse's preprocessor took the branch
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
  clang::SourceLocation Loc;   ///< The intrinsic's name.
  const WarpIntrinsic *Intrinsic = nullptr;
  std::string AssignedVar;     ///< `x = ...call...;` / `x += ...`: "x".
  bool SimpleReduction = false;///< Exactly `x = __reduce_op_sync(mask, x);`.
  std::string MaskText;        ///< The mask argument as written.
  std::optional<int64_t> MaskValue; ///< When it folds to a constant.
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

  uint64_t allArchs() const {
    return Archs.size() >= 64 ? ~0ull : ((1ull << Archs.size()) - 1);
  }
  /// The archs compiling the code at \p FileLoc (a file location).
  ArchMask archsAt(clang::SourceLocation FileLoc,
                   const clang::SourceManager &SM) const;
  /// Indices of branches containing \p FileLoc, outermost first.
  std::vector<unsigned> branchesAt(clang::SourceLocation FileLoc,
                                   const clang::SourceManager &SM) const;
};

/// Creates the recorder. \p Map is filled as preprocessing proceeds; the
/// target list is read (TargetArchs) when the first directive is seen, so
/// command-line macros are defined by then.
std::unique_ptr<clang::PPCallbacks>
makeArchGuardRecorder(clang::Preprocessor &PP, std::shared_ptr<ArchGuardMap> Map,
                      unsigned MinimumArch);

} // namespace warp_tidy

#endif
