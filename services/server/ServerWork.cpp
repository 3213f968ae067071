#include "services/server/ServerWork.h"

#include <QThread>

#include <latch>
#include <memory>

namespace md::server {

ServerWork::ServerWork(int threads)
{
    m_pool.setMaxThreadCount(std::max(1, threads));
    m_pool.setExpiryTimeout(-1); // keep each worker's database connection
    // Every worker made now, while descriptors are plenty. A Qt thread needs
    // two for its event dispatcher's wakeup pipe, and GLib aborts the whole
    // process (SIGTRAP) when it cannot make them: a server starved of
    // descriptors by a flood of connections died making its first worker
    // (tst_hostile, outOfFileDescriptors).
    const int count = m_pool.maxThreadCount();
    // Shared: a task may still be inside count_down() when wait() returns.
    const auto running = std::make_shared<std::latch>(count);
    const auto done = std::make_shared<std::latch>(count);
    for (int i = 0; i < count; ++i)
        m_pool.start([running, done] {
            running->arrive_and_wait(); // each task holds its own thread
            done->count_down();
        });
    done->wait();
}

ServerWork::~ServerWork()
{
    stopAndWait();
}

bool ServerWork::start(std::function<void()> work)
{
    // Counted before m_stopping is read, so stopAndWait() sees it.
    ++m_inFlight;
    if (m_stopping) {
        --m_inFlight;
        return false;
    }
    m_pool.start([this, work = std::move(work)] {
        work();
        --m_inFlight;
    });
    return true;
}

std::shared_ptr<void> ServerWork::hold()
{
    ++m_inFlight;
    return {nullptr, [this](void *) { --m_inFlight; }};
}

void ServerWork::stopAndWait()
{
    m_stopping = true;
    m_pool.waitForDone();
    while (m_inFlight.load() != 0) // answers still coming from the engine's writer
        QThread::yieldCurrentThread();
}

} // namespace md::server
