//===--- ScanBlockRun.cpp - The code after a scan, run on every thread ----===//
//
// The interpreter behind ScanLaneFlow: one run of the statements after an
// unguarded scan on every thread of one block shape, each thread's copy of
// each local carrying the lanes whose wrong scan values went into it.
//
//===----------------------------------------------------------------------===//

#include "patterns/ScanBlockRun.h"
#include "ast/AstQueries.h"
#include "ast/CallIndex.h"
#include "ast/GuardFacts.h"
#include "ast/LocalWrites.h"
#include "ast/UnitContext.h"
#include "intrinsics/CollectiveCalls.h"
#include "lanes/LaneIdentity.h"
#include "patterns/ShuffleSteps.h"
#include "symbolic/SymbolicTranslation.h"
#include "clang/AST/ASTContext.h"
#include "clang/AST/Attr.h"
#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/Stmt.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Basic/SourceManager.h"
#include "llvm/ADT/BitVector.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/ScopeExit.h"

using namespace clang;

namespace warp_tidy {
namespace {

// Unrolled loops longer than this are not run step by step.
constexpr unsigned MaxUnrolledSteps = 70;
// Rounds of a loop run "any number of times" before giving up.
constexpr unsigned MaxFixpointRounds = 8;

/// What one thread's copy of a local holds: the lanes (of its warp) whose
/// wrong scan values went into it, and the last shuffle that brought one
/// from another lane.
struct Cell {
  uint32_t Lanes = 0;
  const CallExpr *Via = nullptr;
};

Cell merge(Cell A, Cell B) {
  Cell R{A.Lanes | B.Lanes, A.Via};
  if (B.Lanes & ~A.Lanes)
    R.Via = B.Via ? B.Via : A.Via;
  return R;
}

enum class Tri { False, True, Unknown };

/// Terms for the interpreter: lane ids and group ranks become the hardware
/// lane, write-once locals their definition, every other local a leaf the
/// interpreter may bind (a loop counter it unrolls); anything else is a leaf
/// it cannot evaluate.
class FlowSymbols final : public SymbolicEnvironment {
public:
  explicit FlowSymbols(ASTContext &Ctx) : Ctx(Ctx) {}

  TermRef variable(const VarDecl *V, const Expr *Ref, SymbolicTranslator &T) override {
    if (TermRef P = position(Ref, T))
      return P;
    if (const auto *Param = dyn_cast<ParmVarDecl>(V))
      if (TermRef Passed = passedByEveryCall(Param, T))
        return Passed;
    if (V->hasLocalStorage() && !V->getType()->isReferenceType()) {
      if (const Expr *Init = singleAssignmentInit(V))
        return T.translate(Init);
      TermRef Leaf = T.terms().uniform(V, T.widthOf(V->getType()));
      Bindable[Leaf] = V;
      return Leaf;
    }
    return nullptr;
  }
  TermRef call(const CallExpr *Call, SymbolicTranslator &T) override { return position(Call, T); }
  bool isUniform(const Expr *) override { return true; }
  const void *point() const override { return nullptr; }

  /// Leaves standing for a local the interpreter may bind.
  llvm::DenseMap<TermRef, const VarDecl *> Bindable;

private:
  /// A helper's parameter that it never writes holds what its callers pass:
  /// the term every call in the unit gives its argument (the caller's thread
  /// is the helper's), through a few levels of helpers. Null when the calls
  /// differ or one cannot be translated, and where CallIndex::
  /// argumentsPassedFor has no answer (a kernel, a helper another unit may
  /// call).
  TermRef passedByEveryCall(const ParmVarDecl *Param, SymbolicTranslator &T) {
    constexpr unsigned MaxCallerDepth = 3, MaxCalls = 16;
    if (CallerDepth >= MaxCallerDepth)
      return nullptr;
    auto Args = UnitContext::of(Ctx).get<CallIndex>().argumentsPassedFor(Param, Ctx);
    if (!Args || Args->size() > MaxCalls)
      return nullptr;
    ++CallerDepth;
    TermRef Common = nullptr;
    for (const Expr *Arg : *Args) {
      TermRef Passed = T.translate(Arg);
      if (!Passed || (Common && Passed != Common)) {
        Common = nullptr;
        break;
      }
      Common = Passed;
    }
    --CallerDepth;
    return Common;
  }

  TermRef position(const Expr *E, SymbolicTranslator &T) {
    PositionForm F = positionForm(E, Ctx);
    unsigned W = T.widthOf(E->getType());
    TermRef Lane = T.terms().threadIndex(TermOp::HardwareLane);
    if (F.Kind == PositionForm::Lane)
      return T.terms().cast(Lane, W, false);
    if (F.Kind == PositionForm::GroupRank && F.GroupSize > 0 && F.GroupSize < 32)
      return T.terms().cast(
          T.terms().binary(TermOp::URem, Lane, T.terms().constant(F.GroupSize, 32)), W, false);
    return nullptr;
  }
  ASTContext &Ctx;
  unsigned CallerDepth = 0;
};

/// The value `x op= r` leaves in x when x held \p Old (C's arithmetic on
/// int64_t; shifts and division only where defined); nullopt otherwise.
std::optional<int64_t> assigned(BinaryOperatorKind Op, std::optional<int64_t> Old, int64_t R) {
  if (Op == BO_Assign)
    return R;
  if (!Old)
    return std::nullopt;
  switch (Op) {
  case BO_AddAssign:
    return *Old + R;
  case BO_SubAssign:
    return *Old - R;
  case BO_MulAssign:
    return *Old * R;
  case BO_DivAssign:
    return R ? std::optional(*Old / R) : std::nullopt;
  case BO_ShlAssign:
    return R >= 0 && R < 32 ? std::optional(*Old << R) : std::nullopt;
  case BO_ShrAssign:
    return R >= 0 && R < 63 ? std::optional(*Old >> R) : std::nullopt;
  default:
    return std::nullopt;
  }
}

struct WrongUseSeen {
  const Stmt *Use = nullptr;
  unsigned Thread = 0;
  Cell Value;
};

/// One run of the code after a scan on every thread of one block shape.
class BlockRun {
public:
  BlockRun(ASTContext &Ctx, const ScanRegion &Region, ExactLanes Exact, BlockShape Shape,
           bool KnownShape, const BinaryOperator *CompleteStore)
      : Ctx(Ctx), Region(Region), Exact(Exact), Shape(Shape), KnownShape(KnownShape),
        CompleteStore(CompleteStore), Symbols(Ctx),
        Translator(Ctx, Terms, Symbols, /*AlignedBlocks=*/true), Threads(Shape.threads()),
        MustAlive(Threads, true), MayAlive(Threads, true) {
    Lane.BlockDimX = Shape.X;
    Lane.BlockDimY = Shape.Y;
    Lane.BlockDimZ = Shape.Z;
    Lane.Leaf = [this](const Term &Leaf) -> uint64_t {
      auto It = Symbols.Bindable.find(&Leaf);
      return It == Symbols.Bindable.end() ? 0 : static_cast<uint64_t>(Bindings.lookup(It->second));
    };
  }

  void run();
  bool holdsWrongValue() const;

  bool GaveUp = false;
  std::optional<WrongUseSeen> Wrong;
  /// The first plain store into a tracked local that some thread holding a
  /// wrong value does not run.
  const BinaryOperator *PartialStore = nullptr;

private:
  using Mask = llvm::BitVector;

  /// Every accumulator of the region is declared inside \p Loop.
  bool declaresAccumulators(const Stmt *Loop) const;
  /// Runs \p Loop again any number of times after the scan's iteration.
  void repeat(const Stmt *Loop, const Mask &May);

  bool stopped() const { return GaveUp || Wrong.has_value(); }
  void giveUp() { GaveUp = true; }
  unsigned laneOf(unsigned T) const { return T % 32; }

  // --- Values ---------------------------------------------------------------
  TermRef termOf(const Expr *E) {
    auto [It, New] = TermCache.try_emplace(E, nullptr);
    if (New)
      It->second = Translator.translate(E);
    return It->second;
  }

  /// What evaluating a term needs: nothing the run cannot know, and these
  /// loop counters bound. A term that reads no thread position has one
  /// value in every thread (kept until a counter changes).
  struct Needs {
    bool Never = false;
    bool PerThread = false;
    llvm::SmallVector<const VarDecl *, 2> Counters;
    unsigned CachedAt = 0; ///< BindingsVersion of Cached; 0: none
    uint64_t Cached = 0;
  };

  void bind(const VarDecl *Counter, int64_t V) {
    Bindings[Counter] = V;
    ++BindingsVersion;
  }
  void unbind(const VarDecl *Counter) {
    Bindings.erase(Counter);
    ++BindingsVersion;
  }

  void collectNeeds(TermRef T, Needs &N, llvm::DenseSet<TermRef> &Seen) {
    if (N.Never || !Seen.insert(T).second)
      return;
    if (T->isLeaf()) {
      switch (T->Op) {
      case TermOp::ThreadX:
      case TermOp::HardwareLane:
        N.PerThread = true;
        return;
      case TermOp::BlockDimX:
        return;
      case TermOp::ThreadY:
      case TermOp::ThreadZ:
        N.PerThread = true;
        N.Never |= !KnownShape;
        return;
      case TermOp::BlockDimY:
      case TermOp::BlockDimZ:
        N.Never |= !KnownShape;
        return;
      default: {
        auto It = Symbols.Bindable.find(T);
        if (It == Symbols.Bindable.end())
          N.Never = true;
        else
          N.Counters.push_back(It->second);
        return;
      }
      }
    }
    for (TermRef Op : T->Ops)
      collectNeeds(Op, N, Seen);
  }

  /// The needs of \p T, or null when it cannot be evaluated now.
  Needs *evaluable(TermRef T) {
    auto [It, New] = NeedsCache.try_emplace(T);
    if (New) {
      llvm::DenseSet<TermRef> Seen;
      collectNeeds(T, It->second, Seen);
    }
    if (It->second.Never)
      return nullptr;
    for (const VarDecl *Counter : It->second.Counters)
      if (!Bindings.count(Counter))
        return nullptr;
    return &It->second;
  }

  std::optional<int64_t> value(const Expr *E, unsigned Thread) {
    if (!E || !E->getType()->isIntegralOrEnumerationType())
      return std::nullopt;
    TermRef T = termOf(E);
    Needs *N = evaluable(T);
    if (!N)
      return std::nullopt;
    uint64_t V;
    if (!N->PerThread && N->CachedAt == BindingsVersion) {
      V = N->Cached;
    } else {
      LaneValues &L = Lane;
      L.ThreadX = Thread % Shape.X;
      L.ThreadY = (Thread / Shape.X) % Shape.Y;
      L.ThreadZ = Thread / (Shape.X * Shape.Y);
      L.HardwareLane = laneOf(Thread);
      V = evaluate(T, L);
      if (!N->PerThread) {
        N->Cached = V;
        N->CachedAt = BindingsVersion;
      }
    }
    unsigned W = T->Width;
    if (W < 64 && E->getType()->isSignedIntegerOrEnumerationType())
      return llvm::SignExtend64(V, W);
    return static_cast<int64_t>(V);
  }

  /// Whether \p C holds in \p Thread; `&&`, `||` and `!` decide from the
  /// operand that is known (`lane == 1 && kind == k` is false in lane 2).
  Tri truth(const Expr *C, unsigned Thread) {
    C = C->IgnoreParenImpCasts();
    if (const auto *Not = dyn_cast<UnaryOperator>(C); Not && Not->getOpcode() == UO_LNot) {
      Tri X = truth(Not->getSubExpr(), Thread);
      return X == Tri::Unknown ? X : X == Tri::True ? Tri::False : Tri::True;
    }
    if (const auto *B = dyn_cast<BinaryOperator>(C); B && B->isLogicalOp()) {
      Tri Decisive = B->getOpcode() == BO_LAnd ? Tri::False : Tri::True;
      Tri L = truth(B->getLHS(), Thread);
      if (L == Decisive)
        return L;
      Tri R = truth(B->getRHS(), Thread);
      if (R == Decisive)
        return R;
      return L == Tri::Unknown || R == Tri::Unknown ? Tri::Unknown : L;
    }
    std::optional<int64_t> V = value(C, Thread);
    return !V ? Tri::Unknown : *V ? Tri::True : Tri::False;
  }

  // --- Taint ----------------------------------------------------------------
  bool isTracked(const Decl *D) const {
    const auto *V = dyn_cast_or_null<VarDecl>(D);
    return V && Cells.count(V);
  }

  bool mentionsTracked(const Stmt *S) const {
    bool Found = false;
    forEachStmt(S, [&](const Stmt *X) {
      if (const auto *Ref = dyn_cast<DeclRefExpr>(X))
        Found |= isTracked(Ref->getDecl());
    });
    return Found;
  }

  /// A read of a tracked local that only reads its value.
  bool isPlainRead(const DeclRefExpr *Ref) {
    const Stmt *P = parentStmt(Ref, Ctx);
    // A template without instantiations has no conversions yet around an
    // operand of a dependent expression (`out[i] = v` with `T *out`).
    if (const auto *PE = dyn_cast_or_null<Expr>(P); PE && PE->isTypeDependent())
      return !isa<UnaryOperator>(PE) || cast<UnaryOperator>(PE)->getOpcode() != UO_AddrOf;
    if (const auto *Cast = dyn_cast_or_null<ImplicitCastExpr>(P))
      return Cast->getCastKind() == CK_LValueToRValue || Cast->getCastKind() == CK_NoOp;
    if (const auto *Construct = dyn_cast_or_null<CXXConstructExpr>(P))
      return Construct->getConstructor()->isCopyOrMoveConstructor();
    if (const auto *Member = dyn_cast_or_null<MemberExpr>(P))
      return !Member->getMemberDecl()->isFunctionOrFunctionTemplate();
    if (const auto *Call = dyn_cast_or_null<CallExpr>(P)) {
      // Warp collectives take their value by (forwarding) reference and
      // only read it; so does any callee through a reference to const.
      if (recogniseCollective(Call))
        return true;
      const FunctionDecl *Callee = Call->getDirectCallee();
      for (unsigned I = 0; Callee && I < Callee->getNumParams(); ++I)
        if (const Expr *Arg = argumentForParameter(Call, Callee, I);
            Arg && Arg->IgnoreParens() == Ref) {
          QualType T = Callee->getParamDecl(I)->getType();
          return T->isReferenceType() && T->getPointeeType().isConstQualified();
        }
    }
    return false;
  }

  Cell shuffled(const CallExpr *Call, const CollectiveCall &C, unsigned Thread) {
    const WarpIntrinsic &I = *C.Intrinsic;
    if (I.ValueArg == NoArgument || Call->getNumArgs() <= static_cast<unsigned>(I.ValueArg))
      return {};
    const Expr *ValueArg = Call->getArg(I.ValueArg);
    const unsigned Base = Thread - laneOf(Thread), Lane = laneOf(Thread);
    auto [KnownWidth, NewWidth] = Widths.try_emplace(Call, 0);
    if (NewWidth)
      KnownWidth->second = shuffleSegmentWidth(Call, Ctx);
    const unsigned Width = KnownWidth->second;
    std::optional<int64_t> Arg;
    if (I.LaneOrDeltaArg != NoArgument &&
        Call->getNumArgs() > static_cast<unsigned>(I.LaneOrDeltaArg))
      Arg = value(Call->getArg(I.LaneOrDeltaArg), Thread);
    if (!Width || !Arg) {
      // Any lane of the warp may be read.
      Cell All;
      for (unsigned L = 0; L < 32 && Base + L < Threads; ++L)
        All = merge(All, taint(ValueArg, Base + L));
      if (All.Lanes)
        All.Via = Call;
      return All;
    }
    const unsigned SegStart = Lane - Lane % Width, Pos = Lane % Width;
    unsigned Source = Lane;
    bool OwnValue = false; // a lane with no partner gets its own value back
    switch (I.Direction) {
    case ShuffleDirection::Down:
      OwnValue = *Arg < 0 || Pos + *Arg >= Width;
      Source = OwnValue ? Lane : Lane + static_cast<unsigned>(*Arg);
      break;
    case ShuffleDirection::Up:
      OwnValue = *Arg < 0 || static_cast<int64_t>(Pos) < *Arg;
      Source = OwnValue ? Lane : Lane - static_cast<unsigned>(*Arg);
      break;
    case ShuffleDirection::Index:
      // Reads lane srcLane mod width; for the scan, a source outside the
      // segment is the wrap-around it must not add.
      OwnValue =
          *Arg < static_cast<int64_t>(SegStart) || *Arg >= static_cast<int64_t>(SegStart + Width);
      Source = SegStart + static_cast<unsigned>(static_cast<uint64_t>(*Arg) % Width);
      break;
    case ShuffleDirection::Xor: {
      unsigned S = Lane ^ static_cast<unsigned>(*Arg & 31);
      Source = S / Width == Lane / Width ? S : Lane;
      break;
    }
    case ShuffleDirection::None:
      return {};
    }
    if (Base + Source >= Threads)
      return {}; // no such thread: undefined, and not this analysis' question
    Cell R = taint(ValueArg, Base + Source);
    if (Source != Lane && R.Lanes)
      R.Via = Call;
    // The scan's own step: a lane without a partner adds a wrong value.
    if (OwnValue && Region.isStep(Call))
      R.Lanes |= 1u << Lane;
    return R;
  }

  Cell taint(const Expr *E, unsigned Thread) {
    if (!E || stopped())
      return {};
    if (const auto *Ref = dyn_cast<DeclRefExpr>(E)) {
      auto It = Cells.find(dyn_cast<VarDecl>(Ref->getDecl()));
      if (It == Cells.end())
        return {};
      if (!isPlainRead(Ref)) {
        giveUp(); // a reference or pointer to the local
        return {};
      }
      return It->second[Thread];
    }
    if (const auto *Call = dyn_cast<CallExpr>(E)) {
      auto [Known, New] = Collectives.try_emplace(Call);
      if (New)
        Known->second = recogniseCollective(Call);
      // A copy: the recursion below may grow the map.
      if (std::optional<CollectiveCall> C = Known->second) {
        if (C->Intrinsic->Direction != ShuffleDirection::None)
          return shuffled(Call, *C, Thread);
        // Votes, reductions, matches: any lane's value reaches every lane.
        if (!mentionsTracked(Call))
          return {};
        const unsigned Base = Thread - laneOf(Thread);
        Cell All;
        for (unsigned L = 0; L < 32 && Base + L < Threads; ++L)
          for (const Expr *Arg : Call->arguments())
            All = merge(All, taint(Arg, Base + L));
        return All;
      }
    }
    if (const auto *CO = dyn_cast<ConditionalOperator>(E)) {
      Cell R = taint(CO->getCond(), Thread);
      switch (truth(CO->getCond(), Thread)) {
      case Tri::True:
        return merge(R, taint(CO->getTrueExpr(), Thread));
      case Tri::False:
        return merge(R, taint(CO->getFalseExpr(), Thread));
      case Tri::Unknown:
        return merge(R, merge(taint(CO->getTrueExpr(), Thread), taint(CO->getFalseExpr(), Thread)));
      }
    }
    if (isa<LambdaExpr, StmtExpr>(E) ||
        (isa<BinaryOperator>(E) && cast<BinaryOperator>(E)->isAssignmentOp()) ||
        (isa<UnaryOperator>(E) && cast<UnaryOperator>(E)->isIncrementDecrementOp())) {
      // Writes inside an expression are not modelled.
      if (mentionsTracked(E))
        giveUp();
      return {};
    }
    Cell R;
    for (const Stmt *Child : E->children())
      if (const auto *CE = dyn_cast_or_null<Expr>(Child))
        R = merge(R, taint(CE, Thread));
    return R;
  }

  /// \p E is used (stored, compared, returned, passed on) by the threads of
  /// \p May: a wrong value there is a wrong use.
  void use(const Expr *E, const Stmt *At, const Mask &May) {
    if (!E || stopped() || !mentionsTracked(E))
      return;
    for (unsigned T : May.set_bits()) {
      Cell C = taint(E, T);
      if (stopped())
        return;
      if (C.Lanes) {
        Wrong = WrongUseSeen{At, T, C};
        return;
      }
    }
  }

  // --- Statements -----------------------------------------------------------
  void store(const VarDecl *Var, const Expr *RHS, bool Accumulate, const BinaryOperator *Assign,
             const Mask &Must, const Mask &May) {
    std::vector<Cell> &Old = Cells[Var];
    if (Old.empty())
      Old.assign(Threads, Cell{});
    std::vector<Cell> New(Threads);
    for (unsigned T : May.set_bits()) {
      New[T] = taint(RHS, T);
      if (Accumulate)
        New[T] = merge(Cells[Var][T], New[T]);
    }
    if (stopped())
      return;
    std::vector<Cell> &Cur = Cells[Var];
    if (Assign && !Accumulate) {
      bool LeavesStale = false;
      for (unsigned T : MayAlive.set_bits())
        LeavesStale |= !Must.test(T) && Cur[T].Lanes;
      if (LeavesStale && !PartialStore)
        PartialStore = Assign;
      // The counterfactual run: this store reaches every lane (the others
      // get the identity).
      if (Assign == CompleteStore)
        for (unsigned T : MayAlive.set_bits())
          if (!May.test(T))
            Cur[T] = Cell{};
    }
    for (unsigned T : May.set_bits())
      Cur[T] = Must.test(T) ? New[T] : merge(Cur[T], New[T]);
  }

  const VarDecl *storedLocalVar(const Expr *LHS) {
    const auto *Ref = dyn_cast<DeclRefExpr>(LHS->IgnoreParenImpCasts());
    const auto *Var = Ref ? dyn_cast<VarDecl>(Ref->getDecl()) : nullptr;
    if (!Var || !Var->hasLocalStorage() || Var->getType()->isReferenceType())
      return nullptr;
    return Var;
  }

  void expression(const Expr *E, const Stmt *At, const Mask &Must, const Mask &May) {
    E = E->IgnoreParens();
    if (const auto *EWC = dyn_cast<ExprWithCleanups>(E))
      return expression(EWC->getSubExpr(), At, Must, May);
    if (const auto *B = dyn_cast<BinaryOperator>(E); B && B->isAssignmentOp()) {
      if (const VarDecl *Var = storedLocalVar(B->getLHS())) {
        if (!isTracked(Var) && !mentionsTracked(B->getRHS()))
          return;
        if (B->getOpcode() != BO_Assign && Var->getType()->isPointerType()) {
          giveUp();
          return;
        }
        return store(Var, B->getRHS(), B->getOpcode() != BO_Assign, B, Must, May);
      }
      use(B->getLHS(), At, May);
      use(B->getRHS(), At, May);
      return;
    }
    if (const auto *U = dyn_cast<UnaryOperator>(E); U && U->isIncrementDecrementOp()) {
      if (storedLocalVar(U->getSubExpr()))
        return; // `v++` keeps which lanes' values v holds
      return use(U->getSubExpr(), At, May);
    }
    use(E, At, May);
  }

  Mask conditionMask(const Expr *Cond, const Mask &Of, bool Holds, bool Definitely) {
    Mask R(Threads);
    for (unsigned T : Of.set_bits()) {
      Tri V = truth(Cond, T);
      bool In = V == Tri::Unknown ? !Definitely : (V == Tri::True) == Holds;
      if (In)
        R.set(T);
    }
    return R;
  }

  bool hasJumps(const Stmt *S) const {
    bool Found = false;
    forEachStmt(S, [&](const Stmt *X) {
      Found |= isa<BreakStmt, ContinueStmt, ReturnStmt, GotoStmt, IndirectGotoStmt>(X);
    });
    return Found;
  }

  /// Runs `for (int i = a; cond; i = next)` step by step when `i` is the
  /// same in every thread and the bound can be evaluated.
  bool unroll(const ForStmt *For, const Mask &Must, const Mask &May) {
    const auto *Init = dyn_cast_or_null<DeclStmt>(For->getInit());
    const auto *IV =
        Init && Init->isSingleDecl() ? dyn_cast<VarDecl>(Init->getSingleDecl()) : nullptr;
    if (!IV || !IV->getInit() || !IV->getType()->isIntegerType() || !For->getCond() ||
        !For->getInc() || hasJumps(For->getBody()) || !isNeverWrittenIn(IV, For->getBody()))
      return false;
    auto Uniform = [&](const Expr *E) -> std::optional<int64_t> {
      std::optional<int64_t> First;
      for (unsigned T : May.set_bits()) {
        std::optional<int64_t> V = value(E, T);
        if (!V || (First && *First != *V))
          return std::nullopt;
        First = V;
      }
      return First;
    };
    std::optional<int64_t> Start = Uniform(IV->getInit());
    if (!Start)
      return false;
    // Dry run: the counter's values, each step's thread masks.
    llvm::SmallVector<int64_t, 16> Steps;
    int64_t I = *Start;
    const Expr *Inc = For->getInc()->IgnoreParens();
    for (unsigned N = 0;; ++N) {
      if (N > MaxUnrolledSteps)
        return false;
      bind(IV, I);
      bool AnyTrue = false;
      for (unsigned T : May.set_bits()) {
        Tri C = truth(For->getCond(), T);
        if (C == Tri::Unknown) {
          unbind(IV);
          return false;
        }
        AnyTrue |= C == Tri::True;
      }
      if (!AnyTrue)
        break;
      Steps.push_back(I);
      std::optional<int64_t> Next;
      if (const auto *U = dyn_cast<UnaryOperator>(Inc); U && U->isIncrementDecrementOp()) {
        Next = U->isIncrementOp() ? I + 1 : I - 1;
      } else if (const auto *B = dyn_cast<BinaryOperator>(Inc);
                 B && B->isAssignmentOp() && storedLocalVar(B->getLHS()) == IV) {
        if (std::optional<int64_t> R = Uniform(B->getRHS()))
          Next = assigned(B->getOpcode(), I, *R);
      }
      if (!Next) {
        unbind(IV);
        return false;
      }
      I = *Next;
    }
    // A thread that has left the loop does not come back.
    Mask StepMust = Must, StepMay = May;
    for (int64_t Step : Steps) {
      bind(IV, Step);
      StepMust = conditionMask(For->getCond(), StepMust, true, true);
      StepMay = conditionMask(For->getCond(), StepMay, true, false);
      statement(For->getBody(), StepMust, StepMay);
      if (stopped())
        break;
    }
    unbind(IV);
    return true;
  }

  /// A loop run any number of times: its stores may happen, its uses may.
  void anyNumberOfTimes(const Stmt *Body, const Expr *Cond, const Stmt *Inc, const Mask &May) {
    Mask None(Threads);
    // Its scalars change from one iteration to the next: unknown in it and
    // after it.
    llvm::DenseSet<const VarDecl *> Changing = writtenIn(Body);
    if (Inc)
      Changing.insert_range(writtenIn(Inc));
    for (const VarDecl *V : Changing) {
      unbind(V);
      ++Unbindable[V];
    }
    auto Release = llvm::make_scope_exit([&] {
      for (const VarDecl *V : Changing)
        --Unbindable[V];
    });
    ++LoopDepth;
    for (unsigned Round = 0; Round < MaxFixpointRounds && !stopped(); ++Round) {
      auto Before = snapshot();
      if (Cond)
        use(Cond, Cond, May);
      statement(Body, None, May);
      if (Inc)
        statement(Inc, None, May);
      if (snapshot() == Before) {
        --LoopDepth;
        return;
      }
    }
    --LoopDepth;
    giveUp();
  }

  std::vector<std::pair<const VarDecl *, std::vector<uint32_t>>> snapshot() const {
    std::vector<std::pair<const VarDecl *, std::vector<uint32_t>>> S;
    for (const auto &[Var, Cs] : Cells) {
      std::vector<uint32_t> L;
      for (const Cell &C : Cs)
        L.push_back(C.Lanes);
      S.emplace_back(Var, std::move(L));
    }
    llvm::sort(S, [](const auto &A, const auto &B) { return A.first < B.first; });
    return S;
  }

  /// A declaration makes a fresh variable: every thread that runs it holds
  /// its initialiser's value (a tracked local declared in a loop body
  /// starts again in each iteration).
  void declaration(const DeclStmt *DS, const Mask &Must, const Mask &May) {
    for (const Decl *D : DS->decls()) {
      const auto *Var = dyn_cast<VarDecl>(D);
      if (!Var)
        continue;
      const Expr *Init = Var->getInit();
      if (!isTracked(Var) && !(Init && mentionsTracked(Init))) {
        setScalar(Var, Init, Must, May);
        continue;
      }
      if (Var->getType()->isReferenceType() || !Var->hasLocalStorage()) {
        giveUp();
        return;
      }
      Cells[Var].assign(Threads, Cell{});
      if (Init)
        store(Var, Init, false, nullptr, May, May);
    }
  }

  // --- Scalars ----------------------------------------------------------------
  // A local integer that the code between the scan and its uses sets to one
  // value in every thread (`sh = 1; ... sh += sh;`, an offset kept in a
  // variable) is bound to that value, so offsets and conditions that read it
  // can be evaluated; any other write makes it unknown.

  bool isScalar(const VarDecl *V) const {
    return V && V->hasLocalStorage() && !V->getType()->isReferenceType() &&
           V->getType()->isIntegralOrEnumerationType() && !isTracked(V);
  }

  /// \p V now holds \p NewValue's value (with \p Op applied to its old one)
  /// in the threads of \p May; bound only when that is one value and every
  /// thread that may run the write does.
  void setScalar(const VarDecl *V, const Expr *NewValue, const Mask &Must, const Mask &May,
                 BinaryOperatorKind Op = BO_Assign) {
    if (!isScalar(V))
      return;
    std::optional<int64_t> Old =
        Bindings.count(V) ? std::optional(Bindings.lookup(V)) : std::nullopt;
    // The new value reads the old one (`sh += sh`): evaluate, then rebind.
    std::optional<int64_t> Common;
    bool OneValue = NewValue && Must == May && !Unbindable.lookup(V) && May.any();
    for (unsigned T : May.set_bits()) {
      if (!OneValue)
        break;
      std::optional<int64_t> X = value(NewValue, T);
      OneValue = X && (!Common || *Common == *X);
      Common = X;
    }
    unbind(V);
    if (!OneValue || !Common)
      return;
    std::optional<int64_t> Next = assigned(Op, Old, *Common);
    if (Next)
      bind(V, *Next);
  }

  /// What a statement that reads no wrong value does to the scalars.
  void scalarEffects(const Stmt *S, const Mask &Must, const Mask &May) {
    if (const auto *E = dyn_cast<Expr>(S)) {
      E = E->IgnoreParens();
      if (const auto *EWC = dyn_cast<ExprWithCleanups>(E))
        E = EWC->getSubExpr()->IgnoreParens();
      if (const auto *B = dyn_cast<BinaryOperator>(E); B && B->isAssignmentOp())
        if (const VarDecl *V = storedLocalVar(B->getLHS());
            isScalar(V) && !B->getRHS()->HasSideEffects(Ctx))
          return setScalar(V, B->getRHS(), Must, May, B->getOpcode());
      if (const auto *U = dyn_cast<UnaryOperator>(E); U && U->isIncrementDecrementOp())
        if (const VarDecl *V = storedLocalVar(U->getSubExpr()); isScalar(V)) {
          std::optional<int64_t> Old =
              Bindings.count(V) ? std::optional(Bindings.lookup(V)) : std::nullopt;
          unbind(V);
          if (Old && Must == May && !Unbindable.lookup(V))
            bind(V, U->isIncrementOp() ? *Old + 1 : *Old - 1);
          return;
        }
    }
    for (const VarDecl *V : writtenIn(S))
      if (Bindings.count(V))
        unbind(V);
  }

  /// The statements before the scan, for their scalars only: each level's
  /// statements before the next, outermost first (\p May: each level's
  /// threads).
  void prefix(llvm::ArrayRef<const Stmt *> Chain, llvm::ArrayRef<Mask> May) {
    for (size_t L = Chain.size() - 1; L > 0 && !stopped(); --L) {
      if (isLoopStmt(Chain[L])) {
        // Its later statements and increment run before the next iteration.
        for (const VarDecl *V : writtenIn(Chain[L]))
          unbind(V);
        continue;
      }
      const auto *Block = dyn_cast<CompoundStmt>(Chain[L]);
      if (!Block)
        continue;
      for (const Stmt *Child : Block->body()) {
        if (Child == Chain[L - 1])
          break;
        if (const auto *DS = dyn_cast<DeclStmt>(Child))
          declaration(DS, May[L], May[L]);
        else
          scalarEffects(Child, May[L], May[L]);
      }
    }
  }

  bool containsReturn(const Stmt *S) const {
    bool Found = false;
    forEachStmt(S, [&](const Stmt *X) { Found |= isa<ReturnStmt>(X); });
    return Found;
  }

  void statement(const Stmt *S, const Mask &MustIn, const Mask &MayIn) {
    if (!S || stopped())
      return;
    Mask Must = MustIn, May = MayIn;
    Must &= MustAlive;
    May &= MayAlive;
    if (const auto *Block = dyn_cast<CompoundStmt>(S)) {
      for (const Stmt *Child : Block->body())
        statement(Child, MustIn, MayIn);
      return;
    }
    if (const auto *Attributed = dyn_cast<AttributedStmt>(S))
      return statement(Attributed->getSubStmt(), MustIn, MayIn);
    if (const auto *If = dyn_cast<IfStmt>(S)) {
      if (!mentionsTracked(If) && !containsReturn(If))
        return;
      if (If->getInit() || If->getConditionVariable()) {
        if (mentionsTracked(If))
          giveUp();
        return;
      }
      if (If->isConstexpr()) {
        std::optional<int64_t> C = integerConstant(If->getCond(), Ctx);
        if (!C) {
          giveUp();
          return;
        }
        return statement(*C ? If->getThen() : If->getElse(), MustIn, MayIn);
      }
      use(If->getCond(), If->getCond(), May);
      statement(If->getThen(), conditionMask(If->getCond(), Must, true, true),
                conditionMask(If->getCond(), May, true, false));
      statement(If->getElse(), conditionMask(If->getCond(), Must, false, true),
                conditionMask(If->getCond(), May, false, false));
      return;
    }
    if (const auto *Ret = dyn_cast<ReturnStmt>(S)) {
      use(Ret->getRetValue(), Ret, May);
      // Threads that surely returned run nothing more; those that may have
      // no longer surely run the rest.
      MayAlive.reset(Must);
      MustAlive.reset(May);
      return;
    }
    if (const auto *DS = dyn_cast<DeclStmt>(S))
      return declaration(DS, Must, May);
    if (!mentionsTracked(S))
      return scalarEffects(S, Must, May);
    if (const auto *For = dyn_cast<ForStmt>(S)) {
      if (For->getInit() && mentionsTracked(For->getInit()))
        statement(For->getInit(), Must, May);
      if (stopped() || unroll(For, Must, May))
        return;
      return anyNumberOfTimes(For->getBody(), For->getCond(), For->getInc(), May);
    }
    if (const auto *While = dyn_cast<WhileStmt>(S)) {
      if (While->getConditionVariable())
        giveUp();
      return anyNumberOfTimes(While->getBody(), While->getCond(), nullptr, May);
    }
    if (const auto *Do = dyn_cast<DoStmt>(S))
      return anyNumberOfTimes(Do->getBody(), Do->getCond(), nullptr, May);
    if (isa<BreakStmt, ContinueStmt>(S)) {
      if (!LoopDepth)
        giveUp();
      return;
    }
    if (const auto *E = dyn_cast<Expr>(S))
      return expression(E, S, Must, May);
    giveUp(); // switch, goto, asm, try...: not modelled
  }

  // --- Setup ----------------------------------------------------------------
  /// The scan itself, from lanes that hold no wrong value yet. A loop that
  /// cannot be run step by step leaves the lanes other than the exact one
  /// wrong (the doubling offsets up to half the segment).
  void scan(const Mask &Must, const Mask &May) {
    for (const VarDecl *Acc : Region.Accumulators)
      Cells[Acc].assign(Threads, Cell{});
    if (!Region.Loop)
      return straightLineSteps(Must, May);
    const Stmt *Loop = Region.First;
    while (const auto *Attributed = dyn_cast<AttributedStmt>(Loop))
      Loop = Attributed->getSubStmt();
    const auto *For = dyn_cast<ForStmt>(Loop);
    const VarDecl *Acc = Region.Accumulators.front();
    if (!For || !unroll(For, Must, May)) {
      if (stopped())
        return;
      for (unsigned T : May.set_bits())
        if (laneOf(T) % Exact.Width != Exact.ExactPosition)
          Cells[Acc][T].Lanes = 1;
    }
    // From here on a lane's mark names the lane whose scan value is wrong.
    for (unsigned T = 0; T < Threads; ++T)
      if (Cells[Acc][T].Lanes)
        Cells[Acc][T] = Cell{1u << laneOf(T), nullptr};
  }

  /// The statements First..Last of their block, the steps' partnerless
  /// lanes marking their own lane (shuffled() does it).
  void straightLineSteps(const Mask &Must, const Mask &May) {
    const auto *Block = dyn_cast_or_null<CompoundStmt>(parentStmt(Region.First, Ctx));
    if (!Block) {
      giveUp();
      return;
    }
    bool In = false;
    for (const Stmt *Child : Block->body()) {
      In |= Child == Region.First;
      if (In)
        statement(Child, Must, May);
      if (Child == Region.Last || stopped())
        return;
    }
  }

  ASTContext &Ctx;
  const ScanRegion &Region;
  ExactLanes Exact;
  BlockShape Shape;
  bool KnownShape;
  const BinaryOperator *CompleteStore;

  TermBuilder Terms;
  FlowSymbols Symbols;
  SymbolicTranslator Translator;
  llvm::DenseMap<const Expr *, TermRef> TermCache;
  llvm::DenseMap<TermRef, Needs> NeedsCache;
  unsigned BindingsVersion = 1;
  llvm::DenseMap<const CallExpr *, unsigned> Widths;
  llvm::DenseMap<const CallExpr *, std::optional<CollectiveCall>> Collectives;
  LaneValues Lane; ///< the thread being evaluated
  llvm::DenseMap<const VarDecl *, int64_t> Bindings;
  /// Scalars inside a loop run any number of times: never bound there.
  llvm::DenseMap<const VarDecl *, unsigned> Unbindable;

  unsigned Threads;
  llvm::DenseMap<const VarDecl *, std::vector<Cell>> Cells;
  Mask MustAlive, MayAlive;
  unsigned LoopDepth = 0;
};

void BlockRun::run() {
  // The statements around the scan, innermost first, up to the body.
  llvm::SmallVector<const Stmt *, 8> Chain{Region.Last};
  for (const Stmt *P = parentStmt(Region.Last, Ctx); P; P = parentStmt(P, Ctx)) {
    // A loop around the scan may run code before it again with the
    // scan's values, unless they are all declared in its body (each
    // iteration starts them again): then it is run any number of times.
    bool FreshEachIteration = isLoopStmt(P) && declaresAccumulators(P);
    if (!isa<CompoundStmt, IfStmt, AttributedStmt>(P) && !FreshEachIteration) {
      giveUp();
      return;
    }
    Chain.push_back(P);
  }
  // Threads that run each level: the conditions of the `if`s above it. The
  // question is about an execution that runs the scan, so a thread that may
  // reach it does (one that does not holds no wrong value, and a shuffle
  // that reads it is the divergence checks' concern).
  const size_t Levels = Chain.size();
  std::vector<Mask> Must(Levels, Mask(Threads, true)), May(Levels, Mask(Threads, true));
  for (size_t L = Levels - 1; L > 0; --L) {
    Must[L - 1] = Must[L];
    May[L - 1] = May[L];
    const auto *If = dyn_cast<IfStmt>(Chain[L]);
    if (!If)
      continue;
    if (If->getInit() || If->getConditionVariable() ||
        (Chain[L - 1] != If->getThen() && Chain[L - 1] != If->getElse())) {
      giveUp();
      return;
    }
    // An instantiation's `if constexpr` took this branch in every thread.
    if (If->isConstexpr())
      continue;
    bool Holds = Chain[L - 1] == If->getThen();
    May[L - 1] = conditionMask(If->getCond(), May[L], Holds, false);
    Must[L - 1] = May[L - 1];
  }
  prefix(Chain, May);
  scan(Must[0], May[0]);
  for (size_t L = 1; L < Levels && !stopped(); ++L) {
    if (isLoopStmt(Chain[L])) {
      repeat(Chain[L], May[L]);
      continue;
    }
    const auto *Block = dyn_cast<CompoundStmt>(Chain[L]);
    if (!Block)
      continue;
    bool After = false;
    for (const Stmt *Child : Block->body()) {
      if (After)
        statement(Child, Must[L], May[L]);
      After |= Child == Chain[L - 1];
      // Once no thread holds a wrong value, nothing later can use one.
      if (After && !holdsWrongValue())
        return;
    }
  }
}

bool BlockRun::declaresAccumulators(const Stmt *Loop) const {
  const SourceManager &SM = Ctx.getSourceManager();
  SourceRange R = Loop->getSourceRange();
  for (const VarDecl *Acc : Region.Accumulators) {
    SourceLocation At = Acc->getLocation();
    if (isa<ParmVarDecl>(Acc) || !At.isValid() || SM.isBeforeInTranslationUnit(At, R.getBegin()) ||
        SM.isBeforeInTranslationUnit(R.getEnd(), At))
      return false;
  }
  return true;
}

void BlockRun::repeat(const Stmt *Loop, const Mask &May) {
  if (const auto *For = dyn_cast<ForStmt>(Loop))
    return anyNumberOfTimes(For->getBody(), For->getCond(), For->getInc(), May);
  if (const auto *While = dyn_cast<WhileStmt>(Loop))
    return anyNumberOfTimes(While->getBody(), While->getCond(), nullptr, May);
  if (const auto *Do = dyn_cast<DoStmt>(Loop))
    return anyNumberOfTimes(Do->getBody(), Do->getCond(), nullptr, May);
  giveUp(); // range-for: its hidden iterator is not modelled
}

bool BlockRun::holdsWrongValue() const {
  for (const auto &[Var, Values] : Cells)
    for (const Cell &C : Values)
      if (C.Lanes)
        return true;
  return false;
}

} // namespace

BlockRunResult runBlockAfterScan(ASTContext &Ctx, const ScanRegion &Region, ExactLanes Exact,
                                 BlockShape Shape, bool KnownShape,
                                 const BinaryOperator *CompleteStore) {
  BlockRun Run(Ctx, Region, Exact, Shape, KnownShape, CompleteStore);
  Run.run();
  BlockRunResult R;
  R.GaveUp = Run.GaveUp;
  R.PartialStore = Run.PartialStore;
  if (Run.Wrong)
    R.Wrong = BlockRunResult::WrongUse{Run.Wrong->Use, Run.Wrong->Thread, Run.Wrong->Value.Lanes,
                                       Run.Wrong->Value.Via};
  return R;
}

} // namespace warp_tidy
