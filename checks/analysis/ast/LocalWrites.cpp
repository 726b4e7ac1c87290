//===--- LocalWrites.cpp - Which locals are written after their initialiser ===//

#include "ast/LocalWrites.h"
#include "ast/AstQueries.h"
#include "ast/UnitContext.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Decl.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/Stmt.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include <cctype>
#include <cstring>
#include <optional>
#include <string>

using namespace clang;

namespace warp_tidy {

namespace {

/// The local array a pointer local points into when it was initialised from
/// one (`T *p = arr;`, the `__begin` of a range-for over a local array), so
/// that `*p` names an element of it; null otherwise.
const VarDecl *localArrayBehind(const Expr *Pointer) {
  const auto *Ref = dyn_cast<DeclRefExpr>(Pointer->IgnoreParenImpCasts());
  const auto *P = Ref ? dyn_cast<VarDecl>(Ref->getDecl()) : nullptr;
  if (!P || !P->hasLocalStorage() || !P->getType()->isPointerType() || !P->getInit())
    return nullptr;
  const Expr *Init = P->getInit()->IgnoreParenImpCasts();
  if (!Init->getType()->isArrayType())
    return nullptr;
  return storedLocal(Init);
}

/// The local object the referent of reference local \p V is part of, or
/// null when it is memory (`Atomics &a = p.atomics[blockIdx.z]`).
const VarDecl *localBehindReference(const VarDecl *V) {
  const Expr *Init = V->getInit()->IgnoreParenImpCasts();
  if (const auto *Deref = dyn_cast<UnaryOperator>(Init); Deref && Deref->getOpcode() == UO_Deref)
    return localArrayBehind(Deref->getSubExpr());
  return storedLocal(Init);
}

} // namespace

const VarDecl *storedLocal(const Expr *E) {
  bool Part = false;
  // Bounded: deeper nesting of fields and subscripts is not real code.
  for (unsigned Depth = 0; E && Depth < 16; ++Depth) {
    E = E->IgnoreParenImpCasts();
    if (const auto *Ref = dyn_cast<DeclRefExpr>(E)) {
      const auto *V = dyn_cast<VarDecl>(Ref->getDecl());
      if (!V || !V->hasLocalStorage())
        return nullptr;
      // A field or element of a reference local bound to memory is memory,
      // where a store is as unmodelled as one through a pointer (`a.counter`
      // with `Atomics &a = p.atomics[blockIdx.z]` is `p->counter`): the
      // other fields read through the reference do not become varying. A
      // reference parameter (the summary's ReferenceOut), a whole reference
      // local (what a range-for body assigns to its element) and one bound
      // to a local object stay tracked as themselves.
      if (Part && V->getType()->isReferenceType() && !isa<ParmVarDecl>(V) && V->getInit() &&
          !localBehindReference(V))
        return nullptr;
      return V;
    }
    if (const auto *M = dyn_cast<MemberExpr>(E)) {
      if (M->isArrow())
        return nullptr;
      E = M->getBase();
      Part = true;
      continue;
    }
    if (const auto *A = dyn_cast<ArraySubscriptExpr>(E)) {
      const Expr *Base = A->getBase()->IgnoreParenImpCasts();
      if (!Base->getType()->isArrayType())
        return nullptr;
      E = Base;
      Part = true;
      continue;
    }
    return nullptr;
  }
  return nullptr;
}

namespace {

/// The special registers of the lane's position, as PTX names them.
constexpr std::pair<const char *, LaneRegister> LaneRegisterNames[] = {
    {"%laneid", LaneRegister::LaneId},      {"%lanemask_lt", LaneRegister::MaskLt},
    {"%lanemask_le", LaneRegister::MaskLe}, {"%lanemask_gt", LaneRegister::MaskGt},
    {"%lanemask_ge", LaneRegister::MaskGe}, {"%lanemask_eq", LaneRegister::MaskEq}};

/// The register output \p I of \p Asm copies: the instruction text reads
/// exactly one of them and the output is the only one, or the text moves
/// it into exactly that operand.
std::optional<LaneRegister> outputLaneRegister(const GCCAsmStmt *Asm, unsigned I) {
  std::string Text = Asm->getAsmString();
  llvm::StringRef T(Text);
  std::optional<LaneRegister> Read;
  for (const auto &[Name, Register] : LaneRegisterNames) {
    // A name followed by a letter or digit is another register's prefix.
    size_t At = T.find(Name);
    if (At == llvm::StringRef::npos)
      continue;
    char After = At + strlen(Name) < T.size() ? T[At + strlen(Name)] : ';';
    if (isalnum(static_cast<unsigned char>(After)) || After == '_')
      continue;
    if (Asm->getNumOutputs() != 1 &&
        !T.contains("%" + std::to_string(I) + ", %" + std::string(Name)))
      continue; // moved into another output
    if (Read)
      return std::nullopt; // two registers for one output: which one lands is not read
    Read = Register;
  }
  return Read;
}

/// Calls \p OnWrite(var, lane register or none, lvalue) for every write of
/// a local in \p S (see the file comment of LocalWrites.h for what counts).
void forEachLocalWrite(
    const Stmt *S, const CallExpr *ReadOnlyCall,
    llvm::function_ref<void(const VarDecl *, std::optional<LaneRegister>, const Expr *)> OnWrite) {
  forEachStore(S, ReadOnlyCall, [&](const Expr *Target, const GCCAsmStmt *Asm, unsigned Output) {
    const VarDecl *V = storedLocal(Target);
    if (!V)
      return;
    std::optional<LaneRegister> Register;
    if (Asm) {
      const Expr *Init = V->getInit();
      if (!Init || isa<ImplicitValueInitExpr>(Init))
        Register = outputLaneRegister(Asm, Output);
    }
    OnWrite(V, Register, Target);
  });
}

} // namespace

void forEachStore(const Stmt *S, const CallExpr *ReadOnlyCall,
                  llvm::function_ref<void(const Expr *, const GCCAsmStmt *, unsigned)> OnStore) {
  if (!S)
    return;
  auto Write = [&](const Expr *Target) { OnStore(Target, nullptr, 0); };
  if (const auto *BO = dyn_cast<BinaryOperator>(S)) {
    if (BO->isAssignmentOp())
      Write(BO->getLHS());
  } else if (const auto *UO = dyn_cast<UnaryOperator>(S)) {
    if (UO->isIncrementDecrementOp() || UO->getOpcode() == UO_AddrOf)
      Write(UO->getSubExpr());
  } else if (const auto *Asm = dyn_cast<GCCAsmStmt>(S)) {
    for (unsigned I = 0, N = Asm->getNumOutputs(); I < N; ++I)
      OnStore(Asm->getOutputExpr(I), Asm, I);
  } else if (const auto *DS = dyn_cast<DeclStmt>(S)) {
    // `int &r = x;`: r writes x wherever it is written.
    for (const Decl *D : DS->decls())
      if (const auto *V = dyn_cast<VarDecl>(D))
        if (V->getType()->isReferenceType() &&
            !V->getType().getNonReferenceType().isConstQualified() && V->getInit())
          Write(V->getInit());
  }
  if (const auto *Call = dyn_cast<CallExpr>(S); Call && Call != ReadOnlyCall) {
    if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(Call);
        Op && Op->isAssignmentOp() && Op->getNumArgs() > 0)
      Write(Op->getArg(0));
    // Arguments bound to non-const reference parameters. A member
    // operator's first argument is the object, not a parameter.
    if (const FunctionDecl *Callee = Call->getDirectCallee()) {
      unsigned Offset = firstParameterArgument(Call, Callee);
      for (unsigned I = Offset; I < Call->getNumArgs(); ++I) {
        unsigned P = I - Offset;
        if (P >= Callee->getNumParams())
          break;
        QualType PT = Callee->getParamDecl(P)->getType();
        if (PT->isReferenceType() && !PT.getNonReferenceType().isConstQualified())
          Write(Call->getArg(I));
      }
    }
  }
  const Stmt *Discarded = discardedBranch(S);
  for (const Stmt *Child : S->children())
    if (Child != Discarded)
      forEachStore(Child, ReadOnlyCall, OnStore);
}

LocalWriteFacts::LocalWriteFacts(const Stmt *Body) {
  forEachLocalWrite(Body, nullptr,
                    [&](const VarDecl *V, std::optional<LaneRegister> R, const Expr *Target) {
                      VarWrites &W = ByVar[V];
                      // Two different registers into one local: neither is its value.
                      if (R && W.LaneRegisterWrites && W.Register != *R)
                        R.reset();
                      if (!R) {
                        ++W.Writes;
                        W.Sites.push_back(Target->getBeginLoc());
                        return;
                      }
                      ++W.LaneRegisterWrites;
                      W.Register = *R;
                    });
  forEachStmt(Body, [&](const Stmt *S) {
    if (isLoopStmt(S) || isa<LambdaExpr>(S))
      RepeatingScopes.push_back(S->getSourceRange());
    HasJumps |= isa<GotoStmt, IndirectGotoStmt>(S);
    if (const auto *BO = dyn_cast<BinaryOperator>(S); BO && BO->getOpcode() == BO_Assign)
      if (const auto *Ref = dyn_cast<DeclRefExpr>(BO->getLHS()->IgnoreParenImpCasts()))
        if (const auto *V = dyn_cast<VarDecl>(Ref->getDecl())) {
          VarWrites &W = ByVar[V];
          W.Assignment = BO;
          ++W.PlainAssignments;
        }
  });
}

unsigned LocalWriteFacts::writesAfterInit(const VarDecl *V) const {
  auto It = ByVar.find(V);
  return It == ByVar.end() ? 0 : It->second.Writes;
}

bool LocalWriteFacts::isLaneRegisterOutput(const VarDecl *V) const {
  return laneRegisterOutput(V) == LaneRegister::LaneId;
}

std::optional<LaneRegister> LocalWriteFacts::laneRegisterOutput(const VarDecl *V) const {
  auto It = ByVar.find(V);
  if (It == ByVar.end() || It->second.LaneRegisterWrites == 0)
    return std::nullopt;
  return It->second.Register;
}

const Expr *LocalWriteFacts::singleDefinition(const VarDecl *V) const {
  if (!V || !V->hasLocalStorage() || isa<ParmVarDecl>(V) || !V->getInit())
    return nullptr;
  auto It = ByVar.find(V);
  if (It != ByVar.end() && (It->second.Writes || It->second.LaneRegisterWrites))
    return nullptr;
  return V->getInit();
}

namespace {

/// \p Loc is strictly before \p Than in the unit (false when either is
/// invalid or they are the same place, e.g. one macro expansion).
bool strictlyBefore(SourceLocation Loc, SourceLocation Than, const SourceManager &SM) {
  if (Loc.isInvalid() || Than.isInvalid())
    return false;
  Loc = SM.getExpansionLoc(Loc);
  Than = SM.getExpansionLoc(Than);
  return Loc != Than && SM.isBeforeInTranslationUnit(Loc, Than);
}

/// \p Loc lies inside \p Range (inclusive, by expansion location).
bool within(SourceLocation Loc, SourceRange Range, const SourceManager &SM) {
  SourceLocation Begin = SM.getExpansionLoc(Range.getBegin());
  SourceLocation End = SM.getExpansionRange(Range.getEnd()).getEnd();
  Loc = SM.getExpansionLoc(Loc);
  return !SM.isBeforeInTranslationUnit(Loc, Begin) && !SM.isBeforeInTranslationUnit(End, Loc);
}

} // namespace

const Expr *LocalWriteFacts::initialiserAt(const VarDecl *V, const DeclRefExpr *Read) const {
  if (const Expr *Init = singleDefinition(V))
    return Init;
  // A reference reads whatever its referent holds, which other names write.
  if (!V || !Read || HasJumps || !V->hasLocalStorage() || isa<ParmVarDecl>(V) || !V->getInit() ||
      V->getType()->isReferenceType())
    return nullptr;
  auto It = ByVar.find(V);
  if (It == ByVar.end() || It->second.LaneRegisterWrites)
    return nullptr;
  const SourceManager &SM = V->getASTContext().getSourceManager();
  SourceLocation At = Read->getBeginLoc();
  if (!strictlyBefore(V->getInit()->getEndLoc(), At, SM))
    return nullptr;
  for (SourceLocation Site : It->second.Sites)
    if (!strictlyBefore(At, Site, SM))
      return nullptr;
  // A loop or lambda around the read may run a later write before it,
  // unless it also holds the declaration (each round starts afresh).
  for (SourceRange Scope : RepeatingScopes)
    if (within(At, Scope, SM) && !within(V->getLocation(), Scope, SM))
      return nullptr;
  return V->getInit();
}

const Expr *LocalWriteFacts::onlyAssignedValue(const VarDecl *V) const {
  if (!V || HasJumps || !V->hasLocalStorage() || isa<ParmVarDecl>(V) || V->getInit() ||
      !V->getType()->isScalarType())
    return nullptr;
  auto It = ByVar.find(V);
  if (It == ByVar.end() || It->second.LaneRegisterWrites || It->second.Writes != 1 ||
      It->second.PlainAssignments != 1)
    return nullptr;
  const BinaryOperator *Assignment = It->second.Assignment;
  const SourceManager &SM = V->getASTContext().getSourceManager();
  for (SourceRange Scope : RepeatingScopes)
    if (within(Assignment->getBeginLoc(), Scope, SM) && !within(V->getLocation(), Scope, SM))
      return nullptr;
  return Assignment->getRHS();
}

namespace {
/// Every body's facts, kept in the unit's UnitContext.
struct LocalWritesIndex {
  llvm::DenseMap<const Stmt *, std::unique_ptr<LocalWriteFacts>> ByBody;
};
} // namespace

const LocalWriteFacts &localWritesOfBody(const FunctionDecl *FD) {
  const Stmt *Body = FD->getBody();
  auto &Index = UnitContext::of(FD->getASTContext()).get<LocalWritesIndex>();
  std::unique_ptr<LocalWriteFacts> &Slot = Index.ByBody[Body];
  if (!Slot)
    Slot = std::make_unique<LocalWriteFacts>(Body);
  return *Slot;
}

bool callMayWriteReferenceParameter(const FunctionDecl *Callee, unsigned Index) {
  const FunctionDecl *Def = Callee ? Callee->getDefinition() : nullptr;
  if (!Def || !Def->getBody() || Index >= Def->getNumParams())
    return true;
  return localWritesOfBody(Def).isWrittenAfterInit(Def->getParamDecl(Index));
}

const LocalWriteFacts *localWritesOf(const VarDecl *V) {
  if (!V || !V->hasLocalStorage())
    return nullptr;
  const auto *FD = dyn_cast_or_null<FunctionDecl>(V->getParentFunctionOrMethod());
  if (!FD || !FD->hasBody())
    return nullptr;
  return &localWritesOfBody(FD);
}

const Expr *initialiserReadAt(const DeclRefExpr *Read) {
  const auto *V = Read ? dyn_cast<VarDecl>(Read->getDecl()) : nullptr;
  const LocalWriteFacts *Facts = localWritesOf(V);
  return Facts ? Facts->initialiserAt(V, Read) : nullptr;
}

const Expr *onlyAssignedValue(const VarDecl *V) {
  const LocalWriteFacts *Facts = localWritesOf(V);
  return Facts ? Facts->onlyAssignedValue(V) : nullptr;
}

const Expr *singleAssignmentInit(const VarDecl *V) {
  const LocalWriteFacts *Facts = localWritesOf(V);
  return Facts ? Facts->singleDefinition(V) : nullptr;
}

bool isNeverWrittenIn(const VarDecl *Var, const Stmt *Scope, const CallExpr *ReadOnlyCall) {
  bool Written = false;
  forEachLocalWrite(
      Scope, ReadOnlyCall,
      [&](const VarDecl *V, std::optional<LaneRegister>, const Expr *) { Written |= V == Var; });
  return !Written;
}

llvm::DenseSet<const VarDecl *> writtenIn(const Stmt *Scope, const CallExpr *ReadOnlyCall) {
  llvm::DenseSet<const VarDecl *> Written;
  forEachLocalWrite(
      Scope, ReadOnlyCall,
      [&](const VarDecl *V, std::optional<LaneRegister>, const Expr *) { Written.insert(V); });
  return Written;
}

} // namespace warp_tidy
