//===--- ExitStatus.h - warp-tidy's exit statuses -------------------------===//
//
// What scripts and CI read from a run (README.md documents them): findings
// (1) are told apart from usage and tool errors (2). A worker process has
// one more status of its own, which its parent turns into a message.
//
//===----------------------------------------------------------------------===//

#ifndef WARP_TIDY_TOOL_DRIVER_EXITSTATUS_H
#define WARP_TIDY_TOOL_DRIVER_EXITSTATUS_H

namespace warp_tidy::driver {

enum ExitStatus { ExitClean = 0, ExitFindings = 1, ExitToolError = 2 };

/// A worker that hit --memory-limit exits with this (never seen by users).
constexpr int ExitOutOfMemory = 3;

} // namespace warp_tidy::driver

#endif
