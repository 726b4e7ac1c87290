//===--- LaneIdentity.h - What an integer is in terms of the thread's lane -===//
//
// The one recogniser of lane ids, thread indices and warp indices. Warp code
// names the same few per-thread quantities in many spellings; this file
// decides, from the value an expression computes (not from the names it
// uses), which of them it is:
//
//   lane id      x % 32, x & 31, x % warpSize, x & (warpSize - 1) where x is
//                threadIdx.x plus a warp-uniform multiple of 32 (a linearised
//                id such as `threadIdx.x + blockDim.x * threadIdx.y` is one
//                when blocks are a whole number of warps wide), a lane id
//                again, `%laneid` read through inline asm or
//                `__nvvm_read_ptx_sreg_laneid()`, a 32-lane tile's
//                thread_rank()
//   thread index threadIdx.x (exactly, or plus a warp-uniform multiple of 32),
//                cooperative groups' thread_block::thread_rank()
//   warp index   threadIdx.x / 32, >> 5, / warpSize, a 32-lane tile's
//                meta_group_rank(); other multiples of 32 and wider shifts
//                give warp-uniform values
//   group rank   thread_rank() of a smaller tile or a coalesced group
//
// each also through a local never written after its initialiser or read
// before any write of it, or declared without one and assigned once
// (LocalWrites.h), a helper's parameter that every
// call in the unit passes in the same form, and a parameterless helper whose
// every return gives the same form
// (`__device__ unsigned laneId() { return threadIdx.x & 31; }`).
//
// Two kinds of client ask: the uniformity analysis (uniformity/IndexForms.cpp),
// which also knows which leaves its dataflow proved warp-uniform, and the
// syntactic checks (LaneExpressions.h: scans, partials, reduction result lane,
// shuffle sources), which take the defaults below.
//
//===----------------------------------------------------------------------===//

#ifndef WARP_TIDY_ANALYSIS_LANEIDENTITY_H
#define WARP_TIDY_ANALYSIS_LANEIDENTITY_H

#include <cstdint>
#include <optional>

namespace clang {
class ASTContext;
class Expr;
class FunctionDecl;
class VarDecl;
} // namespace clang

namespace warp_tidy {

/// How an integer expression relates to the calling thread's position.
struct PositionForm {
  enum FormKind {
    Other,
    Constant,    ///< Value
    Lane,        ///< exactly the lane id within the warp, 0..31
    GroupRank,   ///< rank within a tile of GroupSize < 32 lanes or a
                 ///< coalesced group (GroupSize 0)
    GroupIndex,  ///< meta_group_rank() of a tile of GroupSize < 32 lanes
    ThreadX,     ///< threadIdx.x plus a warp-uniform multiple of 32
    WarpAligned, ///< warp-uniform multiple of 32 (not constant)
    WarpUniform, ///< the same in every lane of a warp
  };
  FormKind Kind = Other;
  long long Value = 0;
  /// ThreadX: threadIdx.x itself (nothing added). WarpUniform: the index of
  /// the calling thread's warp in a 1-D block (threadIdx.x / 32, a 32-lane
  /// tile's meta_group_rank()).
  bool Exact = false;
  unsigned GroupSize = 0;
  /// Lane / GroupRank read from a cooperative-groups object's thread_rank():
  /// that object, as written at the call (null otherwise).
  const clang::Expr *Group = nullptr;

  bool isWarpIndex() const { return Kind == WarpUniform && Exact; }
  bool isExactThreadIdxX() const { return Kind == ThreadX && Exact; }
};

/// What the recogniser may assume about the code it reads. The defaults
/// serve syntactic questions; the uniformity analysis overrides them with
/// what its dataflow knows at one program point.
class PositionEnvironment {
public:
  explicit PositionEnvironment(bool AssumeWarpAlignedBlocks = true)
      : AssumeWarpAlignedBlocks(AssumeWarpAlignedBlocks) {}
  virtual ~PositionEnvironment();

  /// Blocks are a whole number of warps wide (blockDim.x % 32 == 0).
  bool AssumeWarpAlignedBlocks;
  /// Helpers that are this function are not followed (recursion).
  const clang::FunctionDecl *Self = nullptr;

  /// The value \p V holds wherever it is read, when it has one: by default
  /// its initialiser when it is never written after it.
  virtual const clang::Expr *definition(const clang::VarDecl *V);
  /// True when \p V holds the hardware lane id (`mov %laneid` asm output,
  /// no other write).
  virtual bool isLaneRegister(const clang::VarDecl *V);
  /// True when \p E (a variable, a call or another leaf of the function
  /// asked about, never of a helper being followed) is the same in every
  /// lane of a warp. By default: a parameter of a kernel that the kernel
  /// never writes.
  virtual bool isWarpUniformLeaf(const clang::Expr *E);
  /// integerConstant(E): the recogniser asks it of every subexpression it
  /// visits, so an environment that sees the same expressions again and
  /// again (the uniformity analysis, once per dataflow round) may remember
  /// the answers; the value of an expression never changes.
  virtual std::optional<int64_t> constant(const clang::Expr *E, const clang::ASTContext &Ctx);
};

/// The object of a member call (`tile` in `tile.thread_rank()`), whether the
/// member is static or not (cooperative groups declares thread_rank() static
/// on some tile types, which makes the call a plain CallExpr over a
/// MemberExpr); null for other expressions.
const clang::Expr *memberCallObject(const clang::Expr *E);

/// The form of \p E (see the file comment).
PositionForm positionForm(const clang::Expr *E, const clang::ASTContext &Ctx,
                          PositionEnvironment &Env);

/// positionForm with the default environment (warp-aligned blocks).
PositionForm positionForm(const clang::Expr *E, const clang::ASTContext &Ctx);

} // namespace warp_tidy

#endif
