//===--- SymbolicTerm.h - Integer values as terms over the thread's position ===//
//
// The uniformity analysis asks integer questions: can two lanes of one warp
// (or of one cooperative-groups tile) evaluate this condition differently?
// To ask them, a condition is first written as a *term*: a small bit-vector
// expression over
//   - the thread's position (threadIdx.x/y/z, the hardware lane id) and the
//     block's shape (blockDim.x/y/z), which the warp model relates;
//   - uniform leaves: values every lane of the warp holds alike (kernel
//     parameters, blockIdx, ballots, broadcasts, loop trip counts...), each
//     with the number of low bits known to be zero (`n / 8 * 8` has 3);
//   - per-lane leaves: values the analysis cannot see through that may
//     differ between lanes;
//   - loads of memory nothing writes, at lane-dependent addresses: equal in
//     two lanes wherever their addresses are equal (`rowPtr[tid / 4]` is
//     the same in every lane of a 4-lane group).
// Terms use C's bit-vector semantics (the width and signedness of every
// operation come from the clang type it was translated from), so unsigned
// wrap, shifts and `&` mean what they mean in the source. Terms are
// hash-consed by a TermBuilder: equal terms are the same pointer, which makes
// them cheap cache keys for the prover.
//
// No clang dependency: the translation from clang's AST lives in
// SymbolicTranslation, the questions in UniformityProver.
//
//===----------------------------------------------------------------------===//

#ifndef WARP_TIDY_ANALYSIS_SYMBOLICTERM_H
#define WARP_TIDY_ANALYSIS_SYMBOLICTERM_H

#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include "llvm/ADT/SmallVector.h"
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <optional>
#include <tuple>

namespace llvm {
class raw_ostream;
} // namespace llvm

namespace warp_tidy {

enum class TermOp : uint8_t {
  Const,
  // Leaves.
  ThreadX,
  ThreadY,
  ThreadZ,      ///< threadIdx components (32 bits)
  HardwareLane, ///< %laneid: linear thread id % 32 (32 bits)
  BlockDimX,
  BlockDimY,
  BlockDimZ,
  Uniform, ///< the same in every lane (Id, KnownZeroBits)
  PerLane, ///< may differ in every lane (Id)
  // Arithmetic and bitwise operations (operands of the result's width,
  // except shifts, whose amount is brought to the width by the builder).
  Add,
  Sub,
  Mul,
  UDiv,
  SDiv,
  URem,
  SRem,
  Shl,
  LShr,
  AShr,
  And,
  Or,
  Xor,
  Not,
  ZExt,
  SExt,
  Trunc,
  // Comparisons: width 1.
  Eq,
  Ne,
  ULt,
  ULe,
  SLt,
  SLe,
  Ite, ///< Ite(c:1, a, b)
  /// Load(address): the value at a lane-dependent address that nothing
  /// writes while the function reads it. Two lanes that read one address
  /// read one value; nothing else is known of it. Load(function, arguments
  /// ...), with more than one operand: the result of a call that depends on
  /// its arguments alone (TermBuilder::apply), equal in lanes that pass
  /// equal arguments, and nothing else known of it either.
  Load,
};

struct Term {
  Term(TermOp Op, unsigned Width) : Op(Op), Width(Width) {}
  TermOp Op;
  unsigned Width;
  uint64_t Value = 0;         ///< Const: the value (masked to Width)
  unsigned Id = 0;            ///< Uniform / PerLane: the leaf's identity
  unsigned KnownZeroBits = 0; ///< Uniform: low bits known to be zero
  uint64_t UpperBound = 0;    ///< Uniform: unsigned upper bound (0: none)
  bool LaneDependent = false; ///< depends on the thread's position or a per-lane leaf
  /// Add/Sub/Mul of a signed C type: overflow is undefined behaviour, so an
  /// execution where it wraps is not one the program has.
  bool NoSignedWrap = false;
  llvm::SmallVector<const Term *, 3> Ops;

  bool isConst() const { return Op == TermOp::Const; }
  bool isLeaf() const { return Op >= TermOp::ThreadX && Op <= TermOp::PerLane; }
};
using TermRef = const Term *;

/// Creates and owns hash-consed terms, folding constants as it goes.
class TermBuilder {
public:
  TermRef constant(uint64_t V, unsigned Width);
  TermRef threadIndex(TermOp Which); ///< ThreadX..BlockDimZ, HardwareLane
  /// The uniform leaf named (\p Key, \p Point) (the same names give the
  /// same leaf).
  TermRef uniform(const void *Key, unsigned Width, unsigned KnownZeroBits = 0,
                  const void *Point = nullptr, uint64_t UpperBound = 0);
  /// A uniform leaf no other term shares.
  TermRef freshUniform(unsigned Width, unsigned KnownZeroBits = 0, uint64_t UpperBound = 0);
  TermRef perLane(const void *Key, unsigned Width, const void *Point = nullptr);
  TermRef freshPerLane(unsigned Width);

  TermRef binary(TermOp Op, TermRef L, TermRef R, bool NoSignedWrap = false);
  TermRef unary(TermOp Op, TermRef X);                  ///< Not
  TermRef cast(TermRef X, unsigned Width, bool Signed); ///< ext/trunc as needed
  TermRef ite(TermRef C, TermRef A, TermRef B);
  TermRef toBool(TermRef X); ///< X != 0, width 1
  /// The \p Width-bit value read at \p Address (a 64-bit term); see
  /// TermOp::Load.
  TermRef load(TermRef Address, unsigned Width);
  /// The \p Width-bit result of the function \p Function (a uniform leaf
  /// naming it) applied to \p Arguments; see TermOp::Load.
  TermRef apply(TermRef Function, llvm::ArrayRef<TermRef> Arguments, unsigned Width);

  /// Low bits of \p T known to be zero in every evaluation; with
  /// \p AlignedBlocks, blockDim.x is a multiple of 32.
  static unsigned knownZeroBits(TermRef T, bool AlignedBlocks = false);

  /// An unsigned upper bound of \p T (the width's maximum when unknown).
  static uint64_t maxValue(TermRef T);

  /// The addends of `L - R` for two sums of signed C values without
  /// overflow (Add or Sub with NoSignedWrap, recursively; anything else is
  /// one addend), each with its coefficient, in order of first appearance.
  /// An addend both sides hold has coefficient 0: in the integers it cancels.
  static void differenceAddends(TermRef L, TermRef R,
                                llvm::SmallVectorImpl<std::pair<TermRef, int64_t>> &Out);

  unsigned numLeaves() const { return NextId; }

  /// What a named leaf (uniform() or perLane()) was created for: its key and
  /// the point it stands at (null: the value on entry, never written).
  struct LeafName {
    const void *Key = nullptr;
    const void *Point = nullptr;
  };
  /// The name of \p Leaf; nullopt for other terms and for fresh leaves.
  std::optional<LeafName> nameOf(TermRef Leaf) const;

  /// \p T with every leaf \p Replace maps to a term (non-null) replaced by
  /// it, rebuilt (and folded) in this builder; the other leaves stay.
  TermRef substitute(TermRef T, llvm::function_ref<TermRef(TermRef Leaf)> Replace);

private:
  TermRef make(Term T);
  /// A comparison of two overflow-free signed sums whose lane-dependent
  /// addends cancel, as a lane-independent comparison of the rest; null if
  /// it is not one.
  TermRef cancelCommonAddends(TermOp Op, TermRef L, TermRef R);
  std::deque<Term> Arena;
  std::map<std::tuple<uint8_t, unsigned, uint64_t, unsigned, unsigned,
                      llvm::SmallVector<const Term *, 3>>,
           const Term *>
      Unique;
  std::map<std::tuple<const void *, const void *, unsigned, bool>, TermRef> Named;
  llvm::DenseMap<TermRef, LeafName> Names; ///< the reverse of Named
  unsigned NextId = 1;
};

/// Concrete values for one lane, for evaluating a term.
struct LaneValues {
  uint64_t ThreadX = 0, ThreadY = 0, ThreadZ = 0, HardwareLane = 0;
  uint64_t BlockDimX = 1, BlockDimY = 1, BlockDimZ = 1;
  /// Leaf values by Id; uniform leaves are equal across lanes by
  /// construction of the caller, per-lane leaves need not be.
  std::function<uint64_t(const Term &)> Leaf;
};

/// Evaluates \p T (C semantics; division by zero gives 0). When
/// \p Undefined is given, it is set if a NoSignedWrap operation overflowed
/// (the evaluation is then not an execution of the program).
uint64_t evaluate(TermRef T, const LaneValues &Lane, bool *Undefined = nullptr);

/// Whether \p Pred holds for every leaf of \p T; false as well when \p T
/// has more than \p MaxTerms distinct subterms (too large to be worth it).
bool everyLeaf(TermRef T, unsigned MaxTerms, llvm::function_ref<bool(const Term &)> Pred);

/// Whether \p T reads memory (a Load anywhere in it).
bool containsLoad(TermRef T);

void printTerm(TermRef T, llvm::raw_ostream &OS);

} // namespace warp_tidy

#endif
