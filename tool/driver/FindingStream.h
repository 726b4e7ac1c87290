//===--- FindingStream.h - Findings printed as files finish ---------------===//
//
// Output is streamed: a file's diagnostics are printed as soon as it and
// every file before it are finished, so a run killed half-way has shown
// what it found, and the order never depends on timing. On the way, the
// same header diagnostic reached through several units is kept once, the
// findings a --baseline records are dropped, and a unit that does not
// compile is reported as that file's error (CompileFailure.h).
//
//===----------------------------------------------------------------------===//

#ifndef WARP_TIDY_TOOL_DRIVER_FINDINGSTREAM_H
#define WARP_TIDY_TOOL_DRIVER_FINDINGSTREAM_H

#include "OutputFormats.h"
#include "clang-tidy/ClangTidyDiagnosticConsumer.h"
#include "driver/FileStates.h"
#include "driver/Options.h"
#include "driver/Progress.h"
#include "llvm/ADT/StringMap.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/VirtualFileSystem.h"
#include <string>
#include <vector>

namespace warp_tidy::driver {

class FindingStream {
public:
  FindingStream(const DriverOptions &Opts, clang::tidy::ClangTidyContext &Context, Progress &Bar,
                bool SingleFile);

  /// --baseline (unless it is being updated): reads its fingerprints; false
  /// (an error printed) if it cannot be read.
  bool loadBaseline();

  /// Prints the files of \p States finished since the last call whose
  /// predecessors are all finished.
  void printFinished(std::vector<FileState> &States);

  /// The diagnostics printed so far, deduplicated, in file order. A
  /// duplicate's notes that the kept one lacks (another caller's path to a
  /// shared helper) are added to it: in text, where the kept one is printed
  /// with the same file; in JSON and SARIF, always.
  std::vector<clang::tidy::ClangTidyError> &errors() { return Errors; }
  /// What SARIF URIs and fingerprints are relative to (--source-root).
  const std::string &sourceRoot() const { return SourceRoot; }
  const std::string &fingerprintRoot() const { return FingerprintRoot; }
  /// Findings left out because the baseline records them.
  size_t baselined() const { return Baselined; }

private:
  void print(FileState &S);
  std::vector<clang::tidy::ClangTidyError> newFindings(FileState &S);
  void reportCompileFailure(FileState &S);

  const DriverOptions &Opts;
  clang::tidy::ClangTidyContext &Context;
  Progress &Bar;
  bool SingleFile;
  bool UseBaseline;
  std::string SourceRoot;
  std::string FingerprintRoot;
  llvm::IntrusiveRefCntPtr<llvm::vfs::OverlayFileSystem> DiagnosticFS;
  /// Each finding kept so far, by dedupeKey: its index in Errors, or
  /// NotKept when the baseline left it out.
  llvm::StringMap<size_t> Seen;
  static constexpr size_t NotKept = ~size_t(0);
  llvm::StringSet<> Baseline;
  Fingerprinter Fingerprint;
  size_t Baselined = 0;
  std::vector<clang::tidy::ClangTidyError> Errors;
  size_t NextToPrint = 0;
  unsigned WarningsAsErrorsCount = 0;
};

} // namespace warp_tidy::driver

#endif
