//===--- UnitContext.cpp - Everything computed once per unit --------------===//

#include "ast/UnitContext.h"
#include "clang/AST/ASTContext.h"

namespace warp_tidy {

namespace {
std::mutex RegistryMutex;
llvm::DenseMap<const clang::ASTContext *, std::unique_ptr<UnitContext>> &registry() {
  static llvm::DenseMap<const clang::ASTContext *, std::unique_ptr<UnitContext>> R;
  return R;
}
// Runs when the ASTContext is freed, so a later unit whose context reuses
// the address starts with nothing.
void dropContextOf(void *Ctx) {
  std::unique_ptr<UnitContext> Dropped;
  {
    std::lock_guard<std::mutex> Lock(RegistryMutex);
    auto It = registry().find(static_cast<const clang::ASTContext *>(Ctx));
    if (It == registry().end())
      return;
    Dropped = std::move(It->second);
    registry().erase(It);
  }
  // Freed outside the lock: a fact's destructor may be slow.
}
} // namespace

UnitContext &UnitContext::of(clang::ASTContext &Ctx) {
  std::lock_guard<std::mutex> Lock(RegistryMutex);
  auto [It, Inserted] = registry().try_emplace(&Ctx);
  if (Inserted) {
    It->second = std::make_unique<UnitContext>(Ctx);
    Ctx.AddDeallocation(dropContextOf, &Ctx);
  }
  return *It->second;
}

void *UnitContext::find(const void *Key) {
  std::lock_guard<std::mutex> Lock(Mutex);
  auto It = Facts.find(Key);
  return It == Facts.end() ? nullptr : It->second->value();
}

void *UnitContext::insert(const void *Key, std::unique_ptr<AnyHolder> Made) {
  std::lock_guard<std::mutex> Lock(Mutex);
  auto [It, Inserted] = Facts.try_emplace(Key, std::move(Made));
  (void)Inserted;
  return It->second->value();
}

} // namespace warp_tidy
