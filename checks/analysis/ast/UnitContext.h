//===--- UnitContext.h - Everything computed once per unit ------*- C++ -*-===//
//
// Facts computed once per translation unit (the parent index, the discarded
// `if constexpr` statements, which locals each body writes, the launches,
// the uniformity analyses and their prover) live in one object per unit,
// tied to its ASTContext: made on first use, freed with the context, so a
// later unit whose context reuses the address never sees them. clazy's
// ClazyContext plays the same part.
//
// The context sits in the lowest layer and knows none of the types it holds:
// each layer keeps its own facts in it by type (`get<LaunchFacts>()`), so a
// fact keeps its home next to the code that computes it and the includes
// still go down.
//
// Thread safety: the clangd entry point holds several units at once, each
// on its own thread; the registry of contexts is locked, and so is each
// context's table of facts. A fact is built outside the lock, since
// building one may ask for another (never for itself).
//
//===----------------------------------------------------------------------===//

#ifndef WARP_TIDY_AST_UNITCONTEXT_H
#define WARP_TIDY_AST_UNITCONTEXT_H

#include "llvm/ADT/DenseMap.h"
#include <memory>
#include <mutex>
#include <type_traits>

namespace clang {
class ASTContext;
} // namespace clang

namespace warp_tidy {

class UnitContext {
public:
  /// The context of \p Ctx's unit, made on the first call.
  static UnitContext &of(clang::ASTContext &Ctx);

  clang::ASTContext &astContext() const { return Ctx; }

  /// The unit's T: made on first use as T(UnitContext &) or
  /// T(clang::ASTContext &) when T has such a constructor, else as T().
  template <typename T> T &get() {
    if (T *Known = static_cast<T *>(find(keyOf<T>())))
      return *Known;
    std::unique_ptr<T> Made;
    if constexpr (std::is_constructible_v<T, UnitContext &>)
      Made = std::make_unique<T>(*this);
    else if constexpr (std::is_constructible_v<T, clang::ASTContext &>)
      Made = std::make_unique<T>(Ctx);
    else
      Made = std::make_unique<T>();
    return *static_cast<T *>(insert(keyOf<T>(), std::make_unique<Holder<T>>(std::move(Made))));
  }

  explicit UnitContext(clang::ASTContext &Ctx) : Ctx(Ctx) {}

private:
  struct AnyHolder {
    virtual ~AnyHolder() = default;
    virtual void *value() = 0;
  };
  template <typename T> struct Holder final : AnyHolder {
    explicit Holder(std::unique_ptr<T> V) : Value(std::move(V)) {}
    void *value() override { return Value.get(); }
    std::unique_ptr<T> Value;
  };
  /// One address per type: the key of its slot.
  template <typename T> static const void *keyOf() {
    static const char Key = 0;
    return &Key;
  }
  void *find(const void *Key);
  /// Stores \p Made unless another call stored the key first; returns the
  /// stored value either way.
  void *insert(const void *Key, std::unique_ptr<AnyHolder> Made);

  clang::ASTContext &Ctx;
  std::mutex Mutex;
  llvm::DenseMap<const void *, std::unique_ptr<AnyHolder>> Facts;
};

} // namespace warp_tidy

#endif
