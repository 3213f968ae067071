#include "services/engine/statements/OpenRevenue.h"

#include "services/engine/customers/OpenCharges.h"
#include "services/engine/sql/Sql.h"

namespace md::engine {

using namespace Qt::StringLiterals;

api::Result<OpenFigures> OpenFigures::of(const QSqlDatabase &db, Dialect dialect,
                                         const Scope &scope, qint64 nowMs)
{
    auto money = OpenCharges::moneyOf(db, scope.orgPk);
    if (!money)
        return money.error();
    OpenFigures figures;
    figures.asOf = nowMs;
    figures.currency = money.value().code();
    figures.keys.append(QString());
    QHash<QString, qint32> keyIndex;
    const auto indexOf = [&](const std::optional<QString> &id) {
        if (!id || id->isEmpty())
            return qint32(0);
        auto found = keyIndex.constFind(*id);
        if (found == keyIndex.cend()) {
            found = keyIndex.insert(*id, qint32(figures.keys.size()));
            figures.keys.append(*id);
        }
        return *found;
    };
    // The open periods in one read of the scope's customers (paging them by
    // key walked the scope's index once a page: 7 s at 200,000), then their
    // lines a thousand customers at a time.
    auto open = runPrepared(db,
                            u"SELECT pk, statement_from, statement_due_at FROM customers"
                            " WHERE org_pk = ? AND env = ? AND statement_due_at > ?"_s,
                            {scope.orgPk, scope.envWord(), nowMs});
    if (!open)
        return open.error();
    QList<OpenPeriod> all;
    for (QSqlQuery &q = *open.value(); q.next();)
        all.append({q.value(0).toLongLong(), q.value(1).toLongLong(), q.value(2).toLongLong()});
    open.value()->finish();
    constexpr qsizetype Batch = 1000;
    figures.periods.reserve(std::size_t(all.size()));
    for (qsizetype first = 0; first < all.size(); first += Batch) {
        const QList<OpenPeriod> periods = all.mid(first, Batch);
        auto lines = OpenCharges::lines(db, dialect, periods, nowMs, money.value());
        if (!lines)
            return lines.error();
        for (const OpenPeriod &period : periods) {
            Period kept{period.customerPk, period.start, period.end, quint32(figures.lines.size()),
                        0};
            for (const api::ChargeLine &line : lines.value().value(period.customerPk)) {
                auto minor = money.value().minorOf(line.amount);
                if (!minor)
                    return minor.error();
                if (minor.value() == 0)
                    continue;
                figures.lines.push_back(
                    {indexOf(line.planId), indexOf(line.featureId), line.kind, minor.value()});
                ++kept.count;
            }
            figures.periods.push_back(kept);
        }
    }
    return figures;
}

OpenRevenue::OpenRevenue(Database &database, Now now)
    : m_database(database)
    , m_now(std::move(now))
{
    m_pool.setMaxThreadCount(1);
    m_pool.setExpiryTimeout(-1); // the thread keeps its connection
}

OpenRevenue::~OpenRevenue()
{
    settle();
}

void OpenRevenue::settle()
{
    m_pool.waitForDone();
}

api::Result<std::shared_ptr<const OpenFigures>>
OpenRevenue::figures(const QSqlDatabase &db, const Scope &scope, qint64 nowMs, qint64 maxAgeMs)
{
    const QPair<qint64, int> key(scope.orgPk, int(scope.env));
    const auto young = [&](const Kept &kept) {
        return kept.figures && kept.figures->asOf <= nowMs &&
               nowMs - kept.figures->asOf <= maxAgeMs;
    };
    std::shared_ptr<QMutex> working;
    if (maxAgeMs > 0) {
        const QMutexLocker lock(&m_mutex);
        Kept &kept = m_kept[key];
        if (young(kept)) {
            if (2 * (nowMs - kept.figures->asOf) > maxAgeMs && !kept.refreshing) {
                kept.refreshing = true;
                m_pool.start([this, scope] { refresh(scope); });
            }
            return kept.figures;
        }
        working = kept.working;
    }
    std::unique_ptr<QMutexLocker<QMutex>> one;
    if (working) {
        one = std::make_unique<QMutexLocker<QMutex>>(working.get());
        const QMutexLocker lock(&m_mutex);
        if (const Kept &kept = m_kept[key]; young(kept))
            return kept.figures;
    }
    auto worked = OpenFigures::of(db, m_database.dialect(), scope, nowMs);
    if (!worked)
        return worked.error();
    auto figures = std::make_shared<const OpenFigures>(std::move(worked).value());
    keep(scope, figures);
    return figures;
}

void OpenRevenue::keep(const Scope &scope, std::shared_ptr<const OpenFigures> figures)
{
    const QMutexLocker lock(&m_mutex);
    Kept &kept = m_kept[QPair<qint64, int>(scope.orgPk, int(scope.env))];
    if (!kept.figures || kept.figures->asOf <= figures->asOf)
        kept.figures = std::move(figures);
}

void OpenRevenue::refresh(const Scope &scope)
{
    auto db = m_database.connection();
    if (db) {
        auto worked = OpenFigures::of(db.value(), m_database.dialect(), scope, m_now(scope));
        // A failed refresh leaves the figures kept; the next request past
        // their age works them out itself and says why it could not.
        if (worked)
            keep(scope, std::make_shared<const OpenFigures>(std::move(worked).value()));
    }
    const QMutexLocker lock(&m_mutex);
    m_kept[QPair<qint64, int>(scope.orgPk, int(scope.env))].refreshing = false;
}

} // namespace md::engine
