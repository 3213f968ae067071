// Conformance, ledger.list and balances.adjust: a customer's balance changes
// newest first; each track call adds a usage row per balance it drew on with
// the call's key and event; an adjustment adds its row and an audit entry
// with its reason; every balance is what its rows add up to, checked over
// the wire against balances.list; filters, paging and errors. Runs three
// ways: tests/conformance/CMakeLists.txt.
#include "services/engine/ledger/BalanceLedger.h"
#include "tests/conformance/ConformanceSuite.h"

using namespace md;
using namespace md::test::conformance;
using api::Decimal;
using api::LedgerRequest;

class TestLedgerConformance final : public ConformanceSuite
{
    Q_OBJECT

    QList<api::LedgerEntry> entries(const QString &customer,
                                    std::optional<QString> feature = std::nullopt)
    {
        LedgerRequest request;
        request.customerId = customer;
        request.featureId = std::move(feature);
        request.limit = 200;
        auto page = await(m_backend->listLedger(request));
        if (!page)
            qFatal("ledger.list failed: %s", qPrintable(page.error().message));
        return page.value().list;
    }

    // Every balance of the customer, active or expired, by id.
    QHash<QString, api::BalanceRow> balancesOf(const QString &customer)
    {
        ListBalancesRequest request;
        request.customerId = customer;
        request.statuses = {api::BalanceStatus::Active, api::BalanceStatus::Expired};
        QHash<QString, api::BalanceRow> rows;
        for (const api::BalanceRow &row : list(request).list)
            rows.insert(row.id, row);
        return rows;
    }

    // The trial balance over the wire: each row's entries add up to what it holds.
    void addsUpToEveryBalance(const QString &customer)
    {
        QHash<QString, Decimal> sums;
        QHash<QString, Decimal> used;
        for (const api::LedgerEntry &entry : entries(customer)) {
            sums[entry.balanceId] = sums.value(entry.balanceId).plus(entry.amount).value();
            used[entry.balanceId] = used.value(entry.balanceId).plus(entry.usage).value();
        }
        const auto rows = balancesOf(customer);
        QCOMPARE(sums.size(), rows.size());
        for (const api::BalanceRow &row : rows) {
            QVERIFY2(sums.contains(row.id), qPrintable(row.id));
            // An expired balance's expiry entry gave up everything it held.
            QCOMPARE(sums.value(row.id), row.status == api::BalanceStatus::Expired
                                             ? Decimal()
                                             : engine::BalanceLedger::held(row));
            QCOMPARE(used.value(row.id), row.usage);
        }
    }

private Q_SLOTS:
    void theLoadOpensEveryBalance()
    {
        const QList<api::LedgerEntry> opening = entries(u"ann"_s);
        QVERIFY(!opening.isEmpty());
        for (const api::LedgerEntry &entry : opening) {
            // The load's, and the billing clock's expiry of the standalone
            // balance whose end had passed before the load.
            if (entry.source.route == "clock"_L1) {
                QCOMPARE(entry.kind, u"expiry"_s);
                QCOMPARE(entry.balanceId, u"b_ann_expiring"_s);
                QCOMPARE(entry.amount, Decimal::fromInteger(-5));
                QCOMPARE(entry.balanceAfter, Decimal());
                continue;
            }
            QCOMPARE(entry.source.route, u"workspace.load"_s);
            QVERIFY(entry.kind == "import"_L1 || entry.kind == "expiry"_L1);
            QCOMPARE(entry.customerId, u"ann"_s);
            QVERIFY(entry.id.startsWith(u"ledger_"_s));
        }
        addsUpToEveryBalance(u"ann"_s);
    }

    void aTrackCallAddsAUsageRowWithItsSource()
    {
        api::TrackTokensRequest call;
        call.customerId = u"ann"_s;
        call.modelId = u"openai/gpt-4o-mini"_s;
        call.inputTokens = 1000;
        call.outputTokens = 500;
        auto tracked = await(m_backend->trackTokens(call));
        QVERIFY2(tracked.ok(), tracked.ok() ? "" : qPrintable(tracked.error().message));
        const api::LedgerEntry newest = entries(u"ann"_s, u"ai_credits"_s).first();
        QCOMPARE(newest.kind, u"usage"_s);
        QCOMPARE(newest.balanceId, tracked.value().deductions.first().balanceId);
        QCOMPARE(newest.amount, tracked.value().value.negated());
        QCOMPARE(newest.usage, tracked.value().value);
        QCOMPARE(newest.balanceAfter,
                 engine::BalanceLedger::held(balancesOf(u"ann"_s).value(newest.balanceId)));
        QCOMPARE(newest.source.route, u"balances.track_tokens"_s);
        QVERIFY(newest.source.keyId && newest.source.keyId->startsWith(u"key_"_s));
        QVERIFY(newest.source.eventId && newest.source.eventId->startsWith(u"event_"_s));
        addsUpToEveryBalance(u"ann"_s);
    }

    void anAdjustmentIsAnEntryAndAnAuditedWrite()
    {
        api::BalanceRow row;
        for (const api::BalanceRow &held : balancesOf(u"ann"_s))
            if (held.status == api::BalanceStatus::Active && !held.unlimited)
                row = held; // an expired balance is not adjusted (tst_conformance_ranges)
        QVERIFY(!row.id.isEmpty());
        const Decimal amount = *Decimal::parse("-12.345678901");
        auto adjusted =
            await(m_backend->adjustBalance({row.id, amount, u"  credit note 17 taken back  "_s}));
        QVERIFY2(adjusted.ok(), adjusted.ok() ? "" : qPrintable(adjusted.error().message));
        const api::LedgerEntry &entry = adjusted.value();
        QCOMPARE(entry.kind, u"adjustment"_s);
        QCOMPARE(entry.amount, amount);
        QCOMPARE(entry.usage, Decimal());
        QCOMPARE(entry.balanceAfter, engine::BalanceLedger::held(row).plus(amount).value());
        QCOMPARE(entry.source.route, u"balances.adjust"_s);
        QVERIFY(!entry.source.eventId);
        const api::BalanceRow now = balancesOf(u"ann"_s).value(row.id);
        QCOMPARE(now.remaining, row.remaining.plus(amount).value());
        QCOMPARE(now.usage, row.usage);
        QCOMPARE(entries(u"ann"_s).first(), entry);
        addsUpToEveryBalance(u"ann"_s);

        api::AuditLogRequest audit;
        audit.resourceType = u"balance"_s;
        audit.resourceId = row.id;
        auto logged = await(m_backend->listAuditLog(audit));
        QVERIFY(logged.ok());
        QCOMPARE(logged.value().list.size(), 1);
        const api::AuditEntry &change = logged.value().list.first();
        QCOMPARE(change.action, u"balance.adjust"_s);
        const auto amountIn = [](const api::JsonValue &value) {
            return Decimal::parse(value.value("remaining"_L1).numberText());
        };
        QCOMPARE(amountIn(change.before), row.remaining);
        QCOMPARE(amountIn(change.after), now.remaining);
        QCOMPARE(change.after.value("reason"_L1).toString(), u"credit note 17 taken back"_s);
        QCOMPARE(change.after.value("ledger_id"_L1).toString(), entry.id);
    }

    void adjustmentErrorsSayWhatToFix()
    {
        const QString id = balancesOf(u"ann"_s).values().first().id;
        const Decimal one = Decimal::fromInteger(1);
        expectError(await(m_backend->adjustBalance({u"b_nobody"_s, one, u"why"_s})), 404,
                    u"balance_not_found"_s, u"b_nobody"_s);
        expectError(await(backendFor(m_liveKey)->adjustBalance({id, one, u"why"_s})), 403,
                    u"insufficient_scopes"_s, u"balances:write"_s);
        expectError(api::decodeBody<api::BalanceAdjustment>(
                        R"({"balance_id":"b","amount":0,"reason":"why"})"),
                    400, u"invalid_inputs"_s, u"amount"_s);
        expectError(api::decodeBody<api::BalanceAdjustment>(
                        R"({"balance_id":"b","amount":1,"reason":"   "})"),
                    400, u"invalid_inputs"_s, u"reason"_s);
        expectError(api::decodeBody<api::BalanceAdjustment>(R"({"balance_id":"b","amount":1})"),
                    400, u"invalid_inputs"_s, u"reason"_s);
        const QByteArray longReason =
            "{\"balance_id\":\"b\",\"amount\":1,\"reason\":\"" + QByteArray(501, 'x') + "\"}";
        expectError(api::decodeBody<api::BalanceAdjustment>(longReason), 400, u"invalid_inputs"_s,
                    u"500"_s);
        expectError(api::decodeBody<api::BalanceAdjustment>(
                        R"({"balance_id":"b","amount":"1","reason":"why"})"),
                    400, u"invalid_inputs"_s, u"amount"_s);
    }

    // A reason the free-text rule refuses (docs/api.md, "Free text") writes
    // nothing: no ledger entry, no audit entry, the balance as it was.
    void aHostileReasonIsRefusedAndNothingWritten_data()
    {
        QTest::addColumn<QString>("reason");
        QTest::addColumn<QString>("problem");
        QTest::newRow("NUL") << QString(u"refund"_s + QChar(0x0000)) << u"U+0000"_s;
        QTest::newRow("ESC") << QString(QChar(0x001B) + u"[2Jrefund"_s) << u"U+001B"_s;
        QTest::newRow("BEL") << QString(u"refund"_s + QChar(0x0007)) << u"U+0007"_s;
        QTest::newRow("U+202E") << QString(u"refund "_s + QChar(0x202E) + u"gpj.exe"_s)
                                << u"U+202E at character 8"_s;
        QTest::newRow("zero-width only") << QString(4, QChar(0x200B)) << u"must not be blank"_s;
    }
    void aHostileReasonIsRefusedAndNothingWritten()
    {
        QFETCH(QString, reason);
        QFETCH(QString, problem);
        const api::BalanceRow row = balancesOf(u"ann"_s).values().first();
        const QList<api::LedgerEntry> ledger = entries(u"ann"_s);
        api::AuditLogRequest audit;
        audit.resourceType = u"balance"_s;
        audit.resourceId = row.id;
        const auto logged = await(m_backend->listAuditLog(audit));
        QVERIFY(logged.ok());

        const auto adjusted =
            await(m_backend->adjustBalance({row.id, Decimal::fromInteger(1), reason}));
        expectError(adjusted, 400, u"invalid_inputs"_s, u"reason: "_s);
        if (QTest::currentTestFailed())
            return;
        QVERIFY2(adjusted.error().message.contains(problem), qPrintable(adjusted.error().message));

        QCOMPARE(entries(u"ann"_s), ledger);
        QCOMPARE(balancesOf(u"ann"_s).value(row.id), row);
        const auto after = await(m_backend->listAuditLog(audit));
        QVERIFY(after.ok());
        QCOMPARE(after.value().list, logged.value().list);
    }

    void pagesNewestFirstOneAtATime()
    {
        const QList<api::LedgerEntry> all = entries(u"ann"_s);
        LedgerRequest one;
        one.customerId = u"ann"_s;
        one.limit = 1;
        QList<api::LedgerEntry> walked;
        for (int guard = 0; guard < 200; ++guard) {
            auto page = await(m_backend->listLedger(one));
            QVERIFY(page.ok());
            walked += page.value().list;
            if (!page.value().hasMore)
                break;
            one.startCursor = *page.value().nextCursor;
        }
        QCOMPARE(walked, all);
        // Newest written first; the clock dates its entries at what they
        // record, which may come before entries written earlier.
        QList<api::LedgerEntry> written = all;
        written.removeIf(
            [](const api::LedgerEntry &e) { return e.source.route.startsWith(u"clock"_s); });
        QVERIFY(written.size() > 1);
        for (qsizetype i = 1; i < written.size(); ++i)
            QVERIFY(written.at(i - 1).at >= written.at(i).at);
    }

    void errors()
    {
        LedgerRequest unknown;
        unknown.customerId = u"nobody"_s;
        expectError(await(m_backend->listLedger(unknown)), 404, u"customer_not_found"_s,
                    u"nobody"_s);
        LedgerRequest noFeature;
        noFeature.customerId = u"ann"_s;
        noFeature.featureId = u"no_such_feature"_s;
        expectError(await(m_backend->listLedger(noFeature)), 404, u"feature_not_found"_s,
                    u"no_such_feature"_s);
        LedgerRequest ann;
        ann.customerId = u"ann"_s;
        expectError(await(backendFor(m_readOnlyBillingKey)->listLedger(ann)), 403,
                    u"insufficient_scopes"_s, u"balances:read"_s);
        LedgerRequest bad = ann;
        bad.startCursor = u"nonsense!"_s;
        expectError(await(m_backend->listLedger(bad)), 400, u"invalid_cursor"_s, u"start_cursor"_s);
        expectError(api::decodeBody<LedgerRequest>(R"({"limit":5})"), 400, u"invalid_inputs"_s,
                    u"customer_id"_s);
        expectError(api::decodeBody<LedgerRequest>(R"({"customer_id":"ann","limit":0})"), 400,
                    u"invalid_inputs"_s, u"limit"_s);
    }

    void environmentsNeverMix()
    {
        LedgerRequest ann;
        ann.customerId = u"ann"_s;
        auto live = await(backendFor(m_liveKey)->listLedger(ann));
        if (!live) { // no "ann" in live
            QCOMPARE(live.error().code, u"customer_not_found"_s);
            return;
        }
        const auto testRows = balancesOf(u"ann"_s);
        for (const api::LedgerEntry &entry : live.value().list)
            QVERIFY2(!testRows.contains(entry.balanceId), qPrintable(entry.balanceId));
    }
};

QTEST_GUILESS_MAIN(TestLedgerConformance)
#include "tst_conformance_ledger.moc"
