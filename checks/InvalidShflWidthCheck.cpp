//===--- InvalidShflWidthCheck.cpp - warp-invalid-shfl-width --------------===//

#include "InvalidShflWidthCheck.h"
#include "intrinsics/CollectiveCalls.h"
#include "intrinsics/InlinePtx.h"
#include "intrinsics/WarpCollective.h"
#include "matchers/CheckMatchers.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"
#include "llvm/Support/MathExtras.h"

using namespace clang;
using namespace clang::ast_matchers;

namespace warp_tidy {

void InvalidShflWidthCheck::registerMatchers(MatchFinder *Finder) {
  Finder->addMatcher(callExpr(calleeNamedAnyOf({"__shfl_sync", "__shfl_up_sync", "__shfl_down_sync",
                                                "__shfl_xor_sync", "__shfl", "__shfl_up",
                                                "__shfl_down", "__shfl_xor"}),
                              unless(isExpansionInSystemHeader()),
                              unless(isInDiscardedConstexprBranch()))
                         .bind("call"),
                     this);
  // shfl.sync written as inline PTX; its `c` operand encodes the width.
  Finder->addMatcher(
      asmStmt(unless(isExpansionInSystemHeader()), unless(isInDiscardedConstexprBranch()))
          .bind("asm"),
      this);
}

void InvalidShflWidthCheck::check(const MatchFinder::MatchResult &Result) {
  const Stmt *At = Result.Nodes.getNodeAs<CallExpr>("call");
  if (!At)
    At = Result.Nodes.getNodeAs<GCCAsmStmt>("asm");
  for (const WarpCollective &Collective : warpCollectivesAt(At))
    if (Collective.Intrinsic->Kind == CollectiveKind::Shuffle)
      checkShuffle(Collective, Result);
}

static std::string hex(int64_t Value) {
  char Buf[32];
  snprintf(Buf, sizeof Buf, "0x%llx", static_cast<unsigned long long>(Value) & 0xffffffffull);
  return Buf;
}

// The width the shuffle works with: the `width` argument (32 when
// defaulted), or for inline PTX what the control operand `c` encodes.
// std::nullopt after reporting an invalid one.
std::optional<int64_t> InvalidShflWidthCheck::shuffleWidth(const WarpCollective &C,
                                                           const ASTContext &Ctx,
                                                           const SourceManager &SM) {
  if (C.isInlinePtx()) {
    std::optional<int64_t> Control = C.ShuffleControl.constant(Ctx);
    if (!Control)
      return 32; // unknown: judge offsets against the widest segment
    if (std::optional<unsigned> W = shuffleWidthFromControl(static_cast<uint64_t>(*Control)))
      return *W;
    SourceLocation Loc = SM.getFileLoc(C.operandLoc(C.ShuffleControl));
    if (firstReportAt(Loc))
      diag(Loc, "%0 control operand %1 has segment mask %2 (bits 8-12), which encodes a "
                "width of %3 lanes, not a power of two in [1, 32]: the result is undefined; "
                "write ((32 - width) << 8) | clamp with width 1, 2, 4, 8, 16 or 32, e.g. "
                "0x1f for the whole warp or 0x101f for 16-lane segments (0x1000 for "
                "shfl.sync.up)")
          << C.displayName() << hex(*Control)
          << hex(shuffleSegmentMask(static_cast<uint64_t>(*Control)))
          << std::to_string(32 - shuffleSegmentMask(static_cast<uint64_t>(*Control)));
    return std::nullopt;
  }
  std::optional<int64_t> W = C.Width.constant(Ctx);
  if (!W)
    return 32;
  if (*W >= 1 && *W <= 32 && llvm::isPowerOf2_64(static_cast<uint64_t>(*W)))
    return *W;
  SourceLocation Loc = SM.getFileLoc(C.Width.E->getBeginLoc());
  if (firstReportAt(Loc))
    diag(Loc, "%0 width %1 is not a power of two in [1, 32]: the result is "
              "undefined; use 1, 2, 4, 8, 16 or 32 (the size of the lane "
              "segments the shuffle works within)")
        << C.displayName() << std::to_string(*W) << C.Width.E->getSourceRange();
  return std::nullopt;
}

void InvalidShflWidthCheck::checkShuffle(const WarpCollective &C,
                                         const MatchFinder::MatchResult &Result) {
  const WarpIntrinsic &I = *C.Intrinsic;
  const ASTContext &Ctx = *Result.Context;
  const SourceManager &SM = *Result.SourceManager;

  std::optional<int64_t> Width = shuffleWidth(C, Ctx, SM);
  if (!Width)
    return;

  std::optional<int64_t> Offset = C.LaneOrDelta.constant(Ctx);
  if (!Offset)
    return;
  SourceLocation Loc = SM.getFileLoc(C.operandLoc(C.LaneOrDelta));
  int64_t Value = *Offset;
  bool Negative = Value < 0;
  if (!Negative && Value < *Width)
    return;
  if (!firstReportAt(Loc))
    return;

  SourceRange Range = C.LaneOrDelta.E ? C.LaneOrDelta.E->getSourceRange() : SourceRange(Loc);
  std::string V = std::to_string(Value);
  std::string WidthText = std::to_string(*Width);
  switch (I.Direction) {
  case ShuffleDirection::Up:
  case ShuffleDirection::Down:
    diag(Loc, "%0 delta %1 is out of range for width %2: %select{a negative delta "
              "converts to a huge unsigned value and |}3no lane has a source %2 "
              "lanes %select{below|above}4 it, so every lane gets its own value "
              "back; use a delta in [1, %2)")
        << C.displayName() << V << WidthText << (Negative ? 0 : 1)
        << (I.Direction == ShuffleDirection::Up ? 0 : 1) << Range;
    break;
  case ShuffleDirection::Index:
    diag(Loc, "%0 source lane %1 is out of range for width %2: it is taken "
              "modulo %2 and reads lane %3 of the segment; write the lane you "
              "mean, in [0, %2)")
        << C.displayName() << V << WidthText << std::to_string(((Value % *Width) + *Width) % *Width)
        << Range;
    break;
  case ShuffleDirection::Xor:
    diag(Loc, "%0 lane mask %1 is out of range for width %2: lanes xor-ed "
              "outside their %2-lane segment read another segment (or get "
              "their own value back from a later one); use a lane mask below "
              "%2")
        << C.displayName() << V << WidthText << Range;
    break;
  case ShuffleDirection::None:
    break;
  }
}

} // namespace warp_tidy
