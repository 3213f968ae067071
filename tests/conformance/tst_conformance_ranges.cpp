// Conformance, the ranges of amounts and sums (docs/api.md, "Amounts and
// sums"): an amount is below 10^20 in size, 10^20 itself refused in every
// spelling; a sum of amounts (a summary's, the totals') may pass that and is
// answered exactly; a write that would take one balance past an amount is
// refused up front naming its field, and an expired balance is not adjusted.
// Runs the five ways: tests/conformance/CMakeLists.txt.
#include "tests/conformance/ConformanceSuite.h"

using namespace md;
using namespace md::test::conformance;
using api::Decimal;

namespace {

const Decimal NinetyQuintillion = *Decimal::parse(QByteArrayView("90000000000000000000"));

Decimal sumOf(const QList<Decimal> &amounts)
{
    Decimal total;
    for (const Decimal &amount : amounts)
        total = *total.sum(amount);
    return total;
}

} // namespace

class TestRangeConformance final : public ConformanceSuite
{
    Q_OBJECT

    // The active rows of the pricing workspace (`customer`'s, or everyone's).
    QList<api::BalanceRow> activeOf(const QString &customer = {})
    {
        ListBalancesRequest request;
        if (!customer.isEmpty())
            request.customerId = customer;
        request.limit = 200;
        auto page = await(m_pricing->listBalances(request));
        if (!page)
            qFatal("list failed: %s", qPrintable(page.error().message));
        return page.value().list;
    }

private Q_SLOTS:
    void amountsAreBelowTenToTheTwenty_data()
    {
        QTest::addColumn<QByteArray>("amount");
        QTest::addColumn<bool>("accepted");
        QTest::newRow("1e20") << QByteArray("1e20") << false;
        QTest::newRow("-1e20") << QByteArray("-1e20") << false;
        QTest::newRow("1.0e20") << QByteArray("1.0e20") << false;
        QTest::newRow("digits") << QByteArray("100000000000000000000") << false;
        QTest::newRow("just below") << QByteArray("99999999999999999999.999999999") << true;
        QTest::newRow("just above -1e20") << QByteArray("-99999999999999999999.999999999") << true;
        QTest::newRow("1e19") << QByteArray("1e19") << true;
    }

    void amountsAreBelowTenToTheTwenty()
    {
        QFETCH(QByteArray, amount);
        QFETCH(bool, accepted);
        const QByteArray body = R"({"balance_id":"b","reason":"why","amount":)" + amount + '}';
        const auto adjustment = api::decodeBody<api::BalanceAdjustment>(body);
        if (accepted)
            QVERIFY2(adjustment, qPrintable(adjustment ? QString() : adjustment.error().message));
        else
            expectError(adjustment, 400, u"invalid_inputs"_s, u"amount"_s);
        // Every amount field reads through the same rule: a tier's up-to value too.
        if (amount.startsWith('-'))
            return; // not an up-to value in any size
        const QByteArray items = R"({"items":[{"feature_id":"api_calls","tiers":[{"to":)" + amount +
                                 R"(,"amount":1},{"to":"inf","amount":0.5}]}]})";
        const auto product = api::decodeBody<api::UpdateProductRequest>(items);
        QCOMPARE(bool(product), accepted);
    }

    // Two balances of one customer's feature at 9 × 10^19 each: the
    // customer's summary and the environment's totals add them up exactly,
    // past what one amount holds, and no route fails or drops a row.
    void sumsPastAnAmountAreAnsweredExactly()
    {
        // Two active balances of one customer's feature (the pricing
        // workspace's rae holds several of "plain").
        QHash<QString, QList<api::BalanceRow>> byOwner;
        QList<api::BalanceRow> pair;
        for (const api::BalanceRow &row : activeOf()) {
            if (row.unlimited)
                continue;
            QList<api::BalanceRow> &same = byOwner[row.customerId + u'/' + row.featureId];
            same.append(row);
            if (same.size() == 2) {
                pair = same;
                break;
            }
        }
        QVERIFY2(pair.size() == 2, "a customer holds two balances of one feature");
        const QString customerId = pair.first().customerId;
        const QString feature = pair.first().featureId;
        for (const api::BalanceRow &row : std::as_const(pair)) {
            const auto adjusted =
                await(m_pricing->adjustBalance({row.id, NinetyQuintillion, u"range test"_s}));
            QVERIFY2(adjusted, qPrintable(adjusted ? QString() : adjusted.error().message));
        }

        QList<Decimal> remaining;
        for (const api::BalanceRow &row : activeOf(customerId))
            if (row.featureId == feature)
                remaining.append(row.remaining);
        QVERIFY(!sumOf(remaining).isAmount());

        const auto customer = await(m_pricing->customer(customerId));
        QVERIFY2(customer, qPrintable(customer ? QString() : customer.error().message));
        QCOMPARE(customer.value().balances.value(feature).remaining, sumOf(remaining));
        QCOMPARE(customer.value().balances.value(feature).breakdown.size(), remaining.size());

        api::BalanceTotalsRequest totals;
        totals.filter.featureId = feature;
        const auto answered = await(m_pricing->balanceTotals(totals));
        QVERIFY2(answered, qPrintable(answered ? QString() : answered.error().message));
        QList<Decimal> everyone;
        for (const api::BalanceRow &row : activeOf())
            if (row.featureId == feature)
                everyone.append(row.remaining);
        QCOMPARE(answered.value().total.remaining, sumOf(everyone));

        // One more 9 × 10^19 would take a balance past an amount: refused, naming it.
        expectError(
            await(m_pricing->adjustBalance({pair.first().id, NinetyQuintillion, u"too far"_s})),
            400, u"invalid_inputs"_s, u"amount"_s);
        for (const api::BalanceRow &row : std::as_const(pair))
            QVERIFY(await(m_pricing->adjustBalance(
                {row.id, NinetyQuintillion.negated(), u"range test, undone"_s})));
    }

    // An expired balance holds nothing to adjust (docs/ledger.md).
    void anExpiredBalanceIsNotAdjusted()
    {
        ListBalancesRequest expired;
        expired.statuses = {BalanceStatus::Expired};
        expired.limit = 200;
        const auto rows = list(expired).list;
        QVERIFY2(!rows.isEmpty(), "the fixture holds an expired balance");
        const api::BalanceRow &row = rows.first();
        expectError(await(m_backend->adjustBalance({row.id, Decimal::fromInteger(1), u"repro"_s})),
                    409, u"balance_expired"_s, row.id);
        ListBalancesRequest again = expired;
        again.customerId = row.customerId;
        for (const api::BalanceRow &now : list(again).list)
            if (now.id == row.id)
                QCOMPARE(now.remaining, row.remaining);
    }
};

QTEST_MAIN(TestRangeConformance)
#include "tst_conformance_ranges.moc"
