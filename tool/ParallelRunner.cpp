//===--- ParallelRunner.cpp - Analyse files in worker processes -----------===//
//
// One loop in the parent owns every child: it starts them, reaps them with
// a non-blocking waitpid, kills those past the time limit and stops them all
// when the run is interrupted. llvm::sys::ExecuteNoWait and Wait do not fit:
// Wait's time limit rests on a process-wide alarm(), which cannot serve
// several children at once; it reports a child killed by a signal as -2
// with the signal's name, where the parent needs its number (SIGINT and
// SIGTERM mean the run was interrupted, "crashed (signal N)" names it), and
// it reads exit statuses 126 and 127 as failures to execute; and
// ExecuteNoWait words a failed start in its own way ("posix_spawn failed:
// ..."), where the message says why the analysis of a file could not start.
//
//===----------------------------------------------------------------------===//

#include "ParallelRunner.h"
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <map>
#include <spawn.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

extern char **environ;

namespace warp_tidy {

namespace {
using Clock = std::chrono::steady_clock;

struct Running {
  size_t Index;
  Clock::time_point Start;
  bool TimedOut = false;
  bool Stopped = false;
};

pid_t spawn(const WorkerJob &Job, std::string &Error) {
  posix_spawn_file_actions_t Actions;
  posix_spawn_file_actions_init(&Actions);
  posix_spawn_file_actions_addopen(&Actions, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&Actions, 1, Job.StdoutPath.c_str(),
                                   O_WRONLY | O_CREAT | O_TRUNC, 0600);
  posix_spawn_file_actions_addopen(&Actions, 2, Job.StderrPath.c_str(),
                                   O_WRONLY | O_CREAT | O_TRUNC, 0600);
  std::vector<char *> Argv;
  for (const std::string &A : Job.Args)
    Argv.push_back(const_cast<char *>(A.c_str()));
  Argv.push_back(nullptr);
  pid_t Pid = 0;
  int RC = posix_spawn(&Pid, Argv[0], &Actions, nullptr, Argv.data(), environ);
  posix_spawn_file_actions_destroy(&Actions);
  if (RC != 0) {
    Error = std::strerror(RC);
    return -1;
  }
  return Pid;
}

using Children = std::map<pid_t, Running>;

/// Terminates the running children and reports the jobs not started yet
/// as interrupted.
void stopAll(Children &Live, llvm::ArrayRef<WorkerJob> Jobs, size_t &Next,
             llvm::function_ref<void(size_t, const WorkerOutcome &)> OnDone) {
  for (auto &[Pid, R] : Live) {
    R.Stopped = true;
    kill(Pid, SIGTERM);
  }
  for (; Next < Jobs.size(); ++Next) {
    WorkerOutcome O;
    O.Interrupted = true;
    OnDone(Next, O);
  }
}

/// Kills the children running past \p TimeoutSeconds (0: no limit).
void killTimedOut(Children &Live, unsigned TimeoutSeconds) {
  if (!TimeoutSeconds)
    return;
  auto Limit = std::chrono::seconds(TimeoutSeconds);
  for (auto &[P, R] : Live)
    if (!R.TimedOut && !R.Stopped && Clock::now() - R.Start > Limit) {
      R.TimedOut = true;
      kill(P, SIGKILL);
    }
}

/// The outcome of child \p R, which ended with \p Status.
WorkerOutcome outcomeOf(const Running &R, int Status, bool Stopping) {
  WorkerOutcome O;
  O.Started = true;
  O.Seconds = std::chrono::duration<double>(Clock::now() - R.Start).count();
  if (WIFEXITED(Status))
    O.ExitCode = WEXITSTATUS(Status);
  else
    O.Signal = WTERMSIG(Status);
  O.TimedOut = R.TimedOut;
  // A child that an interrupt reached (the terminal sends SIGINT to the
  // whole process group) did not crash.
  O.Interrupted = R.Stopped || (Stopping && (O.Signal == SIGINT || O.Signal == SIGTERM));
  return O;
}

} // namespace

void runWorkers(llvm::ArrayRef<WorkerJob> Jobs, const RunLimits &Limits,
                llvm::function_ref<void(size_t, const WorkerOutcome &)> OnDone) {
  unsigned Parallel = Limits.Parallel ? Limits.Parallel : 1;
  Children Live;
  size_t Next = 0;
  bool Stopping = false;
  // Short naps while children run: a finished file is noticed within a few
  // milliseconds, an idle parent costs nothing measurable.
  const auto Nap = std::chrono::milliseconds(5);
  while (Next < Jobs.size() || !Live.empty()) {
    if (!Stopping && Limits.ShouldStop && Limits.ShouldStop()) {
      Stopping = true;
      stopAll(Live, Jobs, Next, OnDone);
    }
    while (!Stopping && Next < Jobs.size() && Live.size() < Parallel) {
      size_t Index = Next++;
      std::string Error;
      pid_t Pid = spawn(Jobs[Index], Error);
      if (Pid < 0) {
        WorkerOutcome O;
        O.StartError = Error;
        OnDone(Index, O);
        continue;
      }
      Live[Pid] = {Index, Clock::now()};
      if (Limits.OnStarted)
        Limits.OnStarted(Index);
    }
    if (Live.empty())
      continue;
    int Status = 0;
    pid_t Pid = waitpid(-1, &Status, WNOHANG);
    if (Pid == 0) {
      killTimedOut(Live, Limits.TimeoutSeconds);
      if (Limits.WhileWaiting)
        Limits.WhileWaiting();
      std::this_thread::sleep_for(Nap);
      continue;
    }
    if (Pid < 0) {
      if (errno == EINTR)
        continue;
      // No children left that we know of: report the rest as lost.
      for (auto &[P, R] : Live) {
        WorkerOutcome O;
        O.Started = true;
        O.StartError = "lost track of the worker process";
        OnDone(R.Index, O);
      }
      Live.clear();
      continue;
    }
    auto It = Live.find(Pid);
    if (It == Live.end())
      continue;
    if (!WIFEXITED(Status) && !WIFSIGNALED(Status))
      continue; // Stopped/continued: still running.
    WorkerOutcome O = outcomeOf(It->second, Status, Stopping);
    size_t Index = It->second.Index;
    Live.erase(It);
    OnDone(Index, O);
  }
}

} // namespace warp_tidy
