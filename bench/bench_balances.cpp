// balances.list figures on a generated workspace (default 10,000 customers x
// 100 balance rows): load time, and the median time of a 200-row page (first,
// 2,500 pages deep, by feature, by customer) beside the raw SQL keyset query
// on the same database; then balances.totals of every active row by feature,
// plan and customer beside the database's own (inexact) SUM; and
// usage_events.totals per day over the last day, week and month of events
// beside the database's own grouped SUM of the same events. Prints figures;
// asserts nothing.
#include "services/engine/Engine.h"
#include "services/engine/balances/BalanceCursor.h"
#include "services/engine/sql/Sql.h"
#include "services/engine/workspace/DemoWorkspace.h"
#include "tests/engine/ScopeRoutes.h"

#include <QCommandLineParser>
#include <QCoreApplication>
#include <QDateTime>
#include <QElapsedTimer>
#include <QFile>
#include <QTextStream>

#include <algorithm>

using namespace md;
using namespace Qt::StringLiterals;

namespace {

QTextStream out(stdout);

template <typename F> double medianMs(int runs, F &&run)
{
    QList<qint64> samples;
    for (int i = 0; i < runs; ++i) {
        QElapsedTimer timer;
        timer.start();
        run();
        samples.append(timer.nsecsElapsed());
    }
    std::sort(samples.begin(), samples.end());
    return double(samples.at(samples.size() / 2)) / 1e6;
}

[[noreturn]] void die(const QString &what, const api::ApiError &error)
{
    QTextStream(stderr) << what << ": " << error.message << Qt::endl;
    std::exit(1);
}

} // namespace

int main(int argc, char *argv[])
{
    QCoreApplication app(argc, argv);
    QCommandLineParser parser;
    parser.addHelpOption();
    const QCommandLineOption database(
        u"database"_s, u"SQLite path or postgresql:// URL (emptied first)."_s, u"D"_s);
    const QCommandLineOption customers(u"customers"_s, u"Customers."_s, u"N"_s, u"10000"_s);
    const QCommandLineOption perCustomer(u"balances-per-customer"_s,
                                         u"Balance rows per customer."_s, u"N"_s, u"100"_s);
    const QCommandLineOption runs(u"runs"_s, u"Samples per figure."_s, u"N"_s, u"51"_s);
    parser.addOptions({database, customers, perCustomer, runs});
    parser.process(app);
    const QString location = parser.value(database);
    const int runCount = parser.value(runs).toInt();

    engine::Engine engine(location);
    if (auto opened = engine.open(); !opened)
        die(u"open"_s, opened.error());
    if (!engine.isEmpty().value())
        die(u"database"_s, api::ApiError::invalidRequest(u"give an empty database"_s));

    engine::DemoOptions options;

    options.statementMonths = 0; // nothing for the sweep to close meanwhile
    options.customers = parser.value(customers).toInt();
    options.liveCustomers = 0;
    options.balancesPerCustomer = parser.value(perCustomer).toInt();
    options.nowMs = QDateTime::currentMSecsSinceEpoch();
    QElapsedTimer timer;
    timer.start();
    const api::JsonValue workspace = engine::DemoWorkspace::build(options);
    const qint64 generateMs = timer.restart();
    auto loaded = engine.loadWorkspace(workspace);
    if (!loaded)
        die(u"load"_s, loaded.error());
    const qint64 loadMs = timer.restart();
    const bool postgres = engine.database().dialect() == engine::Dialect::Postgres;
    auto db = engine.database().connection().value();
    (void)engine::runSql(db, u"ANALYZE"_s);

    out << "backend: " << (postgres ? "PostgreSQL" : "SQLite") << "\n"
        << "workspace: " << loaded.value().customers << " customers, " << loaded.value().balances
        << " balance rows\n"
        << "generate: " << generateMs << " ms, load: " << loadMs << " ms ("
        << qint64(loaded.value().balances * 1000.0 / std::max<qint64>(1, loadMs)) << " rows/s)\n";

    const engine::Scope scope{engine.organizations().value().first().pk,
                              engine::Environment::Sandbox};
    const auto list = [&](const api::ListBalancesRequest &request) {
        auto page = test::listBalances(engine, scope, request);
        if (!page)
            die(u"list"_s, page.error());
        return page.value();
    };

    api::ListBalancesRequest first;
    first.limit = 200;
    // Walk to page 2,500 (500,000 rows deep) to get its cursor.
    api::ListBalancesRequest deep = first;
    for (int page = 1; page < 2500; ++page) {
        const auto response = list(deep);
        if (!response.hasMore)
            break;
        deep.startCursor = *response.nextCursor;
    }
    const auto deepCursor =
        engine::BalanceCursor::decode(engine::BalanceCursor::seal(db, scope, deep).value(),
                                      deep.startCursor)
            .value_or(engine::BalanceCursor{});
    api::ListBalancesRequest byFeature = first;
    byFeature.featureId = u"ai_credits"_s;
    api::ListBalancesRequest byCustomer = first;
    auto middle = engine::runSql(db, u"SELECT id, pk FROM customers ORDER BY pk LIMIT 1 OFFSET ?"_s,
                                 {qint64(options.customers / 2)});
    middle.value().next();
    byCustomer.customerId = middle.value().value(0).toString();
    const qint64 middlePk = middle.value().value(1).toLongLong();
    auto feature = engine::runSql(
        db, u"SELECT pk FROM features WHERE org_pk = ? AND env = 'test' AND id = 'ai_credits'"_s,
        {scope.orgPk});
    feature.value().next();
    const qint64 featurePk = feature.value().value(0).toLongLong();

    // The raw keyset query: the index walk alone, no joins, no status, no decoding;
    // prepared once, like the listing's own statement.
    const QString columns =
        u"pk, id, customer_pk, feature_pk, included_grant, prepaid_grant, remaining, usage,"
        " unlimited, reset_interval, resets_at, price, expires_at, created_at"_s;
    const auto raw = [&](const QString &where, const QVariantList &binds) {
        QVariantList all{scope.orgPk, u"test"_s};
        all.append(binds);
        all.append(200);
        const QString sql = u"SELECT "_s + columns +
                            u" FROM balances WHERE org_pk = ? AND env = ?"_s + where +
                            u" ORDER BY customer_pk, pk LIMIT ?"_s;
        return [&db, sql, all] {
            auto query = engine::runPrepared(db, sql, all);
            int rows = 0;
            while (query.value()->next())
                ++rows;
            query.value()->finish();
            return rows;
        };
    };

    struct Figure
    {
        const char *name;
        api::ListBalancesRequest request;
        std::function<int()> rawQuery;
    };
    const QList<Figure> figures{
        {"first page", first, raw({}, {})},
        {"page 2,500", deep,
         raw(u" AND (customer_pk, pk) > (?, ?)"_s, {deepCursor.key, deepCursor.balancePk})},
        {"by feature", byFeature, raw(u" AND feature_pk = ?"_s, {featurePk})},
        {"by customer", byCustomer, raw(u" AND customer_pk = ?"_s, {middlePk})},
    };
    out << "\npage of 200 rows, median of " << runCount << " runs:\n";
    out << QStringLiteral("%1 %2 %3 %4\n")
               .arg(u"query"_s, -14)
               .arg(u"list (ms)"_s, 10)
               .arg(u"raw SQL (ms)"_s, 13)
               .arg(u"ratio"_s, 7);
    for (const Figure &figure : figures) {
        int rows = 0;
        const double ours =
            medianMs(runCount, [&] { rows = int(list(figure.request).list.size()); });
        const double baseline = medianMs(runCount, figure.rawQuery);
        out << QStringLiteral("%1 %2 %3 %4   (%5 rows)\n")
                   .arg(QString::fromLatin1(figure.name), -14)
                   .arg(ours, 10, 'f', 3)
                   .arg(baseline, 13, 'f', 3)
                   .arg(ours / baseline, 7, 'f', 2)
                   .arg(rows);
    }

    // balances.totals on every active row, beside the database's own SUM
    // over the same rows and join (through doubles, so not an answer we
    // could give: the ceiling for what exactness costs).
    out << "\nbalances.totals of the default filter (every active row), median of 5 runs:\n";
    out << QStringLiteral("%1 %2 %3 %4\n")
               .arg(u"group by"_s, -14)
               .arg(u"totals (ms)"_s, 12)
               .arg(u"native SUM (ms)"_s, 16)
               .arg(u"ratio"_s, 7);
    const QString native =
        u"SELECT %1, COUNT(*), COUNT(DISTINCT b.customer_pk), SUM(CAST(b.included_grant AS REAL)),"
        " SUM(CAST(b.prepaid_grant AS REAL)), SUM(CAST(b.remaining AS REAL)),"
        " SUM(CAST(b.usage AS REAL)) FROM balances b"
        " LEFT JOIN customer_products cp ON cp.pk = b.customer_product_pk"
        " WHERE b.org_pk = ? AND b.env = 'test' AND NOT (CASE WHEN b.customer_product_pk IS NULL"
        " THEN (b.expires_at IS NOT NULL AND b.expires_at <= ?) ELSE (cp.status = 'expired'"
        " OR (cp.expires_at IS NOT NULL AND cp.expires_at <= ?)) END) GROUP BY %1"_s;
    const std::pair<api::TotalsGroupBy, QString> groupings[] = {
        {api::TotalsGroupBy::Feature, u"b.feature_pk"_s},
        {api::TotalsGroupBy::Plan, u"cp.product_pk"_s},
        {api::TotalsGroupBy::Customer, u"b.customer_pk"_s},
    };
    for (const auto &[by, column] : groupings) {
        api::BalanceTotalsRequest request;
        request.groupBy = by;
        qint64 rows = 0;
        const double ours = medianMs(5, [&] {
            auto totals = test::balanceTotals(engine, scope, request);
            if (!totals)
                die(u"totals"_s, totals.error());
            rows = totals.value().total.balances;
        });
        const qint64 now = QDateTime::currentMSecsSinceEpoch();
        const double baseline = medianMs(5, [&] {
            auto query = engine::runSql(db, native.arg(column), {scope.orgPk, now, now});
            while (query.value().next()) {
            }
        });
        out << QStringLiteral("%1 %2 %3 %4   (%5 rows)\n")
                   .arg(QString(api::toWire(by)), -14)
                   .arg(ours, 12, 'f', 1)
                   .arg(baseline, 16, 'f', 1)
                   .arg(ours / baseline, 7, 'f', 2)
                   .arg(rows);
    }

    // balances.pages on every active row (the windowed table's count and
    // page starts), beside the database counting the same rows with the
    // same join: the least a count of the filter costs.
    {
        const qint64 now = QDateTime::currentMSecsSinceEpoch();
        qint64 count = 0;
        qsizetype pages = 0;
        const double ours = medianMs(5, [&] {
            auto answer = test::balancePages(engine, scope, {});
            if (!answer)
                die(u"pages"_s, answer.error());
            count = answer.value().count;
            pages = answer.value().cursors.size();
        });
        const double baseline = medianMs(5, [&] {
            auto query = engine::runSql(
                db,
                u"SELECT COUNT(*) FROM balances b"
                " LEFT JOIN customer_products cp ON cp.pk = b.customer_product_pk"
                " WHERE b.org_pk = ? AND b.env = 'test' AND NOT (CASE WHEN"
                " b.customer_product_pk IS NULL THEN (b.expires_at IS NOT NULL AND b.expires_at"
                " <= ?) ELSE (cp.status = 'expired' OR (cp.expires_at IS NOT NULL AND"
                " cp.expires_at <= ?)) END)"_s,
                {scope.orgPk, now, now});
            while (query.value().next()) {
            }
        });
        out << "\nbalances.pages of the default filter, median of 5 runs:\n"
            << QStringLiteral("%1 %2 %3   (%4 rows, %5 pages)\n")
                   .arg(u"pages (ms)"_s)
                   .arg(ours, 10, 'f', 1)
                   .arg(u"native COUNT %1 ms, ratio %2"_s.arg(baseline, 0, 'f', 1)
                            .arg(ours / baseline, 0, 'f', 2))
                   .arg(count)
                   .arg(pages);
    }

    // usage_events.totals (the Usage chart) over the newest day, week and
    // month of events, beside the database's own grouped SUM of the same
    // events through the same index (inexact: the ceiling for exactness).
    // The time per 1,000 events staying put as the range grows is what
    // "flat" means here: the work follows the events charted, not the table.
    out << "\nusage_events.totals per day, median of 5 runs:\n"
        << QStringLiteral("%1 %2 %3 %4 %5 %6\n")
               .arg(u"range, group by"_s, -22)
               .arg(u"events"_s, 9)
               .arg(u"totals (ms)"_s, 12)
               .arg(u"native SUM (ms)"_s, 16)
               .arg(u"ratio"_s, 7)
               .arg(u"ms per 1,000"_s, 13);
    auto newest = engine::runSql(
        db, u"SELECT max(timestamp) FROM usage_events WHERE org_pk = ? AND env = 'test'"_s,
        {scope.orgPk});
    newest.value().next();
    const qint64 end = newest.value().value(0).toLongLong() + 1;
    constexpr qint64 Day = 24 * 60 * 60 * 1000;
    for (const auto &[label, days] :
         {std::pair{"last day", 1}, {"last 7 days", 7}, {"last 30 days", 30}}) {
        for (const auto &[by, column] :
             {std::pair{api::UsageGroupBy::Feature, u"feature_pk"_s},
              std::pair{api::UsageGroupBy::Customer, u"customer_pk"_s}}) {
            api::UsageTotalsRequest request;
            request.from = end - days * Day;
            request.groupBy = by;
            qint64 events = 0;
            const double ours = medianMs(5, [&] {
                auto totals = test::usageTotals(engine, scope, request);
                if (!totals)
                    die(u"usage totals"_s, totals.error());
                events = totals.value().total.events;
            });
            const double baseline = medianMs(5, [&] {
                auto query = engine::runSql(
                    db,
                    u"SELECT timestamp / %1, %2, count(*), sum(CAST(value AS %3)) FROM usage_events"
                    " WHERE org_pk = ? AND env = 'test' AND timestamp >= ? GROUP BY 1, 2"_s.arg(Day)
                        .arg(column, postgres ? u"DOUBLE PRECISION"_s : u"REAL"_s),
                    {scope.orgPk, *request.from});
                while (query.value().next()) {
                }
            });
            out << QStringLiteral("%1 %2 %3 %4 %5 %6\n")
                       .arg(u"%1, %2"_s.arg(QString::fromLatin1(label), api::toWire(by)), -22)
                       .arg(events, 9)
                       .arg(ours, 12, 'f', 1)
                       .arg(baseline, 16, 'f', 1)
                       .arg(ours / baseline, 7, 'f', 2)
                       .arg(ours * 1000 / double(std::max<qint64>(1, events)), 13, 'f', 3);
        }
    }
    out.flush();
    return 0;
}
