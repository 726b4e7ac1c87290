// Unit tests for the block shapes read from a launch (analysis/LaunchBlockShapes.h):
// the host-side values of `block` in `kernel<<<grid, block>>>` for the forms
// launchers use, and the forms it must call unknown.
#include "launch/LaunchBlockShapes.h"
#include "CudaTestUnits.h"
#include "launch/LaunchFacts.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/Frontend/ASTUnit.h"
#include "gtest/gtest.h"

using namespace clang;
using namespace warp_tidy;

namespace {

const std::string Prelude = test::cudaStandIns(R"cuda(
#define __host__ __attribute__((host))
struct dim3 {
  unsigned x, y, z;
  __host__ __device__ constexpr dim3(unsigned vx = 1, unsigned vy = 1, unsigned vz = 1)
      : x(vx), y(vy), z(vz) {}
};
typedef struct CUstream_st *cudaStream_t;
// The launch configuration call clang expects without a CUDA installation.
extern "C" int cudaConfigureCall(dim3 gridDim, dim3 blockDim, unsigned long sharedMem = 0,
                                 cudaStream_t stream = 0);
)cuda",
                                               R"cuda(__global__ void k(int);
)cuda");

/// The only launch of a unit and the function around it.
struct LaunchFinder : RecursiveASTVisitor<LaunchFinder> {
  const CUDAKernelCallExpr *Launch = nullptr;
  const FunctionDecl *Fn = nullptr, *Caller = nullptr;
  bool TraverseFunctionDecl(FunctionDecl *FD) {
    const FunctionDecl *Saved = Fn;
    Fn = FD;
    bool R = RecursiveASTVisitor::TraverseFunctionDecl(FD);
    Fn = Saved;
    return R;
  }
  bool VisitCUDAKernelCallExpr(CUDAKernelCallExpr *E) {
    Launch = E;
    Caller = Fn;
    return true;
  }
};

/// A unit whose `void host(int n, int rows)` has \p Host as its body (after
/// \p Helpers), and its only launch.
struct HostUnit {
  std::unique_ptr<ASTUnit> AST;
  LaunchFinder Found;
  /// Why there is nothing to ask about, or empty.
  std::string Missing() const { return !AST ? "no AST" : !Found.Launch ? "no launch" : ""; }
};

HostUnit parseHost(const std::string &Host, const std::string &Helpers = "") {
  HostUnit U;
  U.AST =
      test::parseCudaUnit(Prelude + Helpers + "void host(int n, int rows) {\n" + Host + "\n}\n");
  if (U.AST)
    U.Found.TraverseDecl(U.AST->getASTContext().getTranslationUnitDecl());
  return U;
}

/// LaunchFacts::launchBlockXZeroBits for the kernel `k` launched in \p Host
/// (the body of `void host(int n, int rows)`, after \p Helpers), as a
/// number, or "unknown".
std::string xZeroBitsOf(const std::string &Host, const std::string &Helpers = "") {
  HostUnit U = parseHost(Host, Helpers);
  if (!U.Missing().empty())
    return U.Missing();
  LaunchFacts Facts(U.AST->getASTContext());
  std::optional<unsigned> Bits = Facts.launchBlockXZeroBits(U.Found.Launch->getDirectCallee());
  return Bits ? std::to_string(*Bits) : "unknown";
}

/// The shapes of the only launch in \p Host (the body of `void host(int n)`)
/// as "XxYxZ" strings, sorted; "unknown" when they cannot be read.
std::string shapesOf(const std::string &Host) {
  HostUnit U = parseHost(Host);
  if (!U.Missing().empty())
    return U.Missing();
  auto Shapes = blockShapesOfLaunch(U.Found.Launch, U.Found.Caller, U.AST->getASTContext());
  if (!Shapes)
    return "unknown";
  std::vector<std::string> Out;
  for (const BlockShape &S : *Shapes)
    Out.push_back(std::to_string(S.X) + "x" + std::to_string(S.Y) + "x" + std::to_string(S.Z));
  llvm::sort(Out);
  std::string Joined;
  for (const std::string &S : Out)
    Joined += (Joined.empty() ? "" : " ") + S;
  return Joined;
}

TEST(LaunchBlockShapes, ConstantsAndDim3) {
  EXPECT_EQ(shapesOf("k<<<n, 96>>>(n);"), "96x1x1");
  EXPECT_EQ(shapesOf("dim3 block(32, 32); k<<<n, block>>>(n);"), "32x32x1");
  EXPECT_EQ(shapesOf("k<<<n, dim3(16, 4)>>>(n);"), "16x4x1");
  // More than 1024 threads cannot be launched.
  EXPECT_EQ(shapesOf("k<<<n, dim3(64, 32)>>>(n);"), "");
}

TEST(LaunchBlockShapes, WritesInBranches) {
  // DeepSpeed's launchers: each write applied or not.
  EXPECT_EQ(shapesOf("int threads = 256;\n"
                     "if (n > 16384 && n <= 32768) threads <<= 1;\n"
                     "else if (n > 32768) threads <<= 2;\n"
                     "dim3 block(threads);\n"
                     "k<<<rows, block>>>(n);"),
            "1024x1x1 256x1x1 512x1x1");
  EXPECT_EQ(shapesOf("int threads = 128;\n"
                     "if (n > 8192) threads <<= 1;\n"
                     "dim3 block(threads / 2);\n"
                     "k<<<rows, block>>>(n);"),
            "128x1x1 64x1x1");
  EXPECT_EQ(shapesOf("int t = 64; t = t * 3; k<<<rows, n > 4 ? t : 32>>>(n);"),
            "192x1x1 32x1x1 64x1x1");
  // A write after the launch does not reach it.
  EXPECT_EQ(shapesOf("int t = 128; k<<<rows, t>>>(n); t = 96;"), "128x1x1");
}

TEST(LaunchBlockShapes, Unknown) {
  EXPECT_EQ(shapesOf("k<<<rows, n>>>(n);"), "unknown");
  EXPECT_EQ(shapesOf("int t = 32; for (int i = 0; i < n; ++i) t *= 2; k<<<rows, t>>>(n);"),
            "unknown");
  EXPECT_EQ(shapesOf("int t = 32; int *p = &t; *p = 96; k<<<rows, t>>>(n);"), "unknown");
}

TEST(LaunchBlockXZeroBits, RunTimeBlocks) {
  // Constant shapes: the fewest trailing zeros among them.
  EXPECT_EQ(xZeroBitsOf("k<<<rows, 96>>>(n);"), "5");
  EXPECT_EQ(xZeroBitsOf("int t = 256; if (n > 8) t = 96; k<<<rows, t>>>(n);"), "5");
  // Run-time values: a multiple of a constant, on both arms of a choice.
  EXPECT_EQ(xZeroBitsOf("const int threads = 128;\n"
                        "dim3 block(n > threads ? (n + 511) / 512 * threads : threads);\n"
                        "k<<<rows, block>>>(n);"),
            "7");
  EXPECT_EQ(xZeroBitsOf("k<<<rows, dim3(rows * 16, 2)>>>(n);"), "4");
  EXPECT_EQ(xZeroBitsOf("k<<<rows, n>>>(n);"), "0");
  // A call: the fewest zeros among the values its body returns.
  const std::string Min = "template <typename T> const T &least(const T &a, const T &b) {\n"
                          "  if (b < a) return b;\n"
                          "  return a;\n"
                          "}\n";
  EXPECT_EQ(xZeroBitsOf("const long t = least<long>(1024, (n + 31) / 32 * 32);\n"
                        "const dim3 block(t, 1, 1);\n"
                        "k<<<rows, block>>>(n);",
                        Min),
            "5");
  // A parameter the callee writes is not the argument any more.
  EXPECT_EQ(xZeroBitsOf("k<<<rows, bump(n * 32)>>>(n);", "int bump(int v) { v += 1; return v; }\n"),
            "0");
}

TEST(LaunchBlockXZeroBits, Unknown) {
  // The kernel's address is passed on: a launch this unit cannot see.
  EXPECT_EQ(xZeroBitsOf("k<<<rows, 128>>>(n); void (*p)(int) = k; (void)p;"), "unknown");
}

} // namespace
