//===--- ArchGuardRecord.h - The arch guard map of a PCH's user headers ---===//
//
// When warp-tidy's shared PCH holds a unit's leading project headers
// (tool/PrecompiledPrologue.h), the unit's own parse never preprocesses
// them, so the arch guard recorder (ArchGuards.h) would miss every `#if
// __CUDA_ARCH__` branch, NV_IF_TARGET arm and skipped warp call in them.
// The PCH build runs the recorder instead, asked about every architecture a
// later parse may ask about, and writes what it saw next to the PCH
// (<pch>.guards): branches, chains and textual calls, by file path and
// offset, with per-arch masks. The recorder of every parse that loads the
// PCH puts that in front of what it records itself, which is exactly what a
// plain parse would have recorded first.
//
// A record that cannot be honoured (an arch the build did not evaluate, a
// file of the record the PCH does not hold) is an error of the parse:
// warp-tidy then answers with the plain parse.
//
//===----------------------------------------------------------------------===//

#ifndef WARP_TIDY_ANALYSIS_ARCHGUARDRECORD_H
#define WARP_TIDY_ANALYSIS_ARCHGUARDRECORD_H

#include "arch/ArchGuardMap.h"
#include "llvm/Support/JSON.h"
#include <optional>
#include <string>

namespace warp_tidy {

/// Where the record of the PCH at \p Pch lives.
std::string guardRecordPath(llvm::StringRef Pch);

/// The archs the PCH build evaluates every condition for: each real arch
/// clang knows, the compile's \p Targets and the \p Analysed arch (at most
/// 64).
std::vector<unsigned> recordedArchs(llvm::ArrayRef<unsigned> Targets, unsigned Analysed);

/// \p Map (recorded with recordedArchs) as JSON; nullopt when a location
/// in it is not a plain file location (it could not be found again).
std::optional<llvm::json::Value> guardRecordToJson(const ArchGuardMap &Map,
                                                   const clang::SourceManager &SM);

/// Puts the record's branches, chains and calls in front of \p Map's
/// (whose Archs must be known), masks translated to \p Map's archs and
/// locations to the PCH's files in \p SM. False, with \p Why, when the
/// record cannot be honoured exactly.
bool importGuardRecord(const llvm::json::Value &Record, ArchGuardMap &Map,
                       const clang::SourceManager &SM, std::string &Why);

} // namespace warp_tidy

#endif
