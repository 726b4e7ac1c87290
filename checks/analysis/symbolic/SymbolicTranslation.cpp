//===--- SymbolicTranslation.cpp - clang expressions as symbolic terms ----===//

#include "symbolic/SymbolicTranslation.h"
#include "ast/AstQueries.h"
#include "ast/LocalWrites.h"
#include "ast/ThreadIndex.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"
#include "llvm/Support/MathExtras.h"

using namespace clang;

namespace warp_tidy {

SymbolicEnvironment::~SymbolicEnvironment() = default;

TermRef SymbolicEnvironment::memoryValue(TermRef Address, unsigned Width, SymbolicTranslator &T) {
  return T.terms().load(Address, Width);
}

static bool isIntegral(QualType T) {
  T = T.getCanonicalType();
  return T->isIntegralOrEnumerationType();
}

unsigned SymbolicTranslator::widthOf(QualType T) const {
  if (T.isNull() || !isIntegral(T))
    return 64;
  unsigned W = Ctx.getIntWidth(T);
  return W == 0 || W > 64 ? 64 : W;
}

static bool isSigned(QualType T) { return !T.isNull() && T->isSignedIntegerOrEnumerationType(); }

TermRef SymbolicTranslator::leaf(const Expr *E) {
  unsigned W = widthOf(E->getType());
  // Leaves are named by the expression and the point: the same variable read
  // at two points is two values.
  return Env.isUniform(E) ? Terms.uniform(E, W, 0, Env.point()) : Terms.perLane(E, W, Env.point());
}

TermRef SymbolicTranslator::translate(const Expr *E) {
  if (!E)
    return Terms.freshPerLane(64);
  if (Depth > 48)
    return leaf(E);
  ++Depth;
  TermRef R = isIntegral(E->getType())             ? translateInteger(E, widthOf(E->getType()))
              : E->getType()->isRealFloatingType() ? translateFloating(E)
                                                   : leaf(E);
  --Depth;
  return R;
}

// The functions that floating-point operations and conversions are, one
// uniform leaf per opcode or cast kind (keys of TermBuilder::uniform).
static const char BinaryKeys[BO_Comma + 1] = {}, UnaryKeys[UO_Coawait + 1] = {},
                                        CastKeys[CK_HLSLAggregateSplatCast + 1] = {};

TermRef SymbolicTranslator::opaque(const char *Family, unsigned Key,
                                   llvm::ArrayRef<TermRef> Operands, unsigned Width) {
  return Terms.apply(Terms.uniform(Family + Key, 64), Operands, Width);
}

/// A floating-point value: its bits when it folds, the memory it reads, the
/// variable it names, or an operation applied to its operands. IEEE
/// arithmetic is a function of its operands (in one rounding mode), so lanes
/// that compute from equal inputs hold equal results: `half[wy].w != 0`
/// read at a warp-uniform `wy` is one value per warp.
TermRef SymbolicTranslator::translateFloating(const Expr *E) {
  E = E->IgnoreParens();
  llvm::APFloat Folded(0.0);
  if (!E->isValueDependent() && E->EvaluateAsFloat(Folded, Ctx))
    return Terms.constant(Folded.bitcastToAPInt().getZExtValue(), 64);
  if (const auto *Cast = dyn_cast<CastExpr>(E)) {
    const Expr *Sub = Cast->getSubExpr();
    switch (Cast->getCastKind()) {
    case CK_LValueToRValue:
    case CK_NoOp:
      if (isa<ArraySubscriptExpr, MemberExpr>(Sub->IgnoreParens()) ||
          (isa<UnaryOperator>(Sub->IgnoreParens()) &&
           cast<UnaryOperator>(Sub->IgnoreParens())->getOpcode() == UO_Deref))
        if (TermRef T = memoryRead(Sub->IgnoreParens(), 64))
          return T;
      return translate(Sub);
    case CK_FloatingCast:
    case CK_IntegralToFloating:
      return opaque(CastKeys, Cast->getCastKind(), {translate(Sub)}, 64);
    default:
      return leaf(E);
    }
  }
  if (const auto *Ref = dyn_cast<DeclRefExpr>(E)) {
    if (const auto *V = dyn_cast<VarDecl>(Ref->getDecl()))
      if (TermRef T = Env.variable(V, Ref, *this))
        return T;
    return leaf(E);
  }
  if (const auto *BO = dyn_cast<BinaryOperator>(E)) {
    BinaryOperatorKind Op = BO->getOpcode();
    if (!BO->isMultiplicativeOp() && !BO->isAdditiveOp())
      return Op == BO_Comma ? translate(BO->getRHS()) : leaf(E);
    return opaque(BinaryKeys, Op, {translate(BO->getLHS()), translate(BO->getRHS())}, 64);
  }
  if (const auto *UO = dyn_cast<UnaryOperator>(E)) {
    if (UO->getOpcode() == UO_Plus)
      return translate(UO->getSubExpr());
    if (UO->getOpcode() == UO_Minus)
      return opaque(UnaryKeys, UO_Minus, {translate(UO->getSubExpr())}, 64);
    return leaf(E);
  }
  if (const auto *CO = dyn_cast<ConditionalOperator>(E))
    return Terms.ite(translate(CO->getCond()), translate(CO->getTrueExpr()),
                     translate(CO->getFalseExpr()));
  if (const auto *Call = dyn_cast<CallExpr>(E))
    if (TermRef T = Env.call(Call, *this))
      return T;
  return leaf(E);
}

// Built-in index components get one uniform leaf each, shared by every
// expression naming them.
static const char BlockIdxKeys[3] = {}, GridDimKeys[3] = {};
/// One key per blockIdx component and set of blockDim factors.
static const char BlockBaseKeys[3][8] = {};

/// The blockDim components whose product \p T is (bit 0 for x, 1 for y, 2
/// for z), each at most once; 0 when \p T is anything else.
static unsigned blockDimFactors(TermRef T) {
  while (T->Op == TermOp::ZExt || T->Op == TermOp::SExt)
    T = T->Ops[0];
  switch (T->Op) {
  case TermOp::BlockDimX:
    return 1;
  case TermOp::BlockDimY:
    return 2;
  case TermOp::BlockDimZ:
    return 4;
  case TermOp::Mul: {
    unsigned A = blockDimFactors(T->Ops[0]), B = blockDimFactors(T->Ops[1]);
    return A && B && !(A & B) ? A | B : 0;
  }
  default:
    return 0;
  }
}

/// `blockIdx.c * blockDim.c` (either order), or blockIdx.c times a product
/// of blockDim components that holds blockDim.c (`blockIdx.x * (blockDim.x
/// * blockDim.y)`, a 2-D block's thread count): the grid-wide index of the
/// block's first thread. It is one uniform value, a multiple of blockDim.c,
/// and the model assumes it fits a signed int with a block to spare, as every
/// kernel indexing with `int` does (otherwise `gid / 8` of a wrapped index
/// would split groups no real launch has). \p A and \p B are the terms of
/// \p L and \p R.
TermRef SymbolicTranslator::blockBase(const Expr *L, const Expr *R, TermRef A, TermRef B,
                                      unsigned Width) {
  for (int Swap = 0; Swap < 2; ++Swap, std::swap(L, R), std::swap(A, B)) {
    if (classifyBuiltinIndex(L) != BuiltinIndex::BlockIdx)
      continue;
    char C = builtinIndexComponent(L);
    unsigned I = C == 'y' ? 1 : C == 'z' ? 2 : 0;
    unsigned Factors = blockDimFactors(B);
    if (!(Factors & (1u << I)))
      continue;
    unsigned Zeros = (Factors & 1) && AlignedBlocks ? 5 : 0;
    return Terms.cast(
        Terms.uniform(&BlockBaseKeys[I][Factors], 32, Zeros, nullptr, (1u << 31) - 1024), Width,
        false);
  }
  return nullptr;
}

TermRef SymbolicTranslator::translateInteger(const Expr *E, unsigned Width) {
  E = E->IgnoreParens();
  if (std::optional<llvm::APSInt> C = foldInteger(E, Ctx); C && C->getActiveBits() <= 64)
    return Terms.constant(C->getZExtValue(), Width);
  switch (classifyBuiltinIndex(E)) {
  case BuiltinIndex::ThreadIdxX:
    return Terms.cast(Terms.threadIndex(TermOp::ThreadX), Width, false);
  case BuiltinIndex::ThreadIdxY:
    return Terms.cast(Terms.threadIndex(TermOp::ThreadY), Width, false);
  case BuiltinIndex::ThreadIdxZ:
    return Terms.cast(Terms.threadIndex(TermOp::ThreadZ), Width, false);
  case BuiltinIndex::BlockDimX:
    return Terms.cast(Terms.threadIndex(TermOp::BlockDimX), Width, false);
  case BuiltinIndex::BlockDimYZ:
    return Terms.cast(
        Terms.threadIndex(builtinIndexComponent(E) == 'z' ? TermOp::BlockDimZ : TermOp::BlockDimY),
        Width, false);
  case BuiltinIndex::BlockIdx:
  case BuiltinIndex::GridDim: {
    char C = builtinIndexComponent(E);
    unsigned I = C == 'y' ? 1 : C == 'z' ? 2 : 0;
    const char *Key =
        classifyBuiltinIndex(E) == BuiltinIndex::BlockIdx ? &BlockIdxKeys[I] : &GridDimKeys[I];
    return Terms.cast(Terms.uniform(Key, 32), Width, false);
  }
  case BuiltinIndex::WarpSize:
    return Terms.constant(32, Width);
  case BuiltinIndex::None:
    break;
  }
  if (const auto *Cast = dyn_cast<CastExpr>(E)) {
    const Expr *Sub = Cast->getSubExpr();
    switch (Cast->getCastKind()) {
    case CK_LValueToRValue:
    case CK_NoOp:
    case CK_UserDefinedConversion:
    case CK_ConstructorConversion:
      return Terms.cast(translate(Sub), Width, isSigned(Sub->getType()));
    case CK_IntegralCast:
    case CK_BooleanToSignedIntegral: {
      TermRef X = translate(Sub);
      if (Cast->getCastKind() == CK_BooleanToSignedIntegral)
        return Terms.cast(X, Width, true);
      return Terms.cast(X, Width, isSigned(Sub->getType()));
    }
    case CK_IntegralToBoolean:
      return Terms.cast(Terms.toBool(translate(Sub)), Width, false);
    case CK_FloatingToIntegral:
    case CK_FloatingToBoolean:
      return opaque(CastKeys, Cast->getCastKind(), {translate(Sub)}, Width);
    default:
      return leaf(E);
    }
  }
  if (const auto *Ref = dyn_cast<DeclRefExpr>(E)) {
    if (const auto *V = dyn_cast<VarDecl>(Ref->getDecl()))
      if (TermRef T = Env.variable(V, Ref, *this))
        return Terms.cast(T, Width, isSigned(V->getType()));
    return leaf(E);
  }
  if (isa<ArraySubscriptExpr>(E) ||
      (isa<UnaryOperator>(E) && cast<UnaryOperator>(E)->getOpcode() == UO_Deref))
    if (TermRef T = memoryRead(E, Width))
      return T;
  if (const auto *UO = dyn_cast<UnaryOperator>(E)) {
    TermRef X;
    switch (UO->getOpcode()) {
    case UO_Plus:
      return translate(UO->getSubExpr());
    case UO_Minus:
      X = Terms.cast(translate(UO->getSubExpr()), Width, isSigned(UO->getSubExpr()->getType()));
      return Terms.binary(TermOp::Sub, Terms.constant(0, Width), X);
    case UO_Not:
      X = Terms.cast(translate(UO->getSubExpr()), Width, isSigned(UO->getSubExpr()->getType()));
      return Terms.unary(TermOp::Not, X);
    case UO_LNot:
      X = Terms.toBool(translate(UO->getSubExpr()));
      return Terms.cast(Terms.binary(TermOp::Eq, X, Terms.constant(0, 1)), Width, false);
    default:
      return leaf(E);
    }
  }
  if (isa<BinaryOperator>(E))
    return binaryOperator(E, Width);
  if (const auto *CO = dyn_cast<ConditionalOperator>(E))
    return Terms.ite(
        translate(CO->getCond()),
        Terms.cast(translate(CO->getTrueExpr()), Width, isSigned(CO->getTrueExpr()->getType())),
        Terms.cast(translate(CO->getFalseExpr()), Width, isSigned(CO->getFalseExpr()->getType())));
  if (const auto *Call = dyn_cast<CallExpr>(E)) {
    if (TermRef T = Env.call(Call, *this))
      return Terms.cast(T, Width, isSigned(Call->getType()));
    return leaf(E);
  }
  if (const auto *Read = dyn_cast<MemberExpr>(E)) {
    if (TermRef T = Env.field(Read, *this))
      return Terms.cast(T, Width, isSigned(Read->getType()));
    if (TermRef T = memoryRead(E, Width))
      return T;
    return leaf(E);
  }
  if (const auto *MT = dyn_cast<MaterializeTemporaryExpr>(E))
    return Terms.cast(translate(MT->getSubExpr()), Width, isSigned(MT->getType()));
  if (const auto *EWC = dyn_cast<ExprWithCleanups>(E))
    return translate(EWC->getSubExpr());
  if (const auto *Def = dyn_cast<CXXDefaultArgExpr>(E))
    return translate(Def->getExpr());
  if (const auto *PO = dyn_cast<PseudoObjectExpr>(E))
    return translate(PO->getResultExpr());
  // `const unsigned tidx{threadIdx.x}`: a scalar's braces hold its value.
  if (const auto *List = dyn_cast<InitListExpr>(E))
    if (List->getNumInits() == 1 && List->getType()->isScalarType())
      return Terms.cast(translate(List->getInit(0)), Width, isSigned(List->getInit(0)->getType()));
  return leaf(E);
}

TermRef SymbolicTranslator::memoryRead(const Expr *LValue, unsigned Width) {
  // A load the environment already calls uniform stays its leaf.
  if (Env.isUniform(LValue) || !Env.isUnchangingMemory(LValue))
    return nullptr;
  TermRef Address = address(LValue);
  if (!Address)
    return nullptr;
  // Every lane reads one address, although the taint could not tell (an
  // index read from memory at the warp's own index): one value, named by the
  // address as memoryValue names one the prover shows the same.
  if (!Address->LaneDependent)
    return Terms.uniform(Address, Width, 0, Env.point());
  return Env.memoryValue(Address, Width, *this);
}

/// The byte offset of element \p Index of \p Size bytes, in 64 bits; a
/// shift for power-of-two sizes (a solver sees through a shift at once, while
/// a 64-bit multiplier costs it seconds).
TermRef SymbolicTranslator::scaledIndex(const Expr *Index, uint64_t Size) {
  TermRef I = Terms.cast(translate(Index), 64, isSigned(Index->getType()));
  if (Size && llvm::isPowerOf2_64(Size))
    return Terms.binary(TermOp::Shl, I, Terms.constant(llvm::Log2_64(Size), 64));
  return Terms.binary(TermOp::Mul, I, Terms.constant(Size, 64));
}

TermRef SymbolicTranslator::address(const Expr *E) {
  E = E->IgnoreParens();
  QualType T = E->getType();
  if (T.isNull() || T->isDependentType() || T->isIncompleteType())
    return nullptr;
  if (const auto *Sub = dyn_cast<ArraySubscriptExpr>(E)) {
    TermRef Base = pointerValue(Sub->getBase());
    const Expr *Idx = Sub->getIdx();
    if (!Base || !isIntegral(Idx->getType()))
      return nullptr;
    TermRef Offset = scaledIndex(Idx, Ctx.getTypeSizeInChars(T).getQuantity());
    return Terms.binary(TermOp::Add, Base, Offset);
  }
  if (const auto *UO = dyn_cast<UnaryOperator>(E); UO && UO->getOpcode() == UO_Deref)
    return pointerValue(UO->getSubExpr());
  if (const auto *Member = dyn_cast<MemberExpr>(E)) {
    const auto *Field = dyn_cast<FieldDecl>(Member->getMemberDecl());
    if (!Field || Field->isBitField() || Field->getParent()->isDependentType() ||
        Field->getParent()->isInvalidDecl())
      return nullptr;
    TermRef Base = Member->isArrow() ? pointerValue(Member->getBase()) : address(Member->getBase());
    if (!Base)
      return nullptr;
    uint64_t Offset = Ctx.getFieldOffset(Field) / Ctx.getCharWidth();
    return Terms.binary(TermOp::Add, Base, Terms.constant(Offset, 64));
  }
  // A variable outside any thread's frame (`__shared__`, `__device__`,
  // `__constant__`) lies at one address for every lane; a local array is
  // each thread's own.
  if (const auto *Ref = dyn_cast<DeclRefExpr>(E))
    if (const auto *V = dyn_cast<VarDecl>(Ref->getDecl()); V && !V->hasLocalStorage())
      return Terms.uniform(V->getCanonicalDecl(), 64);
  return nullptr;
}

TermRef SymbolicTranslator::pointerValue(const Expr *E) {
  E = E->IgnoreParens();
  if (!E->getType()->isPointerType())
    return nullptr;
  if (const auto *Cast = dyn_cast<CastExpr>(E)) {
    switch (Cast->getCastKind()) {
    case CK_ArrayToPointerDecay:
      return address(Cast->getSubExpr());
    case CK_NoOp:
    case CK_BitCast:
    case CK_LValueToRValue:
      if (Cast->getSubExpr()->getType()->isPointerType() &&
          Cast->getCastKind() != CK_LValueToRValue)
        return pointerValue(Cast->getSubExpr());
      break;
    default:
      break;
    }
  }
  if (const auto *UO = dyn_cast<UnaryOperator>(E); UO && UO->getOpcode() == UO_AddrOf)
    return address(UO->getSubExpr());
  if (const auto *BO = dyn_cast<BinaryOperator>(E); BO && BO->isAdditiveOp()) {
    const Expr *Ptr = BO->getLHS()->getType()->isPointerType() ? BO->getLHS() : BO->getRHS();
    const Expr *Int = Ptr == BO->getLHS() ? BO->getRHS() : BO->getLHS();
    QualType Pointee = Ptr->getType()->getPointeeType();
    if (!isIntegral(Int->getType()) || Pointee->isIncompleteType() || Pointee->isDependentType())
      return nullptr;
    TermRef Base = pointerValue(Ptr);
    if (!Base)
      return nullptr;
    TermRef Scaled = scaledIndex(Int, Ctx.getTypeSizeInChars(Pointee).getQuantity());
    return Terms.binary(BO->getOpcode() == BO_Add ? TermOp::Add : TermOp::Sub, Base, Scaled);
  }
  // A local pointer defined once is its definition (`p = base + row`).
  if (const auto *Ref = dyn_cast<DeclRefExpr>(E))
    if (const auto *V = dyn_cast<VarDecl>(Ref->getDecl()))
      if (const Expr *Init = singleAssignmentInit(V); Init && Depth < 48) {
        ++Depth;
        TermRef R = pointerValue(Init);
        --Depth;
        if (R)
          return R;
      }
  return translate(E);
}

TermRef SymbolicTranslator::binaryOperator(const Expr *E, unsigned Width) {
  const auto *BO = cast<BinaryOperator>(E);
  BinaryOperatorKind Op = BO->getOpcode();
  if (Op == BO_Comma)
    return translate(BO->getRHS());
  if (BO->isAssignmentOp() || Op == BO_PtrMemD || Op == BO_PtrMemI || Op == BO_Cmp)
    return leaf(E);
  const Expr *L = BO->getLHS(), *R = BO->getRHS();
  if (Op == BO_LAnd || Op == BO_LOr) {
    TermRef A = Terms.toBool(translate(L)), B = Terms.toBool(translate(R));
    return Terms.cast(Terms.binary(Op == BO_LAnd ? TermOp::And : TermOp::Or, A, B), Width, false);
  }
  if (L->getType()->isRealFloatingType() && R->getType()->isRealFloatingType() &&
      BO->isComparisonOp())
    return opaque(BinaryKeys, Op, {translate(L), translate(R)}, Width);
  if (!isIntegral(L->getType()) || !isIntegral(R->getType()))
    return leaf(E);
  bool Signed = isSigned(L->getType());
  if (BO->isComparisonOp()) {
    // Operands already carry the usual arithmetic conversions.
    unsigned OW = widthOf(L->getType());
    TermRef A = Terms.cast(translate(L), OW, Signed);
    TermRef B = Terms.cast(translate(R), OW, isSigned(R->getType()));
    TermRef C;
    switch (Op) {
    case BO_EQ:
      C = Terms.binary(TermOp::Eq, A, B);
      break;
    case BO_NE:
      C = Terms.binary(TermOp::Ne, A, B);
      break;
    case BO_LT:
      C = Terms.binary(Signed ? TermOp::SLt : TermOp::ULt, A, B);
      break;
    case BO_LE:
      C = Terms.binary(Signed ? TermOp::SLe : TermOp::ULe, A, B);
      break;
    case BO_GT:
      C = Terms.binary(Signed ? TermOp::SLt : TermOp::ULt, B, A);
      break;
    case BO_GE:
      C = Terms.binary(Signed ? TermOp::SLe : TermOp::ULe, B, A);
      break;
    default:
      return leaf(E);
    }
    return Terms.cast(C, Width, false);
  }
  TermRef A = Terms.cast(translate(L), Width, Signed);
  TermRef B = Terms.cast(translate(R), Width, isSigned(R->getType()));
  // Signed overflow is undefined: the model need not consider it.
  return arithmetic(E, Op, L, R, A, B, Width, Signed, isSigned(BO->getType()));
}

TermRef SymbolicTranslator::compoundAssignment(const CompoundAssignOperator *CAO) {
  const Expr *L = CAO->getLHS(), *R = CAO->getRHS();
  QualType Computed = CAO->getComputationResultType();
  if (!isIntegral(L->getType()) || !isIntegral(R->getType()) || !isIntegral(Computed))
    return leaf(CAO);
  // The operands meet in the computation type (the promoted left operand),
  // and the result is converted back to the variable's type.
  unsigned Width = widthOf(Computed);
  bool Signed = isSigned(CAO->getComputationLHSType());
  TermRef A = Terms.cast(translate(L), Width, isSigned(L->getType()));
  TermRef B = Terms.cast(translate(R), Width, isSigned(R->getType()));
  BinaryOperatorKind Op = BinaryOperator::getOpForCompoundAssignment(CAO->getOpcode());
  TermRef V = arithmetic(CAO, Op, L, R, A, B, Width, Signed, isSigned(Computed));
  return Terms.cast(V, widthOf(L->getType()), Signed);
}

TermRef SymbolicTranslator::arithmetic(const Expr *E, BinaryOperatorKind Op, const Expr *L,
                                       const Expr *R, TermRef A, TermRef B, unsigned Width,
                                       bool Signed, bool NoWrap) {
  switch (Op) {
  case BO_Add:
    return Terms.binary(TermOp::Add, A, B, NoWrap);
  case BO_Sub:
    return Terms.binary(TermOp::Sub, A, B, NoWrap);
  case BO_Mul:
    if (TermRef Base = blockBase(L, R, A, B, Width))
      return Base;
    return Terms.binary(TermOp::Mul, A, B, NoWrap);
  case BO_Div:
    return Terms.binary(Signed ? TermOp::SDiv : TermOp::UDiv, A, B);
  case BO_Rem:
    return Terms.binary(Signed ? TermOp::SRem : TermOp::URem, A, B);
  case BO_Shl:
    return Terms.binary(TermOp::Shl, A, B);
  case BO_Shr:
    return Terms.binary(Signed ? TermOp::AShr : TermOp::LShr, A, B);
  case BO_And:
    return Terms.binary(TermOp::And, A, B);
  case BO_Or:
    return Terms.binary(TermOp::Or, A, B);
  case BO_Xor:
    return Terms.binary(TermOp::Xor, A, B);
  default:
    return leaf(E);
  }
}

} // namespace warp_tidy
