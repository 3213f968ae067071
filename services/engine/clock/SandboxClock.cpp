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
    const QMutexLocker lock(&m_mutex);
    if (read)
        m_cache.insert(scope.orgPk, {read.value(), QDeadlineTimer(CacheLifetime)});
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

api::Result<api::Done> SandboxClock::setOffset(const QSqlDatabase &db, Dialect dialect,
                                               const Scope &scope, qint64 offsetMs)
{
    const QString upsert =
        dialect == Dialect::Postgres
            ? u"INSERT INTO clock_offsets (org_pk, env, offset_ms, updated_at) VALUES (?, ?, ?, ?)"
              " ON CONFLICT (org_pk, env) DO UPDATE SET offset_ms = excluded.offset_ms,"
              " updated_at = excluded.updated_at"_s
            : u"INSERT OR REPLACE INTO clock_offsets (org_pk, env, offset_ms, updated_at)"
              " VALUES (?, ?, ?, ?)"_s;
    if (auto stored = execute(db, upsert, {scope.orgPk, scope.envWord(), offsetMs, m_real()});
        !stored)
        return stored;
    return api::Done{};
}

void SandboxClock::remember(const Scope &scope, qint64 offsetMs)
{
    const QMutexLocker lock(&m_mutex);
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
