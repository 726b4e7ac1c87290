// Unit tests for the per-architecture #if evaluator and arch-list parsing.
#include "arch/ArchConditions.h"
#include "arch/TargetArchs.h"
#include "llvm/ADT/StringMap.h"
#include "gtest/gtest.h"

using namespace warp_tidy;

namespace {

struct Macros {
  llvm::StringMap<CondMacro> Table;
  void object(llvm::StringRef Name, llvm::StringRef Body) {
    CondMacro M;
    M.Body = lexConditionText(Body);
    Table[Name] = M;
  }
  void function(llvm::StringRef Name, std::vector<std::string> Params, llvm::StringRef Body) {
    CondMacro M;
    M.FunctionLike = true;
    M.Params = std::move(Params);
    M.Body = lexConditionText(Body);
    Table[Name] = M;
  }
  MacroLookup lookup() const {
    return [this](llvm::StringRef N) -> const CondMacro * {
      auto It = Table.find(N);
      return It == Table.end() ? nullptr : &It->second;
    };
  }
};

std::optional<int64_t> eval(llvm::StringRef Text, std::optional<unsigned> Arch,
                            const Macros &M = Macros()) {
  return evaluateCondition(lexConditionText(Text), M.lookup(), Arch);
}

} // namespace

TEST(ArchConditions, CudaArchComparisons) {
  EXPECT_EQ(eval("__CUDA_ARCH__ >= 800", 750), 0);
  EXPECT_EQ(eval("__CUDA_ARCH__ >= 800", 800), 1);
  EXPECT_EQ(eval("__CUDA_ARCH__ > 750", 800), 1);
  EXPECT_EQ(eval("__CUDA_ARCH__ < 800", 750), 1);
  EXPECT_EQ(eval("__CUDA_ARCH__ == 900", 900), 1);
  EXPECT_EQ(eval("(__CUDA_ARCH__ >= 700) && !(__CUDA_ARCH__ >= 800)", 750), 1);
}

TEST(ArchConditions, HostPassAndDefined) {
  EXPECT_EQ(eval("defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800", std::nullopt), 0);
  EXPECT_EQ(eval("!defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 800", std::nullopt), 1);
  EXPECT_EQ(eval("!defined(__CUDA_ARCH__) || __CUDA_ARCH__ >= 800", 750), 0);
  EXPECT_EQ(eval("defined __CUDA_ARCH__", 750), 1);
  // Undefined __CUDA_ARCH__ is 0 in an #if, like any unknown identifier.
  EXPECT_EQ(eval("__CUDA_ARCH__ >= 800", std::nullopt), 0);
}

TEST(ArchConditions, Macros) {
  Macros M;
  M.object("MIN_ARCH", "800");
  M.object("HAS_REDUCE", "(__CUDA_ARCH__ >= MIN_ARCH)");
  M.function("ARCH_AT_LEAST", {"x"}, "(__CUDA_ARCH__ >= (x))");
  EXPECT_EQ(eval("HAS_REDUCE", 750, M), 0);
  EXPECT_EQ(eval("HAS_REDUCE", 860, M), 1);
  EXPECT_EQ(eval("ARCH_AT_LEAST(MIN_ARCH)", 800, M), 1);
  EXPECT_EQ(eval("defined(HAS_REDUCE) && HAS_REDUCE", 900, M), 1);
  EXPECT_EQ(eval("defined(NOT_DEFINED)", 900, M), 0);
}

TEST(ArchConditions, UnknownStaysUnknown) {
  EXPECT_FALSE(eval("__has_include(<cuda.h>)", 800).has_value());
  // Short-circuit keeps the answer known when the unknown side is moot.
  EXPECT_EQ(eval("__CUDA_ARCH__ < 700 && __has_include(<x.h>)", 800), 0);
  EXPECT_EQ(eval("__CUDA_ARCH__ >= 700 || __has_include(<x.h>)", 800), 1);
  EXPECT_FALSE(eval("", 800).has_value());
}

// Which conditions can take different values at different archs (with one
// macro table): those whose expansion reaches __CUDA_ARCH__ or a
// target-feature query, or that cannot be expanded.
TEST(ArchConditions, ReadsArch) {
  Macros M;
  M.object("MIN_ARCH", "800");
  M.object("HAS_REDUCE", "(__CUDA_ARCH__ >= MIN_ARCH)");
  M.function("HAS_CPP_ATTRIBUTE", {"x"}, "__has_cpp_attribute(x)");
  M.function("HAS_CPP14_ATTRIBUTE", {"x"}, "(__cplusplus >= 201402L && HAS_CPP_ATTRIBUTE(x))");
  M.function("IGNORES_ARG", {"x"}, "1");
  M.function("PASTE", {"a", "b"}, "a ## b");
  auto Reads = [&](llvm::StringRef Text) {
    return conditionReadsArch(lexConditionText(Text), M.lookup());
  };
  EXPECT_TRUE(Reads("__CUDA_ARCH__ >= 800"));
  EXPECT_TRUE(Reads("defined(__CUDA_ARCH__)"));
  EXPECT_TRUE(Reads("HAS_REDUCE"));
  EXPECT_TRUE(Reads("defined(__CUDA_ARCH_FEAT_SM90_ALL)"));
  EXPECT_TRUE(Reads("__has_builtin(__nvvm_redux_sync_add)"));
  EXPECT_TRUE(Reads("PASTE(__CUDA, _ARCH__)"));
  EXPECT_FALSE(Reads("__has_include(<cuda_bf16.h>)"));
  EXPECT_FALSE(Reads("HAS_CPP14_ATTRIBUTE(fallthrough)"));
  EXPECT_FALSE(Reads("MIN_ARCH >= 700 && defined(NOT_DEFINED)"));
  // An argument the macro drops is never expanded.
  EXPECT_FALSE(Reads("IGNORES_ARG(__CUDA_ARCH__)"));
}

TEST(ArchConditions, ExpressionsAndLiterals) {
  Macros M;
  M.object("FULL", "0xffffffffu");
  EXPECT_EQ(evaluateExpression(lexConditionText("FULL"), M.lookup()), 0xffffffffLL);
  EXPECT_EQ(evaluateExpression(lexConditionText("~0u"), M.lookup()).value() & 0xffffffff,
            0xffffffffLL);
  EXPECT_FALSE(evaluateExpression(lexConditionText("mask"), M.lookup()).has_value());
  EXPECT_EQ(eval("1 ? 2 : 3", 800), 2);
  EXPECT_EQ(eval("(1 << 4) | 3", 800), 19);
}

TEST(ArchConditions, NvTarget) {
  EXPECT_EQ(evaluateNvTarget("NV_PROVIDES_SM_80", 75), false);
  EXPECT_EQ(evaluateNvTarget("NV_PROVIDES_SM_80", 90), true);
  EXPECT_EQ(evaluateNvTarget("NV_IS_EXACTLY_SM_75", 75), true);
  EXPECT_EQ(evaluateNvTarget("NV_IS_EXACTLY_SM_75", 80), false);
  EXPECT_EQ(evaluateNvTarget("NV_IS_DEVICE", 75), true);
  EXPECT_EQ(evaluateNvTarget("NV_IS_HOST", 75), false);
  EXPECT_FALSE(evaluateNvTarget("SOMETHING_ELSE", 75).has_value());
}

TEST(TargetArchs, ParseListsAndMinimum) {
  EXPECT_EQ(parseArchList("75,80,90"), (std::vector<unsigned>{75, 80, 90}));
  EXPECT_EQ(parseArchList("sm_90, compute_80,80,bogus"), (std::vector<unsigned>{80, 90}));
  EXPECT_TRUE(parseArchList("").empty());
  EXPECT_EQ(parseMinimumArch("sm_80"), 80u);
  EXPECT_EQ(parseMinimumArch("86"), 86u);
  EXPECT_EQ(parseMinimumArch(""), 0u);
  EXPECT_EQ(describeArchs({75, 80, 90}), "sm_75, sm_80 and sm_90");
}
