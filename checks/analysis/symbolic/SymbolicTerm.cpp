//===--- SymbolicTerm.cpp - Integer values as terms over the thread's position ===//

#include "symbolic/SymbolicTerm.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/Support/MathExtras.h"
#include "llvm/Support/raw_ostream.h"
#include <algorithm>
#include <functional>

namespace warp_tidy {

static uint64_t maskTo(uint64_t V, unsigned Width) {
  return Width >= 64 ? V : (V & ((uint64_t(1) << Width) - 1));
}

static int64_t signedOf(uint64_t V, unsigned Width) {
  if (Width >= 64)
    return static_cast<int64_t>(V);
  return llvm::SignExtend64(V, Width);
}

static bool isComparison(TermOp Op) { return Op >= TermOp::Eq && Op <= TermOp::SLe; }

TermRef TermBuilder::make(Term T) {
  if (T.isConst())
    T.Value = maskTo(T.Value, T.Width);
  auto Key = std::make_tuple(static_cast<uint8_t>(T.Op), T.Width, T.Value, T.Id,
                             T.KnownZeroBits * 2 + (T.NoSignedWrap ? 1 : 0), T.Ops);
  // (Uniform leaves are unique by Id, so UpperBound needs no place in the key.)
  auto It = Unique.find(Key);
  if (It != Unique.end())
    return It->second;
  if (T.Op == TermOp::PerLane || (T.Op >= TermOp::ThreadX && T.Op <= TermOp::HardwareLane))
    T.LaneDependent = true;
  for (TermRef O : T.Ops)
    T.LaneDependent |= O->LaneDependent;
  Arena.push_back(std::move(T));
  const Term *Result = &Arena.back();
  Unique.emplace(std::move(Key), Result);
  return Result;
}

TermRef TermBuilder::constant(uint64_t V, unsigned Width) {
  Term T(TermOp::Const, Width);
  T.Value = V;
  return make(std::move(T));
}

TermRef TermBuilder::threadIndex(TermOp Which) { return make(Term{Which, 32}); }

TermRef TermBuilder::uniform(const void *Key, unsigned Width, unsigned KnownZeroBits,
                             const void *Point, uint64_t UpperBound) {
  auto [It, New] = Named.try_emplace({Key, Point, Width, true}, nullptr);
  if (New) {
    It->second = freshUniform(Width, KnownZeroBits, UpperBound);
    Names[It->second] = {Key, Point};
  }
  return It->second;
}

TermRef TermBuilder::freshUniform(unsigned Width, unsigned KnownZeroBits, uint64_t UpperBound) {
  Term T(TermOp::Uniform, Width);
  T.Id = NextId++;
  T.KnownZeroBits = std::min(KnownZeroBits, Width);
  T.UpperBound = UpperBound;
  return make(std::move(T));
}

TermRef TermBuilder::perLane(const void *Key, unsigned Width, const void *Point) {
  auto [It, New] = Named.try_emplace({Key, Point, Width, false}, nullptr);
  if (New) {
    It->second = freshPerLane(Width);
    Names[It->second] = {Key, Point};
  }
  return It->second;
}

TermRef TermBuilder::freshPerLane(unsigned Width) {
  Term T(TermOp::PerLane, Width);
  T.Id = NextId++;
  return make(std::move(T));
}

std::optional<TermBuilder::LeafName> TermBuilder::nameOf(TermRef Leaf) const {
  auto It = Names.find(Leaf);
  if (It == Names.end())
    return std::nullopt;
  return It->second;
}

TermRef TermBuilder::substitute(TermRef T, llvm::function_ref<TermRef(TermRef)> Replace) {
  llvm::DenseMap<TermRef, TermRef> Done;
  std::function<TermRef(TermRef)> Rebuild = [&](TermRef X) -> TermRef {
    if (auto It = Done.find(X); It != Done.end())
      return It->second;
    TermRef R = X;
    if (X->isLeaf()) {
      if (TermRef With = Replace(X))
        R = With;
    } else if (!X->isConst()) {
      llvm::SmallVector<TermRef, 3> Ops;
      bool Changed = false;
      for (TermRef O : X->Ops) {
        Ops.push_back(Rebuild(O));
        Changed |= Ops.back() != O;
      }
      if (Changed) {
        switch (X->Op) {
        case TermOp::Not:
          R = unary(TermOp::Not, Ops[0]);
          break;
        case TermOp::ZExt:
          R = cast(Ops[0], X->Width, false);
          break;
        case TermOp::SExt:
          R = cast(Ops[0], X->Width, true);
          break;
        case TermOp::Trunc:
          R = cast(Ops[0], X->Width, false);
          break;
        case TermOp::Ite:
          R = ite(Ops[0], Ops[1], Ops[2]);
          break;
        case TermOp::Load:
          R = Ops.size() == 1 ? load(Ops[0], X->Width)
                              : apply(Ops[0], llvm::ArrayRef(Ops).drop_front(), X->Width);
          break;
        default:
          // A replacement of another width is brought to the operand's.
          R = binary(X->Op, cast(Ops[0], X->Ops[0]->Width, false),
                     cast(Ops[1], X->Ops[1]->Width, false), X->NoSignedWrap);
        }
      }
    }
    Done[X] = R;
    return R;
  };
  return Rebuild(T);
}

TermRef TermBuilder::cast(TermRef X, unsigned Width, bool Signed) {
  if (X->Width == Width)
    return X;
  TermOp Op = X->Width > Width ? TermOp::Trunc : Signed ? TermOp::SExt : TermOp::ZExt;
  if (X->isConst()) {
    uint64_t V =
        Op == TermOp::SExt ? static_cast<uint64_t>(signedOf(X->Value, X->Width)) : X->Value;
    return constant(V, Width);
  }
  Term T(Op, Width);
  T.Ops = {X};
  return make(std::move(T));
}

TermRef TermBuilder::toBool(TermRef X) {
  if (X->Width == 1)
    return X;
  return binary(TermOp::Ne, X, constant(0, X->Width));
}

TermRef TermBuilder::unary(TermOp Op, TermRef X) {
  if (X->isConst())
    return constant(~X->Value, X->Width);
  Term T(Op, X->Width);
  T.Ops = {X};
  return make(std::move(T));
}

TermRef TermBuilder::ite(TermRef C, TermRef A, TermRef B) {
  C = toBool(C);
  if (A->Width != B->Width)
    B = cast(B, A->Width, false);
  if (C->isConst())
    return C->Value ? A : B;
  if (A == B)
    return A;
  Term T(TermOp::Ite, A->Width);
  T.Ops = {C, A, B};
  return make(std::move(T));
}

TermRef TermBuilder::load(TermRef Address, unsigned Width) {
  Term T(TermOp::Load, Width);
  T.Ops = {Address};
  return make(std::move(T));
}

TermRef TermBuilder::apply(TermRef Function, llvm::ArrayRef<TermRef> Arguments, unsigned Width) {
  Term T(TermOp::Load, Width);
  T.Ops.push_back(Function);
  T.Ops.append(Arguments.begin(), Arguments.end());
  return make(std::move(T));
}

TermRef TermBuilder::binary(TermOp Op, TermRef L, TermRef R, bool NoSignedWrap) {
  // Shift amounts and mismatched operands are brought to the left's width
  // (the translation already applied C's usual conversions elsewhere).
  if (R->Width != L->Width)
    R = cast(R, L->Width, false);
  unsigned Width = isComparison(Op) ? 1 : L->Width;
  if (L->isConst() && R->isConst()) {
    LaneValues None;
    Term Tmp(Op, Width);
    Tmp.Ops = {L, R};
    return constant(evaluate(&Tmp, None), Width);
  }
  // A few identities keep terms small.
  if (R->isConst()) {
    if (R->Value == 0 &&
        (Op == TermOp::Add || Op == TermOp::Sub || Op == TermOp::Or || Op == TermOp::Xor ||
         Op == TermOp::Shl || Op == TermOp::LShr || Op == TermOp::AShr))
      return L;
    if (R->Value == 1 && (Op == TermOp::Mul || Op == TermOp::UDiv || Op == TermOp::SDiv))
      return L;
  }
  if (L == R && (Op == TermOp::Sub || Op == TermOp::Xor))
    return constant(0, Width);
  if (L == R && (Op == TermOp::Eq || Op == TermOp::ULe || Op == TermOp::SLe))
    return constant(1, 1);
  if (L == R && (Op == TermOp::Ne || Op == TermOp::ULt || Op == TermOp::SLt))
    return constant(0, 1);
  // Signed division and remainder of a value known to be non-negative by a
  // power of two are shifts and masks: equal results, far easier to prove.
  if ((Op == TermOp::SDiv || Op == TermOp::SRem) && R->isConst() && Width < 64 &&
      llvm::isPowerOf2_64(R->Value) && R->Value < (uint64_t(1) << (Width - 1)) &&
      maxValue(L) < (uint64_t(1) << (Width - 1))) {
    if (Op == TermOp::SDiv)
      return binary(TermOp::LShr, L, constant(llvm::countr_zero(R->Value), Width));
    return binary(TermOp::And, L, constant(R->Value - 1, Width));
  }
  if (TermRef Cancelled = cancelCommonAddends(Op, L, R))
    return Cancelled;
  Term T(Op, Width);
  T.Ops = {L, R};
  T.NoSignedWrap = NoSignedWrap && (Op == TermOp::Add || Op == TermOp::Sub || Op == TermOp::Mul);
  return make(std::move(T));
}

/// Adds to \p Coefficients the addends of \p T, a sum of signed C values
/// without overflow (an Add or Sub with NoSignedWrap, recursively), each
/// times \p Sign; anything else is one addend.
static void collectAddends(TermRef T, int64_t Sign,
                           llvm::SmallDenseMap<TermRef, int64_t, 8> &Coefficients,
                           llvm::SmallVectorImpl<TermRef> &Order) {
  if ((T->Op == TermOp::Add || T->Op == TermOp::Sub) && T->NoSignedWrap) {
    collectAddends(T->Ops[0], Sign, Coefficients, Order);
    collectAddends(T->Ops[1], T->Op == TermOp::Add ? Sign : -Sign, Coefficients, Order);
    return;
  }
  auto [It, New] = Coefficients.try_emplace(T, 0);
  if (New)
    Order.push_back(T);
  It->second += Sign;
}

void TermBuilder::differenceAddends(TermRef L, TermRef R,
                                    llvm::SmallVectorImpl<std::pair<TermRef, int64_t>> &Out) {
  llvm::SmallDenseMap<TermRef, int64_t, 8> Coefficients;
  llvm::SmallVector<TermRef, 8> Order;
  collectAddends(L, 1, Coefficients, Order);
  collectAddends(R, -1, Coefficients, Order);
  for (TermRef A : Order)
    Out.push_back({A, Coefficients[A]});
}

TermRef TermBuilder::cancelCommonAddends(TermOp Op, TermRef L, TermRef R) {
  // `t < end + tid` with `t = start + tid`, a strided loop's bound: both
  // sides hold the lane's own offset, and no lane can disagree. A solver
  // that sees bit-vector adders has to prove that carry by carry (on
  // ggml-cuda's wkv.cu it ran out of its effort bound, and the loop was
  // called divergent). In the integers the offsets cancel; and since a
  // signed C sum that overflows is undefined, the program's executions are
  // exactly those where the bit-vector sums are the integer ones. So the
  // comparison is rewritten over the rest, in 64 bits where it cannot
  // overflow, when the rest no longer depends on the lane. Otherwise it
  // stays as it is (a partial cancellation would lose the overflow that
  // marks an evaluation as no execution of the program, see evaluate).
  if (Op != TermOp::Eq && Op != TermOp::Ne && Op != TermOp::SLt && Op != TermOp::SLe)
    return nullptr;
  if (!L->LaneDependent || !R->LaneDependent || L->Width > 32)
    return nullptr;
  auto IsSum = [](TermRef T) {
    return (T->Op == TermOp::Add || T->Op == TermOp::Sub) && T->NoSignedWrap;
  };
  if (!IsSum(L) && !IsSum(R))
    return nullptr;
  llvm::SmallVector<std::pair<TermRef, int64_t>, 8> Addends; // a stable order
  differenceAddends(L, R, Addends);
  for (auto [A, C] : Addends)
    if (A->LaneDependent && C != 0)
      return nullptr;
  TermRef Sides[2] = {constant(0, 64), constant(0, 64)};
  for (auto [A, C] : Addends) {
    if (C == 0)
      continue;
    TermRef Wide = cast(A, 64, /*Signed=*/true);
    if (C != 1 && C != -1)
      Wide = binary(TermOp::Mul, Wide, constant(static_cast<uint64_t>(C < 0 ? -C : C), 64));
    TermRef &Side = Sides[C < 0];
    Side = binary(TermOp::Add, Side, Wide);
  }
  return binary(Op, Sides[0], Sides[1]);
}

uint64_t TermBuilder::maxValue(TermRef T) {
  unsigned W = T->Width;
  uint64_t Max = W >= 64 ? ~uint64_t(0) : (uint64_t(1) << W) - 1;
  auto Sub = [&](unsigned I) { return maxValue(T->Ops[I]); };
  auto Clamp = [&](long double V) { return V > (long double)Max ? Max : (uint64_t)V; };
  switch (T->Op) {
  case TermOp::Const:
    return T->Value;
  case TermOp::ThreadX:
  case TermOp::ThreadY:
    return 1023;
  case TermOp::ThreadZ:
    return 63;
  case TermOp::HardwareLane:
    return 31;
  case TermOp::BlockDimX:
  case TermOp::BlockDimY:
    return 1024;
  case TermOp::BlockDimZ:
    return 64;
  case TermOp::Uniform:
    return T->UpperBound ? T->UpperBound : Max;
  case TermOp::Add: {
    uint64_t A = Sub(0), B = Sub(1);
    return A > Max - B ? Max : A + B; // no wrap is possible below Max
  }
  case TermOp::Mul: {
    long double P = (long double)Sub(0) * (long double)Sub(1);
    return P > (long double)Max ? Max : (uint64_t)P;
  }
  case TermOp::And:
    return std::min(Sub(0), Sub(1));
  case TermOp::UDiv:
    return Sub(0);
  case TermOp::URem:
    return T->Ops[1]->isConst() && T->Ops[1]->Value ? T->Ops[1]->Value - 1 : Max;
  case TermOp::LShr:
    return T->Ops[1]->isConst() && T->Ops[1]->Value < W ? Sub(0) >> T->Ops[1]->Value : Sub(0);
  case TermOp::Shl:
    if (T->Ops[1]->isConst() && T->Ops[1]->Value < W)
      return Clamp((long double)Sub(0) * (long double)(uint64_t(1) << T->Ops[1]->Value));
    return Max;
  case TermOp::ZExt:
    return Sub(0);
  case TermOp::Ite:
    return std::max(Sub(1), Sub(2));
  default:
    return Max;
  }
}

unsigned TermBuilder::knownZeroBits(TermRef T, bool AlignedBlocks) {
  unsigned W = T->Width;
  auto Sub = [&](unsigned I) { return knownZeroBits(T->Ops[I], AlignedBlocks); };
  switch (T->Op) {
  case TermOp::BlockDimX:
    return AlignedBlocks ? 5 : 0;
  case TermOp::Const:
    return T->Value == 0 ? W : std::min<unsigned>(W, llvm::countr_zero(T->Value));
  case TermOp::Uniform:
    return T->KnownZeroBits;
  case TermOp::Add:
  case TermOp::Or:
    return std::min(Sub(0), Sub(1));
  case TermOp::Sub: {
    // a - a % 2^k (and a - (a & (2^k - 1))) clears the low k bits.
    TermRef R = T->Ops[1];
    if ((R->Op == TermOp::SRem || R->Op == TermOp::URem || R->Op == TermOp::And) &&
        R->Ops[0] == T->Ops[0] && R->Ops[1]->isConst()) {
      uint64_t C = R->Ops[1]->Value;
      if (R->Op == TermOp::And && llvm::isPowerOf2_64(C + 1))
        return std::max(Sub(0), static_cast<unsigned>(llvm::countr_one(C)));
      if (R->Op != TermOp::And && llvm::isPowerOf2_64(C))
        return std::max(Sub(0), static_cast<unsigned>(llvm::countr_zero(C)));
    }
    return std::min(Sub(0), Sub(1));
  }
  case TermOp::Mul:
    return std::min(W, Sub(0) + Sub(1));
  case TermOp::And:
    return std::max(Sub(0), Sub(1));
  case TermOp::Shl:
    if (T->Ops[1]->isConst())
      return static_cast<unsigned>(std::min<uint64_t>(W, Sub(0) + T->Ops[1]->Value));
    return Sub(0);
  case TermOp::LShr:
  case TermOp::AShr:
    if (T->Ops[1]->isConst() && Sub(0) < W)
      return Sub(0) > T->Ops[1]->Value ? Sub(0) - static_cast<unsigned>(T->Ops[1]->Value) : 0;
    return 0;
  case TermOp::ZExt:
  case TermOp::SExt: {
    unsigned Inner = Sub(0);
    return Inner >= T->Ops[0]->Width ? W : Inner;
  }
  case TermOp::Trunc:
    return std::min(W, Sub(0));
  case TermOp::Ite:
    return std::min(Sub(1), Sub(2));
  default:
    return 0;
  }
}

namespace {
struct Evaluator {
  explicit Evaluator(const LaneValues &Lane) : Lane(Lane) {}
  const LaneValues &Lane;
  llvm::DenseMap<TermRef, uint64_t> Memo;
  bool Undefined = false;

  /// Whether a signed operation of width \p W overflowed.
  static bool overflows(TermOp Op, int64_t A, int64_t B, unsigned W) {
    if (W >= 64)
      return false; // not modelled at 64 bits
    __int128 R = Op == TermOp::Add   ? (__int128)A + B
                 : Op == TermOp::Sub ? (__int128)A - B
                                     : (__int128)A * B;
    __int128 Min = -((__int128)1 << (W - 1)), Max = ((__int128)1 << (W - 1)) - 1;
    return R < Min || R > Max;
  }

  uint64_t leaf(const Term &T) {
    switch (T.Op) {
    case TermOp::ThreadX:
      return Lane.ThreadX;
    case TermOp::ThreadY:
      return Lane.ThreadY;
    case TermOp::ThreadZ:
      return Lane.ThreadZ;
    case TermOp::HardwareLane:
      return Lane.HardwareLane;
    case TermOp::BlockDimX:
      return Lane.BlockDimX;
    case TermOp::BlockDimY:
      return Lane.BlockDimY;
    case TermOp::BlockDimZ:
      return Lane.BlockDimZ;
    default:
      return Lane.Leaf ? Lane.Leaf(T) : 0;
    }
  }

  /// Memory in one evaluation: a fixed function of the address, so equal
  /// addresses read equal values (a splitmix64 step).
  static uint64_t contentsAt(uint64_t Address) {
    uint64_t Z = Address + 0x9e3779b97f4a7c15ULL;
    Z = (Z ^ (Z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    Z = (Z ^ (Z >> 27)) * 0x94d049bb133111ebULL;
    return Z ^ (Z >> 31);
  }

  uint64_t eval(TermRef T) {
    if (T->isConst())
      return T->Value;
    if (T->isLeaf())
      return maskTo(leaf(*T), T->Width);
    auto It = Memo.find(T);
    if (It != Memo.end())
      return It->second;
    uint64_t R = compute(T);
    Memo[T] = R;
    return R;
  }

  uint64_t compute(TermRef T) {
    unsigned W = T->Width;
    if (T->Op == TermOp::Ite)
      return eval(T->Ops[0]) ? eval(T->Ops[1]) : eval(T->Ops[2]);
    uint64_t A = eval(T->Ops[0]);
    unsigned AW = T->Ops[0]->Width;
    if (T->Op == TermOp::Load) {
      // A call's result: the same fixed function of all its operands.
      for (TermRef Argument : llvm::ArrayRef(T->Ops).drop_front())
        A = contentsAt(A ^ eval(Argument));
      return maskTo(contentsAt(A), W);
    }
    if (T->Op == TermOp::Not)
      return maskTo(~A, W);
    if (T->Op == TermOp::ZExt || T->Op == TermOp::Trunc)
      return maskTo(A, W);
    if (T->Op == TermOp::SExt)
      return maskTo(static_cast<uint64_t>(signedOf(A, AW)), W);
    uint64_t B = eval(T->Ops[1]);
    int64_t SA = signedOf(A, AW), SB = signedOf(B, AW);
    if (T->NoSignedWrap && overflows(T->Op, SA, SB, W))
      Undefined = true;
    switch (T->Op) {
    case TermOp::Add:
      return maskTo(A + B, W);
    case TermOp::Sub:
      return maskTo(A - B, W);
    case TermOp::Mul:
      return maskTo(A * B, W);
    case TermOp::UDiv:
      return B ? maskTo(A / B, W) : 0;
    case TermOp::URem:
      return B ? maskTo(A % B, W) : 0;
    case TermOp::SDiv:
      if (!B || (SB == -1 && SA == signedOf(uint64_t(1) << (AW - 1), AW)))
        return 0;
      return maskTo(static_cast<uint64_t>(SA / SB), W);
    case TermOp::SRem:
      if (!B || SB == -1)
        return 0;
      return maskTo(static_cast<uint64_t>(SA % SB), W);
    case TermOp::Shl:
      return B >= W ? 0 : maskTo(A << B, W);
    case TermOp::LShr:
      return B >= W ? 0 : A >> B;
    case TermOp::AShr:
      return maskTo(static_cast<uint64_t>(B >= W ? (SA < 0 ? -1 : 0) : (SA >> B)), W);
    case TermOp::And:
      return A & B;
    case TermOp::Or:
      return A | B;
    case TermOp::Xor:
      return A ^ B;
    case TermOp::Eq:
      return A == B;
    case TermOp::Ne:
      return A != B;
    case TermOp::ULt:
      return A < B;
    case TermOp::ULe:
      return A <= B;
    case TermOp::SLt:
      return SA < SB;
    case TermOp::SLe:
      return SA <= SB;
    default:
      return 0;
    }
  }
};
} // namespace

uint64_t evaluate(TermRef T, const LaneValues &Lane, bool *Undefined) {
  Evaluator E(Lane);
  uint64_t R = E.eval(T);
  if (Undefined)
    *Undefined = E.Undefined;
  return R;
}

static const char *opName(TermOp Op) {
  switch (Op) {
  case TermOp::Const:
    return "const";
  case TermOp::ThreadX:
    return "tid.x";
  case TermOp::ThreadY:
    return "tid.y";
  case TermOp::ThreadZ:
    return "tid.z";
  case TermOp::HardwareLane:
    return "laneid";
  case TermOp::BlockDimX:
    return "ntid.x";
  case TermOp::BlockDimY:
    return "ntid.y";
  case TermOp::BlockDimZ:
    return "ntid.z";
  case TermOp::Uniform:
    return "u";
  case TermOp::PerLane:
    return "v";
  case TermOp::Add:
    return "+";
  case TermOp::Sub:
    return "-";
  case TermOp::Mul:
    return "*";
  case TermOp::UDiv:
    return "/u";
  case TermOp::SDiv:
    return "/s";
  case TermOp::URem:
    return "%u";
  case TermOp::SRem:
    return "%s";
  case TermOp::Shl:
    return "<<";
  case TermOp::LShr:
    return ">>u";
  case TermOp::AShr:
    return ">>s";
  case TermOp::And:
    return "&";
  case TermOp::Or:
    return "|";
  case TermOp::Xor:
    return "^";
  case TermOp::Not:
    return "~";
  case TermOp::ZExt:
    return "zext";
  case TermOp::SExt:
    return "sext";
  case TermOp::Trunc:
    return "trunc";
  case TermOp::Eq:
    return "==";
  case TermOp::Ne:
    return "!=";
  case TermOp::ULt:
    return "<u";
  case TermOp::ULe:
    return "<=u";
  case TermOp::SLt:
    return "<s";
  case TermOp::SLe:
    return "<=s";
  case TermOp::Ite:
    return "ite";
  case TermOp::Load:
    return "load";
  }
  return "?";
}

bool everyLeaf(TermRef T, unsigned MaxTerms, llvm::function_ref<bool(const Term &)> Pred) {
  llvm::SmallPtrSet<TermRef, 32> Seen;
  llvm::SmallVector<TermRef, 32> Work = {T};
  while (!Work.empty()) {
    TermRef X = Work.pop_back_val();
    if (!Seen.insert(X).second)
      continue;
    if (Seen.size() > MaxTerms || (X->isLeaf() && !Pred(*X)))
      return false;
    Work.append(X->Ops.begin(), X->Ops.end());
  }
  return true;
}

bool containsLoad(TermRef T) {
  llvm::SmallVector<TermRef, 16> Work{T};
  llvm::DenseSet<TermRef> Seen;
  while (!Work.empty()) {
    TermRef X = Work.pop_back_val();
    if (!Seen.insert(X).second)
      continue;
    if (X->Op == TermOp::Load)
      return true;
    Work.append(X->Ops.begin(), X->Ops.end());
  }
  return false;
}

void printTerm(TermRef T, llvm::raw_ostream &OS) {
  if (T->isConst()) {
    OS << T->Value;
    return;
  }
  if (T->Op == TermOp::Uniform || T->Op == TermOp::PerLane) {
    OS << opName(T->Op) << T->Id;
    if (T->KnownZeroBits)
      OS << "<<" << T->KnownZeroBits;
    return;
  }
  if (T->isLeaf()) {
    OS << opName(T->Op);
    return;
  }
  OS << "(" << opName(T->Op);
  for (TermRef O : T->Ops) {
    OS << " ";
    printTerm(O, OS);
  }
  OS << ")";
}

} // namespace warp_tidy
