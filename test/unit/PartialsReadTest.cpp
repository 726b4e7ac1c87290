// Unit tests for the store/read split of analysis/PartialsRead: a subscript
// that a store writes (storedSubscript of a storeTarget) is skipped without
// asking isRead, which is only right if isRead never calls such a subscript
// read. Checked on every statement of a unit with each store form, the
// reads next to them, and the forms where a store's target holds a read
// (`pp[i]->x = v` loads the pointer pp[i]).
#include "patterns/PartialsRead.h"
#include "AllNodes.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"
#include "gtest/gtest.h"

using namespace clang;
using namespace warp_tidy;

namespace {

const std::string StoreForms = R"cu(
struct MD { float m, d; };
struct P { float x; };
__device__ void stores(float *p, MD *q, P **pp, P *ps, const float *in, float v, int i) {
  p[i] = v;
  (p[i]) = v;
  p[i] += v;
  ++p[i];
  p[i]--;
  use(&p[i]);
  q[i] = MD{v, v};
  q[i].m = v;
  (q[i]).d += v;
  ps[i].x = v;
  pp[i]->x = v;
  p[i] = p[i + 1] + in[i];
  float r = p[i];
  float s = q[i].m;
  MD t = q[i];
  MD w = {q[i].m, 1.0f};
  v = in[i] + r + s + t.d + w.m;
  use(&v);
}
template <typename T> __device__ void bump(T *p, int i) { p[i] = p[i] + T(1); }
template __device__ void bump<float>(float *, int);
template __device__ void bump<int>(int *, int);
)cu";

TEST(PartialsRead, StoredSubscriptsAreNeverReads) {
  std::unique_ptr<ASTUnit> AST = test::parseCudaUnit(
      test::cudaStandIns("", "__device__ void use(const void *);\n") + StoreForms, {"-std=c++17"});
  ASSERT_TRUE(AST) << "the unit does not parse";
  ASTContext &Ctx = AST->getASTContext();
  llvm::SmallPtrSet<const ArraySubscriptExpr *, 32> Stored;
  for (const DynTypedNode &N : test::allNodes(Ctx))
    if (const auto *S = N.get<Stmt>())
      if (const Expr *Target = storeTarget(S))
        if (const ArraySubscriptExpr *Sub = storedSubscript(Target))
          Stored.insert(Sub);
  unsigned Reads = 0;
  for (const DynTypedNode &N : test::allNodes(Ctx)) {
    const auto *Sub = N.get<ArraySubscriptExpr>();
    if (!Sub)
      continue;
    bool Read = isRead(Sub, Ctx);
    Reads += Read;
    EXPECT_FALSE(Read && Stored.contains(Sub))
        << "a store's target is called read at "
        << Sub->getBeginLoc().printToString(Ctx.getSourceManager());
  }
  // The targets: the 11 stores of stores() (not `pp[i]->x = v`, whose
  // pp[i] is a load), and bump's, in its pattern and both instantiations.
  // The reads: pp[i], p[i + 1], in[i] twice, p[i] into r, q[i] into s, t
  // and w (the braced list's element is met in both of its forms), and
  // bump's p[i] in each instantiation (the pattern has no loads yet).
  EXPECT_EQ(Stored.size(), 14u);
  EXPECT_EQ(Reads, 11u);
}

} // namespace
