//===-- kevin/Support/TaskThread.h - a thread for tasks ---------*- C++ -*-===//
//
// A thread that runs the tasks handed to it at the nice value of the thread
// that made it, whatever the caller's.
//
//===----------------------------------------------------------------------===//
#ifndef KEVIN_SUPPORT_TASKTHREAD_H
#define KEVIN_SUPPORT_TASKTHREAD_H

#include <condition_variable>
#include <deque>
#include <functional>
#include <future>
#include <mutex>
#include <thread>

namespace kevin {

/// A thread of its own that runs the tasks handed to it, one at a time. It
/// keeps the nice value of the thread that made it: a process it starts
/// inherits that value, where one started by a caller niced with
/// niceThisThread (kevin/Support/Subprocess.h) would inherit the caller's,
/// and could never lower it back without privilege.
class TaskThread {
public:
  TaskThread();
  ~TaskThread();
  TaskThread(const TaskThread &) = delete;
  TaskThread &operator=(const TaskThread &) = delete;

  /// Runs Task on the thread and waits for it to end; rethrows what it
  /// threw. Not from a task: it would wait for itself.
  void run(std::function<void()> Task);

private:
  void serve();

  std::mutex Guard;
  std::condition_variable Wake;
  std::deque<std::packaged_task<void()>> Pending;
  bool Stopping = false;
  std::thread Worker;
};

} // namespace kevin

#endif // KEVIN_SUPPORT_TASKTHREAD_H
