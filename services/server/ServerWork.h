// A server's worker pool: engine work off the network threads, each worker
// with its own database connection kept, and a stop that waits also for work
// a network thread is still handing over, so no answer is sent through a
// network layer that is gone.
#pragma once

#include <QThreadPool>

#include <atomic>
#include <functional>
#include <memory>

namespace md::server {

class ServerWork final
{
public:
    explicit ServerWork(int threads);
    ~ServerWork();
    Q_DISABLE_COPY_MOVE(ServerWork)

    // Runs `work` on a worker; false, running nothing, once stopping.
    bool start(std::function<void()> work);
    // Counts as work in flight until the last copy is gone: held by an
    // answer that comes later from another thread, so stopAndWait() waits for it.
    std::shared_ptr<void> hold();
    // Refuses new work from now on.
    void stop() { m_stopping = true; }
    bool stopping() const { return m_stopping; }
    // Refuses new work and waits for the work started; call before the
    // network layer the work answers through is destroyed.
    void stopAndWait();

private:
    QThreadPool m_pool;
    std::atomic<int> m_inFlight{0};
    std::atomic<bool> m_stopping{false};
};

} // namespace md::server
