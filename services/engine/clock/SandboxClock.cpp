#include "services/engine/clock/SandboxClock.h"

#include "services/engine/sql/Sql.h"

namespace md::engine {

using namespace Qt::StringLiterals;

SandboxClock::SandboxClock(RealClock real)
    : m_real(std::move(real))
{}

qint64 SandboxClock::ahead(const QSqlDatabase &db, const Scope &scope)
{
    if (scope.env != Environment::Sandbox)
        return 0;
    {
        const QMutexLocker lock(&m_mutex);
        const auto cached = m_cache.constFind(scope.orgPk);
        if (cached != m_cache.cend() && !cached->expiry.hasExpired())
            return cached->offsetMs;
    }
    auto read = offset(db, scope);
    if (read)
        remember(scope, read.value());
    const QMutexLocker lock(&m_mutex);
    return m_cache.value(scope.orgPk).offsetMs;
}

api::Result<qint64> SandboxClock::offset(const QSqlDatabase &db, const Scope &scope)
{
    if (scope.env != Environment::Sandbox)
        return qint64(0);
    auto rows = queryRows(db, u"SELECT offset_ms FROM clock_offsets WHERE org_pk = ? AND env = ?"_s,
                          {scope.orgPk, scope.envWord()});
    if (!rows)
        return rows.error();
    return rows.value().isEmpty() ? qint64(0) : rows.value().first().first().toLongLong();
}

api::Result<bool> SandboxClock::moveOffset(const QSqlDatabase &db, const Scope &scope,
                                           qint64 offsetMs)
{
    // Compare-and-set: a row is returned only when this offset is past the
    // stored one (none stored is 0), so of two advances racing, on one
    // server or two, the later time wins and the earlier is told so.
    auto moved = queryRows(
        db,
        u"INSERT INTO clock_offsets (org_pk, env, offset_ms, updated_at) VALUES (?, ?, ?, ?)"
        " ON CONFLICT (org_pk, env) DO UPDATE SET offset_ms = excluded.offset_ms,"
        " updated_at = excluded.updated_at WHERE clock_offsets.offset_ms < excluded.offset_ms"
        " RETURNING offset_ms"_s,
        {scope.orgPk, scope.envWord(), offsetMs, m_real()});
    if (!moved)
        return moved.error();
    return !moved.value().isEmpty();
}

void SandboxClock::remember(const Scope &scope, qint64 offsetMs)
{
    const QMutexLocker lock(&m_mutex);
    // An offset only grows: of two advances (or a read and an advance)
    // remembered out of order, the later time stays.
    const auto cached = m_cache.constFind(scope.orgPk);
    if (cached != m_cache.cend() && !cached->expiry.hasExpired() && cached->offsetMs > offsetMs)
        return;
    m_cache.insert(scope.orgPk, {offsetMs, QDeadlineTimer(CacheLifetime)});
}

api::Result<QList<SandboxClock::Moved>> SandboxClock::offsets(const QSqlDatabase &db)
{
    auto rows = queryRows(
        db, u"SELECT org_pk, offset_ms, updated_at FROM clock_offsets ORDER BY org_pk"_s, {});
    if (!rows)
        return rows.error();
    QList<Moved> moved;
    for (const QVariantList &row : std::as_const(rows.value()))
        moved.append({Scope{row.at(0).toLongLong(), Environment::Sandbox}, row.at(1).toLongLong(),
                      row.at(2).toLongLong()});
    return moved;
}

} // namespace md::engine
