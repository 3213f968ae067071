// Conformance, charges.preview (docs/api.md, docs/billing.md): a customer on
// a plan whose feature is priced per billing unit owes for its usage past
// the grant, rounded up to whole units, in the period of its plan; a row
// within its grant owes nothing; an unknown customer is 404. The amounts
// are worked out by hand here. Runs three ways: tests/conformance/CMakeLists.txt.
#include "services/api/WireCodec.h"
#include "tests/conformance/ConformanceSuite.h"

using namespace md;
using namespace md::test::conformance;
using api::Decimal;

class TestChargesConformance final : public ConformanceSuite
{
    Q_OBJECT

    bool m_priced = false;

    // A customer on `legacy`, priced here (once) at 0.50 per 10 calls past 100.
    api::ChargesPreview importedWith(const QString &customer, const char *usage)
    {
        if (!m_priced) {
            auto priced = api::decodeBody<api::UpdateProductRequest>(
                R"({"items":[{"feature_id":"calls","included_usage":100,"interval":"month",
                              "usage_model":"pay_per_use","price":0.5,"billing_units":10}]})");
            auto updated = await(m_admin->updateProduct(u"legacy"_s, priced.value()));
            if (!updated)
                qFatal("products.update failed: %s", qPrintable(updated.error().message));
            m_priced = true;
        }
        auto request = api::decodeBody<api::ImportCustomerRequest>(
            uR"({"customer_id":"%1","processors":[{"type":"stripe","id":"cus_%1"}],
                "billables":[{"plan":{"plan_id":"legacy",
                  "balances":[{"feature_id":"calls","usage":%2}]}}]})"_s
                .arg(customer, QString::fromLatin1(usage))
                .toUtf8());
        if (!request)
            qFatal("bad import: %s", qPrintable(request.error().message));
        auto imported = await(m_admin->importCustomer(request.value()));
        if (!imported)
            qFatal("import failed: %s", qPrintable(imported.error().message));
        auto preview = await(m_admin->chargesPreview({customer}));
        if (!preview)
            qFatal("charges.preview failed: %s", qPrintable(preview.error().message));
        return preview.value();
    }

private Q_SLOTS:
    void usagePastTheGrantInWholeUnits()
    {
        // 135 used, 100 included: 35 past, 4 units of 10, 4 × 0.50 = 2.00.
        const api::ChargesPreview preview = importedWith(u"payer"_s, "135");
        QCOMPARE(preview.customerId, u"payer"_s);
        QCOMPARE(preview.currency, u"usd"_s);
        QVERIFY(preview.periodStart < preview.periodEnd);
        QCOMPARE(preview.lines.size(), 1);
        const api::ChargeLine &line = preview.lines.first();
        QCOMPARE(line.kind, api::ChargeKind::Usage);
        QCOMPARE(line.planId, std::optional<QString>(u"legacy"_s));
        QCOMPARE(line.featureId, std::optional<QString>(u"calls"_s));
        QVERIFY(line.balanceId && !line.balanceId->isEmpty());
        QCOMPARE(line.quantity, dec("35"));
        QCOMPARE(line.billableUnits, std::optional(dec("40")));
        QCOMPARE(line.amount, dec("2"));
        QCOMPARE(preview.total, dec("2"));
        QVERIFY2(line.description.contains(u"135"_s), qPrintable(line.description));
    }

    void withinTheGrantNothingIsOwed()
    {
        const api::ChargesPreview preview = importedWith(u"saver"_s, "60");
        QCOMPARE(preview.lines.size(), 1);
        QCOMPARE(preview.lines.first().quantity, Decimal());
        QCOMPARE(preview.lines.first().amount, Decimal());
        QCOMPARE(preview.total, Decimal());
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
