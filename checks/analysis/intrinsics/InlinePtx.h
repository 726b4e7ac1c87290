//===--- InlinePtx.h - Warp collectives written as inline PTX -------------===//
//
// Libraries write warp collectives as inline `asm` instead of calling the
// CUDA intrinsics: `shfl.sync`, `vote.sync`, `match.sync`, `redux.sync`,
// `bar.warp.sync` and `activemask`. This parser reads an asm template (the
// string of a GCC-style asm statement) and returns the collectives in it, each
// with its operands in the PTX ISA's order and mapped onto the intrinsic with
// the same semantics, so that every check judges them as it judges the calls.
//
// The parser has no clang dependency: it works on the template text and the
// statement's operand names, which keeps it unit-testable on strings. It
// understands what real templates contain: several instructions per
// statement, `{ .reg .pred p; ... }` scopes, comments, labels, guard
// predicates (`@p`, `@!p`), `d|p` destinations, `!a` operands, `%N` and
// `%[name]` references to the statement's operands, `%%` for a literal `%`,
// and integer immediates (hex, octal, binary, decimal, negative, `U`
// suffix). A local register set by `mov` from an operand or an immediate
// earlier in the same template is followed, so `mov.u32 m, 0xffffffff;
// vote.sync.ballot.b32 %0, p, m;` has an immediate mask.
//
//===----------------------------------------------------------------------===//

#ifndef WARP_TIDY_ANALYSIS_INLINEPTX_H
#define WARP_TIDY_ANALYSIS_INLINEPTX_H

#include "intrinsics/WarpIntrinsics.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringRef.h"
#include <cstdint>
#include <optional>
#include <string>

namespace warp_tidy {

/// One operand of a PTX instruction, as the template writes it.
struct PtxOperand {
  enum OperandKind {
    AsmOperand, ///< `%N` / `%[name]`: the asm statement's operand AsmIndex
    Immediate,  ///< an integer written in the template
    Register,   ///< a PTX register or anything else the template names
  };
  OperandKind Kind = Register;
  /// AsmOperand: outputs first, then inputs, as GCC numbers them.
  unsigned AsmIndex = 0;
  /// Immediate: the value as written; a 32-bit operand (every membermask)
  /// keeps its low 32 bits, so -1 is 0xffffffff.
  int64_t Value = 0;
  /// The operand as written (after `!`, without the `|p` part).
  std::string Text;
  bool Negated = false; ///< written `!a` (a predicate's complement)
  /// Register: a local register that an `activemask` earlier in the same
  /// template wrote (`activemask.b32 m; shfl.sync.idx.b32 %0, %1, 0, 0x1f, m;`).
  bool FromActivemask = false;
};

/// A warp collective found in an asm template.
struct PtxCollective {
  /// The instruction as written, e.g. "shfl.sync.bfly.b32".
  std::string Instruction;
  /// The CUDA intrinsic with the same semantics (and the same minimum
  /// architecture, which the PTX ISA gives per instruction): shfl.sync.bfly
  /// is __shfl_xor_sync, vote.sync.ballot is __ballot_sync, redux.sync.add
  /// is __reduce_add_sync, bar.warp.sync is __syncwarp, activemask is
  /// __activemask.
  const WarpIntrinsic *Equivalent = nullptr;
  /// Operands in the PTX ISA's order, absent where the instruction has none:
  /// shfl.sync d[|p], a (Value), b (LaneOrDelta), c (Control), membermask;
  /// vote.sync / match.sync / redux.sync d, a (Value), membermask;
  /// bar.warp.sync membermask; activemask d.
  std::optional<PtxOperand> Destination;
  std::optional<PtxOperand> Value;
  std::optional<PtxOperand> LaneOrDelta;
  /// shfl.sync's `c`: clamp value in bits 0-4, segment mask in bits 8-12.
  std::optional<PtxOperand> Control;
  std::optional<PtxOperand> Mask;
  /// The instruction has a guard predicate (`@p`): whether it runs at all
  /// is decided inside the template.
  bool Guarded = false;
  /// Offset of the instruction's first character in the template.
  size_t Offset = 0;
};

/// The collectives of \p Template, in order. \p OperandNames are the
/// statement's operand names (outputs, then inputs; "" for unnamed ones),
/// used to resolve `%[name]`. Text that is not a recognised collective is
/// skipped; a malformed collective (missing operands) is left out.
llvm::SmallVector<PtxCollective, 1>
parseInlinePtxCollectives(llvm::StringRef Template, llvm::ArrayRef<std::string> OperandNames = {});

/// The shuffle width a shfl.sync control word encodes (32 minus its segment
/// mask), or std::nullopt when the segment mask is not one of the values a
/// power-of-two width gives (0, 16, 24, 28, 30, 31).
std::optional<unsigned> shuffleWidthFromControl(uint64_t Control);

/// The segment mask of a shfl.sync control word (bits 8-12).
inline unsigned shuffleSegmentMask(uint64_t Control) { return (Control >> 8) & 0x1f; }

} // namespace warp_tidy

#endif
