//===--- ScanConsumers.h - Which lanes use a warp scan's result -----------===//
//
// An unguarded Hillis-Steele scan (offsets 1, 2, 4, ... up to half the
// segment) leaves wrong values in most lanes, but not in all: the last lane
// of each segment (an up-scan) or the first (a suffix scan with
// __shfl_down_sync) combines only partners that exist at every step, so its
// value is the exact total. Code that scans only to get that total (`total =
// __shfl_sync(full, v, 31)`, `if (lane == 31) out = v;`) is correct. These
// queries decide whether every use of the scanned value is such a use.
//
//===----------------------------------------------------------------------===//

#ifndef WARP_TIDY_ANALYSIS_SCANCONSUMERS_H
#define WARP_TIDY_ANALYSIS_SCANCONSUMERS_H

namespace clang {
class ASTContext;
class CallExpr;
class Stmt;
class VarDecl;
} // namespace clang

namespace warp_tidy {

/// The lanes whose scanned value is exact: lane position \p ExactPosition of
/// every \p Width-lane segment (Width divides 32).
struct ExactLanes {
  unsigned Width = 32;
  unsigned ExactPosition = 31;
};

/// True when every read of \p Acc (the accumulator of the scan that
/// \p Shuffle belongs to; \p ScanLoop the loop holding the scan step, or
/// null for straight-line steps) outside the scan itself is made only by
/// exact lanes or reads the value of an exact lane, directly, through a
/// local variable, or through the function's return value at every call in
/// the translation unit. False when any use may take a wrong lane's value,
/// or when a use cannot be judged.
bool onlyExactLanesUseScan(const clang::CallExpr *Shuffle, const clang::VarDecl *Acc,
                           const clang::Stmt *ScanLoop, ExactLanes Exact, clang::ASTContext &Ctx);

} // namespace warp_tidy

#endif
