#include "tests/trust/LedgerAudit.h"

#include "services/api/Decimal.h"
#include "services/engine/ledger/LedgerVerifier.h"
#include "services/engine/sql/Database.h"
#include "services/engine/sql/Sql.h"

#include <QHash>

namespace md::test {

using namespace Qt::StringLiterals;
using api::Decimal;

namespace {

QList<QVariantList> rows(const QSqlDatabase &db, const QString &sql, const QVariantList &args = {})
{
    auto result = engine::queryRows(db, sql, args);
    if (!result)
        qFatal("audit query failed: %s", qPrintable(result.error().message));
    return result.value();
}

Decimal dec(const QVariant &value)
{
    const auto parsed = Decimal::parse(value.toString());
    if (!parsed)
        qFatal("not an exact decimal in the database: %s", qPrintable(value.toString()));
    return *parsed;
}

} // namespace

QStringList LedgerAudit::integrity() const
{
    QStringList problems;
    if (m_db.driverName() == "QSQLITE"_L1) {
        for (const QVariantList &row : rows(m_db, u"PRAGMA integrity_check"_s))
            if (row.first().toString() != "ok"_L1)
                problems << u"integrity_check: "_s + row.first().toString();
        for (const QVariantList &row : rows(m_db, u"PRAGMA foreign_key_check"_s))
            problems << u"foreign_key_check: %1 row %2"_s.arg(row.at(0).toString(),
                                                              row.at(1).toString());
        return problems;
    }
    // PostgreSQL enforces its foreign keys itself; check the two the engine
    // relies on most, in case one was ever created NOT VALID.
    for (const QVariantList &row :
         rows(m_db, u"SELECT count(*) FROM balances b LEFT JOIN customers c"
                    " ON c.pk = b.customer_pk WHERE c.pk IS NULL"_s))
        if (row.first().toLongLong() != 0)
            problems << u"balances without a customer"_s;
    return problems;
}

QStringList LedgerAudit::trialBalance() const
{
    const engine::Dialect dialect =
        m_db.driverName() == "QSQLITE"_L1 ? engine::Dialect::Sqlite : engine::Dialect::Postgres;
    auto report = engine::LedgerVerifier::verify(m_db, dialect);
    if (!report)
        return {u"workspace verify failed: "_s + report.error().message};
    if (report.value().entries < report.value().balances)
        return {u"fewer ledger entries than balances"_s};
    return report.value().differences;
}

QStringList LedgerAudit::balancesMatchEvents(const QStringList &tracked) const
{
    QStringList problems;
    QHash<QString, Decimal> usage;
    for (const QVariantList &row :
         rows(m_db, u"SELECT b.id, c.id, f.id, b.included_grant, b.prepaid_grant, b.remaining,"
                    " b.usage FROM balances b JOIN customers c ON c.pk = b.customer_pk"
                    " JOIN features f ON f.pk = b.feature_pk"_s)) {
        const Decimal granted = dec(row.at(3)).plus(dec(row.at(4))).value();
        if (granted.minus(dec(row.at(5))).value() != dec(row.at(6)))
            problems << u"balance %1: granted %2, remaining %3, usage %4"_s.arg(
                row.at(0).toString(), granted.toString(), row.at(5).toString(),
                row.at(6).toString());
        if (row.at(2).toString() == "credits"_L1)
            usage[row.at(1).toString()] =
                usage.value(row.at(1).toString()).plus(dec(row.at(6))).value();
    }
    QHash<QString, Decimal> events;
    for (const QVariantList &row :
         rows(m_db, u"SELECT c.id, e.value FROM usage_events e JOIN customers c"
                    " ON c.pk = e.customer_pk JOIN features f ON f.pk = e.feature_pk"
                    " WHERE f.id = 'credits'"_s))
        events[row.at(0).toString()] =
            events.value(row.at(0).toString()).plus(dec(row.at(1))).value();
    for (const QString &customer : tracked)
        if (usage.value(customer) != events.value(customer))
            problems << u"customer %1: usage %2, usage events %3"_s.arg(
                customer, usage.value(customer).toString(), events.value(customer).toString());
    return problems;
}

QStringList LedgerAudit::importWhole(const QString &customer, bool mustExist) const
{
    const auto found = rows(m_db, u"SELECT pk FROM customers WHERE id = ?"_s, {customer});
    if (found.isEmpty())
        return mustExist ? QStringList{customer + u": acknowledged but absent"_s} : QStringList();
    const QVariant pk = found.first().first();
    QStringList problems;
    const auto count = [&](const QString &sql) {
        return rows(m_db, sql, {pk}).first().first().toLongLong();
    };
    if (count(u"SELECT count(*) FROM customer_products cp JOIN products p ON p.pk = cp.product_pk"
              " WHERE cp.customer_pk = ? AND p.id = 'team'"_s) != 1)
        problems << customer + u": not exactly one team subscription"_s;
    if (count(u"SELECT count(*) FROM customer_processors WHERE customer_pk = ?"_s) != 1)
        problems << customer + u": processor missing"_s;
    const auto plain = rows(m_db,
                            u"SELECT b.included_grant, b.usage FROM balances b JOIN features f"
                            " ON f.pk = b.feature_pk WHERE b.customer_pk = ? AND f.id = 'plain'"_s,
                            {pk});
    if (plain.size() != 1 || dec(plain.first().at(0)) != Decimal::fromInteger(10) ||
        dec(plain.first().at(1)) != Decimal::fromInteger(4))
        problems << customer + u": the plain balance is not 4 used of 10"_s;
    return problems;
}

LedgerAudit::TrackKeys LedgerAudit::trackKeys() const
{
    TrackKeys keys;
    for (const QVariantList &row : rows(
             m_db, u"SELECT idempotency_key FROM usage_events WHERE idempotency_key IS NOT NULL"_s))
        keys.applied.insert(row.first().toString());
    for (const QVariantList &row :
         rows(m_db, u"SELECT idempotency_key, failed_at FROM track_queue"_s)) {
        if (!row.at(1).isNull())
            ++keys.failed;
        else
            keys.queued.insert(row.at(0).toString());
    }
    return keys;
}

bool LedgerAudit::sessionsEnded(const QString &location)
{
    if (!engine::Database::isPostgresUrl(location))
        return true;
    engine::Database database(location);
    auto db = database.connection();
    return db && rows(db.value(),
                      u"SELECT count(*) FROM pg_stat_activity WHERE datname = current_database()"
                      " AND pid <> pg_backend_pid()"_s)
                         .first()
                         .first()
                         .toLongLong() == 0;
}

qsizetype LedgerAudit::queuedCalls(const QString &location)
{
    engine::Database database(location);
    auto db = database.connection();
    return db ? LedgerAudit(db.value()).trackKeys().queued.size() : -1;
}

QStringList LedgerAudit::statements(const QString &customers, std::optional<qint64> now) const
{
    QStringList problems;
    QHash<qint64, std::pair<qint64, qint64>> open; // customer: [from, due)
    QSqlQuery opened(m_db);
    opened.prepare(u"SELECT pk, statement_from, statement_due_at FROM customers"
                   " WHERE id LIKE ? AND statement_due_at IS NOT NULL"_s);
    opened.addBindValue(customers);
    opened.exec();
    while (opened.next())
        open.insert(opened.value(0).toLongLong(),
                    {opened.value(1).toLongLong(), opened.value(2).toLongLong()});
    QHash<qint64, qint64> reached; // customer: the end of its last statement
    QSqlQuery closed(m_db);
    closed.exec(u"SELECT customer_pk, period_start, period_end FROM statements"
                " ORDER BY customer_pk, period_start"_s);
    while (closed.next()) {
        const qint64 customer = closed.value(0).toLongLong();
        const qint64 start = closed.value(1).toLongLong();
        const auto last = reached.constFind(customer);
        if (last != reached.cend() && *last != start)
            problems << u"customer %1: a statement starts at %2, the last ended at %3"_s
                            .arg(customer)
                            .arg(start)
                            .arg(*last);
        reached.insert(customer, closed.value(2).toLongLong());
    }
    for (auto it = open.cbegin(); it != open.cend(); ++it) {
        const auto last = reached.constFind(it.key());
        if (last != reached.cend() && *last != it->first)
            problems << u"customer %1's open period starts at %2, its last statement ended at %3"_s
                            .arg(it.key())
                            .arg(it->first)
                            .arg(*last);
        if (now && !(it->first <= *now && *now < it->second))
            problems << u"customer %1's open period [%2, %3) does not hold the now %4"_s
                            .arg(it.key())
                            .arg(it->first)
                            .arg(it->second)
                            .arg(*now);
    }
    return problems;
}

} // namespace md::test
