//===--- UniformityProver.cpp - Can two lanes of a warp disagree on a value? ===//

#include "symbolic/UniformityProver.h"
#include "symbolic/TacticSolver.h"
#include "llvm/ADT/APSInt.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Config/llvm-config.h"
#include "llvm/Support/Format.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/SMTAPI.h"
#include "llvm/Support/raw_ostream.h"
#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <optional>
#include <random>
#include <unordered_map>

namespace warp_tidy {

//===----------------------------------------------------------------------===//
// Statistics
//===----------------------------------------------------------------------===//

void ProverStats::add(const ProverStats &O) {
  Questions += O.Questions;
  CacheHits += O.CacheHits;
  SampledVarying += O.SampledVarying;
  SolverQueries += O.SolverQueries;
  ProvedUniform += O.ProvedUniform;
  SolverVarying += O.SolverVarying;
  Unknown += O.Unknown;
  SolverSeconds += O.SolverSeconds;
  SharedHits += O.SharedHits;
}

void ProverStats::print(llvm::raw_ostream &OS) const {
  OS << "warp-tidy solver: " << Questions << " questions (" << CacheHits << " cached, "
     << SampledVarying << " disproved by sampling, " << SharedHits
     << " answered by an earlier unit or pass), " << SolverQueries << " solver queries ("
     << ProvedUniform << " proved uniform, " << SolverVarying << " varying, " << Unknown
     << " unknown/limit), ";
  OS << llvm::format("%.1f", SolverSeconds * 1000.0) << " ms in the solver\n";
}

namespace {
std::mutex TotalsMutex;
struct TotalsPrinter {
  ProverStats Totals;
  ~TotalsPrinter() {
    if (getenv("WARP_TIDY_SOLVER_STATS"))
      Totals.print(llvm::errs());
  }
};
TotalsPrinter &totalsPrinter() {
  static TotalsPrinter P;
  return P;
}
} // namespace

ProverStats &UniformityProver::processTotals() { return totalsPrinter().Totals; }

//===----------------------------------------------------------------------===//
// Leaves of a term
//===----------------------------------------------------------------------===//

static void collectLeaves(TermRef T, llvm::DenseSet<TermRef> &Seen,
                          llvm::SmallVectorImpl<TermRef> &Leaves) {
  if (!Seen.insert(T).second)
    return;
  if (T->Op == TermOp::Uniform || T->Op == TermOp::PerLane) {
    Leaves.push_back(T);
    return;
  }
  for (TermRef O : T->Ops)
    collectLeaves(O, Seen, Leaves);
}

static bool isDivision(TermOp Op) {
  return Op == TermOp::UDiv || Op == TermOp::SDiv || Op == TermOp::URem || Op == TermOp::SRem;
}
static bool isShift(TermOp Op) {
  return Op == TermOp::Shl || Op == TermOp::LShr || Op == TermOp::AShr;
}

/// The divisions and shifts by a non-constant amount that \p T evaluates
/// whatever its selections choose (not inside an arm of an Ite). C leaves a
/// division by zero and a shift by the width or more undefined, so an
/// evaluation that makes one is no execution of the program.
static void collectPartialOps(TermRef T, llvm::DenseSet<TermRef> &Seen,
                              llvm::SmallVectorImpl<TermRef> &Partial) {
  if (!Seen.insert(T).second)
    return;
  if (isDivision(T->Op) || (isShift(T->Op) && !T->Ops[1]->isConst()))
    Partial.push_back(T);
  if (T->Op == TermOp::Ite) {
    collectPartialOps(T->Ops[0], Seen, Partial);
    return;
  }
  for (TermRef O : T->Ops)
    collectPartialOps(O, Seen, Partial);
}

/// Whether the partial operation \p Op is defined for lane \p Lane.
static bool definedIn(TermRef Op, const LaneValues &Lane) {
  uint64_t Amount = evaluate(Op->Ops[1], Lane);
  return isDivision(Op->Op) ? Amount != 0 : Amount < Op->Width;
}

static uint64_t maskTo(uint64_t V, unsigned Width) {
  return Width >= 64 ? V : (V & ((uint64_t(1) << Width) - 1));
}

//===----------------------------------------------------------------------===//
// Step 1: sampling
//===----------------------------------------------------------------------===//

namespace {
/// A block shape and a warp in it, drawn at random within CUDA's limits.
struct SampledWarp {
  uint64_t Dx = 32, Dy = 1, Dz = 1;
  uint64_t Warp = 0;
};
} // namespace

static uint64_t drawValue(std::mt19937_64 &Rng, unsigned Width, bool SmallOnly = false) {
  // Real bounds and indices are small, and the interesting points are near
  // multiples of the group sizes, so most draws are small.
  uint64_t R = Rng();
  switch (R % (SmallOnly ? 6 : 8)) {
  case 0:
  case 1:
  case 2:
    return (R >> 8) % 64;
  case 3:
    return (R >> 8) % 4096;
  case 4: {
    uint64_t M = ((R >> 8) % 64) * 32;
    return M + ((R >> 20) % 5) - 2;
  }
  case 5:
    return (R >> 8) % 8;
  default:
    return maskTo(Rng(), Width);
  }
}

/// A value for the uniform leaf \p L: random, with its known zero bits and
/// within its upper bound. \p SmallOnly: no full-width draws, and zero
/// half of the time (offsets and bases that are 0 put the lanes' own
/// terms next to small constant thresholds: `1 <= base + tid / 4`).
static uint64_t drawUniformLeaf(std::mt19937_64 &Rng, const Term &L, bool SmallOnly = false) {
  if (SmallOnly && Rng() % 2)
    return 0;
  uint64_t V = maskTo(drawValue(Rng, L.Width, SmallOnly) << L.KnownZeroBits, L.Width);
  if (L.UpperBound && V > L.UpperBound)
    V = (V % (L.UpperBound + 1)) >> L.KnownZeroBits << L.KnownZeroBits;
  return V;
}

/// Where lane \p Lane of warp \p W sits in its block (leaf values unset).
static LaneValues positionOf(const SampledWarp &W, unsigned Lane) {
  uint64_t Linear = W.Warp * 32 + Lane;
  LaneValues V;
  V.BlockDimX = W.Dx;
  V.BlockDimY = W.Dy;
  V.BlockDimZ = W.Dz;
  V.ThreadX = Linear % W.Dx;
  V.ThreadY = (Linear / W.Dx) % W.Dy;
  V.ThreadZ = Linear / (W.Dx * W.Dy);
  V.HardwareLane = Lane;
  return V;
}

namespace {
/// The leaf values of one sample: a uniform leaf has one value for the
/// warp, a per-lane leaf one value per lane, however often the terms name
/// it. Every fourth sample draws small values only: one full-width per-lane
/// value in a product overflows in almost every warp, and such a sample is
/// no execution (`v * 16 + r`), so without these nothing is learnt.
class SampleLeaves {
public:
  SampleLeaves(std::mt19937_64 &Rng, unsigned SampleIndex)
      : Rng(Rng), SmallOnly(SampleIndex % 4 == 2) {}

  void drawUniform(const Term &Leaf) { Uniform[Leaf.Id] = drawUniformLeaf(Rng, Leaf, SmallOnly); }
  /// The uniform leaves' values (steering sets them).
  llvm::DenseMap<unsigned, uint64_t> &uniform() { return Uniform; }

  /// Lane \p Lane of warp \p W with these leaves (valid while this lives).
  LaneValues lane(const SampledWarp &W, unsigned Lane) {
    LaneValues V = positionOf(W, Lane);
    V.Leaf = [this, Lane](const Term &Leaf) -> uint64_t {
      if (Leaf.Op == TermOp::Uniform)
        return Uniform.lookup(Leaf.Id);
      auto [It, New] = PerLane.try_emplace({Lane, Leaf.Id}, 0);
      if (New)
        It->second = drawValue(Rng, Leaf.Width, SmallOnly);
      return It->second;
    };
    return V;
  }

private:
  std::mt19937_64 &Rng;
  bool SmallOnly;
  llvm::DenseMap<unsigned, uint64_t> Uniform;
  llvm::DenseMap<std::pair<unsigned, unsigned>, uint64_t> PerLane; // (lane, id)
};
} // namespace

static SampledWarp drawWarp(std::mt19937_64 &Rng, bool Aligned,
                            llvm::ArrayRef<LaunchedBlock> Blocks) {
  SampledWarp S;
  if (!Blocks.empty()) {
    const LaunchedBlock &B = Blocks[Rng() % Blocks.size()];
    S.Dx = B.X;
    S.Dy = B.Y;
    S.Dz = B.Z;
    uint64_t Warps = (S.Dx * S.Dy * S.Dz + 31) / 32;
    // The first and the last (perhaps partial) warp are the telling ones.
    S.Warp = Rng() % 3 == 0 ? (Rng() % 2 ? 0 : Warps - 1) : Rng() % Warps;
    return S;
  }
  if (Aligned) {
    S.Dx = 32 * (1 + Rng() % 32);
  } else {
    static const uint64_t Shapes[] = {1, 2, 3, 8, 16, 20, 24, 48, 64, 96, 100, 128, 250, 256};
    S.Dx = Rng() % 2 ? Shapes[Rng() % (sizeof Shapes / sizeof *Shapes)] : 1 + Rng() % 1024;
  }
  uint64_t Rest = 1024 / S.Dx;
  S.Dy = Rest ? 1 + Rng() % Rest : 1;
  if (Rng() % 2)
    S.Dy = 1;
  uint64_t RestZ = std::min<uint64_t>(64, 1024 / (S.Dx * S.Dy));
  S.Dz = RestZ && Rng() % 3 == 0 ? 1 + Rng() % RestZ : 1;
  uint64_t Threads = S.Dx * S.Dy * S.Dz;
  // Conditions on small thread indices (`tid / 8 == 0`) only split the
  // first warps: draw those often.
  S.Warp = Rng() % 3 == 0 ? Rng() % 2 : Rng() % ((Threads + 31) / 32);
  S.Warp = std::min(S.Warp, (Threads + 31) / 32 - 1);
  return S;
}

/// Comparisons of a lane-dependent value with a uniform leaf (`gid < n`):
/// the leaf is the threshold, and a disagreement needs it inside the range
/// the lanes cover, which independent random draws rarely hit.
static void collectThresholds(TermRef T, llvm::DenseSet<TermRef> &Seen,
                              llvm::SmallVectorImpl<std::pair<TermRef, TermRef>> &Out) {
  if (!Seen.insert(T).second)
    return;
  if (T->Op >= TermOp::Eq && T->Op <= TermOp::SLe) {
    // Constant thresholds count too: the other side is then steered
    // through its own uniform leaves (`1 <= base + tid / 4`).
    for (int Side = 0; Side < 2; ++Side) {
      TermRef Threshold = T->Ops[Side], Other = T->Ops[1 - Side];
      if (!Threshold->LaneDependent && Other->LaneDependent)
        Out.push_back({Threshold, Other});
    }
  }
  for (TermRef O : T->Ops)
    collectThresholds(O, Seen, Out);
}

/// The factor a UDiv, LShr, Mul or Shl by a constant scales its other
/// operand by (a shift's 2^amount), or 0 when the operation has none or the
/// factor does not fit in the width.
static uint64_t constantScale(TermRef T) {
  bool Shift = T->Op == TermOp::LShr || T->Op == TermOp::Shl;
  TermRef C = T->Ops[1]->isConst()                           ? T->Ops[1]
              : T->Op == TermOp::Mul && T->Ops[0]->isConst() ? T->Ops[0]
                                                             : nullptr;
  if (!C)
    return 0;
  if (Shift)
    return C->Value < std::min(T->Width, 64u) ? uint64_t(1) << C->Value : 0;
  return C->Value;
}

/// Sets a uniform leaf of \p T so that \p T evaluates to \p Target in the
/// lane \p Eval describes (through sums, differences, casts, the taken arm
/// of a select, and scaling by a constant; the other operands keep their
/// values in that lane). A leaf with known zero bits gets the nearest value
/// at or below the target that has them; one with an upper bound is left
/// alone when the target is above it. The caller evaluates the result, so a
/// miss costs nothing.
static bool steer(TermRef T, uint64_t Target, llvm::DenseMap<unsigned, uint64_t> &Values,
                  const LaneValues &Eval, unsigned Depth = 0) {
  if (Depth > 8)
    return false;
  Target = maskTo(Target, T->Width);
  switch (T->Op) {
  case TermOp::Uniform:
    if (T->KnownZeroBits >= T->Width || (T->UpperBound && Target > T->UpperBound))
      return false;
    Values[T->Id] = Target >> T->KnownZeroBits << T->KnownZeroBits;
    return true;
  case TermOp::ZExt:
  case TermOp::SExt:
  case TermOp::Trunc:
    return steer(T->Ops[0], Target, Values, Eval, Depth + 1);
  case TermOp::Add:
    return steer(T->Ops[0], Target - evaluate(T->Ops[1], Eval), Values, Eval, Depth + 1) ||
           steer(T->Ops[1], Target - evaluate(T->Ops[0], Eval), Values, Eval, Depth + 1);
  case TermOp::Sub:
    return steer(T->Ops[0], Target + evaluate(T->Ops[1], Eval), Values, Eval, Depth + 1) ||
           steer(T->Ops[1], evaluate(T->Ops[0], Eval) - Target, Values, Eval, Depth + 1);
  case TermOp::Ite:
    return steer(evaluate(T->Ops[0], Eval) ? T->Ops[1] : T->Ops[2], Target, Values, Eval,
                 Depth + 1);
  case TermOp::UDiv:
  case TermOp::LShr: {
    // `n / 256` (a bound counted in blocks): n = target * 256 gives exactly
    // the target, when that product fits in the width.
    uint64_t Scale = constantScale(T);
    if (!Scale || Target > maskTo(~uint64_t(0), T->Width) / Scale)
      return false;
    return steer(T->Ops[0], Target * Scale, Values, Eval, Depth + 1);
  }
  case TermOp::Mul:
  case TermOp::Shl: {
    // `n * 8`: n = target / 8, the nearest at or below.
    uint64_t Scale = constantScale(T);
    if (!Scale)
      return false;
    TermRef Scaled = T->Op == TermOp::Mul && T->Ops[0]->isConst() ? T->Ops[1] : T->Ops[0];
    return steer(Scaled, Target / Scale, Values, Eval, Depth + 1);
  }
  default:
    return false;
  }
}

uint32_t UniformityProver::existingLanes() const {
  if (Blocks.empty())
    return ~0u;
  uint32_t Lanes = 0;
  for (const LaunchedBlock &B : Blocks) {
    uint64_t Threads = uint64_t(B.X) * B.Y * B.Z;
    Lanes |= Threads >= 32 ? ~0u : (1u << Threads) - 1;
  }
  return Lanes;
}

bool LaneGroup::trivial() const {
  if (Size <= 1)
    return true;
  for (unsigned Base = 0; Base < 32; Base += Size) {
    uint32_t InGroup = Size >= 32 ? Lanes : (Lanes >> Base) & ((1u << Size) - 1);
    if (llvm::popcount(InGroup) > 1)
      return false;
  }
  return true;
}

bool UniformityProver::samplingFindsDisagreement(TermRef T, LaneGroup Group) {
  llvm::DenseSet<TermRef> Seen;
  llvm::SmallVector<TermRef, 16> Leaves;
  collectLeaves(T, Seen, Leaves);
  Seen.clear();
  llvm::SmallVector<std::pair<TermRef, TermRef>, 4> Thresholds;
  collectThresholds(T, Seen, Thresholds);
  // Deterministic: the same term gets the same samples in every run.
  std::mt19937_64 Rng(0x5eed + Leaves.size() * 7919 + T->Width);
  constexpr unsigned Samples = 48;
  for (unsigned S = 0; S < Samples; ++S) {
    SampledWarp W = drawWarp(Rng, Aligned, Blocks);
    SampleLeaves Sample(Rng, S);
    for (TermRef L : Leaves)
      if (L->Op == TermOp::Uniform)
        Sample.drawUniform(*L);
    uint64_t Threads = W.Dx * W.Dy * W.Dz;
    auto LaneAt = [&](unsigned Lane) { return Sample.lane(W, Lane); };
    // Every other sample puts thresholds where the lanes are: the value the
    // other side has in some lane of this warp, give or take one. A
    // threshold without uniform leaves (a constant) cannot move, so the
    // other side's uniform leaves are set to meet it in that lane instead.
    if (S % 2 == 1)
      for (auto [Threshold, Other] : Thresholds) {
        uint64_t Lanes = std::min<uint64_t>(32, Threads - W.Warp * 32);
        unsigned Lane = static_cast<unsigned>(Rng() % Lanes);
        uint64_t Nudge = (Rng() % 3) - 1;
        if (!Threshold->isConst() &&
            steer(Threshold, evaluate(Other, LaneAt(Lane)) + Nudge, Sample.uniform(), LaneAt(0)))
          continue;
        steer(Other, evaluate(Threshold, LaneAt(0)) + Nudge, Sample.uniform(), LaneAt(Lane));
      }
    uint64_t GroupValue = 0;
    bool Undefined = false;
    llvm::SmallVector<uint64_t, 32> Values;
    for (unsigned Lane = 0; Lane < 32 && !Undefined; ++Lane) {
      uint64_t Linear = W.Warp * 32 + Lane;
      if (Linear >= Threads)
        break; // a partial last warp: these lanes do not exist
      Values.push_back(evaluate(T, LaneAt(Lane), &Undefined));
    }
    // A signed overflow in some lane: not an execution the program has.
    if (Undefined)
      continue;
    bool HaveGroupValue = false;
    for (unsigned Lane = 0; Lane < Values.size(); ++Lane) {
      if (Lane % Group.Size == 0)
        HaveGroupValue = false;
      if (!((Group.Lanes >> Lane) & 1))
        continue;
      uint64_t Value = Values[Lane];
      if (!HaveGroupValue) {
        GroupValue = Value;
        HaveGroupValue = true;
      } else if (Value != GroupValue) {
        return true;
      }
    }
  }
  return false;
}

//===----------------------------------------------------------------------===//
// Step 2: proof with Z3
//===----------------------------------------------------------------------===//

struct UniformityProver::Solver {
  /// Where a query is written (LLVM's SMT API) ...
  llvm::SMTSolverRef S;
  /// ... and who decides it (see TacticSolver.h).
  TacticSolver Tactics;
  /// Decides what S holds: a deterministic effort bound first (machine load
  /// must not change answers), a wall-clock bound as a backstop.
  std::optional<bool> decide(unsigned WallClockLimitMs) {
    return Tactics.check(*S, /*RLimit=*/4000000, WallClockLimitMs);
  }
  llvm::DenseMap<TermRef, unsigned> AbstractIds;
  /// Each lane's copy of an abstracted lane-dependent nonlinear term: its
  /// operands and the symbol that stands for its value (see Lowering).
  struct Application {
    const char *Tag;
    llvm::SmallVector<llvm::SMTExprRef, 3> Operands;
    llvm::SMTExprRef Value;
  };
  llvm::DenseMap<TermRef, llvm::SmallVector<Application, 2>> Applications;

  llvm::SMTExprRef bv(uint64_t V, unsigned Width) {
    return S->mkBitvector(llvm::APSInt(llvm::APInt(Width, V), true), Width);
  }
  llvm::SMTExprRef symbol(const std::string &Name, unsigned Width) {
    return S->mkSymbol(Name.c_str(), S->getBitvectorSort(Width));
  }
  /// A uniform value of \p Width whose low \p Zeros bits are zero.
  llvm::SMTExprRef alignedSymbol(const std::string &Name, unsigned Width, unsigned Zeros) {
    if (Zeros == 0)
      return symbol(Name, Width);
    if (Zeros >= Width)
      return bv(0, Width);
    return S->mkBVConcat(symbol(Name, Width - Zeros), bv(0, Zeros));
  }
  llvm::SMTExprRef boolToBV(const llvm::SMTExprRef &B) { return S->mkIte(B, bv(1, 1), bv(0, 1)); }
};

/// Nonlinear arithmetic whose operands are all lane-independent: the solver
/// would bit-blast a multiplier for nothing, since both lanes share it.
static bool hasNonlinearOp(TermRef T, llvm::DenseMap<TermRef, bool> &Memo) {
  auto It = Memo.find(T);
  if (It != Memo.end())
    return It->second;
  bool R = false;
  if (!T->isLeaf() && !T->isConst()) {
    switch (T->Op) {
    case TermOp::Mul:
    case TermOp::UDiv:
    case TermOp::SDiv:
    case TermOp::URem:
    case TermOp::SRem:
      R = !T->Ops[0]->isConst() && !T->Ops[1]->isConst();
      break;
    default:
      break;
    }
    for (TermRef O : T->Ops)
      R = R || hasNonlinearOp(O, Memo);
  }
  Memo[T] = R;
  return R;
}

/// A division or remainder whose divisor is not a constant power of two,
/// anywhere in \p T. Those by a power of two are shifts and masks to the
/// solver, and keep what the question may need: `(n / 8) * 8 <= n` for
/// non-negative n, which a symbol with three zero bits forgets.
static bool hasCostlyDivision(TermRef T, llvm::DenseMap<TermRef, bool> &Memo) {
  auto It = Memo.find(T);
  if (It != Memo.end())
    return It->second;
  bool R = false;
  if (T->Op == TermOp::UDiv || T->Op == TermOp::SDiv || T->Op == TermOp::URem ||
      T->Op == TermOp::SRem)
    R = !T->Ops[1]->isConst() || !llvm::isPowerOf2_64(T->Ops[1]->Value);
  for (TermRef O : T->Ops)
    R = R || hasCostlyDivision(O, Memo);
  Memo[T] = R;
  return R;
}

namespace {
/// Writes one lane's copy of a term in the solver's language.
struct Lowering {
  struct Lane {
    llvm::SMTExprRef X, Y, Z, HwLane;
    const char *Tag;
  };
  Lowering(llvm::SMTSolver &S, UniformityProver::Solver &Z, const Lane &L,
           const llvm::SMTExprRef &Dx, const llvm::SMTExprRef &Dy, const llvm::SMTExprRef &Dz,
           llvm::DenseMap<TermRef, bool> &Nonlinear, bool Aligned)
      : S(S), Z(Z), L(L), Dx(Dx), Dy(Dy), Dz(Dz), Nonlinear(Nonlinear), Aligned(Aligned) {}
  llvm::SMTSolver &S;
  UniformityProver::Solver &Z;
  const Lane &L;
  const llvm::SMTExprRef &Dx, &Dy, &Dz;
  llvm::DenseMap<TermRef, bool> &Nonlinear;
  llvm::DenseMap<TermRef, bool> Divisions;
  bool Aligned;
  /// For witnesses: every division the term evaluates has a divisor other
  /// than zero and every shift an amount below the width (C leaves the rest
  /// undefined), as every signed sum has no overflow.
  bool AssumeDefinedOps = false;
  llvm::DenseMap<TermRef, llvm::SMTExprRef> Memo;

  /// Replace lane-independent nonlinear subterms by weaker symbols (right
  /// for proofs of uniformity, wrong for witnesses).
  bool Abstract = true;
  /// Lane-dependent subterms already proved the same in both lanes
  /// (UniformityProver::uniformOperands), or null.
  const llvm::DenseSet<TermRef> *SharedUniform = nullptr;

  /// Inside an arm of a select the operation may not be evaluated, so its
  /// undefined overflow says nothing about the execution.
  unsigned InsideSelectArm = 0;

  /// Lower comparisons of overflow-free signed sums that share an addend
  /// as comparisons of the rest (cancelledComparison); Cancelled records
  /// that one was.
  bool CancelCommonAddends = false;
  bool Cancelled = false;

  llvm::SMTExprRef lower(TermRef T) {
    auto It = Memo.find(T);
    if (It != Memo.end())
      return It->second;
    llvm::SMTExprRef R = compute(T);
    Memo[T] = R;
    return R;
  }

  /// The execution has no signed overflow in \p T (C: undefined behaviour).
  void assumeNoSignedWrap(TermRef T, const llvm::SMTExprRef &A, const llvm::SMTExprRef &B) {
    if (!T->NoSignedWrap || InsideSelectArm || T->Width >= 64)
      return;
    switch (T->Op) {
    case TermOp::Add:
      S.addConstraint(S.mkBVAddNoOverflow(A, B, true));
      S.addConstraint(S.mkBVAddNoUnderflow(A, B));
      break;
    case TermOp::Sub:
      S.addConstraint(S.mkBVSubNoOverflow(A, B));
      S.addConstraint(S.mkBVSubNoUnderflow(A, B, true));
      break;
    case TermOp::Mul:
      S.addConstraint(S.mkBVMulNoOverflow(A, B, true));
      S.addConstraint(S.mkBVMulNoUnderflow(A, B));
      break;
    default:
      break;
    }
  }

  /// `first + tid / 4 + 16 * k < rounded + first`: in the integers the
  /// shared `first` cancels, and what is left is a question about the lane
  /// and two aligned values that the solver answers at once; through the
  /// adders it takes it hundreds of milliseconds (FasterTransformer's
  /// attention loops). In an execution no signed sum overflows, so there
  /// the comparison of the rest in 64 bits is the comparison as written; the
  /// query drops only the cancelled sums' no-overflow assumptions, a weaker
  /// model, so its "no disagreement" holds for the term as written, and its
  /// disagreements prove nothing (see prove()).
  std::optional<llvm::SMTExprRef> cancelledComparison(TermRef T) {
    if (T->Op != TermOp::Eq && T->Op != TermOp::Ne && T->Op != TermOp::SLt && T->Op != TermOp::SLe)
      return std::nullopt;
    TermRef L = T->Ops[0], R = T->Ops[1];
    auto IsSum = [](TermRef X) {
      return (X->Op == TermOp::Add || X->Op == TermOp::Sub) && X->NoSignedWrap;
    };
    if (L->Width > 32 || InsideSelectArm || (!IsSum(L) && !IsSum(R)))
      return std::nullopt;
    llvm::SmallVector<std::pair<TermRef, int64_t>, 8> Addends;
    TermBuilder::differenceAddends(L, R, Addends);
    // Bounded coefficients and counts: the 64-bit sums cannot wrap.
    if (Addends.size() > 64 ||
        llvm::any_of(Addends,
                     [](const auto &A) { return A.second > 65536 || A.second < -65536; }) ||
        llvm::none_of(Addends, [](const auto &A) { return A.second == 0; }))
      return std::nullopt;
    llvm::SMTExprRef Sides[2] = {Z.bv(0, 64), Z.bv(0, 64)};
    for (auto [A, C] : Addends) {
      if (C == 0)
        continue;
      llvm::SMTExprRef Wide = S.mkBVSignExt(64 - A->Width, lower(A));
      if (C != 1 && C != -1)
        Wide = S.mkBVMul(Wide, Z.bv(static_cast<uint64_t>(C < 0 ? -C : C), 64));
      Sides[C < 0] = S.mkBVAdd(Sides[C < 0], Wide);
    }
    Cancelled = true;
    switch (T->Op) {
    case TermOp::Eq:
      return Z.boolToBV(S.mkEqual(Sides[0], Sides[1]));
    case TermOp::Ne:
      return Z.boolToBV(S.mkNot(S.mkEqual(Sides[0], Sides[1])));
    case TermOp::SLt:
      return Z.boolToBV(S.mkBVSlt(Sides[0], Sides[1]));
    default:
      return Z.boolToBV(S.mkBVSle(Sides[0], Sides[1]));
    }
  }

  /// Division and remainder only: a product of unknowns is how a thread's
  /// linear id is formed (`x + Dx * (y + Dy * z)`), which the warp model
  /// needs as arithmetic.
  static bool isOpaqueDivision(TermRef T) {
    switch (T->Op) {
    case TermOp::UDiv:
    case TermOp::SDiv:
    case TermOp::URem:
    case TermOp::SRem:
      return !T->Ops[0]->isConst() && !T->Ops[1]->isConst();
    default:
      return false;
    }
  }

  /// A lane-dependent quotient or remainder of two unknowns (`warp / nnv`,
  /// `row % ld`): the value as a function of its operands
  /// and nothing more (Ackermann's reduction). Each lane's copy is a fresh
  /// symbol, equal to the other lane's wherever their operands are equal:
  /// all a question of uniformity needs, and a weaker model than the
  /// arithmetic, so a proof still holds. The solver is spared a divider
  /// that it bit-blasts slowly and often gives up on.
  /// The same for a load (a function of its address alone) and for a
  /// call's result (of the function and its arguments: TermBuilder::apply).
  llvm::SMTExprRef application(TermRef T) {
    llvm::SmallVector<llvm::SMTExprRef, 3> Operands;
    for (TermRef O : T->Ops)
      Operands.push_back(lower(O));
    auto [Id, New] = Z.AbstractIds.try_emplace(T, Z.AbstractIds.size());
    (void)New;
    auto &Copies = Z.Applications[T];
    llvm::SMTExprRef Value = Z.symbol("f" + std::to_string(Id->second) + L.Tag, T->Width);
    for (const UniformityProver::Solver::Application &Other : Copies) {
      if (std::strcmp(Other.Tag, L.Tag) == 0)
        continue;
      llvm::SMTExprRef SameOperands = S.mkEqual(Operands[0], Other.Operands[0]);
      for (unsigned I = 1; I < Operands.size(); ++I)
        SameOperands = S.mkAnd(SameOperands, S.mkEqual(Operands[I], Other.Operands[I]));
      S.addConstraint(S.mkOr(S.mkNot(SameOperands), S.mkEqual(Value, Other.Value)));
    }
    Copies.push_back({L.Tag, std::move(Operands), Value});
    return Value;
  }

  llvm::SMTExprRef compute(TermRef T) {
    unsigned W = T->Width;
    switch (T->Op) {
    case TermOp::Const:
      return Z.bv(T->Value, W);
    case TermOp::ThreadX:
      return L.X;
    case TermOp::ThreadY:
      return L.Y;
    case TermOp::ThreadZ:
      return L.Z;
    case TermOp::HardwareLane:
      return L.HwLane;
    case TermOp::BlockDimX:
      return Dx;
    case TermOp::BlockDimY:
      return Dy;
    case TermOp::BlockDimZ:
      return Dz;
    case TermOp::Uniform: {
      llvm::SMTExprRef U = Z.alignedSymbol("u" + std::to_string(T->Id), W, T->KnownZeroBits);
      if (T->UpperBound)
        S.addConstraint(S.mkBVUle(U, Z.bv(T->UpperBound, W)));
      return U;
    }
    case TermOp::PerLane:
      return Z.symbol("p" + std::to_string(T->Id) + L.Tag, W);
    default:
      break;
    }
    // A lane-dependent operand proved the same in both lanes on its own: one
    // symbol they share, keeping its known zero bits.
    if (Abstract && SharedUniform && SharedUniform->count(T)) {
      auto [Id, New] = Z.AbstractIds.try_emplace(T, Z.AbstractIds.size());
      (void)New;
      return Z.alignedSymbol("s" + std::to_string(Id->second), W,
                             TermBuilder::knownZeroBits(T, Aligned));
    }
    // Lane-independent arithmetic the solver handles badly: nonlinear terms,
    // and bounds rounded by a divisor it would have to bit-blast (`(x / 12)
    // * 16`), whose only use is their alignment. Keeping the known zero bits
    // keeps what the question needs (a bound that is a multiple of 8 never
    // splits an 8-lane group). A power of two stays exact (hasCostlyDivision).
    if (Abstract && !T->LaneDependent &&
        (hasNonlinearOp(T, Nonlinear) ||
         (hasCostlyDivision(T, Divisions) && TermBuilder::knownZeroBits(T, Aligned) > 0))) {
      auto [Id, New] = Z.AbstractIds.try_emplace(T, Z.AbstractIds.size());
      (void)New;
      return Z.alignedSymbol("a" + std::to_string(Id->second), W,
                             TermBuilder::knownZeroBits(T, Aligned));
    }
    if (Abstract && T->LaneDependent && isOpaqueDivision(T))
      return application(T);
    // Memory is only ever a function of the address (the translator makes
    // a load at a lane-independent address a uniform leaf).
    if (T->Op == TermOp::Load)
      return application(T);
    if (T->Op == TermOp::Ite) {
      llvm::SMTExprRef C = lower(T->Ops[0]);
      ++InsideSelectArm;
      llvm::SMTExprRef A = lower(T->Ops[1]), B = lower(T->Ops[2]);
      --InsideSelectArm;
      return S.mkIte(S.mkEqual(C, Z.bv(1, 1)), A, B);
    }
    if (CancelCommonAddends)
      if (std::optional<llvm::SMTExprRef> C = cancelledComparison(T))
        return *C;
    llvm::SMTExprRef A = lower(T->Ops[0]);
    switch (T->Op) {
    case TermOp::Not:
      return S.mkBVNot(A);
    case TermOp::ZExt:
      return S.mkBVZeroExt(W - T->Ops[0]->Width, A);
    case TermOp::SExt:
      return S.mkBVSignExt(W - T->Ops[0]->Width, A);
    case TermOp::Trunc:
      return S.mkBVExtract(W - 1, 0, A);
    default:
      break;
    }
    llvm::SMTExprRef B = lower(T->Ops[1]);
    assumeNoSignedWrap(T, A, B);
    if (AssumeDefinedOps && !InsideSelectArm && isDivision(T->Op))
      S.addConstraint(S.mkNot(S.mkEqual(B, Z.bv(0, T->Ops[1]->Width))));
    if (AssumeDefinedOps && !InsideSelectArm && isShift(T->Op) && !T->Ops[1]->isConst())
      S.addConstraint(S.mkBVUlt(B, Z.bv(W, T->Ops[1]->Width)));
    switch (T->Op) {
    case TermOp::Add:
      return S.mkBVAdd(A, B);
    case TermOp::Sub:
      return S.mkBVSub(A, B);
    case TermOp::Mul:
      return S.mkBVMul(A, B);
    case TermOp::UDiv:
      return S.mkBVUDiv(A, B);
    case TermOp::SDiv:
      return S.mkBVSDiv(A, B);
    case TermOp::URem:
      return S.mkBVURem(A, B);
    case TermOp::SRem:
      return S.mkBVSRem(A, B);
    case TermOp::Shl:
      return S.mkBVShl(A, B);
    case TermOp::LShr:
      return S.mkBVLshr(A, B);
    case TermOp::AShr:
      return S.mkBVAshr(A, B);
    case TermOp::And:
      return S.mkBVAnd(A, B);
    case TermOp::Or:
      return S.mkBVOr(A, B);
    case TermOp::Xor:
      return S.mkBVXor(A, B);
    case TermOp::Eq:
      return Z.boolToBV(S.mkEqual(A, B));
    case TermOp::Ne:
      return Z.boolToBV(S.mkNot(S.mkEqual(A, B)));
    case TermOp::ULt:
      return Z.boolToBV(S.mkBVUlt(A, B));
    case TermOp::ULe:
      return Z.boolToBV(S.mkBVUle(A, B));
    case TermOp::SLt:
      return Z.boolToBV(S.mkBVSlt(A, B));
    case TermOp::SLe:
      return Z.boolToBV(S.mkBVSle(A, B));
    default:
      return Z.bv(0, W);
    }
  }
};
} // namespace

namespace {
/// The warp model in the solver: the block's shape and two lanes A, B of one
/// lane group (UniformityProver.h), with their thread positions.
struct WarpModel {
  llvm::SMTExprRef Dx, Dy, Dz;
  llvm::SMTExprRef LaneA, LaneB; ///< 5-bit lane ids
  Lowering::Lane A, B;
};
} // namespace

/// A reset solver to write the next query in.
static llvm::SMTSolver &freshSolver(std::unique_ptr<UniformityProver::Solver> &Z3) {
  if (!Z3) {
    Z3 = std::make_unique<UniformityProver::Solver>();
    Z3->S = llvm::CreateZ3Solver();
  }
  llvm::SMTSolver &S = *Z3->S;
  S.reset();
  Z3->AbstractIds.clear();
  Z3->Applications.clear();
  return S;
}

/// States the warp model (CUDA's block limits, how lanes sit in threadIdx).
/// \p Shape, when given, is the block's shape: its extents are constants,
/// which keeps the linear thread id linear for the solver. Without one the
/// extents are symbols within CUDA's limits.
static void setUpWarpModel(UniformityProver::Solver &Z, LaneGroup Group, bool Aligned,
                           const LaunchedBlock *Shape, WarpModel &M) {
  llvm::SMTSolver &S = *Z.S;
  llvm::SMTExprRef &Dx = M.Dx, &Dy = M.Dy, &Dz = M.Dz;
  Dx = Shape ? Z.bv(Shape->X, 32) : Z.symbol("ntid.x", 32);
  Dy = Shape ? Z.bv(Shape->Y, 32) : Z.symbol("ntid.y", 32);
  Dz = Shape ? Z.bv(Shape->Z, 32) : Z.symbol("ntid.z", 32);
  llvm::SMTExprRef One = Z.bv(1, 32);
  S.addConstraint(S.mkBVUge(Dx, One));
  S.addConstraint(S.mkBVUge(Dy, One));
  S.addConstraint(S.mkBVUge(Dz, One));
  S.addConstraint(S.mkBVUle(Dx, Z.bv(1024, 32)));
  S.addConstraint(S.mkBVUle(Dy, Z.bv(1024, 32)));
  S.addConstraint(S.mkBVUle(Dz, Z.bv(64, 32)));
  // A block holds at most 1024 threads, so its linear id stays below 1024
  // (a block's first global index plus it fits where the base does).
  S.addConstraint(S.mkBVUle(S.mkBVMul(Dx, S.mkBVMul(Dy, Dz)), Z.bv(1024, 32)));
  unsigned GroupBits = llvm::Log2_32(Group.Size);
  llvm::SMTExprRef LaneA = Z.symbol("lane.A", 5), LaneB = Z.symbol("lane.B", 5);
  M.LaneA = LaneA;
  M.LaneB = LaneB;
  if (GroupBits < 5)
    S.addConstraint(
        S.mkEqual(S.mkBVExtract(4, GroupBits, LaneA), S.mkBVExtract(4, GroupBits, LaneB)));
  // Both lanes among those named: bit `lane` of the lane set is 1.
  if (!Group.wholeGroups())
    for (llvm::SMTExprRef Lane : {LaneA, LaneB})
      S.addConstraint(
          S.mkEqual(S.mkBVExtract(0, 0, S.mkBVLshr(Z.bv(Group.Lanes, 32), S.mkBVZeroExt(27, Lane))),
                    Z.bv(1, 1)));
  Lowering::Lane &A = M.A, &B = M.B;
  A = {nullptr, nullptr, nullptr, S.mkBVZeroExt(27, LaneA), ".A"};
  B = {nullptr, nullptr, nullptr, S.mkBVZeroExt(27, LaneB), ".B"};
  if (Aligned) {
    // blockDim.x % 32 == 0 (assumed, or in every launched shape): a warp is
    // 32 consecutive x of one row.
    S.addConstraint(S.mkEqual(S.mkBVExtract(4, 0, Dx), Z.bv(0, 5)));
    llvm::SMTExprRef WarpX = Z.symbol("warp.x", 27);
    A.X = S.mkBVConcat(WarpX, LaneA);
    B.X = S.mkBVConcat(WarpX, LaneB);
    A.Y = B.Y = Z.symbol("tid.y", 32);
    A.Z = B.Z = Z.symbol("tid.z", 32);
  } else {
    // The general model: both lanes' linear ids lie in one warp.
    llvm::SMTExprRef Warp = Z.symbol("warp", 27);
    for (Lowering::Lane *L : {&A, &B}) {
      std::string Tag = L->Tag;
      L->X = Z.symbol("tid.x" + Tag, 32);
      L->Y = Z.symbol("tid.y" + Tag, 32);
      L->Z = Z.symbol("tid.z" + Tag, 32);
      llvm::SMTExprRef Linear =
          S.mkBVAdd(L->X, S.mkBVMul(Dx, S.mkBVAdd(L->Y, S.mkBVMul(Dy, L->Z))));
      S.addConstraint(S.mkEqual(Linear, S.mkBVConcat(Warp, L == &A ? LaneA : LaneB)));
    }
  }
  for (Lowering::Lane *L : {&A, &B}) {
    S.addConstraint(S.mkBVUlt(L->X, Dx));
    S.addConstraint(S.mkBVUlt(L->Y, Dy));
    S.addConstraint(S.mkBVUlt(L->Z, Dz));
  }
}

/// The launched shapes one at a time, or one model of any shape (null) when
/// none is known: a question per shape keeps each one linear, where a
/// disjunction of shapes in one query made the extents symbolic factors
/// again. \p Decisive from one shape is the answer; otherwise Unknown from
/// any shape leaves it unknown, and \p Otherwise holds in all of them.
template <class Result, class AskFn>
static Result acrossShapes(llvm::ArrayRef<LaunchedBlock> Blocks, Result Decisive, Result Otherwise,
                           AskFn AskInShape) {
  llvm::SmallVector<const LaunchedBlock *, 4> Shapes;
  for (const LaunchedBlock &B : Blocks)
    Shapes.push_back(&B);
  if (Shapes.empty())
    Shapes.push_back(nullptr);
  bool Unknown = false;
  for (const LaunchedBlock *Shape : Shapes) {
    Result R = AskInShape(Shape);
    if (R == Decisive)
      return R;
    Unknown = Unknown || R == Result::Unknown;
  }
  return Unknown ? Result::Unknown : Otherwise;
}

UniformityProver::Answer UniformityProver::prove(TermRef T, LaneGroup Group) {
  llvm::DenseSet<TermRef> Shared = uniformOperands(T, Group);
  // Uniform in every shape the code runs in, varying in one of them.
  return acrossShapes(Blocks, Answer::Varying, Answer::Uniform, [&](const LaunchedBlock *Shape) {
    return proveInShape(T, Group, Shape, Shared);
  });
}

/// An operation the solver handles badly when its operands differ between
/// the lanes: a product of two unknowns (bit-blasted), a load or an opaque
/// division (related between the lanes by Ackermann's constraints).
static bool isCostlyOperation(TermRef T) {
  if (T->Op == TermOp::Mul)
    return !T->Ops[0]->isConst() && !T->Ops[1]->isConst();
  return T->Op == TermOp::Load || Lowering::isOpaqueDivision(T);
}

// `(n - warp - 1) * ld` with warp = gid / 32, or a load at `rows + warp`:
// the whole question makes the solver multiply, divide and compare
// addresses at once, and it gives up; each lane-dependent operand asked on
// its own is a small linear question. An operand the same in every lane of
// the group is then one symbol both lanes share: a weaker model of a value
// they agree on, so a proof of the whole still holds.
llvm::DenseSet<TermRef> UniformityProver::uniformOperands(TermRef T, LaneGroup Group) {
  llvm::DenseSet<TermRef> Seen, Shared;
  llvm::SmallVector<TermRef, 16> Work{T};
  while (!Work.empty()) {
    TermRef X = Work.pop_back_val();
    if (!X->LaneDependent || !Seen.insert(X).second)
      continue;
    bool Costly = isCostlyOperation(X);
    for (TermRef O : X->Ops) {
      if (Costly && O->LaneDependent && !O->isLeaf() && sameInGroup(O, Group) == Answer::Uniform)
        Shared.insert(O);
      else
        Work.push_back(O);
    }
  }
  return Shared;
}

UniformityProver::Answer UniformityProver::proveInShape(TermRef T, LaneGroup Group,
                                                        const LaunchedBlock *Shape,
                                                        const llvm::DenseSet<TermRef> &Shared) {
#if LLVM_WITH_Z3
  // First with the shared addends of compared sums cancelled: "no two lanes
  // disagree" there holds for the term as written. A disagreement there (it
  // may need an overflow the program does not have), or no answer within the
  // limits, is asked again of the term as written.
  std::optional<bool> Sat;
  for (bool Cancel : {true, false}) {
    llvm::SMTSolver &S = freshSolver(Z3);
    Solver &Z = *Z3;
    WarpModel M;
    setUpWarpModel(Z, Group, Aligned, Shape, M);
    llvm::DenseMap<TermRef, bool> Nonlinear;
    Lowering LA(S, Z, M.A, M.Dx, M.Dy, M.Dz, Nonlinear, Aligned);
    Lowering LB(S, Z, M.B, M.Dx, M.Dy, M.Dz, Nonlinear, Aligned);
    LA.CancelCommonAddends = LB.CancelCommonAddends = Cancel;
    LA.SharedUniform = LB.SharedUniform = &Shared;
    S.addConstraint(S.mkNot(S.mkEqual(LA.lower(T), LB.lower(T))));
    // Nothing cancelled: this already is the query as written, asked once.
    bool Weaker = LA.Cancelled || LB.Cancelled;

    auto Start = std::chrono::steady_clock::now();
    Sat = Z.decide(WallClockLimitMs);
    double Seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - Start).count();
    Stats.SolverSeconds += Seconds;
    ++Stats.SolverQueries;
    if (!Weaker || (Sat && !*Sat))
      break;
  }
  if (!Sat) {
    ++Stats.Unknown;
    return Answer::Unknown;
  }
  if (*Sat) {
    ++Stats.SolverVarying;
    return Answer::Varying;
  }
  ++Stats.ProvedUniform;
  return Answer::Uniform;
#else
  (void)T;
  (void)Group;
  (void)Shape;
  ++Stats.Unknown;
  return Answer::Unknown;
#endif
}

//===----------------------------------------------------------------------===//
// Questions about a pair of lanes
//===----------------------------------------------------------------------===//

bool UniformityProver::samplingFindsLanePair(const LanePairQuery &Q, LanePairWitness &Witness) {
  llvm::DenseMap<unsigned, unsigned> BoundIndex; // leaf id -> binding
  for (unsigned I = 0; I < Q.Bindings.size(); ++I)
    BoundIndex[Q.Bindings[I].Leaf->Id] = I;
  bool UsesLaneB = llvm::any_of(Q.Bindings, [](const auto &B) { return B.InLaneB; });
  llvm::DenseSet<TermRef> Seen;
  llvm::SmallVector<TermRef, 16> Leaves;
  collectLeaves(Q.Relation, Seen, Leaves);
  for (const auto &B : Q.Bindings)
    collectLeaves(B.Value, Seen, Leaves);
  // A witness must be an execution: no binding divides by zero or shifts
  // by its width.
  llvm::SmallVector<llvm::SmallVector<TermRef, 2>, 6> Partial(Q.Bindings.size());
  for (unsigned I = 0; I < Q.Bindings.size(); ++I) {
    llvm::DenseSet<TermRef> PartialSeen;
    collectPartialOps(Q.Bindings[I].Value, PartialSeen, Partial[I]);
  }
  std::mt19937_64 Rng(0x1a4e5 + Leaves.size() * 7919 + Q.Bindings.size());
  constexpr unsigned Samples = 48;
  for (unsigned S = 0; S < Samples; ++S) {
    SampledWarp W = drawWarp(Rng, Aligned, Blocks);
    SampleLeaves Sample(Rng, S);
    for (TermRef L : Leaves)
      if (L->Op == TermOp::Uniform && !BoundIndex.count(L->Id))
        Sample.drawUniform(*L);
    uint64_t Threads = W.Dx * W.Dy * W.Dz;
    unsigned Lanes = static_cast<unsigned>(std::min<uint64_t>(32, Threads - W.Warp * 32));
    // The value of every binding in every lane of this warp.
    llvm::SmallVector<llvm::SmallVector<uint64_t, 32>, 6> Table(Q.Bindings.size());
    bool Undefined = false;
    for (unsigned Lane = 0; Lane < Lanes && !Undefined; ++Lane) {
      LaneValues V = Sample.lane(W, Lane);
      for (unsigned I = 0; I < Q.Bindings.size() && !Undefined; ++I) {
        Table[I].push_back(evaluate(Q.Bindings[I].Value, V, &Undefined));
        for (TermRef Op : Partial[I])
          Undefined = Undefined || !definedIn(Op, V);
      }
    }
    if (Undefined)
      continue; // a signed overflow: not an execution of the program
    LaneValues R;
    unsigned A = 0, B = 0;
    R.Leaf = [&](const Term &Leaf) -> uint64_t {
      auto It = BoundIndex.find(Leaf.Id);
      if (It != BoundIndex.end())
        return Table[It->second][Q.Bindings[It->second].InLaneB ? B : A];
      return Leaf.Op == TermOp::Uniform ? Sample.uniform().lookup(Leaf.Id) : 0;
    };
    for (A = 0; A < Lanes; ++A)
      for (B = UsesLaneB ? 0 : A; B < (UsesLaneB ? Lanes : A + 1); ++B) {
        bool RelationUndefined = false;
        if (!evaluate(Q.Relation, R, &RelationUndefined) || RelationUndefined)
          continue;
        Witness.LaneA = A;
        Witness.LaneB = B;
        Witness.Values.clear();
        for (unsigned I = 0; I < Q.Bindings.size(); ++I)
          Witness.Values.push_back(Table[I][Q.Bindings[I].InLaneB ? B : A]);
        Witness.FromSolver = false;
        return true;
      }
  }
  return false;
}

UniformityProver::Existence UniformityProver::solveLanePair(const LanePairQuery &Q,
                                                            LanePairWitness &Witness) {
  // A pair in one shape the code runs in is a pair; none in every shape is none.
  return acrossShapes(
      Blocks, Existence::Exists, Existence::NoneExists,
      [&](const LaunchedBlock *Shape) { return solveLanePairInShape(Q, Shape, Witness); });
}

UniformityProver::Existence UniformityProver::solveLanePairInShape(const LanePairQuery &Q,
                                                                   const LaunchedBlock *Shape,
                                                                   LanePairWitness &Witness) {
#if LLVM_WITH_Z3
  llvm::SMTSolver &S = freshSolver(Z3);
  Solver &Z = *Z3;
  WarpModel M;
  setUpWarpModel(Z, 32, Aligned, Shape, M);
  llvm::DenseMap<TermRef, bool> Nonlinear;
  // A witness must be an execution of the model, so no subterm is replaced
  // by a weaker symbol here (that only serves proofs of uniformity).
  Lowering LA(S, Z, M.A, M.Dx, M.Dy, M.Dz, Nonlinear, Aligned);
  Lowering LB(S, Z, M.B, M.Dx, M.Dy, M.Dz, Nonlinear, Aligned);
  Lowering LR(S, Z, M.A, M.Dx, M.Dy, M.Dz, Nonlinear, Aligned);
  LA.Abstract = LB.Abstract = LR.Abstract = false;
  LA.AssumeDefinedOps = LB.AssumeDefinedOps = LR.AssumeDefinedOps = true;
  for (unsigned I = 0; I < Q.Bindings.size(); ++I) {
    const LanePairQuery::Binding &B = Q.Bindings[I];
    llvm::SMTExprRef Value = (B.InLaneB ? LB : LA).lower(B.Value);
    llvm::SMTExprRef Symbol = Z.symbol("bound" + std::to_string(I), B.Value->Width);
    S.addConstraint(S.mkEqual(Symbol, Value));
    LR.Memo[B.Leaf] = Symbol;
  }
  S.addConstraint(S.mkEqual(LR.lower(Q.Relation), Z.bv(1, 1)));

  auto Start = std::chrono::steady_clock::now();
  std::optional<bool> Sat = Z.decide(WallClockLimitMs);
  Stats.SolverSeconds +=
      std::chrono::duration<double>(std::chrono::steady_clock::now() - Start).count();
  ++Stats.SolverQueries;
  if (!Sat) {
    ++Stats.Unknown;
    return Existence::Unknown;
  }
  if (!*Sat) {
    ++Stats.ProvedUniform;
    return Existence::NoneExists;
  }
  ++Stats.SolverVarying;
  // The witness from the model; a value the model leaves open makes the
  // answer unusable for a message, so it is Unknown then.
  std::optional<uint64_t> LaneA = Z.Tactics.valueOf("lane.A", 5);
  std::optional<uint64_t> LaneB = Z.Tactics.valueOf("lane.B", 5);
  if (!LaneA || !LaneB)
    return Existence::Unknown;
  Witness.LaneA = static_cast<unsigned>(*LaneA);
  Witness.LaneB = static_cast<unsigned>(*LaneB);
  Witness.Values.clear();
  for (unsigned I = 0; I < Q.Bindings.size(); ++I) {
    std::optional<uint64_t> V =
        Z.Tactics.valueOf("bound" + std::to_string(I), Q.Bindings[I].Value->Width);
    if (!V)
      return Existence::Unknown;
    Witness.Values.push_back(*V);
  }
  Witness.FromSolver = true;
  return Existence::Exists;
#else
  (void)Q;
  (void)Shape;
  (void)Witness;
  ++Stats.Unknown;
  return Existence::Unknown;
#endif
}

UniformityProver::UniformityProver(bool WarpAlignedBlocks, unsigned WallClockLimitMs,
                                   llvm::ArrayRef<LaunchedBlock> Launched)
    : Aligned(WarpAlignedBlocks), Blocks(Launched.begin(), Launched.end()),
      WallClockLimitMs(WallClockLimitMs) {
  llvm::sort(Blocks);
  Blocks.erase(std::unique(Blocks.begin(), Blocks.end()), Blocks.end());
  if (Blocks.empty()) {
    ModelKey = Aligned ? "a/" : "u/";
    return;
  }
  Aligned = llvm::all_of(Blocks, [](const LaunchedBlock &B) { return B.X % 32 == 0; });
  llvm::raw_string_ostream OS(ModelKey);
  for (const LaunchedBlock &B : Blocks)
    OS << B.X << 'x' << B.Y << 'x' << B.Z << ',';
  OS << '/';
}

UniformityProver::~UniformityProver() {
  std::lock_guard<std::mutex> Lock(TotalsMutex);
  processTotals().add(Stats);
}

/// A key equal for terms that differ only in the names of their leaves
/// (`gid < n` of one kernel and `gid < m` of the next): leaves are numbered
/// by first appearance, with what is known of them.
static void canonicalKey(TermRef T, llvm::DenseMap<TermRef, unsigned> &Numbers,
                         llvm::raw_ostream &OS) {
  auto It = Numbers.find(T);
  if (It != Numbers.end()) {
    OS << '#' << It->second;
    return;
  }
  unsigned N = Numbers.size();
  Numbers[T] = N;
  OS << '(' << static_cast<unsigned>(T->Op) << ':' << T->Width << (T->NoSignedWrap ? "n" : "");
  if (T->isConst())
    OS << '=' << T->Value;
  if (T->Op == TermOp::Uniform)
    OS << 'z' << T->KnownZeroBits << 'b' << T->UpperBound;
  for (TermRef O : T->Ops) {
    OS << ' ';
    canonicalKey(O, Numbers, OS);
  }
  OS << ')';
}

namespace {
/// Answers the solver settled, shared by every prover of the process: the
/// arch passes of one file (and, in warp-clangd or the plugin, the files of
/// one session) ask the same questions of the same headers, and an answer
/// depends only on the
/// canonical term, the group size and the warp model. Unknown answers are
/// not shared (a wall-clock limit made them). Bounded: cleared when full.
class SharedAnswers {
public:
  std::optional<UniformityProver::Answer> find(const std::string &Key) {
    std::lock_guard<std::mutex> Lock(Mutex);
    auto It = Answers.find(Key);
    if (It == Answers.end())
      return std::nullopt;
    return It->second;
  }
  void insert(const std::string &Key, UniformityProver::Answer A) {
    std::lock_guard<std::mutex> Lock(Mutex);
    if (Answers.size() >= MaxEntries)
      Answers.clear();
    Answers.emplace(Key, A);
  }

private:
  static constexpr size_t MaxEntries = 100000;
  std::mutex Mutex;
  std::unordered_map<std::string, UniformityProver::Answer> Answers;
};
SharedAnswers &sharedAnswers() {
  static SharedAnswers S;
  return S;
}
} // namespace

UniformityProver::Answer UniformityProver::sameInGroup(TermRef T, LaneGroup Group) {
  ++Stats.Questions;
  if (!T->LaneDependent)
    return Answer::Uniform;
  if (Group.trivial())
    return Answer::Uniform;
  auto Asked = ByTerm.find({T, Group.key()});
  if (Asked != ByTerm.end()) {
    ++Stats.CacheHits;
    return Asked->second;
  }
  std::string Text;
  llvm::raw_string_ostream OS(Text);
  llvm::DenseMap<TermRef, unsigned> Numbers;
  canonicalKey(T, Numbers, OS);
  OS << '/' << Group.Size;
  if (!Group.wholeGroups())
    OS << '/' << llvm::utohexstr(Group.Lanes);
  auto It = Cache.find(OS.str());
  if (It != Cache.end()) {
    ++Stats.CacheHits;
    ByTerm[{T, Group.key()}] = It->second;
    return It->second;
  }
  const std::string Key = OS.str();
  const std::string SharedKey = ModelKey + Key;
  Answer A;
  bool Sampled = samplingFindsDisagreement(T, Group);
  if (Sampled) {
    ++Stats.SampledVarying;
    A = Answer::Varying;
  } else if (std::optional<Answer> Known = sharedAnswers().find(SharedKey)) {
    ++Stats.SharedHits;
    A = *Known;
  } else {
    A = prove(T, Group);
    if (A != Answer::Unknown)
      sharedAnswers().insert(SharedKey, A);
  }
  Cache[Key] = A;
  ByTerm[{T, Group.key()}] = A;
  if (getenv("WARP_TIDY_DEBUG_PROVER")) {
    llvm::errs() << "prover: group " << Group.Size;
    if (!Group.wholeGroups())
      llvm::errs() << " lanes 0x" << llvm::utohexstr(Group.Lanes);
    llvm::errs() << " "
                 << (A == Answer::Uniform   ? "uniform"
                     : A == Answer::Varying ? "varying"
                                            : "unknown")
                 << (Sampled ? " (sampled)" : " (solver)") << ": ";
    printTerm(T, llvm::errs());
    llvm::errs() << "\n";
  }
  return A;
}

UniformityProver::Existence UniformityProver::existsLanePair(const LanePairQuery &Q,
                                                             LanePairWitness *Witness) {
  ++Stats.Questions;
  // The same question about the same mask comes from several checks (and
  // template instances): cache by the canonical form of relation and
  // bindings, leaves renamed by first appearance.
  std::string Text;
  llvm::raw_string_ostream OS(Text);
  llvm::DenseMap<TermRef, unsigned> Numbers;
  canonicalKey(Q.Relation, Numbers, OS);
  for (const LanePairQuery::Binding &B : Q.Bindings) {
    OS << (B.InLaneB ? " B" : " A");
    canonicalKey(B.Leaf, Numbers, OS);
    canonicalKey(B.Value, Numbers, OS);
  }
  auto It = PairCache.find(OS.str());
  if (It != PairCache.end()) {
    ++Stats.CacheHits;
    if (Witness)
      *Witness = It->second.second;
    return It->second.first;
  }
  const std::string Key = OS.str();
  LanePairWitness W;
  Existence E;
  if (samplingFindsLanePair(Q, W)) {
    ++Stats.SampledVarying;
    E = Existence::Exists;
  } else {
    E = solveLanePair(Q, W);
  }
  PairCache[Key] = {E, W};
  if (Witness)
    *Witness = W;
  return E;
}

} // namespace warp_tidy
