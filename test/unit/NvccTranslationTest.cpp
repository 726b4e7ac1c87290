// Unit tests for nvcc -> clang command translation and CUDA discovery.
#include "NvccTranslation.h"
#include "CudaInstallation.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/raw_ostream.h"
#include "gtest/gtest.h"

using namespace warp_tidy;

static bool has(const TranslatedCommand &T, llvm::StringRef Arg) {
  return llvm::is_contained(T.Args, Arg);
}

TEST(NvccTranslation, CMakeStyleCommand) {
  std::vector<std::string> Args = {"/usr/local/cuda/bin/nvcc",
                                   "-forward-unknown-to-host-compiler",
                                   "-DNDEBUG",
                                   "-I/src/include",
                                   "-O3",
                                   "--generate-code=arch=compute_80,code=[compute_80,sm_80]",
                                   "--generate-code=arch=compute_90,code=[sm_90]",
                                   "-Xcompiler=-fPIC,-Wall,-DHOST_DEF=1",
                                   "--expt-relaxed-constexpr",
                                   "--expt-extended-lambda",
                                   "-std=c++17",
                                   "-x",
                                   "cu",
                                   "-rdc=true",
                                   "-c",
                                   "/src/a.cu",
                                   "-o",
                                   "a.o"};
  TranslatedCommand T = translateCompileCommand(Args, "/build", 75);
  EXPECT_EQ(T.Args.front(), "clang++");
  EXPECT_TRUE(T.IsCuda);
  EXPECT_EQ(T.Archs, (std::vector<unsigned>{80, 90}));
  EXPECT_TRUE(has(T, "-DNDEBUG"));
  EXPECT_TRUE(has(T, "-I/src/include"));
  EXPECT_TRUE(has(T, "-DHOST_DEF=1"));
  EXPECT_FALSE(has(T, "-fPIC"));
  EXPECT_TRUE(has(T, "-fgpu-rdc"));
  EXPECT_TRUE(has(T, "cuda"));
  EXPECT_FALSE(has(T, "cu"));
  EXPECT_FALSE(has(T, "--expt-relaxed-constexpr"));
  EXPECT_TRUE(T.Unknown.empty()) << T.Unknown.front();
}

TEST(NvccTranslation, ArchSpellings) {
  auto Archs = [](std::vector<std::string> Flags) {
    Flags.insert(Flags.begin(), "nvcc");
    Flags.push_back("k.cu");
    return translateCompileCommand(Flags, "", 75).Archs;
  };
  EXPECT_EQ(Archs({"-arch=sm_70"}), std::vector<unsigned>{70});
  EXPECT_EQ(Archs({"-arch", "sm_86"}), std::vector<unsigned>{86});
  EXPECT_EQ(Archs({"--gpu-architecture=compute_90"}), std::vector<unsigned>{90});
  EXPECT_EQ(
      Archs({"-gencode", "arch=compute_75,code=sm_75", "-gencode=arch=compute_80,code=sm_80"}),
      (std::vector<unsigned>{75, 80}));
  EXPECT_EQ(Archs({"-arch=sm_90a"}), std::vector<unsigned>{90});
  // As `nvcc -arch=all|all-major --dryrun` expands them with CUDA 13.0.
  EXPECT_EQ(Archs({"-arch=all"}),
            (std::vector<unsigned>{75, 80, 86, 87, 88, 89, 90, 100, 103, 110, 120, 121}));
  EXPECT_EQ(Archs({"-arch=all-major"}), (std::vector<unsigned>{75, 80, 90, 100, 110, 120}));
  EXPECT_EQ(Archs({"-arch=all"}).front(), 75u);
  EXPECT_EQ(Archs({"--cuda-gpu-arch=sm_80", "--offload-arch=sm_90"}),
            (std::vector<unsigned>{80, 90}));
  EXPECT_TRUE(translateCompileCommand({"nvcc", "-arch=native", "k.cu"}, "", 75).HasNativeArch);
}

TEST(NvccTranslation, XarchDeviceAppliesToTheDeviceAnalysis) {
  TranslatedCommand T = translateCompileCommand(
      {"clang++", "-Xarch_device", "-DDEVICE_ONLY", "-Xarch_host", "-DHOST_ONLY", "-Xarch_device",
       "--cuda-gpu-arch=sm_90", "--offload-arch=sm_80", "k.cu"},
      "", 75);
  EXPECT_TRUE(has(T, "-DDEVICE_ONLY"));
  EXPECT_FALSE(has(T, "-DHOST_ONLY"));
  EXPECT_FALSE(has(T, "-Xarch_device"));
  EXPECT_FALSE(has(T, "-Xarch_host"));
  EXPECT_EQ(T.Archs, (std::vector<unsigned>{80, 90}));
  EXPECT_TRUE(T.Unknown.empty());
}

TEST(NvccTranslation, UnknownFlagsAreDroppedAndReported) {
  TranslatedCommand T =
      translateCompileCommand({"nvcc", "--some-future-nvcc-flag", "-O2", "k.cu"}, "", 75);
  EXPECT_FALSE(has(T, "--some-future-nvcc-flag"));
  EXPECT_TRUE(has(T, "-O2"));
  EXPECT_TRUE(has(T, "k.cu"));
  ASSERT_EQ(T.Unknown.size(), 1u);
  EXPECT_EQ(T.Unknown.front(), "--some-future-nvcc-flag");
}

TEST(NvccTranslation, NvccFlagsWithValues) {
  TranslatedCommand T = translateCompileCommand(
      {"nvcc", "-ccbin", "/usr/bin/g++-12", "-Xptxas", "-v", "-maxrregcount=64", "--std", "c++20",
       "-Werror", "all-warnings", "--use_fast_math", "-lineinfo", "--default-stream", "per-thread",
       "-dc", "k.cu"},
      "", 75);
  EXPECT_FALSE(has(T, "/usr/bin/g++-12"));
  EXPECT_FALSE(has(T, "-v"));
  EXPECT_FALSE(has(T, "all-warnings"));
  EXPECT_FALSE(has(T, "per-thread"));
  EXPECT_TRUE(has(T, "-std=c++20"));
  EXPECT_TRUE(has(T, "-fgpu-rdc"));
  EXPECT_TRUE(has(T, "k.cu"));
  EXPECT_TRUE(T.Unknown.empty());
}

TEST(NvccTranslation, OptionsFileIsExpanded) {
  llvm::SmallString<128> Dir;
  ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("warp-tidy-rsp", Dir));
  std::string Rsp = (Dir + "/includes_CUDA.rsp").str();
  {
    std::error_code EC;
    llvm::raw_fd_ostream OS(Rsp, EC);
    ASSERT_FALSE(EC);
    OS << "-I/opt/include \"-I/path with space\" -isystem /sys/include\n";
  }
  TranslatedCommand T = translateCompileCommand(
      {"nvcc", "--options-file", "includes_CUDA.rsp", "k.cu"}, Dir.str(), 75);
  EXPECT_TRUE(has(T, "-I/opt/include"));
  EXPECT_TRUE(has(T, "-I/path with space"));
  EXPECT_TRUE(has(T, "/sys/include"));
  TranslatedCommand Missing =
      translateCompileCommand({"nvcc", "--options-file", "absent.rsp", "k.cu"}, Dir.str(), 75);
  ASSERT_EQ(Missing.Unknown.size(), 1u);
  EXPECT_NE(Missing.Unknown.front().find("absent.rsp"), std::string::npos);
  llvm::sys::fs::remove_directories(Dir);
}

TEST(NvccTranslation, ClangCommandsPassThrough) {
  TranslatedCommand T =
      translateCompileCommand({"clang++", "-Werror", "-Wall", "-DX=1", "k.cu"}, "", 75);
  EXPECT_TRUE(has(T, "-Werror"));
  EXPECT_TRUE(has(T, "-Wall"));
  EXPECT_TRUE(has(T, "k.cu"));
  EXPECT_TRUE(T.IsCuda);
}

TEST(ArchNames, Parse) {
  EXPECT_EQ(parseArchName("sm_80"), 80u);
  EXPECT_EQ(parseArchName("compute_75"), 75u);
  EXPECT_EQ(parseArchName("sm_100a"), 100u);
  EXPECT_EQ(parseArchName("sm_120f"), 120u);
  EXPECT_EQ(parseArchName("90"), 90u);
  EXPECT_EQ(parseArchName("native"), 0u);
  EXPECT_EQ(parseArchName("sm_"), 0u);
}

TEST(CudaInstallation, VersionAndOldestArch) {
  EXPECT_EQ(parseCudaVersion("#define CUDA_VERSION 13000\n"), 13000u);
  EXPECT_EQ(parseCudaVersion("#define CUDA_VERSION   12040 /* x */"), 12040u);
  EXPECT_FALSE(parseCudaVersion("nothing here").has_value());
  CudaInstallation C;
  C.Version = 13000;
  EXPECT_EQ(C.oldestSupportedArch(), 75u);
  C.Version = 12080;
  EXPECT_EQ(C.oldestSupportedArch(), 50u);
  EXPECT_FALSE(probeCudaRoot("/nonexistent/cuda").has_value());
}

TEST(CudaInstallation, NvccVersionSources) {
  std::optional<NvccVersion> J = parseVersionJson(
      R"({"cuda": {"name": "CUDA SDK", "version": "12.4.1"},
          "cuda_nvcc": {"name": "CUDA NVCC", "version": "12.4.131"}})");
  ASSERT_TRUE(J.has_value());
  EXPECT_EQ(J->Major, 12u);
  EXPECT_EQ(J->Minor, 4u);
  EXPECT_EQ(J->Build, 131u);
  EXPECT_FALSE(parseVersionJson(R"({"cuda": {"version": "12.4.1"}})").has_value());
  EXPECT_FALSE(parseVersionJson("not json").has_value());
  std::optional<NvccVersion> O =
      parseNvccVersionOutput("nvcc: NVIDIA (R) Cuda compiler driver\n"
                             "Cuda compilation tools, release 13.0, V13.0.88\n"
                             "Build cuda_13.0.r13.0/compiler.36424714_0\n");
  ASSERT_TRUE(O.has_value());
  EXPECT_EQ(O->Major, 13u);
  EXPECT_EQ(O->Minor, 0u);
  EXPECT_EQ(O->Build, 88u);
  EXPECT_FALSE(parseNvccVersionOutput("gcc (Debian 12.2.0-14) 12.2.0").has_value());
}

TEST(NvccTranslation, PredefinedMacrosFollowTheFlags) {
  NvccVersion V{13, 0, 88};
  TranslatedCommand Plain = translateCompileCommand({"nvcc", "-c", "k.cu"}, "", 75);
  EXPECT_EQ(nvccPredefinedMacros(Plain, V),
            (std::vector<std::string>{"-D__NVCC__=1", "-D__CUDACC_VER_MAJOR__=13",
                                      "-D__CUDACC_VER_MINOR__=0", "-D__CUDACC_VER_BUILD__=88"}));
  TranslatedCommand Flags = translateCompileCommand(
      {"/opt/cuda/bin/nvcc", "--expt-relaxed-constexpr", "-extended-lambda", "-dc", "-G", "k.cu"},
      "", 75);
  std::vector<std::string> M = nvccPredefinedMacros(Flags, V);
  for (const char *Macro : {"-D__CUDACC_RELAXED_CONSTEXPR__=1", "-D__CUDACC_EXTENDED_LAMBDA__=1",
                            "-D__CUDACC_RDC__=1", "-D__CUDACC_DEBUG__=1"})
    EXPECT_TRUE(llvm::is_contained(M, Macro)) << Macro;
  EXPECT_FALSE(has(Flags, "-G"));
  EXPECT_TRUE(has(Flags, "-fgpu-rdc"));
  // clang's own CUDA compile defines none of nvcc's macros.
  TranslatedCommand Clang =
      translateCompileCommand({"clang++", "-x", "cuda", "-fgpu-rdc", "k.cu"}, "", 75);
  EXPECT_TRUE(nvccPredefinedMacros(Clang, V).empty());
}

TEST(NvccTranslation, LanguageAfterTheInputAppliesToIt) {
  // `warp-tidy a.cpp -- -x cu` appends the language after the input.
  TranslatedCommand T =
      translateCompileCommand({"nvcc", "-std=c++17", "a.cpp", "-x", "cu"}, "", 75);
  EXPECT_TRUE(T.IsCuda);
  EXPECT_EQ(T.Args, (std::vector<std::string>{"clang++", "-std=c++17", "-x", "cuda", "a.cpp"}));
  TranslatedCommand Joined = translateCompileCommand({"nvcc", "-xcuda", "a.cpp"}, "", 75);
  EXPECT_TRUE(Joined.IsCuda);
  EXPECT_EQ(Joined.Args, (std::vector<std::string>{"clang++", "-x", "cuda", "a.cpp"}));
  // A language before the input stays where it is.
  TranslatedCommand Before = translateCompileCommand({"nvcc", "-x", "cu", "a.cpp", "-c"}, "", 75);
  EXPECT_EQ(Before.Args, (std::vector<std::string>{"clang++", "-x", "cuda", "a.cpp", "-c"}));
}
