//===--- Baseline.h - Findings a project has accepted for now -------------===//
//
// Adopting a linter on a codebase with hundreds of old findings: record them
// once (--update-baseline), then report only new ones (--baseline). A
// finding is matched by its fingerprint (Fingerprinter: rule, file relative
// to --source-root or else the git work tree's top, the flagged line's text,
// message), so it stays matched when code above it moves or the tool runs
// from another directory, and a new finding on a changed line is new.
//
//===----------------------------------------------------------------------===//

#ifndef WARP_TIDY_TOOL_BASELINE_H
#define WARP_TIDY_TOOL_BASELINE_H

#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/StringSet.h"
#include <string>

namespace warp_tidy {

/// Reads the fingerprints of a warp-tidy report, SARIF (results'
/// partialFingerprints) or JSON (diagnostics' "fingerprint"). False, with
/// \p Why, if the file cannot be read or is neither.
bool loadBaseline(llvm::StringRef Path, llvm::StringSet<> &Fingerprints, std::string &Why);

/// A baseline file is written as SARIF when its name ends in .sarif, else as JSON.
bool baselineIsSarif(llvm::StringRef Path);

} // namespace warp_tidy

#endif
