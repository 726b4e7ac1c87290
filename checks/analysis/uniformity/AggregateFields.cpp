//===--- AggregateFields.cpp - Fields of a local aggregate, one by one ----===//
//
// A warp scan that returns `make_int2(exclusive, total)` gives each lane its
// own prefix in `.x` and the warp's total, broadcast from the last lane, in
// `.y`. Taken as one value the pair is per-lane, and so is everything
// computed from its total: Bonsai's tree walk advances its cell counters by
// `childScatter.y`, and every loop on those counters looked divergent. A
// local of a small aggregate type (a CUDA vector type, a plain struct) has
// one dataflow slot per field besides its own, which holds what was written
// to the variable as a whole without naming a field (through `&v`, a
// nested member, an unknown call). A field reads its slot and the
// variable's; the variable read whole reads all of them.
// Part of FunctionUniformity::Impl (see FunctionAnalysis.h).
//
//===----------------------------------------------------------------------===//

#include "ast/AstQueries.h"
#include "uniformity/FunctionAnalysis.h"
#include "clang/AST/Decl.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"

using namespace clang;

namespace warp_tidy {
using namespace uniformity_detail;

const RecordDecl *FunctionUniformity::Impl::fieldwiseRecord(QualType T) {
  if (T->isReferenceType())
    return nullptr;
  const RecordDecl *RD = T->getAsRecordDecl();
  if (!RD || RD->isUnion() || !RD->getDefinition())
    return nullptr;
  RD = RD->getDefinition();
  if (const auto *CXX = dyn_cast<CXXRecordDecl>(RD))
    if (CXX->getNumBases() || CXX->isPolymorphic())
      return nullptr;
  unsigned Fields = 0;
  for (const FieldDecl *F : RD->fields()) {
    (void)F;
    ++Fields;
  }
  return Fields >= 1 && Fields <= MaxTrackedFields ? RD : nullptr;
}

void FunctionUniformity::Impl::addFieldSlots(const VarDecl *V) {
  const RecordDecl *RD = fieldwiseRecord(V->getType());
  if (!RD)
    return;
  unsigned First = NumSlots;
  for (const FieldDecl *F : RD->fields()) {
    (void)F;
    ++NumSlots;
  }
  FieldSlots[V] = {First, NumSlots - First};
}

std::optional<unsigned> FunctionUniformity::Impl::fieldSlot(const MemberExpr *ME) const {
  if (ME->isArrow())
    return std::nullopt;
  const auto *Ref = dyn_cast<DeclRefExpr>(ME->getBase()->IgnoreParenImpCasts());
  const auto *V = Ref ? dyn_cast<VarDecl>(Ref->getDecl()) : nullptr;
  const auto *F = dyn_cast<FieldDecl>(ME->getMemberDecl());
  if (!V || !F)
    return std::nullopt;
  auto It = FieldSlots.find(resolve(V));
  if (It == FieldSlots.end() || F->getFieldIndex() >= It->second.second)
    return std::nullopt;
  return It->second.first + F->getFieldIndex();
}

ValueDeps FunctionUniformity::Impl::fieldsJoined(const VarDecl *V, const State &S) const {
  ValueDeps D = 0;
  if (auto It = FieldSlots.find(V); It != FieldSlots.end())
    for (unsigned I = 0; I < It->second.second; ++I)
      D |= S[It->second.first + I];
  return D;
}

std::optional<llvm::SmallVector<ValueDeps, 4>>
FunctionUniformity::Impl::fieldwiseDeps(const Expr *E, unsigned NumFields, const State &S) {
  E = E->IgnoreParenImpCasts();
  // A copy or move of the value underneath.
  if (const auto *Construct = dyn_cast<CXXConstructExpr>(E))
    if (Construct->getNumArgs() == 1 && Construct->getConstructor()->isCopyOrMoveConstructor())
      return fieldwiseDeps(Construct->getArg(0), NumFields, S);
  if (const auto *Temp = dyn_cast<MaterializeTemporaryExpr>(E))
    return fieldwiseDeps(Temp->getSubExpr(), NumFields, S);
  llvm::SmallVector<ValueDeps, 4> Out;
  auto Each =
      [&](llvm::ArrayRef<const Expr *> Parts) -> std::optional<llvm::SmallVector<ValueDeps, 4>> {
    if (Parts.size() != NumFields)
      return std::nullopt;
    for (const Expr *P : Parts)
      Out.push_back(deps(P, S));
    return Out;
  };
  // `{a, b}` and CUDA's `make_int2(a, b)`: one expression per field.
  if (const auto *List = dyn_cast<InitListExpr>(E))
    return Each(llvm::ArrayRef(List->getInits(), List->getNumInits()));
  const auto *Call = dyn_cast<CallExpr>(E);
  const FunctionDecl *Callee = Call ? Call->getDirectCallee() : nullptr;
  if (Callee && isToolchainDeclaration(Callee) && Callee->getIdentifier() &&
      Callee->getName().starts_with("make_"))
    return Each(llvm::ArrayRef(Call->getArgs(), Call->getNumArgs()));
  // Another local of the same shape, field by field.
  if (const auto *Ref = dyn_cast<DeclRefExpr>(E))
    if (const auto *V = dyn_cast<VarDecl>(Ref->getDecl())) {
      V = resolve(V);
      auto It = FieldSlots.find(V);
      auto Whole = VarIndex.find(V);
      if (It == FieldSlots.end() || It->second.second != NumFields || Whole == VarIndex.end())
        return std::nullopt;
      for (unsigned I = 0; I < NumFields; ++I)
        Out.push_back(S[It->second.first + I] | S[Whole->second]);
      return Out;
    }
  // A helper that returns its fields apart (FunctionSummary::ReturnFields).
  if (Callee)
    if (const FunctionDecl *Def = definitionOf(Callee); Def && Def != FD)
      if (const FunctionSummary *Sum = Cache.summary(Def);
          Sum && Sum->ReturnFields.size() == NumFields) {
        for (ValueDeps Field : Sum->ReturnFields) {
          ValueDeps D = Field & ThreadVarying;
          for (unsigned P = 0; P < Def->getNumParams() && P < 63; ++P)
            if (const Expr *A = argumentForParameter(Call, Def, P); A && (Field & parameterDep(P)))
              D |= deps(A, S);
          if (const auto *Member = dyn_cast<CXXMemberCallExpr>(Call))
            D |= deps(Member->getImplicitObjectArgument(), S);
          Out.push_back(D);
        }
        return Out;
      }
  return std::nullopt;
}

bool FunctionUniformity::Impl::assignFieldwise(State &S, const VarDecl *V, const Expr *Value,
                                               unsigned BlockID) {
  auto It = FieldSlots.find(V);
  auto Whole = VarIndex.find(V);
  if (It == FieldSlots.end() || Whole == VarIndex.end())
    return false;
  auto [First, Count] = It->second;
  ValueDeps Taint = taint(BlockID, V);
  std::optional<llvm::SmallVector<ValueDeps, 4>> Fields =
      Value ? fieldwiseDeps(Value, Count, S) : llvm::SmallVector<ValueDeps, 4>(Count, 0);
  if (!Fields) {
    S[Whole->second] = deps(Value, S) | Taint;
    for (unsigned I = 0; I < Count; ++I)
      S[First + I] = 0;
    return true;
  }
  S[Whole->second] = Taint;
  for (unsigned I = 0; I < Count; ++I)
    S[First + I] = (*Fields)[I] | Taint;
  return true;
}

bool FunctionUniformity::Impl::assignField(State &S, const Expr *LHS, ValueDeps D, bool Whole,
                                           unsigned BlockID) {
  const auto *ME = dyn_cast<MemberExpr>(LHS->IgnoreParenImpCasts());
  std::optional<unsigned> Slot = ME ? fieldSlot(ME) : std::nullopt;
  if (!Slot)
    return false;
  const VarDecl *V = rootVar(LHS);
  D |= taint(BlockID, V);
  if (!Whole) {
    S[*Slot] |= D;
    return true;
  }
  // A field written whole no longer holds what was written to the variable
  // as a whole: hand that to the other fields, which still do, and clear it
  // (`if (lane == 0) job = next(); job.val = __shfl_sync(full, job.val, 0);`
  // leaves `job.val` uniform however the whole `job` was written).
  auto Fields = FieldSlots.find(resolve(V));
  auto WholeSlot = V ? VarIndex.find(resolve(V)) : VarIndex.end();
  if (Fields != FieldSlots.end() && WholeSlot != VarIndex.end()) {
    auto [First, Count] = Fields->second;
    for (unsigned I = First; I < First + Count; ++I)
      S[I] |= S[WholeSlot->second];
    S[WholeSlot->second] = 0;
  }
  S[*Slot] = D;
  return true;
}

llvm::SmallVector<ValueDeps, 4> FunctionUniformity::Impl::returnedFields(const Expr *Value,
                                                                         const State &S) {
  const RecordDecl *RD = Value ? fieldwiseRecord(FD->getReturnType()) : nullptr;
  if (!RD)
    return {};
  unsigned Count = 0;
  for (const FieldDecl *F : RD->fields()) {
    (void)F;
    ++Count;
  }
  if (std::optional<llvm::SmallVector<ValueDeps, 4>> Fields = fieldwiseDeps(Value, Count, S))
    return *Fields;
  return llvm::SmallVector<ValueDeps, 4>(Count, deps(Value, S));
}

} // namespace warp_tidy
