//===--- UnitParents.h - Parents of statements without clang's parent map ===//
//
// The analyses walk up from a call to its enclosing statements and function
// (guards, assignments, loops, the function to analyse). clang's
// ASTContext::getParents answers that, but its first question builds a map
// of every node of the unit: declarations, type locations, attributes and
// every template instantiation, through RecursiveASTVisitor's parent stack.
// On template-heavy units (ggml's mmvq.cu: 271 instantiations of one kernel)
// that map cost about 5.5% of the parse, before any check had run.
//
// This index answers the same question for the nodes the analyses ask
// about, for less: it records each statement's and declaration's parents
// while one RecursiveASTVisitor walks the declarations in clang's order
// (so a node an instantiation shares with its pattern gets the same first
// and last parent as in clang's map), but walks statement trees itself and
// skips type locations and name specifiers. A node the index
// does not hold (reached only through a type location or a default
// argument, say) is answered by clang's map, built on first need: never a
// different answer, only, rarely, the old cost.
//
//===----------------------------------------------------------------------===//

#ifndef WARP_TIDY_ANALYSIS_UNITPARENTS_H
#define WARP_TIDY_ANALYSIS_UNITPARENTS_H

#include "clang/AST/ASTTypeTraits.h"

namespace clang {
class ASTContext;
} // namespace clang

namespace warp_tidy {

/// The first of \p Node's parents, in the order of clang's parent map (what
/// `Ctx.getParents(Node)[0]` gives); a null node (kind none) when it has
/// none.
clang::DynTypedNode firstParent(const clang::DynTypedNode &Node, clang::ASTContext &Ctx);

/// The last of \p Node's parents in that order: the chain clang's
/// `forCallable` matcher follows up to a function.
clang::DynTypedNode lastParent(const clang::DynTypedNode &Node, clang::ASTContext &Ctx);

template <typename T> clang::DynTypedNode firstParent(const T &Node, clang::ASTContext &Ctx) {
  return firstParent(clang::DynTypedNode::create(Node), Ctx);
}

/// True for the null node firstParent() and lastParent() return at the top.
inline bool isNone(const clang::DynTypedNode &Node) { return Node.getNodeKind().isNone(); }

/// How many parent questions clang's own map had to answer in this process
/// (nodes the index does not hold); for the tests and the benchmark notes.
unsigned parentMapFallbacks();

} // namespace warp_tidy

#endif
