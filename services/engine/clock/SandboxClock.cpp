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

api::Result<std::optional<qint64>> SandboxClock::moveTo(const QSqlDatabase &db, Dialect dialect,
                                                        const Scope &scope, qint64 toMs)
{
    const QVariantList key{scope.orgPk, scope.envWord()};
    // The row first, so that a racing advance waits for this one's commit
    // (PostgreSQL's row lock; SQLite's write transaction) before it reads.
    if (auto made = execute(db,
                            u"INSERT INTO clock_offsets (org_pk, env, offset_ms, updated_at)"
                            " VALUES (?, ?, 0, ?) ON CONFLICT (org_pk, env) DO NOTHING"_s,
                            key + QVariantList{m_real()});
        !made)
        return made.error();
    auto stored = queryRows(db,
                            u"SELECT offset_ms FROM clock_offsets WHERE org_pk = ? AND env = ?"_s +
                                (dialect == Dialect::Postgres ? u" FOR UPDATE"_s : QString()),
                            key);
    if (!stored)
        return stored.error();
    // Read after the lock: the now the other advance left is compared with
    // the time this one would set, both at this moment.
    const qint64 offset = toMs - m_real();
    if (stored.value().isEmpty() || stored.value().first().first().toLongLong() >= offset)
        return std::optional<qint64>();
    if (auto moved = execute(db,
                             u"UPDATE clock_offsets SET offset_ms = ?, updated_at = ?"
                             " WHERE org_pk = ? AND env = ?"_s,
                             QVariantList{offset, m_real()} + key);
        !moved)
        return moved.error();
    return std::optional(offset);
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
