//===--- PrecompiledPrologue.h - A shared PCH of the implicit CUDA prologue ===//
//
// Most of the parse of a small CUDA unit is not its own code: every device
// pass first reads clang's CUDA runtime wrapper (and the toolkit headers it
// pulls in) and warp-tidy's arch shims, forced in with `-include`, and real
// projects start every unit with the same few `#include`s of their own
// headers. That depends only on the compile flags and those lines, so it is
// parsed once into a precompiled header, kept in the cache directory next
// to the result cache, and loaded by every unit (and every later run) with
// the same key.
//
//   key      = hash(clang's version, the cc1 invocation of the device pass
//              without its input and output names, the working directory
//              [, the unit's leading #include lines (LeadingIncludes.h), the
//              directory of its main file, the warp-tidy binary])
//   <key>.pch        the PCH, built from <key>.pch.cu with exactly the unit's
//                    flags: an empty unit after the prologue `-include`s,
//                    or the leading lines after every `-include` (with
//                    `-iquote <main file's directory>` first, so that quoted
//                    includes find what they find from the unit);
//   <key>.pch.deps   its content hash and every file it was built from
//                    (size, mtime, content hash): a changed header rebuilds
//                    it, and the result cache records them as the unit's
//                    dependencies;
//   <key>.pch.guards with leading lines: the arch guard map of the headers
//                    in it (analysis/ArchGuardRecord.h), tied to the PCH's
//                    hash;
//   <key>.pch.lock   held by the one process building it (others wait a
//                    bounded time, then parse plainly);
//   <key>.pch.failed a build that failed: the units parse plainly for a
//                    while instead of retrying.
//
// A unit whose PCH holds its leading lines is parsed from the end of those
// lines (the preprocessor's preamble skip), so each header is read as often
// as in a plain parse, include guard or not. How many lines: all of them for
// a single unit; in a run over several, those it shares with another unit
// (PrologueSettings::LeadingLines), else none (the prologue alone), except
// for units an earlier run saw, which get all of theirs within a budget
// (pchLinesForRun in LeadingIncludes.h).
//
// What the checks see is what a plain parse gives them. Their traversal
// (ASTContext::setTraversalScope, as clangd does for its preamble ASTs)
// covers the declarations parsed after the PCH and, when it holds leading
// lines, every top-level declaration of its non-system files, found file by
// file (ExternalASTSource::FindFileRegionDecls) so that the system headers
// in it stay unread; bodies and types load when the analysis asks. The arch
// guard recorders of the parse put the PCH's guard record in front of what
// they record themselves.
//
// Never a wrong answer: any error in a PCH-backed parse (a PCH clang
// rejects, a stale or corrupt file, a guard record that cannot be honoured,
// or a unit that does not compile) makes the plain parse give the answer.
//
//===----------------------------------------------------------------------===//

#ifndef WARP_TIDY_TOOL_PRECOMPILEDPROLOGUE_H
#define WARP_TIDY_TOOL_PRECOMPILEDPROLOGUE_H

#include "ResultCache.h"
#include "clang-tidy/ClangTidyDiagnosticConsumer.h"
#include "clang/Tooling/CompilationDatabase.h"
#include "llvm/Support/VirtualFileSystem.h"
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace clang {
class ASTConsumer;
class CompilerInstance;
} // namespace clang

namespace warp_tidy {

struct PrologueSettings {
  /// Where the PCHs live (<cache dir>/pch); empty: no PCH.
  std::string Directory;
  /// How long a unit waits for another process building its PCH before it
  /// parses plainly.
  unsigned WaitSeconds = 60;
  /// How many of the unit's leading #include lines the PCH may hold (a
  /// whole-project run gives each unit the ones it shares with another).
  size_t LeadingLines = SIZE_MAX;
};

/// What the prologue did for one analysis.
struct PrologueOutcome {
  enum Kind {
    Off,      ///< No PCH was tried (--no-pch, no prologue, no directory).
    Used,     ///< The answer came from a PCH-backed parse.
    Plain,    ///< No usable PCH (a failed build, a wait that ran out).
    FellBack, ///< The PCH-backed parse had errors: the plain parse answered.
  } What = Off;
  std::string Why; ///< For Plain and FellBack.
  /// The files the PCH was built from, as they were then: dependencies of
  /// the result (the analysis itself no longer opens them).
  std::vector<FileStamp> Deps;
  /// PCH files the analysis opened; not dependencies of its result.
  bool isPrologueFile(llvm::StringRef Path) const;
  std::string Directory;
};

/// The PCH directory inside the cache directory \p CacheDir.
std::string prologueDirectory(llvm::StringRef CacheDir);

/// How many distinct PCHs of a unit's whole leading block a run over
/// several units may build into the cache directory \p CacheDir, bounded
/// to \p CacheBytes (pchLinesForRun in LeadingIncludes.h): half the bound,
/// over the mean size of the PCHs with leading lines already there (32 MiB
/// if none), so that they and the shared ones fit without the least
/// recently used eviction taking one out for another each run.
size_t wholeBlockPchBudget(llvm::StringRef CacheDir, uint64_t CacheBytes);

/// Appends to \p Deps the stamps of \p More whose paths it lacks.
void mergeStamps(std::vector<FileStamp> &Deps, llvm::ArrayRef<FileStamp> More);

/// Adds to the checks' consumer of one parse (ArchPasses records the arch
/// conditions there); called for every parse, the plain fallback included.
using ConsumerHook = std::function<std::unique_ptr<clang::ASTConsumer>(
    clang::CompilerInstance &, llvm::StringRef File, std::unique_ptr<clang::ASTConsumer> Checks)>;

/// clang-tidy's runClangTidy for one file, with the shared prologue when
/// \p Settings allows it.
std::vector<clang::tidy::ClangTidyError>
runClangTidyWithPrologue(clang::tidy::ClangTidyContext &Context,
                         const clang::tooling::CompilationDatabase &Database, llvm::StringRef File,
                         llvm::IntrusiveRefCntPtr<llvm::vfs::OverlayFileSystem> BaseFS,
                         bool ApplyAnyFix, const PrologueSettings &Settings,
                         PrologueOutcome &Outcome, const ConsumerHook &Hook = nullptr);

} // namespace warp_tidy

#endif
