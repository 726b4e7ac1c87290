//===--- WarpCollective.cpp - One view of a collective, call or inline PTX ===//

#include "intrinsics/WarpCollective.h"
#include "ast/AstQueries.h"
#include "intrinsics/CollectiveCalls.h"
#include "intrinsics/InlinePtx.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/Stmt.h"

using namespace clang;

namespace warp_tidy {

std::optional<int64_t> CollectiveOperand::constant(const ASTContext &Ctx) const {
  if (Immediate)
    return Immediate;
  if (!E || isa<CXXDefaultArgExpr>(E))
    return std::nullopt;
  return integerConstant(E->IgnoreImpCasts(), Ctx);
}

const CallExpr *WarpCollective::call() const { return dyn_cast_or_null<CallExpr>(At); }

const GCCAsmStmt *WarpCollective::asmStmt() const { return dyn_cast_or_null<GCCAsmStmt>(At); }

std::string WarpCollective::displayName() const {
  if (isInlinePtx())
    return "inline PTX '" + PtxInstruction + "'";
  return Intrinsic ? Intrinsic->Name.str() : std::string("the collective");
}

std::optional<uint32_t> WarpCollective::maskConstant(const ASTContext &Ctx) const {
  if (Mask.Immediate)
    return static_cast<uint32_t>(*Mask.Immediate);
  return resolveMaskConstant(Mask.E, Ctx);
}

SourceLocation WarpCollective::operandLoc(const CollectiveOperand &Op) const {
  if (Op.E && !isa<CXXDefaultArgExpr>(Op.E))
    return Op.E->getBeginLoc();
  if (const GCCAsmStmt *Asm = asmStmt())
    if (Op.Immediate && Asm->getAsmStringExpr())
      return Asm->getAsmStringExpr()->getBeginLoc();
  return At ? At->getBeginLoc() : SourceLocation();
}

SourceLocation WarpCollective::maskLoc() const { return operandLoc(Mask); }

SourceRange WarpCollective::maskRange() const {
  if (Mask.E && !isa<CXXDefaultArgExpr>(Mask.E))
    return Mask.E->getSourceRange();
  if (const GCCAsmStmt *Asm = asmStmt())
    if (Mask.Immediate && Asm->getAsmStringExpr())
      return Asm->getAsmStringExpr()->getSourceRange();
  return At ? At->getSourceRange() : SourceRange();
}

static CollectiveOperand callArgument(const CallExpr *Call, int Index) {
  CollectiveOperand Op;
  if (Index != NoArgument && static_cast<unsigned>(Index) < Call->getNumArgs())
    Op.E = Call->getArg(Index);
  return Op;
}

static std::optional<WarpCollective> fromCall(const CallExpr *Call) {
  std::optional<CollectiveCall> C = recogniseCollective(Call);
  if (!C)
    return std::nullopt;
  const WarpIntrinsic &I = *C->Intrinsic;
  WarpCollective W;
  W.At = Call;
  W.Intrinsic = &I;
  W.Mask = callArgument(Call, I.MaskArg);
  W.Value = callArgument(Call, I.ValueArg);
  W.LaneOrDelta = callArgument(Call, I.LaneOrDeltaArg);
  W.Width = callArgument(Call, I.WidthArg);
  W.ImplicitFullMask = C->hasImplicitFullMask();
  return W;
}

/// The asm statement's operand \p Index, numbered as in the template:
/// outputs first, then inputs.
static const Expr *asmOperand(const GCCAsmStmt *Asm, unsigned Index) {
  if (Index < Asm->getNumOutputs())
    return Asm->getOutputExpr(Index);
  Index -= Asm->getNumOutputs();
  if (Index < Asm->getNumInputs())
    return Asm->getInputExpr(Index);
  return nullptr;
}

static CollectiveOperand fromPtx(const GCCAsmStmt *Asm, const std::optional<PtxOperand> &Op) {
  CollectiveOperand Out;
  if (!Op)
    return Out;
  if (Op->Kind == PtxOperand::AsmOperand)
    Out.E = asmOperand(Asm, Op->AsmIndex);
  else if (Op->Kind == PtxOperand::Immediate)
    Out.Immediate = Op->Value;
  return Out;
}

static llvm::SmallVector<WarpCollective, 1> fromAsm(const GCCAsmStmt *Asm) {
  llvm::SmallVector<WarpCollective, 1> Out;
  // A template that is not a plain string literal (a C++26 constant
  // expression) is read the way the compiler reads it.
  std::string Template = Asm->getAsmString();
  std::vector<std::string> Names;
  for (unsigned I = 0; I < Asm->getNumOutputs(); ++I)
    Names.push_back(Asm->getOutputName(I).str());
  for (unsigned I = 0; I < Asm->getNumInputs(); ++I)
    Names.push_back(Asm->getInputName(I).str());
  for (const PtxCollective &P : parseInlinePtxCollectives(Template, Names)) {
    if (!P.Equivalent)
      continue;
    WarpCollective W;
    W.At = Asm;
    W.Intrinsic = P.Equivalent;
    W.PtxInstruction = P.Instruction;
    W.Mask = fromPtx(Asm, P.Mask);
    W.Destination = fromPtx(Asm, P.Destination);
    W.Value = fromPtx(Asm, P.Value);
    W.LaneOrDelta = fromPtx(Asm, P.LaneOrDelta);
    W.ShuffleControl = fromPtx(Asm, P.Control);
    W.GuardedInTemplate = P.Guarded;
    W.MaskFromActivemaskInTemplate = P.Mask && P.Mask->FromActivemask;
    Out.push_back(std::move(W));
  }
  return Out;
}

llvm::SmallVector<WarpCollective, 1> warpCollectivesAt(const Stmt *S) {
  if (const auto *Call = dyn_cast_or_null<CallExpr>(S)) {
    if (std::optional<WarpCollective> W = fromCall(Call))
      return {std::move(*W)};
    return {};
  }
  if (const auto *Asm = dyn_cast_or_null<GCCAsmStmt>(S))
    return fromAsm(Asm);
  return {};
}

std::optional<WarpCollective> warpCollectiveAt(const Stmt *S) {
  llvm::SmallVector<WarpCollective, 1> All = warpCollectivesAt(S);
  if (All.empty())
    return std::nullopt;
  return std::move(All.front());
}

std::optional<WarpCollective> asmCollectiveNeedingLanes(const GCCAsmStmt *Asm) {
  for (WarpCollective &W : fromAsm(Asm))
    if (W.Intrinsic->Kind != CollectiveKind::ActiveMask)
      return std::move(W);
  return std::nullopt;
}

bool inlinePtxResultIsWarpUniform(const GCCAsmStmt *Asm, unsigned OutputIndex) {
  if (OutputIndex >= Asm->getNumOutputs())
    return false;
  const Expr *Output = Asm->getOutputExpr(OutputIndex);
  for (const WarpCollective &C : fromAsm(Asm)) {
    if (C.Destination.E != Output || C.GuardedInTemplate)
      continue;
    switch (C.Intrinsic->Kind) {
    case CollectiveKind::Ballot:
    case CollectiveKind::Vote:
    case CollectiveKind::Reduce:
      return true;
    case CollectiveKind::Match:
      return C.Intrinsic->Name.contains("all");
    default:
      return false;
    }
  }
  return false;
}

} // namespace warp_tidy
