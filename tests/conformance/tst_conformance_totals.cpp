// Conformance, balances.totals: every filter and grouping adds up to what
// walking balances.list with the same filter gives, errors name what to fix.
// Runs three ways: tests/conformance/CMakeLists.txt.
#include "tests/conformance/ConformanceSuite.h"

#include <QSet>

using namespace md;
using namespace md::test::conformance;
using api::BalanceTotalsRequest;
using api::TotalsGroupBy;

namespace {

// "2100-01": the UTC month of the row's next reset, null when it has none.
std::optional<QString> resetMonth(const api::BalanceRow &row)
{
    if (!row.reset || !row.reset->resetsAt)
        return std::nullopt;
    return QDateTime::fromMSecsSinceEpoch(*row.reset->resetsAt, Qt::UTC).toString(u"yyyy-MM"_s);
}

// What the rows of balances.list add up to, by the request's grouping: the
// oracle the database's answer must match.
api::BalanceTotals addUp(const QList<api::BalanceRow> &rows, TotalsGroupBy by)
{
    QMap<std::optional<QString>, api::TotalsFigures> groups;
    QMap<std::optional<QString>, QSet<QString>> customers;
    api::BalanceTotals totals;
    QSet<QString> everyone;
    const auto add = [](api::TotalsFigures &figures, const api::BalanceRow &row) {
        ++figures.balances;
        figures.granted = *figures.granted.plus(*row.includedGrant.plus(row.prepaidGrant));
        figures.remaining = *figures.remaining.plus(row.remaining);
        figures.usage = *figures.usage.plus(row.usage);
    };
    for (const api::BalanceRow &row : rows) {
        const std::optional<QString> key = by == TotalsGroupBy::Feature    ? row.featureId
                                           : by == TotalsGroupBy::Plan     ? row.planId
                                           : by == TotalsGroupBy::Customer ? row.customerId
                                                                           : resetMonth(row);
        add(groups[key], row);
        customers[key].insert(row.customerId);
        add(totals.total, row);
        everyone.insert(row.customerId);
    }
    for (auto it = groups.begin(); it != groups.end(); ++it) {
        it->customers = customers.value(it.key()).size();
        totals.groups.append({it.key(), *it});
    }
    totals.total.customers = everyone.size();
    return totals;
}

} // namespace

class TestTotalsConformance final : public ConformanceSuite
{
    Q_OBJECT

    api::BalanceTotals totals(const BalanceTotalsRequest &request)
    {
        auto answer = await(m_backend->balanceTotals(request));
        if (!answer)
            qFatal("totals failed: %s", qPrintable(answer.error().message));
        return answer.value();
    }

    QList<api::BalanceRow> rowsOf(ListBalancesRequest request)
    {
        QList<api::BalanceRow> rows;
        request.limit = 2; // several pages, so paging is part of the oracle
        for (;;) {
            const auto page = list(request);
            rows += page.list;
            if (!page.hasMore)
                return rows;
            request.startCursor = *page.nextCursor;
        }
    }

private Q_SLOTS:
    void defaultIsActiveRowsByFeature()
    {
        const auto answer = totals({});
        QCOMPARE(answer.total.balances, 4);
        QCOMPARE(answer.total.customers, 2);
        QStringList keys;
        for (const api::TotalsGroup &group : answer.groups)
            keys.append(group.key.value_or(u"(null)"_s));
        QCOMPARE(keys, (QStringList{u"ai_credits"_s, u"api_calls"_s, u"messages"_s}));
        // 25.75 + 9007199254740991: a double would answer ...1016 or ...1017.
        const api::TotalsFigures &credits = answer.groups.at(0).figures;
        QCOMPARE(credits.balances, 2);
        QCOMPARE(credits.customers, 2);
        QCOMPARE(credits.remaining, dec("9007199254741016.75"));
        QCOMPARE(credits.granted, dec("9007199254741016.75"));
        const api::TotalsFigures &calls = answer.groups.at(1).figures;
        QCOMPARE(calls.granted, dec("1000"));
        QCOMPARE(calls.remaining, dec("750.5"));
        QCOMPARE(calls.usage, dec("249.5"));
        QCOMPARE(answer.total.remaining, dec("9007199254741867.25"));
    }

    void matchesTheListedRows_data()
    {
        QTest::addColumn<QByteArray>("body");
        const QList<QByteArray> filters{
            R"({})",
            R"({"customer_id":"bob","statuses":["active","expired"]})",
            R"({"customer_id":"ann","entity_id":"seat-1"})",
            R"({"feature_id":"ai_credits"})",
            R"({"plan_id":"pro","statuses":["active","expired"]})",
            R"({"plan_id":null})",
            R"({"statuses":["expired"]})",
            R"({"statuses":["active","expired"]})",
            R"({"resets_before":4102444800001,"statuses":["active","expired"]})",
            R"({"remaining_below":751,"statuses":["active","expired"]})",
            R"({"remaining_below_percent":80,"statuses":["active","expired"]})",
        };
        for (const QByteArray &filter : filters)
            for (const char *by : {"feature", "plan", "customer", "reset_month"})
                QTest::addRow("%s by %s", filter.constData(), by)
                    << QByteArray(filter.chopped(1) + (filter.size() > 2 ? "," : "") +
                                  R"("group_by":")" + by + R"("})");
    }
    void matchesTheListedRows()
    {
        QFETCH(QByteArray, body);
        auto request = api::decodeBody<BalanceTotalsRequest>(body);
        QVERIFY2(request.ok(), request.ok() ? "" : qPrintable(request.error().message));
        const auto expected = addUp(rowsOf(request.value().filter), request.value().groupBy);
        const auto answer = totals(request.value());
        QCOMPARE(answer.total, expected.total);
        QCOMPARE(answer.groups, expected.groups);
        QVERIFY(answer.total.balances > 0);
    }

    // balances.pages: the count of the same filters, and a cursor per page
    // that starts exactly the page that walking next_cursor reaches.
    void pagesStartWhereTheWalkGets_data() { matchesTheListedRows_data(); }
    void pagesStartWhereTheWalkGets()
    {
        QFETCH(QByteArray, body);
        const auto filter = api::decodeBody<BalanceTotalsRequest>(body).value().filter;
        const QList<api::BalanceRow> all = rowsOf(filter);
        for (qint64 pageSize : {1, 2, 3, 200}) {
            auto pages = await(m_backend->balancePages({filter, pageSize}));
            QVERIFY2(pages.ok(), pages.ok() ? "" : qPrintable(pages.error().message));
            QCOMPARE(pages.value().count, all.size());
            QCOMPARE(pages.value().cursors.size(), (all.size() + pageSize - 1) / pageSize);
            for (qsizetype k = 0; k < pages.value().cursors.size(); ++k) {
                ListBalancesRequest page = filter;
                page.limit = pageSize;
                page.startCursor = pages.value().cursors.at(k);
                const auto rows = list(page).list;
                QVERIFY(!rows.isEmpty());
                QCOMPARE(rows.first().id, all.at(k * pageSize).id);
            }
        }
        expectError(api::decodeBody<api::BalancePagesRequest>(R"({"limit":5})"), 400,
                    u"invalid_inputs"_s, u"limit"_s);
        expectError(api::decodeBody<api::BalancePagesRequest>(R"({"page_size":201})"), 400,
                    u"invalid_inputs"_s, u"page_size"_s);
    }

    // Sorted by remaining, usage or next reset, up or down: walking the
    // pages gives every row of the filter once, in order; the
    // cursors start where the walk gets; a cursor of one order is refused
    // by another.
    void ordersWalkEveryRowInOrder_data()
    {
        QTest::addColumn<QByteArray>("body");
        for (const char *by : {"remaining", "usage", "next_reset", "customer"})
            for (const char *order : {"asc", "desc"})
                QTest::addRow("%s %s", by, order)
                    << QStringLiteral("{\"statuses\":[\"active\",\"expired\"],\"order_by\":"
                                      "\"%1\",\"order\":\"%2\"}")
                           .arg(QLatin1StringView(by), QLatin1StringView(order))
                           .toUtf8();
    }
    void ordersWalkEveryRowInOrder()
    {
        QFETCH(QByteArray, body);
        const auto request = api::decodeBody<ListBalancesRequest>(body);
        QVERIFY2(request.ok(), request.ok() ? "" : qPrintable(request.error().message));
        const ListBalancesRequest sorted = request.value();
        ListBalancesRequest byCustomer;
        byCustomer.statuses = sorted.statuses;
        QStringList every;
        for (const api::BalanceRow &row : rowsOf(byCustomer))
            every.append(row.id);
        const QList<api::BalanceRow> walked = rowsOf(sorted);
        QStringList ids;
        for (const api::BalanceRow &row : walked)
            ids.append(row.id);
        QStringList sortedIds = ids;
        sortedIds.sort();
        every.sort();
        QCOMPARE(sortedIds, every); // each row once
        // Never resetting sorts after every reset.
        const auto key = [&sorted](const api::BalanceRow &row) {
            switch (sorted.orderBy) {
            case api::BalanceOrder::Remaining:
                return row.remaining.toString().toDouble();
            case api::BalanceOrder::Usage:
                return row.usage.toString().toDouble();
            case api::BalanceOrder::NextReset:
                return row.reset && row.reset->resetsAt ? double(*row.reset->resetsAt) : 9e18;
            case api::BalanceOrder::Customer:
                break;
            }
            return 0.0;
        };
        const auto inOrder = [&sorted, &key](const api::BalanceRow &before,
                                             const api::BalanceRow &after) {
            return sorted.descending ? !(key(before) < key(after)) : !(key(after) < key(before));
        };
        for (qsizetype i = 1; i < walked.size(); ++i)
            QVERIFY2(inOrder(walked.at(i - 1), walked.at(i)),
                     qPrintable(walked.at(i - 1).id + u" then "_s + walked.at(i).id));
        for (qint64 pageSize : {1, 3}) {
            const auto pages = await(m_backend->balancePages({sorted, pageSize}));
            QVERIFY2(pages.ok(), pages.ok() ? "" : qPrintable(pages.error().message));
            QCOMPARE(pages.value().count, walked.size());
            for (qsizetype k = 0; k < pages.value().cursors.size(); ++k) {
                ListBalancesRequest page = sorted;
                page.limit = pageSize;
                page.startCursor = pages.value().cursors.at(k);
                QCOMPARE(list(page).list.first().id, walked.at(k * pageSize).id);
            }
        }
        ListBalancesRequest first = sorted;
        first.limit = 1;
        ListBalancesRequest other = byCustomer;
        other.orderBy = sorted.orderBy == api::BalanceOrder::Usage ? api::BalanceOrder::Remaining
                                                                   : api::BalanceOrder::Usage;
        other.startCursor = *list(first).nextCursor;
        expectError(await(m_backend->listBalances(other)), 400, u"invalid_cursor"_s, u"order"_s);
    }

    // A product's versions are one plan: customers on version 1 and on
    // version 2 of "basic" make one group.
    void aPlanGroupHoldsEveryVersion()
    {
        api::UpdateProductRequest change;
        api::ProductItem item;
        item.featureId = u"calls"_s;
        item.includedUsage = api::Decimal::fromInteger(500);
        item.interval = api::ResetInterval::Month;
        change.items = QList<api::ProductItem>{item};
        const auto updated = await(m_admin->updateProduct(u"basic"_s, change));
        QVERIFY2(updated.ok(), updated.ok() ? "" : qPrintable(updated.error().message));
        QCOMPARE(updated.value().version, 2);
        api::ImportCustomerRequest newcomer;
        newcomer.customerId = u"erin"_s;
        api::Billable billable;
        billable.plan.planId = u"basic"_s;
        newcomer.billables = {billable};
        const auto imported = await(m_admin->importCustomer(newcomer));
        QVERIFY2(imported.ok(), imported.ok() ? "" : qPrintable(imported.error().message));

        BalanceTotalsRequest request;
        request.groupBy = TotalsGroupBy::Plan;
        const auto answer = await(m_admin->balanceTotals(request));
        QVERIFY(answer.ok());
        ListBalancesRequest rows;
        rows.limit = 200;
        const auto page = await(m_admin->listBalances(rows));
        QVERIFY(page.ok());
        const auto expected = addUp(page.value().list, TotalsGroupBy::Plan);
        QCOMPARE(answer.value().groups, expected.groups);
        const auto basic =
            std::find_if(answer.value().groups.cbegin(), answer.value().groups.cend(),
                         [](const api::TotalsGroup &g) { return g.key == u"basic"_s; });
        QVERIFY(basic != answer.value().groups.cend());
        QCOMPARE(basic->figures.customers, 2);
    }

    // A row resetting at T is before T + 1 ms and not before T; rows that
    // never reset are never before anything, and make the null month.
    void resetsBeforeIsExclusive()
    {
        const qint64 resetsAt = 4102444800000; // b_ann_pro: 2100-01-01T00:00Z
        BalanceTotalsRequest request;
        request.groupBy = TotalsGroupBy::ResetMonth;
        request.filter.statuses = {BalanceStatus::Active, BalanceStatus::Expired};
        const auto all = totals(request);
        QCOMPARE(all.groups.size(), 2);
        QCOMPARE(all.groups.at(0).key, std::nullopt);
        QCOMPARE(all.groups.at(1).key, u"2100-01"_s);
        QCOMPARE(all.groups.at(1).figures.balances, 1);
        QCOMPARE(all.groups.at(0).figures.balances, all.total.balances - 1);

        request.filter.resetsBefore = resetsAt;
        QCOMPARE(totals(request).total.balances, 0);
        QVERIFY(list(request.filter).list.isEmpty());
        request.filter.resetsBefore = resetsAt + 1;
        const auto rows = list(request.filter).list;
        QCOMPARE(rows.size(), 1);
        QCOMPARE(rows.first().id, u"b_ann_pro"_s);
        expectError(api::decodeBody<ListBalancesRequest>(R"({"resets_before":"soon"})"), 400,
                    u"invalid_inputs"_s, u"resets_before"_s);
    }

    // Who runs out: remaining below an amount or below a share of the grant,
    // exactly (2^53 − 1 and a nano-unit above it are told apart), unlimited
    // rows never; listing, totals and pages agree, over every page.
    void remainingBelowIsExact_data()
    {
        QTest::addColumn<QByteArray>("body");
        for (const char *filter :
             {R"("remaining_below":9007199254740991)",
              R"("remaining_below":9007199254740991.000000001)", R"("remaining_below":750.5)",
              R"("remaining_below":750.500000001)", R"("remaining_below":0)",
              R"("remaining_below":-1)", R"("remaining_below_percent":75)",
              R"("remaining_below_percent":76)", R"("remaining_below_percent":100)",
              R"("remaining_below_percent":1,"remaining_below":1000)"})
            QTest::newRow(filter) << QByteArray(QByteArray(R"({"statuses":["active","expired"],)") +
                                                filter + "}");
    }
    void remainingBelowIsExact()
    {
        QFETCH(QByteArray, body);
        auto request = api::decodeBody<ListBalancesRequest>(body);
        QVERIFY2(request.ok(), request.ok() ? "" : qPrintable(request.error().message));
        ListBalancesRequest every;
        every.statuses = request.value().statuses;
        // The oracle: every row, compared here in Decimal's own arithmetic.
        QStringList expected;
        for (const api::BalanceRow &row : rowsOf(every)) {
            const api::Decimal granted = *row.includedGrant.plus(row.prepaidGrant);
            bool below = !row.unlimited;
            if (const auto &x = request.value().remainingBelow)
                below = below && row.remaining < *x;
            if (const auto &p = request.value().remainingBelowPercent)
                below = below && *row.remaining.mulDiv(100, 1) < *granted.mulDiv(*p, 1);
            if (below)
                expected.append(row.id);
        }
        QStringList listed;
        for (const api::BalanceRow &row : rowsOf(request.value()))
            listed.append(row.id);
        QCOMPARE(listed, expected);
        BalanceTotalsRequest sum;
        sum.filter = request.value();
        QCOMPARE(totals(sum).total.balances, expected.size());
        QCOMPARE(await(m_backend->balancePages({request.value(), 200})).value().count,
                 expected.size());
    }

    void anEmptyFilterAddsUpToZero()
    {
        BalanceTotalsRequest request;
        request.filter.customerId = u"ann"_s;
        request.filter.featureId = u"gold"_s;
        auto answer = await(m_backend->balanceTotals(request));
        expectError(answer, 404, u"feature_not_found"_s, u"gold"_s);

        request.filter.featureId = u"ai_credits"_s;
        request.filter.statuses = {BalanceStatus::Expired};
        const auto none = totals(request);
        QVERIFY(none.groups.isEmpty());
        QCOMPARE(none.total, api::TotalsFigures{});
        const auto noPages = await(m_backend->balancePages({request.filter, 200}));
        QCOMPARE(noPages.value().count, 0);
        QVERIFY(noPages.value().cursors.isEmpty());
    }

    void errors_data()
    {
        QTest::addColumn<QByteArray>("body");
        QTest::addColumn<int>("status");
        QTest::addColumn<QString>("code");
        QTest::addColumn<QString>("names");
        QTest::newRow("limit") << QByteArray(R"({"limit":10})") << 400 << u"invalid_inputs"_s
                               << u"limit"_s;
        QTest::newRow("cursor") << QByteArray(R"({"start_cursor":""})") << 400
                                << u"invalid_inputs"_s << u"start_cursor"_s;
        QTest::newRow("group") << QByteArray(R"({"group_by":"region"})") << 400
                               << u"invalid_inputs"_s << u"group_by"_s;
        QTest::newRow("customer") << QByteArray(R"({"customer_id":"zed"})") << 404
                                  << u"customer_not_found"_s << u"zed"_s;
        QTest::newRow("plan") << QByteArray(R"({"plan_id":"gold"})") << 404
                              << u"product_not_found"_s << u"gold"_s;
        QTest::newRow("percent 0") << QByteArray(R"({"remaining_below_percent":0})") << 400
                                   << u"invalid_inputs"_s << u"remaining_below_percent"_s;
        QTest::newRow("percent 101") << QByteArray(R"({"remaining_below_percent":101})") << 400
                                     << u"invalid_inputs"_s << u"remaining_below_percent"_s;
        QTest::newRow("percent fraction") << QByteArray(R"({"remaining_below_percent":7.5})") << 400
                                          << u"invalid_inputs"_s << u"remaining_below_percent"_s;
        QTest::newRow("below text") << QByteArray(R"({"remaining_below":"ten"})") << 400
                                    << u"invalid_inputs"_s << u"remaining_below"_s;
        QTest::newRow("order by") << QByteArray(R"({"order_by":"name"})") << 400
                                  << u"invalid_inputs"_s << u"order_by"_s;
        QTest::newRow("order") << QByteArray(R"({"order":"up"})") << 400 << u"invalid_inputs"_s
                               << u"order"_s;
    }
    void errors()
    {
        QFETCH(QByteArray, body);
        QFETCH(int, status);
        QFETCH(QString, code);
        QFETCH(QString, names);
        auto request = api::decodeBody<BalanceTotalsRequest>(body);
        if (status == 400) {
            expectError(request, status, code, names);
            if (overHttp()) {
                const auto [httpStatus, json] =
                    rawPost(u"/v1/meterdesk/balances.totals"_s,
                            {{"authorization", "Bearer " + FixtureKey.toLatin1()}}, body);
                QCOMPARE(httpStatus, 400);
                QCOMPARE(json.value(u"code"_s).toString(), code);
            }
            return;
        }
        QVERIFY(request.ok());
        expectError(await(m_backend->balanceTotals(request.value())), status, code, names);
    }

    void missingScopeIsForbidden()
    {
        auto backend = backendFor(m_readOnlyBillingKey);
        auto answer = await(backend->balanceTotals({}));
        expectError(answer, 403, u"insufficient_scopes"_s, u"balances:read"_s);
    }

    void environmentsNeverMix()
    {
        auto live = backendFor(m_liveKey);
        BalanceTotalsRequest all;
        all.filter.statuses = {BalanceStatus::Active, BalanceStatus::Expired};
        const auto answer = await(live->balanceTotals(all));
        QVERIFY(answer.ok());
        ListBalancesRequest rows;
        rows.statuses = all.filter.statuses;
        auto listed = await(live->listBalances(rows));
        QVERIFY(listed.ok());
        QCOMPARE(answer.value().total.balances, listed.value().list.size());
    }
};

QTEST_GUILESS_MAIN(TestTotalsConformance)
#include "tst_conformance_totals.moc"
