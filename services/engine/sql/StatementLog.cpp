#include "services/engine/sql/StatementLog.h"

#include <QMutex>
#include <QSet>

#include <atomic>

namespace md::engine {

namespace {

std::atomic<bool> listening{false};
QMutex mutex;
QStringList noted;
QSet<QString> seen;
qint64 ran = 0;

} // namespace

void StatementLog::start()
{
    const QMutexLocker lock(&mutex);
    noted.clear();
    seen.clear();
    ran = 0;
    listening.store(true, std::memory_order_relaxed);
}

QStringList StatementLog::stop()
{
    const QMutexLocker lock(&mutex);
    listening.store(false, std::memory_order_relaxed);
    return std::exchange(noted, {});
}

qint64 StatementLog::runs()
{
    const QMutexLocker lock(&mutex);
    return ran;
}

void StatementLog::note(const QString &sql)
{
    if (!listening.load(std::memory_order_relaxed))
        return;
    const QMutexLocker lock(&mutex);
    ++ran;
    if (!seen.contains(sql)) {
        seen.insert(sql);
        noted.append(sql);
    }
}

} // namespace md::engine
