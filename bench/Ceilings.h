// The ceilings the write benchmarks measure themselves against in the same
// run (docs/performance.md): raw transactions on the engine's own tables and
// connection, and the server's own CPU per call read from /proc.
#pragma once

#include "bench/BenchSupport.h"
#include "bench/ProcessCpu.h"
#include "services/engine/Engine.h"
#include "services/engine/sql/Sql.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QSqlError>
#include <QSqlQuery>
#include <QTextStream>

namespace md::bench {

using namespace Qt::StringLiterals;

// The raw transaction ceiling: what one call cannot do without, one
// balance UPDATE (rewriting the row as it is) and one usage-event INSERT
// committed per transaction, on the engine's tables and connection, from one
// thread (writers queue on the database's write lock anyway).
struct RawFigures
{
    double perSecond = 0;
    double cpuMicros = 0; // per transaction: this process's CPU and PostgreSQL's backends'
};

inline RawFigures rawTransactions(const QString &location, int transactions)
{
    engine::Engine engine(location);
    if (auto opened = engine.open(); !opened)
        fail(opened.error().message);
    auto connection = engine.database().connection();
    if (!connection)
        fail(connection.error().message);
    QSqlDatabase db = connection.value();
    auto row = engine::queryRows(
        db, u"SELECT id, org_pk, env, customer_pk, feature_pk FROM balances LIMIT 1"_s, {});
    auto first = engine::queryRows(db, u"SELECT COALESCE(MAX(pk), 0) FROM usage_events"_s, {});
    if (!row || row.value().isEmpty() || !first)
        fail(u"no balance to measure the ceiling on"_s);
    const QVariantList balance = row.value().first();
    QSqlQuery update(db);
    QSqlQuery insert(db);
    update.prepare(u"UPDATE balances SET remaining = remaining, usage = usage WHERE id = ?"_s);
    insert.prepare(u"INSERT INTO usage_events (pk, org_pk, env, customer_pk, feature_pk,"
                   " model_id, tokens, value, properties, timestamp, created_at)"
                   " VALUES (?, ?, ?, ?, ?, 'bench/ceiling', '{}', '0', '{}', 0, 0)"_s);
    qint64 pk = first.value().first().first().toLongLong() + 1000000000;
    const QString database =
        engine::Database::isPostgresUrl(location) ? QUrl(location).path().mid(1) : QString();
    const auto cpuNow = [&] {
        return bench::cpuSeconds(QCoreApplication::applicationPid()) +
               (database.isEmpty() ? 0 : bench::databaseCpuSeconds(database));
    };
    const double cpuBefore = cpuNow();
    QElapsedTimer timer;
    timer.start();
    for (int i = 0; i < transactions; ++i) {
        update.bindValue(0, balance.at(0));
        for (int b = 1; b < 5; ++b)
            insert.bindValue(b, balance.at(b));
        insert.bindValue(0, ++pk);
        if (!db.transaction() || !update.exec() || !insert.exec() || !db.commit())
            fail(u"ceiling transaction: "_s + db.lastError().text());
    }
    const RawFigures figures{transactions / (double(timer.nsecsElapsed()) / 1e9),
                             (cpuNow() - cpuBefore) / transactions * 1e6};
    if (auto removed =
            engine::runSql(db, u"DELETE FROM usage_events WHERE model_id = 'bench/ceiling'"_s);
        !removed)
        fail(removed.error().message);
    return figures;
}

// The server's own CPU per call over one measurement, from /proc, and on
// PostgreSQL its backends': the clients share the two cores and are not counted.
class CpuWatch
{
public:
    CpuWatch(qint64 serverPid, const QString &database)
        : m_pid(serverPid)
        , m_database(database)
        , m_server(bench::cpuSeconds(serverPid))
        , m_backends(database.isEmpty() ? 0 : bench::databaseCpuSeconds(database))
    {}
    double serverMicros(qint64 calls) const
    {
        return (bench::cpuSeconds(m_pid) - m_server) / double(calls) * 1e6;
    }
    void print(QTextStream &out, qint64 calls) const
    {
        out << "  server CPU " << qRound(serverMicros(calls)) << " µs/call";
        if (!m_database.isEmpty())
            out << ", PostgreSQL's backends "
                << qRound((bench::databaseCpuSeconds(m_database) - m_backends) / double(calls) *
                          1e6)
                << " µs/call";
        out << "\n";
        out.flush();
    }

    // Issue 40's goal that shared cores cannot hide: the server's CPU per
    // call against a no-op call's plus one raw transaction's, as a ratio.
    void printAgainst(QTextStream &out, qint64 calls, double noopMicros, double rawMicros) const
    {
        const double call = serverMicros(calls);
        out << QStringLiteral("  server CPU per sync call %1 µs vs no-op %2 + raw transaction %3 = "
                              "%4 µs: ratio %5 (goal <= 1.5)\n")
                   .arg(qRound(call))
                   .arg(qRound(noopMicros))
                   .arg(qRound(rawMicros))
                   .arg(qRound(noopMicros + rawMicros))
                   .arg(call / (noopMicros + rawMicros), 0, 'f', 2);
        out.flush();
    }

private:
    qint64 m_pid;
    QString m_database;
    double m_server;
    double m_backends;
};

} // namespace md::bench
