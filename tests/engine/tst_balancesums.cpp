// The kept balance sums (migration 18; docs/performance.md, "Totals from kept
// sums"): after every kind of write (a load, usage, an adjustment, a new
// balance, an import that starts and one that ends a plan, the clock's
// expiries), balances.totals read from the sums equal the totals of every
// row, for every filter and grouping the sums answer, and `workspace verify`
// finds the sums as the balances make them; balances.pages starts its pages
// where the listing's rows are (PostgreSQL from kept customer rows,
// migration 19). Runs on SQLite and PostgreSQL.
#include "services/api/WireCodec.h"
#include "services/engine/balances/BalanceCursor.h"
#include "services/engine/balances/BalanceCustomerRows.h"
#include "services/engine/balances/BalanceSums.h"
#include "services/engine/balances/BalanceTotaller.h"
#include "services/engine/ledger/LedgerVerifier.h"
#include "services/engine/sql/Sql.h"
#include "tests/engine/EngineFixture.h"
#include "tests/engine/ScopeRoutes.h"

using namespace md;
using namespace Qt::StringLiterals;

class TestBalanceSums final : public QObject
{
    Q_OBJECT

    std::unique_ptr<test::EngineFixture> m_fixture;
    engine::Scope m_scope;

    engine::ApiOperations api() { return engine::ApiOperations(*m_fixture->engine); }
    QSqlDatabase db() { return m_fixture->engine->database().connection().value(); }
    engine::Dialect dialect() { return m_fixture->engine->dialect(); }

    QStringList differences()
    {
        auto report = engine::LedgerVerifier::verify(db(), dialect());
        return report ? report.value().differences : QStringList{report.error().message};
    }

    template <typename T> T body(const QByteArray &json)
    {
        auto decoded = api::decodeBody<T>(json);
        if (!decoded)
            qFatal("bad body: %s", qPrintable(decoded.error().message));
        return decoded.value();
    }

    static QString describe(const api::Result<api::BalanceTotals> &totals)
    {
        if (!totals)
            return u"error "_s + totals.error().code;
        const auto line = [](const api::TotalsFigures &f) {
            return u"%1 rows, %2 customers, granted %3, remaining %4, used %5"_s.arg(
                QString::number(f.balances), QString::number(f.customers), f.granted.toString(),
                f.remaining.toString(), f.usage.toString());
        };
        QString text = u"total: "_s + line(totals.value().total);
        for (const api::TotalsGroup &group : totals.value().groups)
            text += u"\n  "_s + group.key.value_or(u"(none)"_s) + u": "_s + line(group.figures);
        return text;
    }

    // Every filter and grouping the sums answer: kept sums against every
    // row. Answers how many the sums answered (not left to a scan because
    // something was due).
    int compareEverything()
    {
        const QList<QList<api::BalanceStatus>> statuses{
            {api::BalanceStatus::Active},
            {api::BalanceStatus::Expired},
            {api::BalanceStatus::Active, api::BalanceStatus::Expired}};
        const QList<std::optional<QString>> features{std::nullopt, u"api_calls"_s, u"messages"_s,
                                                     u"ai_credits"_s, u"no_such_feature"_s};
        const QList<std::optional<std::optional<QString>>> plans{
            std::nullopt, std::optional<QString>(u"pro"_s), std::optional<QString>(u"old"_s),
            std::optional<QString>(), std::optional<QString>(u"no_such_plan"_s)};
        int answered = 0;
        for (const auto &status : statuses)
            for (const auto &feature : features)
                for (const auto &plan : plans)
                    for (const auto groupBy :
                         {api::TotalsGroupBy::Feature, api::TotalsGroupBy::Plan}) {
                        api::BalanceTotalsRequest request;
                        request.filter.statuses = status;
                        request.filter.featureId = feature;
                        request.filter.planId = plan;
                        request.groupBy = groupBy;
                        const qint64 now = m_fixture->engine->now(m_scope);
                        auto kept =
                            engine::BalanceSums::totals(db(), dialect(), m_scope, request, now);
                        auto rows = engine::BalanceTotaller::fromEveryRow(db(), dialect(), m_scope,
                                                                          request, now);
                        if (kept && !kept.value())
                            continue; // due: the public route scans
                        ++answered;
                        const api::Result<api::BalanceTotals> fromSums =
                            kept ? api::Result<api::BalanceTotals>(*kept.value())
                                 : api::Result<api::BalanceTotals>(kept.error());
                        const bool same =
                            fromSums.ok() == rows.ok() &&
                            (fromSums.ok() ? fromSums.value() == rows.value()
                                           : fromSums.error().code == rows.error().code);
                        if (!same)
                            qWarning("%s, %s, plan %s, by %d:\nkept %s\nrows %s",
                                     status.size() == 2                             ? "both"
                                     : status.first() == api::BalanceStatus::Active ? "active"
                                                                                    : "expired",
                                     qPrintable(feature.value_or(u"any"_s)),
                                     qPrintable(plan ? plan->value_or(u"null"_s) : u"any"_s),
                                     int(groupBy), qPrintable(describe(fromSums)),
                                     qPrintable(describe(rows)));
                        if (!same)
                            return -1;
                    }
        return answered;
    }

    // balances.pages against the listing itself, for each state and feature
    // in both directions: the count, and each page's cursor starting where
    // the listing's rows of that page start. Pages of 16 take the kept
    // paths (SQLite's hops, PostgreSQL's customer rows). Answers how many
    // combinations had more than one page.
    int comparePages()
    {
        int paged = 0;
        for (const auto status : {api::BalanceStatus::Active, api::BalanceStatus::Expired})
            for (const auto &feature :
                 {std::optional<QString>(), std::optional<QString>(u"messages"_s),
                  std::optional<QString>(u"api_calls"_s)})
                for (const bool descending : {false, true}) {
                    api::ListBalancesRequest filter;
                    filter.statuses = {status};
                    filter.featureId = feature;
                    filter.descending = descending;
                    QStringList listed;
                    api::ListBalancesRequest walk = filter;
                    walk.limit = api::ListBalancesRequest::MaxLimit;
                    for (;;) {
                        auto page = test::listBalances(*m_fixture->engine, m_scope, walk);
                        if (!page)
                            return -1;
                        for (const api::BalanceRow &row : page.value().list)
                            listed.append(row.id);
                        if (!page.value().hasMore)
                            break;
                        walk.startCursor = *page.value().nextCursor;
                    }
                    constexpr qint64 Size = 16;
                    auto pages =
                        test::balancePages(*m_fixture->engine, m_scope, {filter, Size}, {});
                    const auto where = [&] {
                        return u"%1, %2, %3: "_s.arg(
                            status == api::BalanceStatus::Active ? u"active"_s : u"expired"_s,
                            feature.value_or(u"any"_s), descending ? u"desc"_s : u"asc"_s);
                    };
                    if (!pages || pages.value().count != listed.size() ||
                        pages.value().cursors.size() != (listed.size() + Size - 1) / Size) {
                        qWarning("%s%lld rows in %lld pages, listed %lld", qPrintable(where()),
                                 pages ? pages.value().count : -1,
                                 pages ? qint64(pages.value().cursors.size()) : -1,
                                 qint64(listed.size()));
                        return -1;
                    }
                    for (qsizetype k = 1; k < pages.value().cursors.size(); ++k) {
                        api::ListBalancesRequest at = filter;
                        at.limit = Size;
                        at.startCursor = pages.value().cursors.at(k);
                        auto page = test::listBalances(*m_fixture->engine, m_scope, at);
                        if (!page || page.value().list.isEmpty() ||
                            page.value().list.first().id != listed.at(k * Size)) {
                            qWarning("%spage %lld starts elsewhere than row %lld (%s)",
                                     qPrintable(where()), qint64(k), qint64(k * Size),
                                     qPrintable(listed.at(k * Size)));
                            return -1;
                        }
                    }
                    paged += pages.value().cursors.size() > 1;
                }
        return paged;
    }

private Q_SLOTS:
    void init()
    {
        m_fixture = std::make_unique<test::EngineFixture>();
        MD_OPEN_FIXTURE(*m_fixture);
        QVERIFY(m_fixture->engine->loadWorkspace(test::smallWorkspace()).ok());
        auto key = m_fixture->engine->authenticate(u"sk_test_fixture0000000000000000000001"_s);
        QVERIFY(key.ok());
        m_scope = key.value().scope;
    }

    void keptSumsEqualEveryRowAfterEveryKindOfWrite()
    {
        const int all = 3 * 5 * 5 * 2;
        QCOMPARE(compareEverything(), all); // as loaded
        QVERIFY2(differences().isEmpty(), qPrintable(differences().join(u'\n')));

        // Usage on a plan row and a standalone one, in one batch.
        const auto used =
            api().usageBatch(test::everyScope(m_scope), body<api::UsageBatchRequest>(R"({"events":[
            {"kind":"feature","customer_id":"ann","feature_id":"api_calls","value":7.25},
            {"kind":"feature","customer_id":"bob","feature_id":"ai_credits","value":1.5}]})"));
        QVERIFY2(used.ok(), used.ok() ? "" : qPrintable(used.error().message));
        QCOMPARE(compareEverything(), all);

        // A new standalone balance that expires, and a new customer on a plan.
        QVERIFY(api()
                    .createBalance(test::everyScope(m_scope),
                                   body<api::BalanceCreation>(
                                       R"({"customer_id":"bob","feature_id":"messages",
                                           "amount":12.5,"expires_at":70000,"reason":"gift"})"))
                    .ok());
        QVERIFY(test::importCustomer(*m_fixture->engine, m_scope,
                                     body<api::ImportCustomerRequest>(R"({"customer_id":"cy",
            "processors":[{"type":"stripe","id":"cus_cy"}],
            "billables":[{"plan":{"plan_id":"pro","feature_quantities":[{"feature_id":"api_calls","quantity":10}],
            "balances":[{"feature_id":"api_calls","usage":4}]}}]})"))
                    .ok());
        QCOMPARE(compareEverything(), all);
        QVERIFY2(differences().isEmpty(), qPrintable(differences().join(u'\n')));

        // An import that leaves the plan out ends it: its rows expire.
        QVERIFY(test::importCustomer(*m_fixture->engine, m_scope,
                                     body<api::ImportCustomerRequest>(R"({"customer_id":"cy",
            "processors":[{"type":"stripe","id":"cus_cy"}],"billables":[]})"))
                    .ok());
        QCOMPARE(compareEverything(), all);

        // Past ann's expiring row (50,000) and bob's plan (40,000): until the
        // clock applies them, the sums leave the answer to a scan, and the
        // public route still answers as every row does.
        *m_fixture->now = 60000;
        api::BalanceTotalsRequest byFeature;
        const auto route = test::balanceTotals(*m_fixture->engine, m_scope, byFeature);
        QVERIFY(route.ok());
        const auto rows =
            engine::BalanceTotaller::fromEveryRow(db(), dialect(), m_scope, byFeature, 60000);
        QVERIFY(rows.ok());
        QCOMPARE(route.value(), rows.value());
        // Bob's own read applies his plan's end; then the sums answer again.
        api::ListBalancesRequest bobs;
        bobs.customerId = u"bob"_s;
        QVERIFY(test::listBalances(*m_fixture->engine, m_scope, bobs).ok());
        QCOMPARE(compareEverything(), all);
        QVERIFY2(differences().isEmpty(), qPrintable(differences().join(u'\n')));

        // Bob's gift expires too, by the clock.
        *m_fixture->now = 80000;
        QVERIFY(test::listBalances(*m_fixture->engine, m_scope, {}).ok());
        QCOMPARE(compareEverything(), all);
        QVERIFY2(differences().isEmpty(), qPrintable(differences().join(u'\n')));
    }

    // Customers holding more than a page of rows, of both states and two
    // features: page ends inside one customer's rows and across customers.
    void pageStartsAreTheListings()
    {
        QVERIFY(comparePages() >= 0); // as loaded
        for (int n = 0; n < 5; ++n) {
            const QString customer = u"p%1"_s.arg(n);
            QVERIFY(test::importCustomer(
                        *m_fixture->engine, m_scope,
                        body<api::ImportCustomerRequest>(
                            uR"({"customer_id":"%1","processors":[{"type":"stripe","id":"cus_%1"}],
                "billables":[{"plan":{"plan_id":"pro","feature_quantities":[{"feature_id":"api_calls","quantity":10}]}}]})"_s
                                .arg(customer)
                                .toUtf8()))
                        .ok());
            for (int i = 0; i < 3 + 4 * n; ++i)
                QVERIFY(api()
                            .createBalance(test::everyScope(m_scope),
                                           body<api::BalanceCreation>(
                                               uR"({"customer_id":"%1","feature_id":"messages",
                                "amount":%2,"expires_at":%3,"reason":"gift"})"_s.arg(customer)
                                                   .arg(i + 1)
                                                   .arg(i % 2 ? 70000 : 900000)
                                                   .toUtf8()))
                            .ok());
        }
        const int paged = comparePages();
        QVERIFY2(paged >= 4, qPrintable(QString::number(paged)));
        QVERIFY2(differences().isEmpty(), qPrintable(differences().join(u'\n')));
        // Half the gifts expire: their rows move to the other state.
        api::BalancePagesRequest before;
        before.pageSize = 16;
        const auto earlier = test::balancePages(*m_fixture->engine, m_scope, before);
        QVERIFY(earlier.ok() && earlier.value().cursors.size() > 2);
        *m_fixture->now = 80000;
        QVERIFY(test::listBalances(*m_fixture->engine, m_scope, {}).ok());
        // A page start counted before still starts a page: from where its
        // rows were, or past a customer that has fewer now.
        for (const QString &cursor : earlier.value().cursors) {
            api::ListBalancesRequest from;
            from.startCursor = cursor;
            const auto page = test::listBalances(*m_fixture->engine, m_scope, from);
            QVERIFY2(page.ok(), page.ok() ? "" : qPrintable(page.error().message));
        }
        QVERIFY2(comparePages() >= 4, "after the expiries");
        // A start past all of a customer's rows now starts at the next one.
        api::ListBalancesRequest every;
        every.limit = api::ListBalancesRequest::MaxLimit;
        const auto all = test::listBalances(*m_fixture->engine, m_scope, every);
        QVERIFY(all.ok());
        qsizetype after = -1;
        for (qsizetype i = 0; i < all.value().list.size(); ++i)
            if (all.value().list.at(i).customerId == u"p2"_s)
                after = i + 1;
        QVERIFY(after > 0 && after < all.value().list.size());
        auto customer = engine::runSql(db(), u"SELECT pk FROM customers WHERE id = 'p2'"_s);
        QVERIFY(customer.ok() && customer.value().next());
        const auto seal = engine::BalanceCursor::seal(db(), m_scope, every);
        QVERIFY(seal.ok());
        api::ListBalancesRequest past;
        past.startCursor =
            engine::BalanceCursor{customer.value().value(0).toLongLong(), 0, 1000}.encode(
                seal.value());
        const auto next = test::listBalances(*m_fixture->engine, m_scope, past);
        QVERIFY2(next.ok(), next.ok() ? "" : qPrintable(next.error().message));
        QCOMPARE(next.value().list.value(0).id, all.value().list.at(after).id);
        QVERIFY2(differences().isEmpty(), qPrintable(differences().join(u'\n')));
    }

    // A kept row that differs from the balances is named, and a rebuild
    // makes the sums again.
    void verifyNamesAKeptSumThatDiffers()
    {
        QVERIFY(engine::runSql(db(), u"UPDATE balance_sums SET balances = balances + 1 WHERE"
                                     " feature_pk = (SELECT min(feature_pk) FROM balance_sums)"_s)
                    .ok());
        QVERIFY(engine::runSql(db(), u"UPDATE balance_customers SET customers = customers + 1"
                                     " WHERE feature_pk = -1 AND plan_pk = -1 AND expired = -1"_s)
                    .ok());
        QVERIFY(engine::runSql(
                    db(), u"UPDATE balances SET expired = 1 - expired WHERE id = 'b_ann_seat'"_s)
                    .ok());
        const QStringList found = differences();
        QVERIFY2(found.filter(u"balance_sums of organization key"_s).size() >= 1,
                 qPrintable(found.join(u'\n')));
        QVERIFY2(found.filter(u"balance_customers of organization key"_s).size() >= 1,
                 qPrintable(found.join(u'\n')));
        QVERIFY2(
            found.contains(u"balance b_ann_seat is kept as expired, but its clock says active"_s),
            qPrintable(found.join(u'\n')));
        QVERIFY(engine::runSql(
                    db(), u"UPDATE balances SET expired = 1 - expired WHERE id = 'b_ann_seat'"_s)
                    .ok());
        QVERIFY(engine::BalanceSums::rebuild(db(), dialect()).ok());
        QVERIFY2(differences().isEmpty(), qPrintable(differences().join(u'\n')));
        if (!engine::BalanceCustomerRows::kept(dialect()))
            return;
        QVERIFY(engine::runSql(db(), u"UPDATE balance_customer_rows SET balances = balances + 1"
                                     " WHERE feature_pk = -1 AND expired = 0"_s)
                    .ok());
        QVERIFY2(differences().filter(u"balance_customer_rows of organization key"_s).size() >= 1,
                 qPrintable(differences().join(u'\n')));
        QVERIFY(engine::BalanceCustomerRows::rebuild(db()).ok());
        QVERIFY2(differences().isEmpty(), qPrintable(differences().join(u'\n')));
    }
};

QTEST_GUILESS_MAIN(TestBalanceSums)
#include "tst_balancesums.moc"
