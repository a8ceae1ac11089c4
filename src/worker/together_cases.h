// Several cases at once on threads of this one process: a mix's `isolation: together`
// (docs/mixes.md), workloads that share a process as an application's models do, their runtimes'
// global state and thread pools with it. Each case runs as RunCase runs it alone, on a thread of
// its own named "eb-together-I" (threads it starts inherit the name, so a crash handler can say
// whose thread died). Their set-up (target, load, inputs, prepare) runs one case at a time, as an
// application loads its models, and each case's scenario starts once its own set-up is done: the
// runtimes' initialisers, which are not all thread-safe, never run side by side, and the
// scenarios do.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "backends/registry.h"
#include "load/observer.h"
#include "plan/case_spec.h"
#include "record/record.h"

namespace edgebench {

// The name of case `index`'s thread (at most 15 characters, the kernel's limit).
std::string TogetherThreadName(size_t index);
// The case index a thread name says, or -1 when it is not one of TogetherThreadName's.
int TogetherCaseOfThread(const std::string& name);

struct TogetherCallbacks {
  std::function<void(size_t index, const std::string& stage)> stage;  // as each case's stage starts
  std::function<RunObserver*(size_t index)> observer;                 // each case's phases (may be null)
  std::function<void(size_t index, const Record& record)> done;       // as each case ends
};

// Runs every case to its end; `done` is called from the case's thread, once per case.
void RunCasesTogether(const std::vector<CaseSpec>& specs, Registry& registry, const TogetherCallbacks& callbacks);

}  // namespace edgebench
