#include "services/server/ServerWork.h"

#include <QThread>

namespace md::server {

ServerWork::ServerWork(int threads)
{
    m_pool.setMaxThreadCount(std::max(1, threads));
    m_pool.setExpiryTimeout(-1); // keep each worker's database connection
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
