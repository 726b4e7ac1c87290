//===--- LeadingIncludesTest.cpp - The #include lines a unit starts with --===//

#include "LeadingIncludes.h"
#include <gtest/gtest.h>

static std::vector<std::string> leadingIncludes(llvm::StringRef Source) {
  return warp_tidy::leadingIncludes(Source).Lines;
}
using Lines = std::vector<std::string>;

TEST(LeadingIncludes, CommentsBlankLinesAndSpellingsAreNormalised) {
  EXPECT_EQ(leadingIncludes("// Copyright\n"
                            "/* licence\n   text */\n"
                            "\n"
                            "#include \"common.cuh\"   // the basics\n"
                            "  #  include   <cstdint>\n"
                            "#include/**/\"b.h\" /* x */\n"
                            "\n"
                            "__global__ void k() {}\n"),
            (Lines{"#include \"common.cuh\"", "#include <cstdint>", "#include \"b.h\""}));
}

TEST(LeadingIncludes, StopsAtTheFirstOtherLine) {
  EXPECT_EQ(leadingIncludes("#include \"a.h\"\nint x;\n#include \"b.h\"\n"),
            (Lines{"#include \"a.h\""}));
  EXPECT_EQ(leadingIncludes("#pragma once\n#include \"a.h\"\n"), Lines{});
  EXPECT_EQ(leadingIncludes("#include \"a.h\"\n#pragma unroll\n#include \"b.h\"\n"),
            (Lines{"#include \"a.h\""}));
  EXPECT_EQ(leadingIncludes("int x;\n#include \"a.h\"\n"), Lines{});
  EXPECT_EQ(leadingIncludes(""), Lines{});
}

TEST(LeadingIncludes, DefinesThatConfigureTheHeaders) {
  EXPECT_EQ(leadingIncludes("#define GGML_COMMON_DECL_CUDA\n"
                            "#  define  MMHA_USE_FP32_ACUM 1 // why\n"
                            "#include \"common.cuh\"\n"
                            "#undef X\n"
                            "static int x;\n"),
            (Lines{"#define GGML_COMMON_DECL_CUDA", "#define  MMHA_USE_FP32_ACUM 1 // why",
                   "#include \"common.cuh\"", "#undef X"}));
}

TEST(LeadingIncludes, ConditionalsOfDirectivesStayInTheBlock) {
  // Whole conditionals of directives are in the block; whether their
  // branches depend on the arch is the PCH build's question.
  auto Found = warp_tidy::leadingIncludes(
      "#include <a>\n#ifdef USE_CUB\n#  include <cub/cub.cuh>\n#else\n#define NO_CUB\n#endif\n"
      "int x;\n");
  EXPECT_EQ(Found.Lines, (Lines{"#include <a>", "#ifdef USE_CUB", "#include <cub/cub.cuh>", "#else",
                                "#define NO_CUB", "#endif"}));
  EXPECT_EQ(Found.BeforeConditional, 1u);
  EXPECT_EQ(Found.Balanced, (std::vector<bool>{true, false, false, false, false, true}));
  EXPECT_EQ(warp_tidy::leadingIncludes("#include <a>\n").BeforeConditional, 1u); // all
  // Code inside a conditional ends the block where the conditional began.
  EXPECT_EQ(leadingIncludes("#include \"a.h\"\n#if X\n#include \"b.h\"\nint b;\n"
                            "#endif\n"),
            (Lines{"#include \"a.h\""}));
  // So does a conditional left open, or one the block did not open.
  EXPECT_EQ(leadingIncludes("#include \"a.h\"\n#if X\n#include \"b.h\"\n"),
            (Lines{"#include \"a.h\""}));
  EXPECT_EQ(leadingIncludes("#include \"a.h\"\n#endif\n#include \"b.h\"\n"),
            (Lines{"#include \"a.h\""}));
  // Nested, and #elif: up to the outer #endif.
  EXPECT_EQ(leadingIncludes("#if A\n#ifdef B\n#include <b>\n#endif\n#elif C\n#include <c>\n#endif\n"
                            "#include <d>\nint y;\n")
                .size(),
            8u);
  // A line the block cannot take as written: continued, or with a block
  // comment (which could span lines).
  EXPECT_EQ(leadingIncludes("#include \"a.h\"\n#define F(x) \\\n  (x)\n"),
            (Lines{"#include \"a.h\""}));
  EXPECT_EQ(leadingIncludes("#include \"a.h\"\n#define X /* why */ 1\n"),
            (Lines{"#include \"a.h\""}));
  EXPECT_EQ(leadingIncludes("#include \"a.h\"\n#if X /* why */\n#endif\n"),
            (Lines{"#include \"a.h\""}));
}

TEST(LeadingIncludes, UsingNamespaceGoesWithItsInclude) {
  EXPECT_EQ(leadingIncludes(
                "#include \"mean.cuh\"\n#ifdef USE_CUB\n#include <cub/cub.cuh>\n"
                "using  namespace cub ; // CUB's names\n#endif\n\ntemplate <int N> struct S;\n"),
            (Lines{"#include \"mean.cuh\"", "#ifdef USE_CUB", "#include <cub/cub.cuh>",
                   "using namespace cub;", "#endif"}));
  EXPECT_EQ(leadingIncludes("#include <a>\nusing namespace a::b;\n#include <c>\n").size(), 3u);
  EXPECT_EQ(leadingIncludes("#include <a>\r\nusing namespace a;\r\n#include <c>\r\n").size(), 3u);
  // Anything more is code: the block ends before it.
  EXPECT_EQ(leadingIncludes("#include <a>\nusing namespace a; int x;\n"), (Lines{"#include <a>"}));
  EXPECT_EQ(leadingIncludes("#include <a>\nusing namespace std::placeholders = x;\n"),
            (Lines{"#include <a>"}));
  EXPECT_EQ(leadingIncludes("#include <a>\nusing std::swap;\n"), (Lines{"#include <a>"}));
  EXPECT_EQ(leadingIncludes("#include <a>\nusingnamespace a;\n"), (Lines{"#include <a>"}));
}

TEST(LeadingIncludes, OnlyPlainIncludesOfAKnownName) {
  EXPECT_EQ(leadingIncludes("#include_next <a.h>\n"), Lines{});
  EXPECT_EQ(leadingIncludes("#import \"a.h\"\n"), Lines{});
  EXPECT_EQ(leadingIncludes("#include HEADER\n"), Lines{});
  EXPECT_EQ(leadingIncludes("#include \"a.h\n\"\n"), Lines{});
  EXPECT_EQ(leadingIncludes("#include \"a.h\" int x;\n"), Lines{});
}

TEST(LeadingIncludes, ContinuedLinesAndCommentsSpanningLinesStop) {
  EXPECT_EQ(leadingIncludes("#include \"a.h\"\n#include \\\n\"b.h\"\n"),
            (Lines{"#include \"a.h\""}));
  EXPECT_EQ(leadingIncludes("#include \"a.h\" // note \\\n#include \"b.h\"\n"), Lines{});
  EXPECT_EQ(leadingIncludes("#include \"a.h\" /* one\n two */ int x;\n"), Lines{});
  EXPECT_EQ(leadingIncludes("/* one\n two */ #include \"a.h\"\n"), Lines{});
  EXPECT_EQ(leadingIncludes("/* unterminated\n#include \"a.h\"\n"), Lines{});
}

TEST(LeadingIncludes, WindowsLineEndsAndByteOrderMark) {
  EXPECT_EQ(leadingIncludes("\xEF\xBB\xBF#include \"a.h\"\r\n#include <b>\r\nint x;\r\n"),
            (Lines{"#include \"a.h\"", "#include <b>"}));
}

TEST(LeadingIncludes, EndIsPastTheLastIncludeLine) {
  llvm::StringRef Source = "// c\n#include \"a.h\" // x\n\n#include <b>\nint x;\n";
  EXPECT_EQ(warp_tidy::leadingIncludes(Source).Ends,
            (std::vector<size_t>{Source.find("\n\n") + 1, Source.find("int x")}));
  EXPECT_EQ(warp_tidy::leadingIncludes("#include <b>").Ends, std::vector<size_t>{12});
  EXPECT_TRUE(warp_tidy::leadingIncludes("int x;\n").Ends.empty());
}

TEST(LeadingIncludes, SharedPrefixesPerDirectory) {
  std::vector<std::vector<std::string>> Blocks = {
      {"#include \"common.cuh\"", "#include \"a.cuh\""},
      {"#include \"common.cuh\"", "#include \"b.cuh\""},
      {"#include \"own.cuh\""},
      {"#include \"common.cuh\"", "#include \"a.cuh\"", "#include <x>"},
      {"#include \"common.cuh\""}};
  std::vector<std::string> Dirs = {"/p", "/p", "/p", "/p", "/q"};
  EXPECT_EQ(warp_tidy::sharedLeadingLines(Blocks, Dirs), (std::vector<size_t>{2, 1, 0, 2, 0}));
}

TEST(LeadingIncludes, WholeBlocksForUnitsSeenBeforeWithinBudget) {
  std::vector<std::vector<std::string>> Blocks = {{"#include \"common.cuh\"", "#include \"a.cuh\""},
                                                  {"#include \"common.cuh\"", "#include \"b.cuh\""},
                                                  {"#include \"norm.cuh\""},
                                                  {"#include \"norm.cuh\""},
                                                  {"#include \"own.cuh\""},
                                                  {"#include \"other.cuh\""}};
  std::vector<std::string> Dirs(Blocks.size(), "/p");
  // Granted in path order, whatever the input order.
  std::vector<std::string> Order = {"/p/f", "/p/e", "/p/d", "/p/c", "/p/b", "/p/a"};
  // Nothing seen before: the shared lines only, whatever the budget.
  EXPECT_EQ(warp_tidy::pchLinesForRun(Blocks, Dirs, std::vector<bool>(6, false), Order, 10),
            (std::vector<size_t>{1, 1, 1, 1, 0, 0}));
  // All seen: whole blocks in start order while the budget lasts. Units 3
  // and 2 share one whole block ("norm.cuh", already shared: no cost); 1
  // and 0 differ, so with a budget of two, 5 and 4 take it.
  EXPECT_EQ(warp_tidy::pchLinesForRun(Blocks, Dirs, std::vector<bool>(6, true), Order, 2),
            (std::vector<size_t>{1, 1, 1, 1, 1, 1}));
  EXPECT_EQ(warp_tidy::pchLinesForRun(Blocks, Dirs, std::vector<bool>(6, true), Order, 3),
            (std::vector<size_t>{1, 2, 1, 1, 1, 1}));
  // Only the units seen before; no budget, no whole blocks.
  EXPECT_EQ(
      warp_tidy::pchLinesForRun(Blocks, Dirs, {true, false, false, false, false, true}, Order, 5),
      (std::vector<size_t>{2, 1, 1, 1, 0, 1}));
  EXPECT_EQ(warp_tidy::pchLinesForRun(Blocks, Dirs, std::vector<bool>(6, true), Order, 0),
            (std::vector<size_t>{1, 1, 1, 1, 0, 0}));
}
