// A named thread that is running, event loop and all, when this returns.
// QThread::start() returns before the new thread has made its event
// dispatcher, which needs a file descriptor (an eventfd); a server whose
// descriptors are then used up by connections died there (GLib's g_error,
// SIGTRAP; Qt's own dispatcher aborts the same way). Made here, at start-up,
// the descriptor is the thread's before any connection comes
// (docs/operations.md, "Out of file descriptors").
#pragma once

#include <QString>
#include <QThread>

#include <latch>
#include <memory>
#include <utility>

namespace md::api {

template <typename Body> std::unique_ptr<QThread> startThread(const QString &name, Body &&body)
{
    // Shared: the thread may still be counting down when wait() returns.
    auto running = std::make_shared<std::latch>(1);
    std::unique_ptr<QThread> thread(
        QThread::create([running, body = std::forward<Body>(body)]() mutable {
            running->count_down(); // run() comes after the dispatcher is made
            body();
        }));
    thread->setObjectName(name);
    thread->start();
    // A thread the system would not make never counts down: say so, rather
    // than wait for it for ever. (A server without its writer cannot serve.)
    if (!thread->isRunning() && !thread->isFinished())
        qFatal("the thread %s could not be started", qPrintable(name));
    running->wait();
    return thread;
}

} // namespace md::api
