//===--- OutputFormats.h - JSON and SARIF reports -------------------------===//
//
// --format=json: a small documented schema (docs/integration.md).
// --format=sarif: SARIF 2.1.0 as GitHub code scanning reads it: one rule
// per check (descriptions and help URI from docs/checks/<name>.md), results
// with relative URIs, regions, partialFingerprints, fixes and notes as
// related locations; compile errors and tool failures are tool execution
// notifications, not results.
//
//===----------------------------------------------------------------------===//

#ifndef WARP_TIDY_TOOL_OUTPUTFORMATS_H
#define WARP_TIDY_TOOL_OUTPUTFORMATS_H

#include "clang-tidy/ClangTidyDiagnosticConsumer.h"
#include "llvm/Support/raw_ostream.h"
#include <map>
#include <string>
#include <vector>

namespace warp_tidy {

/// What happened to one input file.
struct FileReport {
  std::string Path;
  std::string Status;                ///< analysed, cached, failed, crashed, skipped
  std::vector<std::string> Messages; ///< Tool errors / notes for this file.
  std::vector<unsigned> ArchPasses;  ///< Archs analysed (ArchPasses.h);
                                     ///< empty when cached or not analysed.
};

struct Report {
  llvm::ArrayRef<clang::tidy::ClangTidyError> Errors; ///< Merged, deduplicated.
  llvm::ArrayRef<FileReport> Files;
  std::vector<std::string> EnabledChecks;
  std::string ToolVersion;
  std::string SourceRoot; ///< Absolute; URIs are made relative to it.
  /// Absolute; fingerprints name files relative to it (the repository's
  /// top directory by default), so a baseline matches from any directory.
  std::string FingerprintRoot;
  std::string HelpBase; ///< helpUri = HelpBase + <name without warp->.md
  double Seconds = 0;
  unsigned CacheHits = 0, CacheMisses = 0;
  bool ToolErrors = false; ///< Any file failed, crashed or did not compile.
};

/// Short and full description of a check, from its docs/checks page
/// embedded at build time; false if the check has no page.
bool checkDescription(llvm::StringRef Check, std::string &Short, std::string &Full);

/// The whole docs/checks page of a check (Markdown), "" if it has none.
std::string checkPage(llvm::StringRef Check);

/// Fingerprints of findings: SARIF's partialFingerprints
/// "warpTidyFingerprint/v1", JSON's "fingerprint", the keys of a --baseline.
/// A hash of the rule, the file relative to the source root, the flagged
/// line's text and the message, plus an occurrence count among identical
/// ones: stable across edits elsewhere in the file and across checkouts.
/// Feed the findings in report order.
class Fingerprinter {
public:
  explicit Fingerprinter(llvm::StringRef SourceRoot);
  std::string operator()(const clang::tidy::ClangTidyError &E);

private:
  std::string Root; ///< Ends with '/' (or is empty).
  std::map<std::string, unsigned> Occurrences;
  std::map<std::string, std::string> Contents;
};

void writeJsonReport(const Report &R, llvm::raw_ostream &OS);
void writeSarifReport(const Report &R, llvm::raw_ostream &OS);

/// Applies the fix-its of \p Errors (as handleErrors would, through
/// clang-tidy's getFixIt, then clang-format's cleanup around them and, unless
/// \p StyleFor gives "none", formatting in that style: --format-style) and
/// writes each changed file through a temporary file and a rename. Returns
/// the number of fix-its applied; \p Total gets the number found. Messages
/// go to stderr.
unsigned applyFixes(llvm::ArrayRef<clang::tidy::ClangTidyError> Errors, bool AnyFix,
                    llvm::function_ref<std::string(llvm::StringRef File)> StyleFor, unsigned &Total,
                    bool &Failed);

/// \p File made absolute against \p BuildDirectory (a diagnostic's or fix's
/// path as clang-tidy records it), with `..` resolved through the file
/// system; "" for an empty path. One spelling per file for dedupe and output.
std::string absolutePath(llvm::StringRef File, llvm::StringRef BuildDirectory);

} // namespace warp_tidy

#endif
