// What a period owes line by line, on tests/engine/data/billing.json opened
// on Feb 10 2025 (docs/billing.md), against amounts worked out by hand:
// usage past the grant per entity, a prepaid row's usage past what was
// bought, a purchase renewed at its reset (held back to max_purchase,
// rounded up to whole billing units), an AI credit purchase, nothing bought
// during a trial, a purchase billed as an import makes it, and an
// organization billing in yen, which have no minor unit; a row that never
// resets, billed once as its period closes; and a period counted back from
// a plan's later anchor. The preview
// says it first, the statement closes on it, and revenue adds the kinds up;
// with the open periods, from figures kept and refreshed in the background.
#include "services/api/BillingPeriod.h"
#include "services/api/ImportCustomer.h"
#include "services/api/SandboxClock.h"
#include "services/api/WireCodec.h"
#include "services/engine/ledger/LedgerVerifier.h"
#include "services/engine/statements/OpenRevenue.h"
#include "tests/engine/EngineFixture.h"
#include "tests/engine/ScopeRoutes.h"

#include <QTest>

using namespace md;
using namespace Qt::StringLiterals;
using api::ChargeKind;
using api::Decimal;

namespace {

constexpr qint64 Hour = 3'600'000;
constexpr qint64 Feb01 = 1738368000000;
constexpr qint64 Feb10Noon = 1739188800000;
constexpr qint64 Mar01 = 1740787200000;
constexpr qint64 Apr01 = 1743465600000;
constexpr qint64 Jan20 = 1737331200000;
constexpr qint64 Feb20 = 1740009600000;

Decimal dec(const char *text)
{
    return *Decimal::parse(QByteArrayView(text));
}

// A line as the test expects it: kind, entity, quantity, billed, amount.
struct Expected
{
    ChargeKind kind;
    std::optional<QString> entityId;
    const char *quantity;
    const char *billed;
    const char *amount;
};

} // namespace

class TestStatementLines final : public QObject
{
    Q_OBJECT

    std::unique_ptr<test::EngineFixture> m_fixture;
    engine::Scope m_test;

    engine::ApiOperations api() { return engine::ApiOperations(*m_fixture->engine); }

    api::ChargesPreview preview(const QString &customer)
    {
        auto preview = api().chargesPreview(test::everyScope(m_test), {customer});
        if (!preview)
            qFatal("charges.preview: %s", qPrintable(preview.error().message));
        return preview.value();
    }

    QList<api::Statement> statementsOf(const QString &customer)
    {
        api::PageRequest request;
        request.customerId = customer;
        auto page = api().listStatements(test::everyScope(m_test), request);
        if (!page)
            qFatal("statements.list: %s", qPrintable(page.error().message));
        return page.value().list;
    }

    static void compareLines(const QList<api::ChargeLine> &lines, const QList<Expected> &expected)
    {
        QCOMPARE(lines.size(), expected.size());
        for (qsizetype i = 0; i < lines.size(); ++i) {
            const api::ChargeLine &line = lines.at(i);
            const Expected &want = expected.at(i);
            QCOMPARE(line.kind, want.kind);
            QCOMPARE(line.entityId.value_or(u"(none)"_s), want.entityId.value_or(u"(none)"_s));
            QCOMPARE(line.quantity, dec(want.quantity));
            QCOMPARE(line.billableUnits, std::optional(dec(want.billed)));
            QCOMPARE(line.amount, dec(want.amount));
        }
    }

    void advanceTo(qint64 to)
    {
        api::ClockAdvance advance;
        advance.to = to;
        auto moved = api().advanceClock(test::everyScope(m_test), advance);
        QVERIFY2(moved.ok(), moved.ok() ? "" : qPrintable(moved.error().message));
    }

private Q_SLOTS:
    void initTestCase()
    {
        m_fixture = std::make_unique<test::EngineFixture>();
        *m_fixture->now = Feb10Noon;
        MD_OPEN_FIXTURE(*m_fixture);
        auto loaded = m_fixture->engine->loadWorkspace(
            test::readJsonFile(QStringLiteral(MD_TEST_DATA_DIR "/billing.json")));
        QVERIFY2(loaded.ok(), loaded.ok() ? "" : qPrintable(loaded.error().message));
        const auto organizations = m_fixture->engine->organizations();
        for (const engine::OrganizationRow &org : organizations.value())
            if (org.slug == "billco"_L1)
                m_test = {org.pk, engine::Environment::Sandbox};
    }

    void theOpenPeriodSoFar()
    {
        // Each seat's row on its own line, in the listing's order (the
        // newest row first): 101 used of 100 is 1 past, one unit of 10 at
        // 0.10; 150 used is 50 past, 5 units, 0.50.
        const api::ChargesPreview ent = preview(u"ent"_s);
        QCOMPARE(ent.periodStart, Feb01);
        QCOMPARE(ent.periodEnd, Mar01);
        compareLines(ent.lines, {{ChargeKind::Usage, u"s2"_s, "1", "10", "0.1"},
                                 {ChargeKind::Usage, u"s1"_s, "50", "50", "0.5"}});
        QCOMPARE(ent.total, dec("0.6"));
        // 550 used of the 500 bought: 50 past, one unit of 100 at 2.00.
        compareLines(preview(u"pre"_s).lines, {{ChargeKind::Usage, {}, "50", "100", "2"}});
        // Credits used within what was bought owe nothing yet; the purchase
        // was made before the workspace was loaded.
        QVERIFY(preview(u"cred"_s).lines.isEmpty());
        // A plan whose current period starts on the 20th, later than the
        // customer's first period: that period counts back from it.
        // A row that never resets: 130 used of 100, 30 past, 3 units of 10.
        compareLines(preview(u"once"_s).lines, {{ChargeKind::Usage, {}, "30", "30", "0.3"}});
        const api::ChargesPreview late = preview(u"late"_s);
        QCOMPARE(late.periodStart, Jan20);
        QCOMPARE(late.periodEnd, Feb20);
    }

    void anOrganizationBillsInItsOwnCurrency()
    {
        // Yen have no minor unit: 45 calls past the grant at 0.5 come to
        // 22.5, rounded half away from zero to 23.
        engine::Scope yen{0, engine::Environment::Sandbox};
        const auto organizations = m_fixture->engine->organizations();
        for (const engine::OrganizationRow &org : organizations.value())
            if (org.slug == "yenco"_L1)
                yen.orgPk = org.pk;
        auto preview = api().chargesPreview(test::everyScope(yen), {u"kenji"_s});
        QVERIFY2(preview.ok(), preview.ok() ? "" : qPrintable(preview.error().message));
        QCOMPARE(preview.value().currency, u"jpy"_s);
        compareLines(preview.value().lines, {{ChargeKind::Usage, {}, "45", "45", "23"}});
        QCOMPARE(preview.value().total, dec("23"));
        QCOMPARE(this->preview(u"ent"_s).currency, u"usd"_s); // the other organization's
    }

    void theResetClosesUsageAndRenewsPurchases()
    {
        advanceTo(Mar01 + Hour);
        const QList<api::Statement> ent = statementsOf(u"ent"_s);
        QCOMPARE(ent.size(), 1);
        QCOMPARE(ent.first().periodStart, Feb01);
        compareLines(ent.first().lines, {{ChargeKind::Usage, u"s2"_s, "1", "10", "0.1"},
                                         {ChargeKind::Usage, u"s1"_s, "50", "50", "0.5"}});
        QCOMPARE(ent.first().total, dec("0.6"));
        const QList<api::Statement> pre = statementsOf(u"pre"_s);
        QCOMPARE(pre.size(), 1);
        compareLines(pre.first().lines, {{ChargeKind::Usage, {}, "50", "100", "2"}});
        // The row that never resets is billed as the period closes, once:
        // the next period owes nothing more for it until more is used.
        const QList<api::Statement> once = statementsOf(u"once"_s);
        QCOMPARE(once.size(), 1);
        compareLines(once.first().lines, {{ChargeKind::Usage, {}, "30", "30", "0.3"}});
        QVERIFY(preview(u"once"_s).lines.isEmpty());
        const QList<api::Statement> late = statementsOf(u"late"_s);
        QCOMPARE(late.size(), 1); // one month, not the weeks to March 20 with it
        QCOMPARE(late.first().periodStart, Jan20);
        QCOMPARE(late.first().periodEnd, Feb20);
        QCOMPARE(preview(u"late"_s).periodEnd, 1742428800000); // March 20
        const QList<api::Statement> cred = statementsOf(u"cred"_s);
        QCOMPARE(cred.size(), 1);
        QCOMPARE(cred.first().total, Decimal()); // nothing owed, still closed

        // The reset bought the storage again: 500 granted, max_purchase
        // 300, so 300 bought, 3 units of 100 at 2.00.
        const api::ChargesPreview renewed = preview(u"pre"_s);
        QCOMPARE(renewed.periodStart, Mar01);
        compareLines(renewed.lines, {{ChargeKind::Prepaid, {}, "300", "300", "6"}});
        QVERIFY2(renewed.lines.first().description.contains(u"max_purchase"_s),
                 qPrintable(renewed.lines.first().description));
        // 25.5 credits bought in whole credits: 26 at 1.00. The plan in its
        // trial until April bought nothing.
        compareLines(preview(u"cred"_s).lines, {{ChargeKind::Credits, {}, "25.5", "26", "26"}});
    }

    void anImportBillsWhatItBuys()
    {
        auto request = api::decodeBody<api::ImportCustomerRequest>(
            R"({"customer_id":"newbie","processors":[{"type":"stripe","id":"cus_newbie"}],
                "billables":[{"plan":{"plan_id":"plan","quantity":1,
                  "feature_quantities":[{"feature_id":"storage","quantity":250},
                                        {"feature_id":"ai","quantity":40}]}}]})");
        QVERIFY2(request.ok(), request.ok() ? "" : qPrintable(request.error().message));
        auto imported = test::importCustomer(*m_fixture->engine, m_test, request.value());
        QVERIFY2(imported.ok(), imported.ok() ? "" : qPrintable(imported.error().message));
        // 250 storage in units of 100: 3 units at 2.00; 40 credits at 1.00.
        const api::ChargesPreview newbie = preview(u"newbie"_s);
        compareLines(newbie.lines, {{ChargeKind::Prepaid, {}, "250", "300", "6"},
                                    {ChargeKind::Credits, {}, "40", "40", "40"}});
        // Sent again, the import buys nothing more.
        QVERIFY(test::importCustomer(*m_fixture->engine, m_test, request.value()).ok());
        QCOMPARE(preview(u"newbie"_s).total, dec("46"));
    }

    void revenueAddsUpEachKind()
    {
        // April 1 closes March: newbie's 46.00, pre's 6.00 and cred's 26.00;
        // the trial ends then too, and its credits are bought for April.
        advanceTo(Apr01 + Hour);
        api::RevenueSummaryRequest ask;
        ask.from = Feb01;
        ask.to = Apr01;
        ask.groupBy = api::RevenueGroupBy::Month;
        auto months = api().revenueSummary(test::everyScope(m_test), ask);
        QVERIFY2(months.ok(), months.ok() ? "" : qPrintable(months.error().message));
        QCOMPARE(months.value().groups.size(), 2);
        const api::RevenueGroup &feb = months.value().groups.at(0);
        QCOMPARE(feb.usage, dec("2.9")); // ent 0.60, pre 2.00, once 0.30
        QCOMPARE(feb.total, dec("2.9"));
        const api::RevenueGroup &mar = months.value().groups.at(1);
        QCOMPARE(mar.prepaid, dec("12"));
        QCOMPARE(mar.credits, dec("66"));
        QCOMPARE(mar.usage, Decimal());
        QCOMPARE(mar.total, dec("78"));
        QCOMPARE(months.value().total, dec("80.9"));

        ask.groupBy = api::RevenueGroupBy::Customer;
        auto customers = api().revenueSummary(test::everyScope(m_test), ask);
        QVERIFY(customers.ok());
        QCOMPARE(customers.value().total, dec("80.9"));
        for (const api::RevenueGroup &group : customers.value().groups)
            if (group.key == "cred"_L1)
                QCOMPARE(group.credits, dec("26"));

        // The trial's credits, bought as it ended: 10 at 1.00, beside the
        // 25.5 renewed.
        compareLines(preview(u"cred"_s).lines, {{ChargeKind::Credits, {}, "10", "10", "10"},
                                                {ChargeKind::Credits, {}, "25.5", "26", "26"}});

        auto report = engine::LedgerVerifier::verify(
            m_fixture->engine->database().connection().value(), m_fixture->engine->dialect());
        QVERIFY(report.ok());
        QVERIFY2(report.value().differences.isEmpty(),
                 qPrintable(report.value().differences.join(u'\n')));
    }

    void revenueSoFarIsKeptAndRefreshedInTheBackground()
    {
        // April's open periods, each as its preview says, by customer.
        api::RevenueSummaryRequest ask;
        ask.from = Feb01;
        ask.to = api::BillingPeriod::advance(api::ResetInterval::Month, Apr01);
        ask.groupBy = api::RevenueGroupBy::Customer;
        ask.includeOpen = true;
        ask.openMaxAgeMs = 60'000;
        const auto sofar = [&] {
            auto summary = api().revenueSummary(test::everyScope(m_test), ask);
            if (!summary)
                qFatal("revenue.summary: %s", qPrintable(summary.error().message));
            Decimal cred;
            for (const api::RevenueGroup &group : summary.value().groups)
                if (group.key == "cred"_L1)
                    cred = group.total;
            return std::pair(cred, summary.value().openAsOf.value_or(-1));
        };
        ask.includeOpen = false;
        const Decimal closed = sofar().first;
        QCOMPARE(sofar().second, -1); // no open periods, no moment
        ask.includeOpen = true;
        const auto [worked, at] = sofar();
        QCOMPARE(worked, closed.plus(preview(u"cred"_s).total).value());
        QCOMPARE(preview(u"cred"_s).total, dec("36")); // credits 10 + 26 for April
        engine::OpenRevenue &kept = m_fixture->engine->openRevenue();
        // Younger than half the age: kept, nothing worked out.
        *m_fixture->now += 20'000;
        QCOMPARE(sofar(), std::pair(worked, at));
        kept.settle();
        QCOMPARE(sofar(), std::pair(worked, at));
        // Past half: still the kept figures, and one refresh in the background.
        *m_fixture->now += 20'000;
        QCOMPARE(sofar(), std::pair(worked, at));
        kept.settle();
        QCOMPARE(sofar(), std::pair(worked, at + 40'000));
        // Past the age: worked out for the request.
        *m_fixture->now += 61'000;
        QCOMPARE(sofar(), std::pair(worked, at + 101'000));
    }
};

QTEST_GUILESS_MAIN(TestStatementLines)
#include "tst_statementlines.moc"
