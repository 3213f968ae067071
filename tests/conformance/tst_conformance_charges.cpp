// Conformance, charges.preview (docs/api.md, docs/billing.md): a customer on
// a plan with a fixed price (an item without a feature) owes it times its
// quantity, and for a feature priced per billing unit its usage past the
// grant, rounded up to whole units, in the period of its plan; a row within
// its grant owes nothing; a plan imported trialing owes no fee until its
// plan's free trial ends; an unknown customer is 404. The amounts
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

    void aTrialingImportOwesNoFeeUntilItsTrialEnds()
    {
        importOnPricedLegacy(u"feepayer"_s, "0"); // prices legacy
        auto trial = api::decodeBody<api::UpdateProductRequest>(
            R"({"free_trial":{"duration":"day","length":14}})");
        QVERIFY(await(m_admin->updateProduct(u"legacy"_s, trial.value())).ok());
        const qint64 day = 86'400'000;
        const qint64 now = QDateTime::currentMSecsSinceEpoch();
        const auto import = [&](const QString &customer, const char *status, qint64 startedAt) {
            auto request = api::decodeBody<api::ImportCustomerRequest>(
                uR"({"customer_id":"%1","processors":[{"type":"stripe","id":"cus_%1"}],
                    "billables":[{"plan":{"plan_id":"legacy","status":"%2","started_at":%3}}]})"_s
                    .arg(customer, QLatin1StringView(status))
                    .arg(startedAt)
                    .toUtf8());
            QVERIFY(await(m_admin->importCustomer(request.value())).ok());
        };
        const auto subscription = [&](const QString &customer) {
            return await(m_admin->customer(customer)).value().subscriptions.value(0);
        };
        const auto fee = [&](const QString &customer) {
            auto preview = await(m_admin->chargesPreview({customer}));
            Decimal fixed;
            for (const api::ChargeLine &line : preview.value().lines)
                if (line.kind == api::ChargeKind::Fixed)
                    fixed = fixed.plus(line.amount).value();
            return fixed;
        };
        // In its trial: 14 days from its start, and no fee for the period.
        import(u"trying"_s, "trialing", now - day);
        QCOMPARE(subscription(u"trying"_s).trialEndsAt, std::optional(now - day + 14 * day));
        QCOMPARE(fee(u"trying"_s), Decimal());
        // The trial ended 26 days ago, before this period began: 29.00.
        import(u"converted"_s, "trialing", now - 40 * day);
        QCOMPARE(subscription(u"converted"_s).trialEndsAt, std::optional(now - 26 * day));
        QCOMPARE(fee(u"converted"_s), dec("29"));
        // Reported active: the trial is over, whatever the plan offers.
        import(u"paying"_s, "active", now - day);
        QCOMPARE(subscription(u"paying"_s).trialEndsAt, std::nullopt);
        QCOMPARE(fee(u"paying"_s), dec("29"));
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
