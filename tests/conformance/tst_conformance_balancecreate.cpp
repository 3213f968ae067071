// Conformance, balances.create (docs/api.md, docs/ledger.md "Balances made
// by hand"): a standalone balance made by hand holds what it is given, never
// resets, is drawn on by usage, expires on the clock at its expires_at, and
// is written with its grant entry and an audit entry; refusals name the
// field and write nothing. Runs three ways: tests/conformance/CMakeLists.txt.
#include "services/engine/ledger/BalanceLedger.h"
#include "tests/conformance/ConformanceSuite.h"

using namespace md;
using namespace md::test::conformance;
using api::Decimal;

namespace {
constexpr qint64 Day = 24LL * 60 * 60 * 1000;
}

class TestBalanceCreateConformance final : public ConformanceSuite
{
    Q_OBJECT

    QList<api::LedgerEntry> entries(backend::BillingBackend &backend, const QString &customer)
    {
        api::LedgerRequest request;
        request.customerId = customer;
        request.limit = 200;
        auto page = await(backend.listLedger(request));
        if (!page)
            qFatal("ledger.list failed: %s", qPrintable(page.error().message));
        return page.value().list;
    }

    QHash<QString, api::BalanceRow> balancesOf(backend::BillingBackend &backend,
                                               const QString &customer)
    {
        ListBalancesRequest request;
        request.customerId = customer;
        request.statuses = {api::BalanceStatus::Active, api::BalanceStatus::Expired};
        auto page = await(backend.listBalances(request));
        if (!page)
            qFatal("list failed: %s", qPrintable(page.error().message));
        QHash<QString, api::BalanceRow> rows;
        for (const api::BalanceRow &row : page.value().list)
            rows.insert(row.id, row);
        return rows;
    }

    // What the ledger says a balance holds: its entries' sum.
    Decimal ledgerSum(backend::BillingBackend &backend, const QString &customer,
                      const QString &balanceId)
    {
        Decimal sum;
        for (const api::LedgerEntry &entry : entries(backend, customer))
            if (entry.balanceId == balanceId)
                sum = *sum.plus(entry.amount);
        return sum;
    }

    static api::BalanceCreation creation(const QString &customer, const QString &feature,
                                         const char *amount)
    {
        return {customer,     feature,
                std::nullopt, *Decimal::parse(amount),
                std::nullopt, u"goodwill: lasts past the reset"_s};
    }

private Q_SLOTS:
    void aNewBalanceHoldsWhatItIsGivenAndIsAnAuditedWrite()
    {
        const QList<api::LedgerEntry> before = entries(*m_backend, u"bob"_s);
        auto made = await(m_backend->createBalance(creation(u"bob"_s, u"api_calls"_s, "7.5")));
        QVERIFY2(made.ok(), made.ok() ? "" : qPrintable(made.error().message));
        const api::LedgerEntry &entry = made.value();
        QCOMPARE(entry.kind, u"grant"_s);
        QCOMPARE(entry.customerId, u"bob"_s);
        QCOMPARE(entry.featureId, u"api_calls"_s);
        QCOMPARE(entry.amount, *Decimal::parse("7.5"));
        QCOMPARE(entry.balanceAfter, *Decimal::parse("7.5"));
        QCOMPARE(entry.usage, Decimal());
        QCOMPARE(entry.source.route, u"balances.create"_s);
        QVERIFY(entry.source.keyId && entry.source.keyId->startsWith(u"key_"_s));
        QVERIFY(!entry.source.eventId);
        const QList<api::LedgerEntry> after = entries(*m_backend, u"bob"_s);
        QCOMPARE(after.size(), before.size() + 1);
        QCOMPARE(after.first(), entry);

        const api::BalanceRow row = balancesOf(*m_backend, u"bob"_s).value(entry.balanceId);
        QCOMPARE(row.id, entry.balanceId);
        QVERIFY(!row.planId); // standalone
        QVERIFY(!row.entityId);
        QVERIFY(!row.reset); // never resets
        QVERIFY(!row.expiresAt);
        QVERIFY(!row.unlimited);
        QCOMPARE(row.status, api::BalanceStatus::Active);
        QCOMPARE(row.remaining, *Decimal::parse("7.5"));
        QCOMPARE(row.prepaidGrant, *Decimal::parse("7.5"));
        QCOMPARE(row.includedGrant, Decimal());
        QCOMPARE(row.usage, Decimal());
        QCOMPARE(engine::BalanceLedger::held(row), ledgerSum(*m_backend, u"bob"_s, row.id));

        api::AuditLogRequest audit;
        audit.resourceType = u"balance"_s;
        audit.resourceId = row.id;
        auto logged = await(m_backend->listAuditLog(audit));
        QVERIFY(logged.ok());
        QCOMPARE(logged.value().list.size(), 1);
        const api::AuditEntry &change = logged.value().list.first();
        QCOMPARE(change.action, u"balance.create"_s);
        QVERIFY(change.before.isNull());
        QCOMPARE(change.after.value("customer_id"_L1).toString(), u"bob"_s);
        QCOMPARE(change.after.value("feature_id"_L1).toString(), u"api_calls"_s);
        QCOMPARE(Decimal::parse(change.after.value("remaining"_L1).numberText()),
                 *Decimal::parse("7.5"));
        QCOMPARE(change.after.value("reason"_L1).toString(), u"goodwill: lasts past the reset"_s);
        QCOMPARE(change.after.value("ledger_id"_L1).toString(), entry.id);
    }

    void anEntitysBalanceIsTheEntitys()
    {
        api::BalanceCreation request = creation(u"ann"_s, u"messages"_s, "3");
        request.entityId = u"seat-1"_s;
        auto made = await(m_backend->createBalance(request));
        QVERIFY2(made.ok(), made.ok() ? "" : qPrintable(made.error().message));
        const api::BalanceRow row = balancesOf(*m_backend, u"ann"_s).value(made.value().balanceId);
        QCOMPARE(row.entityId, std::optional<QString>(u"seat-1"_s));
        QCOMPARE(row.remaining, Decimal::fromInteger(3));
    }

    // Usage of a feature the customer held nothing of is drawn from it.
    void usageDrawsOnIt()
    {
        for (const api::BalanceRow &held : balancesOf(*m_pricing, u"pat"_s))
            QVERIFY(held.featureId != "calls"_L1);
        auto made = await(m_pricing->createBalance(creation(u"pat"_s, u"calls"_s, "10")));
        QVERIFY2(made.ok(), made.ok() ? "" : qPrintable(made.error().message));
        api::TrackRequest call;
        call.customerId = u"pat"_s;
        call.featureId = u"calls"_s;
        call.value = *Decimal::parse("2.25");
        auto tracked = await(m_pricing->track(call));
        QVERIFY2(tracked.ok(), tracked.ok() ? "" : qPrintable(tracked.error().message));
        QCOMPARE(tracked.value().deductions.size(), 1);
        QCOMPARE(tracked.value().deductions.first().balanceId, made.value().balanceId);
        const api::BalanceRow row = balancesOf(*m_pricing, u"pat"_s).value(made.value().balanceId);
        QCOMPARE(row.remaining, *Decimal::parse("7.75"));
        QCOMPARE(row.usage, *Decimal::parse("2.25"));
        QCOMPARE(engine::BalanceLedger::held(row), ledgerSum(*m_pricing, u"pat"_s, row.id));
    }

    // With expires_at it is expired by the clock then, its ledger closing at 0.
    void itExpiresOnTheClockAtItsExpiry()
    {
        auto reading = await(m_pricing->clock());
        QVERIFY2(reading.ok(), reading.ok() ? "" : qPrintable(reading.error().message));
        const qint64 now = reading.value().now;
        api::BalanceCreation request = creation(u"quinn"_s, u"calls"_s, "4");
        request.expiresAt = now + 10 * Day;
        auto made = await(m_pricing->createBalance(request));
        QVERIFY2(made.ok(), made.ok() ? "" : qPrintable(made.error().message));
        const QString id = made.value().balanceId;
        QCOMPARE(balancesOf(*m_pricing, u"quinn"_s).value(id).expiresAt, request.expiresAt);

        api::ClockAdvance advance;
        advance.to = now + 11 * Day;
        auto moved = await(m_pricing->advanceClock(advance));
        QVERIFY2(moved.ok(), moved.ok() ? "" : qPrintable(moved.error().message));
        const api::BalanceRow row = balancesOf(*m_pricing, u"quinn"_s).value(id);
        QCOMPARE(row.status, api::BalanceStatus::Expired);
        QList<api::LedgerEntry> own;
        for (const api::LedgerEntry &entry : entries(*m_pricing, u"quinn"_s))
            if (entry.balanceId == id)
                own.append(entry);
        QCOMPARE(own.size(), 2); // newest first: the expiry, then the grant
        QCOMPARE(own.first().kind, u"expiry"_s);
        QCOMPARE(own.first().amount, Decimal::fromInteger(-4));
        QCOMPARE(own.first().balanceAfter, Decimal());
        QCOMPARE(own.first().at, *request.expiresAt);
        QCOMPARE(ledgerSum(*m_pricing, u"quinn"_s, id), Decimal());
    }

    // Not idempotent, as documented: each call makes a balance.
    void sentTwiceItMakesTwo()
    {
        const auto request = creation(u"bob"_s, u"ai_credits"_s, "1");
        auto first = await(m_backend->createBalance(request));
        auto second = await(m_backend->createBalance(request));
        QVERIFY(first.ok() && second.ok());
        QVERIFY(first.value().balanceId != second.value().balanceId);
        const auto rows = balancesOf(*m_backend, u"bob"_s);
        QVERIFY(rows.contains(first.value().balanceId) && rows.contains(second.value().balanceId));
    }

    void refusalsNameTheFieldAndWriteNothing()
    {
        const QList<api::LedgerEntry> ledger = entries(*m_backend, u"ann"_s);
        const auto held = balancesOf(*m_backend, u"ann"_s);
        expectError(await(m_backend->createBalance(creation(u"nobody"_s, u"messages"_s, "1"))), 404,
                    u"customer_not_found"_s, u"nobody"_s);
        expectError(await(m_backend->createBalance(creation(u"ann"_s, u"nothing"_s, "1"))), 404,
                    u"feature_not_found"_s, u"nothing"_s);
        api::BalanceCreation noSuchEntity = creation(u"ann"_s, u"messages"_s, "1");
        noSuchEntity.entityId = u"seat-9"_s;
        expectError(await(m_backend->createBalance(noSuchEntity)), 404, u"entity_not_found"_s,
                    u"seat-9"_s);
        api::BalanceCreation past = creation(u"ann"_s, u"messages"_s, "1");
        past.expiresAt = 1000;
        expectError(await(m_backend->createBalance(past)), 400, u"invalid_inputs"_s,
                    u"expires_at"_s);
        // The live key reads balances only; the live environment has no "messages" either.
        expectError(
            await(backendFor(m_liveKey)->createBalance(creation(u"ann"_s, u"api_calls"_s, "1"))),
            403, u"insufficient_scopes"_s, u"balances:write"_s);
        // Sent as the wire has them, so the server's reading is checked too.
        for (const char *body :
             {R"({"customer_id":"ann","feature_id":"messages","amount":0,"reason":"why"})",
              R"({"customer_id":"ann","feature_id":"messages","amount":-1,"reason":"why"})",
              R"({"customer_id":"ann","feature_id":"messages","amount":"1","reason":"why"})"}) {
            expectError(api::decodeBody<api::BalanceCreation>(body), 400, u"invalid_inputs"_s,
                        u"amount"_s);
            if (overHttp()) {
                const auto [status, json] =
                    rawPost(u"/v1/meterdesk/balances.create"_s,
                            {{"Authorization", "Bearer " + FixtureKey.toUtf8()}}, body);
                QCOMPARE(status, 400);
                QVERIFY(json.value("message"_L1).toString().startsWith(u"amount"_s));
            }
        }
        expectError(api::decodeBody<api::BalanceCreation>(
                        R"({"customer_id":"ann","feature_id":"messages","amount":1})"),
                    400, u"invalid_inputs"_s, u"reason"_s);
        expectError(api::decodeBody<api::BalanceCreation>(
                        R"({"customer_id":"ann","feature_id":"messages","amount":1,"reason":" "})"),
                    400, u"invalid_inputs"_s, u"reason"_s);
        expectError(api::decodeBody<api::BalanceCreation>(
                        R"({"feature_id":"messages","amount":1,"reason":"why"})"),
                    400, u"invalid_inputs"_s, u"customer_id"_s);
        QCOMPARE(entries(*m_backend, u"ann"_s), ledger);
        QCOMPARE(balancesOf(*m_backend, u"ann"_s), held);
    }
};

QTEST_GUILESS_MAIN(TestBalanceCreateConformance)
#include "tst_conformance_balancecreate.moc"
