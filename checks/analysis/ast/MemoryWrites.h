//===--- MemoryWrites.h - Which memory a function may write ----------------===//
//
// "Memory is a value": a load at an address that two lanes share gives both
// the same value, as long as nothing writes that memory while they read it.
// This file answers the second half for one function, by the variable an
// access starts from (its root: `p` in `p[i]`, `*(p + k)`, `p->f`; `s` in
// `s.data[i].key`). A function writes through a root when it stores to an
// lvalue rooted at it (assignment, ++/--, address taken, binding to a
// non-const reference), passes a pointer derived from it where a non-const
// pointer or reference is expected (atomics included), or calls a non-const
// member function on it. Memory read through a pointer to const, or through
// a root the function never writes through, is taken as unchanging; writes
// through a different pointer that aliases it are not seen (the kernels this
// serves take their inputs as separate arrays).
//
//===----------------------------------------------------------------------===//

#ifndef WARP_TIDY_ANALYSIS_MEMORYWRITES_H
#define WARP_TIDY_ANALYSIS_MEMORYWRITES_H

namespace clang {
class ASTContext;
class CallExpr;
class Expr;
class FunctionDecl;
class VarDecl;
} // namespace clang

namespace warp_tidy {

/// The variable the memory access \p E (an lvalue or a pointer value)
/// starts from; null when it starts elsewhere (`this`, a call's result).
const clang::VarDecl *memoryRoot(const clang::Expr *E);

/// True when \p Call may write memory reached from \p Root: it passes a
/// pointer derived from it where a non-const pointer is expected (or to an
/// unknown callee), or calls a non-const member on it.
bool callMayWriteThrough(const clang::CallExpr *Call, const clang::VarDecl *Root);

/// True when \p FD's body may write memory reached from \p Root (see the
/// file comment); computed once per body and unit.
bool writesThrough(const clang::FunctionDecl *FD, const clang::VarDecl *Root,
                   clang::ASTContext &Ctx);

/// True when the value \p LValue reads cannot change while \p FD runs:
/// not volatile, and read through a pointer to const or from a root that
/// \p FD never writes through.
bool isUnchangingMemory(const clang::Expr *LValue, const clang::FunctionDecl *FD,
                        clang::ASTContext &Ctx);

} // namespace warp_tidy

#endif
