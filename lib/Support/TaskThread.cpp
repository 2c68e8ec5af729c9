//===-- TaskThread.cpp - tasks on a thread of its own ---------------------===//
//
// A queue of packaged tasks served by one thread, made with the object.
//
//===----------------------------------------------------------------------===//
#include "kevin/Support/TaskThread.h"

namespace kevin {

TaskThread::TaskThread() { Worker = std::thread([this] { serve(); }); }

TaskThread::~TaskThread() {
  {
    std::lock_guard<std::mutex> Hold(Guard);
    Stopping = true;
  }
  Wake.notify_one();
  Worker.join();
}

void TaskThread::run(std::function<void()> Task) {
  std::packaged_task<void()> Packaged(std::move(Task));
  std::future<void> Ended = Packaged.get_future();
  {
    std::lock_guard<std::mutex> Hold(Guard);
    Pending.push_back(std::move(Packaged));
  }
  Wake.notify_one();
  Ended.get();
}

void TaskThread::serve() {
  while (true) {
    std::packaged_task<void()> Task;
    {
      std::unique_lock<std::mutex> Hold(Guard);
      Wake.wait(Hold, [this] { return Stopping || !Pending.empty(); });
      if (Pending.empty())
        return;
      Task = std::move(Pending.front());
      Pending.pop_front();
    }
    Task();
  }
}

} // namespace kevin
