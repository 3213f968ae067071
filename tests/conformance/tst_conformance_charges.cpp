// Conformance, charges.preview (docs/api.md, docs/billing.md): a customer on
// a plan with a fixed price (an item without a feature) owes it times its
// quantity, and for a feature priced per billing unit its usage past the
// grant, rounded up to whole units, in the period of its plan; a row within
// its grant owes nothing; an unknown customer is 404. The amounts
// are worked out by hand here. Runs three ways: tests/conformance/CMakeLists.txt.
#include "services/api/WireCodec.h"
#include "tests/conformance/ConformanceSuite.h"

using namespace md;
using namespace md::test::conformance;
using api::Decimal;

class TestChargesConformance final : public ConformanceSuite
{
    Q_OBJECT

    api::ChargesPreview importedWith(const QString &customer, const char *usage, int seats = 1)
    {
        importOnPricedLegacy(customer, usage, seats);
        auto preview = await(m_admin->chargesPreview({customer}));
        if (!preview)
            qFatal("charges.preview failed: %s", qPrintable(preview.error().message));
        return preview.value();
    }

private Q_SLOTS:
    void usagePastTheGrantInWholeUnits()
    {
        // 29.00 for the month; 135 used, 100 included: 35 past, 4 units of
        // 10, 4 × 0.50 = 2.00; 31.00 in all.
        const api::ChargesPreview preview = importedWith(u"payer"_s, "135");
        QCOMPARE(preview.customerId, u"payer"_s);
        QCOMPARE(preview.currency, u"usd"_s);
        QVERIFY(preview.periodStart < preview.periodEnd);
        QCOMPARE(preview.lines.size(), 2);
        const api::ChargeLine &fee = preview.lines.at(0);
        QCOMPARE(fee.kind, api::ChargeKind::Fixed);
        QCOMPARE(fee.planId, std::optional<QString>(u"legacy"_s));
        QCOMPARE(fee.featureId, std::nullopt);
        QCOMPARE(fee.quantity, dec("1"));
        QCOMPARE(fee.amount, dec("29"));
        const api::ChargeLine &line = preview.lines.at(1);
        QCOMPARE(line.kind, api::ChargeKind::Usage);
        QCOMPARE(line.planId, std::optional<QString>(u"legacy"_s));
        QCOMPARE(line.featureId, std::optional<QString>(u"calls"_s));
        QVERIFY(line.balanceId && !line.balanceId->isEmpty());
        QCOMPARE(line.quantity, dec("35"));
        QCOMPARE(line.billableUnits, std::optional(dec("40")));
        QCOMPARE(line.amount, dec("2"));
        QCOMPARE(preview.total, dec("31"));
        QVERIFY2(line.description.contains(u"135"_s), qPrintable(line.description));
    }

    void seatsMultiplyTheFeeAndTheGrant()
    {
        // 3 seats: 87.00; 300 included, 60 used: nothing past it.
        const api::ChargesPreview preview = importedWith(u"saver"_s, "60", 3);
        QCOMPARE(preview.lines.size(), 2);
        QCOMPARE(preview.lines.at(0).quantity, dec("3"));
        QCOMPARE(preview.lines.at(0).amount, dec("87"));
        QCOMPARE(preview.lines.at(1).quantity, Decimal());
        QCOMPARE(preview.lines.at(1).amount, Decimal());
        QCOMPARE(preview.total, dec("87"));
    }

    void aFixedPriceGrantsNothingAndTakesNoGrantField()
    {
        importedWith(u"granted"_s, "1");
        ListBalancesRequest mine;
        mine.customerId = u"granted"_s;
        auto rows = await(m_admin->listBalances(mine));
        QVERIFY(rows.ok());
        QCOMPARE(rows.value().list.size(), 1); // the calls only
        auto refused = api::decodeBody<api::UpdateProductRequest>(
            R"({"items":[{"feature_id":null,"price":5,"included_usage":3}]})");
        QVERIFY(!refused.ok());
        QVERIFY2(refused.error().message.contains(u"items[0].included_usage"_s),
                 qPrintable(refused.error().message));
        auto empty = api::decodeBody<api::UpdateProductRequest>(
            R"({"items":[{"feature_id":"","price":5}]})");
        QVERIFY(!empty.ok());
        auto unpriced =
            api::decodeBody<api::UpdateProductRequest>(R"({"items":[{"feature_id":null}]})");
        QVERIFY(!unpriced.ok());
        QVERIFY2(unpriced.error().message.contains(u"price"_s),
                 qPrintable(unpriced.error().message));
    }

    void aRowWithoutAPriceHasNoLine()
    {
        // Dora's plan prices nothing.
        auto preview = await(m_admin->chargesPreview({u"dora"_s}));
        QVERIFY2(preview.ok(), preview.ok() ? "" : qPrintable(preview.error().message));
        QVERIFY(preview.value().lines.isEmpty());
        QCOMPARE(preview.value().total, Decimal());
    }

    void anUnknownCustomerIsNotFound()
    {
        auto preview = await(m_admin->chargesPreview({u"nobody"_s}));
        QVERIFY(!preview.ok());
        QCOMPARE(preview.error().status, 404);
        QCOMPARE(preview.error().code, u"customer_not_found"_s);
    }
};

QTEST_MAIN(TestChargesConformance)
#include "tst_conformance_charges.moc"
