//===--- AllNodes.h - Every node clang's parent map knows, for the tests --===//
//
// The parent-index tests compare the index with clang's parent map on every
// node of a unit: statements and declarations as RecursiveASTVisitor sees
// them with the parent map's settings (template instantiations and
// implicit code included, as the matchers see them too).
//
//===----------------------------------------------------------------------===//

#ifndef WARP_TIDY_TEST_UNIT_ALLNODES_H
#define WARP_TIDY_TEST_UNIT_ALLNODES_H

#include "CudaTestUnits.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/ASTTypeTraits.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include <string>
#include <vector>

namespace warp_tidy::test {

/// The stand-ins the parent tests' units use: two collectives and a sink.
inline const std::string &parentTestPrelude() {
  static const std::string Prelude =
      cudaStandIns("__device__ unsigned __shfl_sync(unsigned, unsigned, int);\n"
                   "__device__ void __syncwarp(unsigned = 0xffffffff);\n",
                   "__device__ void use(unsigned);\n");
  return Prelude;
}

/// Every statement and declaration (the translation unit aside) of \p Ctx.
inline std::vector<clang::DynTypedNode> allNodes(clang::ASTContext &Ctx) {
  struct Collector : clang::RecursiveASTVisitor<Collector> {
    bool shouldVisitTemplateInstantiations() const { return true; }
    bool shouldVisitImplicitCode() const { return true; }
    bool VisitStmt(clang::Stmt *S) {
      Nodes.push_back(clang::DynTypedNode::create(*S));
      return true;
    }
    bool VisitDecl(clang::Decl *D) {
      if (!llvm::isa<clang::TranslationUnitDecl>(D))
        Nodes.push_back(clang::DynTypedNode::create(*D));
      return true;
    }
    std::vector<clang::DynTypedNode> Nodes;
  } C;
  C.TraverseAST(Ctx);
  return std::move(C.Nodes);
}

} // namespace warp_tidy::test

#endif
