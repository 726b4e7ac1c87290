//===--- UnitLocal.h - State that lives exactly as long as one unit -------===//
//
// Facts computed once per translation unit (an index over its bodies, say)
// are kept with its ASTContext: created on first use, dropped when the
// context is freed, so a later unit whose context happens to reuse the
// address never sees them. Thread-safe: the clangd entry point may hold
// several units at once.
//
//===----------------------------------------------------------------------===//

#ifndef WARP_TIDY_ANALYSIS_UNITLOCAL_H
#define WARP_TIDY_ANALYSIS_UNITLOCAL_H

#include "clang/AST/ASTContext.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLFunctionalExtras.h"
#include <memory>
#include <mutex>

namespace warp_tidy {

/// One T per ASTContext, built by the first caller of get().
template <typename T> class UnitLocal {
public:
  /// \p Ctx's T, made with \p Make on the first call for this context.
  T &get(clang::ASTContext &Ctx, llvm::function_ref<std::unique_ptr<T>()> Make) {
    {
      std::lock_guard<std::mutex> Lock(Mutex);
      auto It = Values.find(&Ctx);
      if (It != Values.end())
        return *It->second;
    }
    // Built outside the lock: building may itself ask other unit-local
    // state (never this one: it is not reentrant for one context).
    std::unique_ptr<T> Made = Make();
    std::lock_guard<std::mutex> Lock(Mutex);
    auto [It, Inserted] = Values.try_emplace(&Ctx, std::move(Made));
    if (Inserted)
      Ctx.AddDeallocation(&UnitLocal::drop, new DropRecord{this, &Ctx});
    return *It->second;
  }

private:
  struct DropRecord {
    UnitLocal *Owner;
    const clang::ASTContext *Ctx;
  };
  static void drop(void *P) {
    std::unique_ptr<DropRecord> R(static_cast<DropRecord *>(P));
    std::lock_guard<std::mutex> Lock(R->Owner->Mutex);
    R->Owner->Values.erase(R->Ctx);
  }

  std::mutex Mutex;
  llvm::DenseMap<const clang::ASTContext *, std::unique_ptr<T>> Values;
};

} // namespace warp_tidy

#endif
