//===--- ArchPasses.h - Analyse every arch path the source distinguishes --===//
//
// clang parses a CUDA unit for one device architecture. warp-tidy's compile
// commands pick the lowest target (sm_75 by default), so code under
// `#if __CUDA_ARCH__ >= 900`, or in an NV_IF_TARGET(NV_PROVIDES_SM_90, ...)
// arm (clang resolves <nv/target> through __CUDA_ARCH__ in the preprocessor),
// never reaches the checks. This runs the analysis once more for each
// architecture that compiles warp code the earlier passes skipped:
//
//   * pass 1 runs at the command's own arch, exactly as before; its
//     preprocessor records (ArchGuards) every conditional of user code with
//     the candidate archs that take each branch, and the text the pass
//     skipped is scanned for warp code: a warp intrinsic, `asm`, a
//     `#define`/`#undef`/`#include` (it may change warp code elsewhere), or a
//     call of a function that may reach a warp collective (decided on the
//     pass's AST once it is built);
//   * when such skipped warp code exists, the arch that compiles most of it
//     gets the next pass (targets first); until every piece some candidate
//     arch compiles has been analysed once, or a bound on passes is reached;
//   * a file whose arch conditions skip no warp code costs one pass.
//
// Findings of all passes are merged (same check, place and message: one
// finding); one found in some passes only names, in its message, the archs it
// holds for and says when none of them is a target of the build.
// warp-missing-arch-guard runs in pass 1 only: it already judges every target
// arch from the text, and a higher pass would only repeat it.
//
// Only the warp-tidy CLI does this; the clang-tidy plugin and warp-clangd
// analyse the one arch of their command.
//
//===----------------------------------------------------------------------===//

#ifndef WARP_TIDY_TOOL_ARCHPASSES_H
#define WARP_TIDY_TOOL_ARCHPASSES_H

#include "PrecompiledPrologue.h"
#include "clang-tidy/ClangTidyDiagnosticConsumer.h"
#include "clang/Tooling/CompilationDatabase.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/VirtualFileSystem.h"
#include <string>
#include <vector>

namespace warp_tidy {

/// What the passes over one file did, for --pass-stats and the JSON report.
struct ArchPassSummary {
  std::vector<unsigned> Passes;  ///< Archs analysed, in order (pass 1 first).
  std::vector<unsigned> Targets; ///< The build's targets (pass 1's view).
  unsigned SkippedWarpSites = 0; ///< Pieces of warp code pass 1 skipped.
  unsigned UncoveredSites = 0;   ///< Still unanalysed (no candidate arch,
                                 ///< or the bound on passes was reached).
  unsigned PassLimit = 6;        ///< The bound on passes (--max-arch-passes).
};

/// Runs the clang-tidy analysis of \p File over every arch variant that
/// compiles warp code (see above). Replaces clang-tidy's runClangTidy for one
/// file; \p Context is the context of pass 1. Every pass parses with the
/// shared prologue when \p Prologue allows it; \p Outcome is pass 1's, with
/// the prologue dependencies of every pass. At most \p PassLimit passes run
/// (1: the command's arch only).
std::vector<clang::tidy::ClangTidyError>
runArchPasses(clang::tidy::ClangTidyContext &Context,
              const clang::tooling::CompilationDatabase &Database, llvm::StringRef File,
              llvm::IntrusiveRefCntPtr<llvm::vfs::OverlayFileSystem> BaseFS, bool ApplyAnyFix,
              const PrologueSettings &Prologue, PrologueOutcome &Outcome, unsigned PassLimit,
              ArchPassSummary &Summary);

/// "1 analysis pass (sm_75)" / "2 analysis passes (sm_75, sm_90: ...)".
std::string describeArchPasses(const ArchPassSummary &Summary);

/// The summary as the worker hands it to the parent, and back.
llvm::json::Value archPassSummaryToJson(const ArchPassSummary &Summary);
bool archPassSummaryFromJson(const llvm::json::Value *Value, ArchPassSummary &Summary);

/// The archs a merged finding's message names ("[holds for ...]"), as
/// "sm_90" strings; empty for a finding that holds for every analysed arch.
std::vector<std::string> archsOfFinding(llvm::StringRef Message);

/// The device architectures clang can analyse with this toolkit, ascending
/// (the candidates of extra passes).
llvm::ArrayRef<unsigned> knownDeviceArchs();

} // namespace warp_tidy

#endif
