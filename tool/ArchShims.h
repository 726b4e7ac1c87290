//===--- ArchShims.h - Declarations that keep old-arch calls parseable ----===//
//
// clang's CUDA headers declare `__reduce_*_sync` only when __CUDA_ARCH__ >=
// 800 and CUDA's declare `__match_*_sync` only from 700. warp-tidy analyses
// the *lowest* target arch, so an unguarded call there is a raw "use of
// undeclared identifier" compile error: no AST node, nothing for
// warp-missing-arch-guard to explain. warp-tidy therefore force-includes
// this header into every device analysis: for the archs that lack them it
// declares the intrinsics (same signatures as the real ones, never defined,
// never code-generated: warp-tidy only parses), so the call parses and the
// check reports it with an actionable message instead.
//
// It also lets CCCL see the compiler that really parses it (clang), whatever
// nvcc macros the analysis defines for project code (see the text below).
//
// Header-only so it needs no build-system change; written once per content
// hash into the temp directory, because clang tooling needs a real file.
//
//===----------------------------------------------------------------------===//

#ifndef WARP_TIDY_TOOL_ARCHSHIMS_H
#define WARP_TIDY_TOOL_ARCHSHIMS_H

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Support/xxhash.h"
#include <mutex>
#include <string>

namespace warp_tidy {

inline llvm::StringRef archShimsText() {
  return R"(// Written by warp-tidy (analysis only; never compiled into code).
// Declares warp intrinsics for the architectures whose headers omit them, so
// that a call parses and warp-missing-arch-guard can report it instead of a
// raw "undeclared identifier" error. Signatures follow clang 22's
// __clang_cuda_intrinsics.h and CUDA's sm_70_rt.h.
#pragma clang system_header
// CCCL (CUB, Thrust, libcu++) picks its code paths by the compiler that
// parses it. The -D__NVCC__ that shows project code nvcc's view would make it
// take nvcc's, which clang rejects (with NDEBUG: a __host__ __device__
// __assert_fail against clang's __device__ one). So CCCL detects its compiler
// here, before __NVCC__ is visible; its include guard keeps that answer.
#if defined(__NVCC__) && defined(__clang__) && defined(__CUDA__)
#if __has_include(<cuda/std/__cccl/compiler.h>)
#pragma push_macro("__NVCC__")
#undef __NVCC__
#include <cuda/std/__cccl/compiler.h>
#pragma pop_macro("__NVCC__")
#endif
#endif
#if defined(__CUDA__) && defined(__CUDA_ARCH__)
#if __CUDA_ARCH__ < 800
__attribute__((device)) unsigned __reduce_add_sync(unsigned __mask, unsigned __value);
__attribute__((device)) unsigned __reduce_min_sync(unsigned __mask, unsigned __value);
__attribute__((device)) unsigned __reduce_max_sync(unsigned __mask, unsigned __value);
__attribute__((device)) int __reduce_min_sync(unsigned __mask, int __value);
__attribute__((device)) int __reduce_max_sync(unsigned __mask, int __value);
__attribute__((device)) unsigned __reduce_or_sync(unsigned __mask, unsigned __value);
__attribute__((device)) unsigned __reduce_and_sync(unsigned __mask, unsigned __value);
__attribute__((device)) unsigned __reduce_xor_sync(unsigned __mask, unsigned __value);
#endif
#if __CUDA_ARCH__ < 700
__attribute__((device)) unsigned __match32_any_sync(unsigned __mask, unsigned __value);
__attribute__((device)) unsigned __match64_any_sync(unsigned __mask, unsigned long long __value);
__attribute__((device)) unsigned __match32_all_sync(unsigned __mask, unsigned __value, int *__pred);
__attribute__((device)) unsigned __match64_all_sync(unsigned __mask, unsigned long long __value, int *__pred);
__attribute__((device)) unsigned __match_any_sync(unsigned __mask, unsigned __value);
__attribute__((device)) unsigned __match_any_sync(unsigned __mask, int __value);
__attribute__((device)) unsigned __match_any_sync(unsigned __mask, unsigned long __value);
__attribute__((device)) unsigned __match_any_sync(unsigned __mask, long __value);
__attribute__((device)) unsigned __match_any_sync(unsigned __mask, unsigned long long __value);
__attribute__((device)) unsigned __match_any_sync(unsigned __mask, long long __value);
__attribute__((device)) unsigned __match_any_sync(unsigned __mask, float __value);
__attribute__((device)) unsigned __match_any_sync(unsigned __mask, double __value);
__attribute__((device)) unsigned __match_all_sync(unsigned __mask, unsigned __value, int *__pred);
__attribute__((device)) unsigned __match_all_sync(unsigned __mask, int __value, int *__pred);
__attribute__((device)) unsigned __match_all_sync(unsigned __mask, unsigned long __value, int *__pred);
__attribute__((device)) unsigned __match_all_sync(unsigned __mask, long __value, int *__pred);
__attribute__((device)) unsigned __match_all_sync(unsigned __mask, unsigned long long __value, int *__pred);
__attribute__((device)) unsigned __match_all_sync(unsigned __mask, long long __value, int *__pred);
__attribute__((device)) unsigned __match_all_sync(unsigned __mask, float __value, int *__pred);
__attribute__((device)) unsigned __match_all_sync(unsigned __mask, double __value, int *__pred);
#endif
#endif
)";
}

/// Path of the shim header, written on first use; empty if it cannot be
/// written (the analysis then runs without it and an unguarded call on an
/// old arch shows up as clang's compile error).
inline std::string archShimsPath() {
  static std::once_flag Once;
  static std::string Path;
  std::call_once(Once, [] {
    llvm::StringRef Text = archShimsText();
    llvm::SmallString<256> Dir;
    llvm::sys::path::system_temp_directory(/*ErasedOnReboot=*/true, Dir);
    llvm::SmallString<256> File(Dir);
    llvm::sys::path::append(File, "warp-tidy-arch-shims-" +
                                      llvm::utohexstr(llvm::xxh3_64bits(Text)) + ".h");
    if (auto Existing = llvm::MemoryBuffer::getFile(File))
      if ((*Existing)->getBuffer() == Text) {
        Path = File.str().str();
        return;
      }
    // Write to a unique name, then rename: parallel runs never see a
    // partial file.
    llvm::SmallString<256> Temp;
    int FD = -1;
    if (llvm::sys::fs::createUniqueFile(File + "-%%%%%%%%.tmp", FD, Temp))
      return;
    {
      llvm::raw_fd_ostream OS(FD, /*shouldClose=*/true);
      OS << Text;
      if (OS.has_error())
        return;
    }
    if (llvm::sys::fs::rename(Temp, File)) {
      llvm::sys::fs::remove(Temp);
      return;
    }
    Path = File.str().str();
  });
  return Path;
}

} // namespace warp_tidy

#endif
