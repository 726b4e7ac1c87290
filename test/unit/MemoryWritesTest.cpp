// Unit tests for "which memory a function may write" (ast/MemoryWrites.h):
// the root an access starts from, and the writes that make a root's memory
// changing (stores, pointers passed where a callee may write, non-const
// member calls), so that only the rest is read as a value of its address.
#include "ast/MemoryWrites.h"
#include "CudaTestUnits.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Frontend/ASTUnit.h"
#include "gtest/gtest.h"
#include <map>

using namespace clang;
using namespace warp_tidy;

namespace {

const std::string Prelude = test::cudaStandIns(R"cuda(
struct Slot { int key; int value; };
struct Table {
  Slot *slots;
  __device__ int size() const;
  __device__ void clear();
};
__device__ void fill(int *p);
__device__ int peek(const int *p);
__device__ int atomicAdd(int *p, int v);
)cuda",
                                               R"cuda(__device__ void use(long long);
)cuda");

struct Parsed : test::ProbedFunction {
  bool unchanging(unsigned Use) {
    return isUnchangingMemory(C.Uses.at(Use)->IgnoreImpCasts(), FD, ctx());
  }
};

std::unique_ptr<Parsed> parse(const std::string &Code, llvm::StringRef Function) {
  auto P = std::make_unique<Parsed>();
  if (!test::parseProbed(*P, Prelude + Code, Function))
    return nullptr;
  return P;
}

} // namespace

TEST(MemoryWrites, RootsOfAccesses) {
  auto P = parse(R"cuda(
    __global__ void k(const int *rows, Slot *slots, Table t, int i) {
      use(rows[i + 1]);
      use(*(rows + i));
      use(slots[i].key);
      use(t.slots[i].value);
      use((slots + i)->value);
    }
  )cuda",
                 "k");
  ASSERT_TRUE(P);
  ASSERT_EQ(P->C.Uses.size(), 5u);
  const char *Roots[] = {"rows", "rows", "slots", "t", "slots"};
  for (unsigned I = 0; I < 5; ++I)
    EXPECT_EQ(memoryRoot(P->C.Uses[I]), P->C.Vars.at(Roots[I])) << "use #" << I;
}

TEST(MemoryWrites, WritesMakeMemoryChanging) {
  auto P = parse(R"cuda(
    __global__ void k(const int *in, int *stored, int *passed, int *atomic, int *readOnly,
                      int *peeked, Table cleared, Table kept, volatile int *flag, int i) {
      stored[i] = 1;
      fill(passed + 4);
      atomicAdd(&atomic[0], 1);
      int x = peek(peeked);
      cleared.clear();
      use(in[i]);
      use(stored[i]);
      use(passed[i]);
      use(atomic[i]);
      use(readOnly[i]);
      use(peeked[i]);
      use(cleared.slots[i].key);
      use(kept.slots[i].key + kept.size());
      use(flag[i]);
    }
  )cuda",
                 "k");
  ASSERT_TRUE(P);
  ASSERT_EQ(P->C.Uses.size(), 9u);
  EXPECT_TRUE(P->unchanging(0));  // through a pointer to const
  EXPECT_FALSE(P->unchanging(1)); // stored through
  EXPECT_FALSE(P->unchanging(2)); // passed where the callee may write
  EXPECT_FALSE(P->unchanging(3)); // an atomic's operand
  EXPECT_TRUE(P->unchanging(4));  // never written here
  EXPECT_TRUE(P->unchanging(5));  // passed as a pointer to const
  EXPECT_FALSE(P->unchanging(6)); // a non-const member was called on it
  const auto *Sum = cast<BinaryOperator>(P->C.Uses[7]->IgnoreImpCasts());
  EXPECT_TRUE(isUnchangingMemory(Sum->getLHS()->IgnoreImpCasts(), P->FD, P->ctx()));
  EXPECT_FALSE(P->unchanging(8)); // volatile
}
