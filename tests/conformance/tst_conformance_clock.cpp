// Conformance, the billing clock (docs/api.md, "The billing clock"):
// clock.get and clock.advance, and reads across a reset. A subscription is
// imported with usage; the sandbox's clock moved 40 days on resets its
// balance (usage back to 0, the grant back), moves its period, and writes
// the reset to the ledger with the advance's key as its source; the dry run
// says the same and writes nothing; every server on the database then reads
// the new now; the clock never goes back, never more than ten years ahead,
// and never in production. Runs three ways: tests/conformance/CMakeLists.txt.
#include "services/api/BillingPeriod.h"
#include "tests/conformance/ConformanceSuite.h"

using namespace md;
using namespace md::test::conformance;

namespace {

constexpr qint64 Day = 86'400'000;

} // namespace

class TestClockConformance final : public ConformanceSuite
{
    Q_OBJECT

    api::BalanceRow planBalance(const QString &customer)
    {
        ListBalancesRequest request;
        request.customerId = customer;
        auto page = await(m_pricing->listBalances(request));
        if (!page || page.value().list.size() != 1)
            qFatal("expected one balance of %s", qPrintable(customer));
        return page.value().list.first();
    }

    // `customer` on `plan`, with `used` of its "plain" grant used.
    bool importOn(const QString &customer, const QString &plan, const char *used)
    {
        api::ImportCustomerRequest request;
        request.customerId = customer;
        request.customerData = api::CustomerData{customer, customer + u"@example.com"_s, {}, {}};
        api::Billable billable;
        billable.plan.planId = plan;
        billable.plan.balances = {{u"plain"_s, dec(used), {}, {}, {}}};
        request.billables = {billable};
        return await(m_pricing->importCustomer(request)).ok();
    }

private Q_SLOTS:
    void aResetOnTheSandboxClock()
    {
        QVERIFY(importOn(u"clocked"_s, u"team"_s, "4"));
        const api::BalanceRow before = planBalance(u"clocked"_s);
        QCOMPARE(before.usage, dec("4"));
        QVERIFY(before.reset && before.reset->resetsAt);

        auto reading = await(m_pricing->clock());
        QVERIFY2(reading.ok(), reading.ok() ? "" : qPrintable(reading.error().message));
        QCOMPARE(reading.value().offsetMs, 0);
        const qint64 now = reading.value().now;
        QVERIFY(*before.reset->resetsAt > now);

        api::ClockAdvance advance;
        advance.to = now + 40 * Day;
        advance.dryRun = true;
        auto preview = await(m_pricing->advanceClock(advance));
        QVERIFY2(preview.ok(), preview.ok() ? "" : qPrintable(preview.error().message));
        QVERIFY(preview.value().dryRun);
        QVERIFY(preview.value().applied.resets >= 1);
        QCOMPARE(planBalance(u"clocked"_s).usage, dec("4")); // nothing written
        QVERIFY(await(m_pricing->clock()).value().offsetMs == 0);

        advance.dryRun = false;
        auto moved = await(m_pricing->advanceClock(advance));
        QVERIFY2(moved.ok(), moved.ok() ? "" : qPrintable(moved.error().message));
        QCOMPARE(moved.value().now, advance.to);
        QCOMPARE(moved.value().applied, preview.value().applied);
        QCOMPARE(moved.value().byFeature, preview.value().byFeature);

        const api::BalanceRow after = planBalance(u"clocked"_s);
        QCOMPARE(after.usage, api::Decimal());
        QCOMPARE(after.remaining, dec("10"));
        QVERIFY(*after.reset->resetsAt > advance.to);
        // The new now, on every path to the database (a fresh backend too).
        const qint64 later = await(backendFor(PricingKey)->clock()).value().now;
        QVERIFY(later >= advance.to);
        QVERIFY(later - advance.to < 60'000); // the clock goes on from there

        api::LedgerRequest ledger;
        ledger.customerId = u"clocked"_s;
        auto entries = await(m_pricing->listLedger(ledger));
        QVERIFY(entries.ok());
        const api::LedgerEntry &newest = entries.value().list.first();
        QCOMPARE(newest.kind, u"reset"_s);
        QCOMPARE(newest.source.route, u"clock.advance"_s);
        QVERIFY(newest.source.keyId);
        QCOMPARE(newest.usage, dec("-4"));

        auto customer = await(m_pricing->customer(u"clocked"_s));
        QVERIFY(customer.ok());
        const api::Subscription &plan = customer.value().subscriptions.first();
        QVERIFY(plan.currentPeriodStart <= later && later < plan.currentPeriodEnd);
    }

    // A row says what its reset carries over (the rule copied from its plan's
    // item), and the reset does it: the unused remaining, held to `max`,
    // kept `length` × `duration` from the reset.
    void aRowCarriesItsRolloverRule()
    {
        QVERIFY(importOn(u"rolling"_s, u"rolling"_s, "1"));
        const api::BalanceRow before = planBalance(u"rolling"_s);
        QVERIFY(before.reset && before.reset->rollover);
        QCOMPARE(before.reset->rollover,
                 (api::RolloverRule{dec("8"), 2, api::ResetInterval::Month}));
        QCOMPARE(planBalance(u"clocked"_s).reset->rollover, std::nullopt); // "team" has none

        api::ClockAdvance advance;
        advance.to = *before.reset->resetsAt + Day; // one reset
        auto moved = await(m_pricing->advanceClock(advance));
        QVERIFY2(moved.ok(), moved.ok() ? "" : qPrintable(moved.error().message));
        const api::BalanceRow after = planBalance(u"rolling"_s);
        QCOMPARE(after.remaining, dec("10"));
        QCOMPARE(after.rollovers.size(), 1);
        QCOMPARE(after.rollovers.first().balance, dec("8")); // 9 unused, held to 8
        QCOMPARE(
            after.rollovers.first().expiresAt,
            api::BillingPeriod::advance(api::ResetInterval::Month, *before.reset->resetsAt, 2));
    }

    void refusals()
    {
        const qint64 now = await(m_backend->clock()).value().now;
        api::ClockAdvance advance;
        advance.to = now - Day;
        expectError(await(m_backend->advanceClock(advance)), 400, u"invalid_inputs"_s, u"to"_s);
        advance.to = now + 3660 * Day;
        expectError(await(m_backend->advanceClock(advance)), 400, u"invalid_inputs"_s, u"to"_s);
        advance.to = now + Day;
        QString production;
        {
            engine::Engine setup(m_database.location());
            QVERIFY(setup.open().ok());
            auto key = setup.createKey(u"alpha"_s, engine::Environment::Production,
                                       {u"balances:read"_s, u"balances:write"_s}, u"clock"_s);
            QVERIFY(key.ok());
            production = key.value().secret;
        }
        expectError(await(backendFor(production)->advanceClock(advance)), 403, u"sandbox_only"_s,
                    u"sandbox"_s);
        expectError(await(backendFor(m_readOnlyBillingKey)->advanceClock(advance)), 403,
                    u"insufficient_scopes"_s, u"balances:write"_s);
        auto live = await(backendFor(production)->clock());
        QVERIFY(live.ok());
        QCOMPARE(live.value().offsetMs, 0);
    }

    // Issue 51: the key's environment comes before the body, as its scope
    // does (docs/api.md, "Keys and scopes"): a production key hears
    // sandbox_only whatever it sends, never what is wrong with the body.
    void aProductionKeyIsRefusedBeforeTheBody()
    {
        if (!overHttp())
            QSKIP("bodies no typed request makes: over HTTP only");
        QByteArray production;
        {
            engine::Engine setup(m_database.location());
            QVERIFY(setup.open().ok());
            auto key = setup.createKey(u"alpha"_s, engine::Environment::Production,
                                       {u"balances:write"_s}, u"clock before body"_s);
            QVERIFY(key.ok());
            production = key.value().secret.toLatin1();
        }
        const auto post = [this](const QByteArray &secret, const QByteArray &body) {
            return test::rawRequest(m_server, u"/v1/meterdesk/clock.advance"_s,
                                    {{"authorization", "Bearer " + secret}}, body);
        };
        for (const QByteArray &bad :
             {QByteArray(R"({"to":"soon"})"), QByteArray("{}"), QByteArray(R"({"to":0})"),
              QByteArray("[]"), QByteArray("{\"to\":")}) {
            const test::RawAnswer refused = post(production, bad);
            QVERIFY2(refused.status == 403, bad.constData());
            QCOMPARE(refused.json().value(u"code"_s).toString(), u"sandbox_only"_s);
            // A sandbox key is told what is wrong with the body.
            const test::RawAnswer told = post(FixtureKey.toLatin1(), bad);
            QVERIFY2(told.status == 400, bad.constData());
            QCOMPARE(told.json().value(u"code"_s).toString(), u"invalid_inputs"_s);
        }
    }
};

QTEST_GUILESS_MAIN(TestClockConformance)
#include "tst_conformance_clock.moc"
