// The billing clock on a stored workspace (docs/api.md, "The billing
// clock"), on SQLite and PostgreSQL: a read brings what fell due up to date
// before it answers, with reset, rollover and expiry entries the trial
// balance agrees with; a server down for months catches up every period in
// order; a track call meeting a reset lands after it; the sweep takes at
// most 1,000 balances a step; two engines on one database never apply a
// balance twice; the sandbox clock moves forward only, and its refusals
// name what to fix; bad rollover rules are refused where they come in.
#include "services/api/WireCodec.h"
#include "services/engine/ledger/LedgerVerifier.h"
#include "services/engine/pricing/PriceCatalogue.h"
#include "services/engine/sql/Sql.h"
#include "services/engine/sql/StatementLog.h"
#include "tests/engine/EngineFixture.h"
#include "tests/engine/ScopeRoutes.h"

#include <QTest>

#include <thread>

using namespace md;
using namespace Qt::StringLiterals;
using api::Decimal;

namespace {

constexpr qint64 Day = 86'400'000;
constexpr qint64 Jan31Noon = 1738324800000;
constexpr qint64 Feb28 = 1740700800000;
constexpr qint64 Mar01 = 1740787200000;
constexpr qint64 Mar05 = 1741132800000;
constexpr qint64 Jun01 = 1748736000000;

Decimal dec(const char *text)
{
    return *Decimal::parse(QByteArrayView(text));
}

api::JsonValue clockWorkspace()
{
    return test::readJsonFile(QStringLiteral(MD_TEST_DATA_DIR "/clock.json"));
}

// A workspace of `n` customers with one monthly balance each, 10 used of
// 100, resetting at `resetsAt`.
api::JsonValue manyDue(int n, qint64 resetsAt)
{
    QByteArray customers;
    for (int i = 0; i < n; ++i) {
        if (i)
            customers += ',';
        customers +=
            QStringLiteral(R"({"id":"c%1","name":"C","email":"c@example.com","created_at":1,)"
                           R"("balances":[{"id":"b%1","feature_id":"calls","included_grant":100,)"
                           R"("prepaid_grant":0,"remaining":90,"usage":10,"created_at":1,)"
                           R"("reset":{"interval":"month","resets_at":%2}}]})")
                .arg(i)
                .arg(resetsAt)
                .toUtf8();
    }
    return test::jsonValue(
        R"({"format":"meterdesk-workspace","version":1,"organizations":[{"id":"org_m","slug":"many",)"
        R"("name":"Many","created_at":1,"test":{"features":[{"id":"calls","name":"Calls",)"
        R"("type":"single_use","created_at":1}],"customers":[)" +
        customers + "]}}]}");
}

} // namespace

class TestBillingClock final : public QObject
{
    Q_OBJECT

    std::unique_ptr<test::EngineFixture> m_fixture;
    engine::Scope m_test;
    engine::Scope m_live;

    engine::ApiOperations api() { return engine::ApiOperations(*m_fixture->engine); }

    QHash<QString, api::BalanceRow> balancesOf(const QString &customer,
                                               const engine::Scope *scope = nullptr)
    {
        api::ListBalancesRequest request;
        request.customerId = customer;
        request.statuses = {api::BalanceStatus::Active, api::BalanceStatus::Expired};
        auto page = test::listBalances(*m_fixture->engine, scope ? *scope : m_test, request);
        if (!page)
            qFatal("list: %s", qPrintable(page.error().message));
        QHash<QString, api::BalanceRow> rows;
        for (const api::BalanceRow &row : page.value().list)
            rows.insert(row.id, row);
        return rows;
    }

    // A customer's ledger, oldest first.
    QList<api::LedgerEntry> ledgerOf(const QString &customer)
    {
        api::LedgerRequest request;
        request.customerId = customer;
        request.limit = 200;
        QList<api::LedgerEntry> entries;
        for (;;) {
            auto page = api().listLedger(test::everyScope(m_test), request);
            if (!page)
                qFatal("ledger: %s", qPrintable(page.error().message));
            entries += page.value().list; // newest first
            if (!page.value().hasMore)
                break;
            request.startCursor = *page.value().nextCursor;
        }
        std::reverse(entries.begin(), entries.end());
        return entries;
    }

    QStringList kindsOf(const QList<api::LedgerEntry> &entries, const QString &balance,
                        const QString &route)
    {
        QStringList kinds;
        for (const api::LedgerEntry &entry : entries)
            if (entry.balanceId == balance && entry.source.route == route)
                kinds << entry.kind;
        return kinds;
    }

    qint64 count(const QString &sql)
    {
        auto rows = engine::queryRows(m_fixture->engine->database().connection().value(), sql, {});
        return rows ? rows.value().first().first().toLongLong() : -1;
    }

    // The sandbox of manyDue()'s organization; key 0 when it is not loaded.
    engine::Scope manySandbox()
    {
        engine::Scope many{0, engine::Environment::Sandbox};
        const auto organizations = m_fixture->engine->organizations();
        if (organizations.ok())
            for (const engine::OrganizationRow &org : organizations.value())
                if (org.slug == "many"_L1)
                    many.orgPk = org.pk;
        return many;
    }

    // A call worth `dollars` of Cara's AI credits (init() prices the model).
    static api::TrackTokensRequest dollars(const QString &customer, qint64 dollars)
    {
        api::TrackTokensRequest call;
        call.customerId = customer;
        call.modelId = u"test/dollar"_s;
        call.inputTokens = dollars;
        return call;
    }

    void verifyLedger(engine::Engine &engine)
    {
        auto report = engine::LedgerVerifier::verify(engine.database().connection().value(),
                                                     engine.dialect());
        QVERIFY(report.ok());
        QVERIFY2(report.value().differences.isEmpty(),
                 qPrintable(report.value().differences.join(u'\n')));
    }

private Q_SLOTS:
    void init()
    {
        m_fixture = std::make_unique<test::EngineFixture>();
        *m_fixture->now = Jan31Noon;
        MD_OPEN_FIXTURE(*m_fixture);
        auto loaded = m_fixture->engine->loadWorkspace(clockWorkspace());
        QVERIFY2(loaded.ok(), loaded.ok() ? "" : qPrintable(loaded.error().message));
        auto catalogue = engine::PriceCatalogue::fromJson(
            R"({"providers":{"test":{"models":{"dollar":{"cost":{"input":1000000,"output":0}}}}}})");
        QVERIFY(catalogue.ok());
        m_fixture->engine->setCatalogue(
            std::make_shared<engine::PriceCatalogue>(catalogue.value()));
        const qint64 org = m_fixture->engine->organizations().value().first().pk;
        m_test = {org, engine::Environment::Sandbox};
        m_live = {org, engine::Environment::Production};
    }

    void aReadBringsWhatFellDueUpToDate()
    {
        *m_fixture->now = Mar05;
        const auto cara = balancesOf(u"cara"_s);
        // Feb 28: 400 unused carried over (under the cap of 500) for two
        // months, the grant back, usage 0; the 31st's calendar goes on.
        const api::BalanceRow calls = cara.value(u"b_cara_calls"_s);
        QCOMPARE(calls.remaining, dec("1000"));
        QCOMPARE(calls.usage, Decimal());
        QCOMPARE(calls.reset->resetsAt, std::optional<qint64>(1743379200000)); // Mar 31
        QCOMPARE(calls.rollovers.size(), 1);
        QCOMPARE(calls.rollovers.first().balance, dec("400"));
        QCOMPARE(calls.rollovers.first().expiresAt, 1745798400000); // Apr 28
        QCOMPARE(cara.value(u"b_cara_ai"_s).remaining, dec("200"));
        QCOMPARE(cara.value(u"b_cara_topup"_s).status, api::BalanceStatus::Active);
        const auto entries = ledgerOf(u"cara"_s);
        QCOMPARE(kindsOf(entries, u"b_cara_calls"_s, u"clock"_s),
                 (QStringList{u"rollover"_s, u"reset"_s}));
        // Dan's plan ended on Mar 1: its Feb 1 reset, then its expiry.
        const auto dan = balancesOf(u"dan"_s);
        QCOMPARE(dan.value(u"b_dan_credits"_s).status, api::BalanceStatus::Expired);
        QCOMPARE(kindsOf(ledgerOf(u"dan"_s), u"b_dan_credits"_s, u"clock"_s),
                 (QStringList{u"reset"_s, u"expiry"_s}));
        // Cara's subscription is in the period that holds now.
        auto customer = api().customer(test::everyScope(m_test), u"cara"_s);
        QVERIFY(customer.ok());
        QCOMPARE(customer.value().subscriptions.first().currentPeriodStart, Feb28);
        QCOMPARE(customer.value().subscriptions.first().currentPeriodEnd, 1743379200000);
        verifyLedger(*m_fixture->engine);
        // Read again: nothing more is written.
        const qint64 written = count(u"SELECT COUNT(*) FROM ledger"_s);
        balancesOf(u"cara"_s);
        QCOMPARE(count(u"SELECT COUNT(*) FROM ledger"_s), written);
    }

    void everyMissedPeriodAfterMonthsDown()
    {
        *m_fixture->now = Jun01;
        const api::BalanceRow calls = balancesOf(u"cara"_s).value(u"b_cara_calls"_s);
        const auto entries = ledgerOf(u"cara"_s);
        // Feb 28, Mar 31, Apr 30, May 31: four resets, each carrying over,
        // the rollovers held to 500, the soonest to expire giving way.
        QCOMPARE(kindsOf(entries, u"b_cara_calls"_s, u"clock"_s).count(u"reset"_s), 4);
        QCOMPARE(kindsOf(entries, u"b_cara_calls"_s, u"clock"_s).count(u"rollover"_s), 4);
        QCOMPARE(calls.remaining, dec("1000"));
        QCOMPARE(calls.rollovers.size(), 1);
        QCOMPARE(calls.rollovers.first().balance, dec("500"));
        QCOMPARE(calls.rollovers.first().expiresAt, 1753920000000); // Jul 31
        // The standalone top-up ended on Mar 15.
        QCOMPARE(balancesOf(u"cara"_s).value(u"b_cara_topup"_s).status,
                 api::BalanceStatus::Expired);
        QCOMPARE(kindsOf(entries, u"b_cara_topup"_s, u"clock"_s), QStringList{u"expiry"_s});
        // Production's clock is the real one's too: its balance reset.
        QCOMPARE(balancesOf(u"cara"_s, &m_live).value(u"b_live_calls"_s).remaining, dec("10"));
        verifyLedger(*m_fixture->engine);
    }

    void aTrackCallMeetingAResetLandsAfterIt()
    {
        *m_fixture->now = Mar05;
        auto answer = api().trackTokens(test::everyScope(m_test), dollars(u"cara"_s, 30));
        QVERIFY2(answer.ok(), answer.ok() ? "" : qPrintable(answer.error().message));
        // The Feb 28 reset carried last period's unused 20 over: the call
        // took those first, then 10 of this period's 200.
        QCOMPARE(answer.value().deductions.size(), 1);
        QCOMPARE(answer.value().deductions.first().balanceId, u"b_cara_ai"_s);
        const api::BalanceRow ai = balancesOf(u"cara"_s).value(u"b_cara_ai"_s);
        QCOMPARE(ai.remaining, dec("190"));
        QCOMPARE(ai.rollovers.size(), 1);
        QCOMPARE(ai.rollovers.first().balance, Decimal());
        QCOMPARE(ai.reset->resetsAt, std::optional<qint64>(1743379200000)); // Mar 31
        QStringList order;
        for (const api::LedgerEntry &entry : ledgerOf(u"cara"_s))
            if (entry.balanceId == "b_cara_ai"_L1)
                order << entry.kind;
        QCOMPARE(order, (QStringList{u"import"_s, u"rollover"_s, u"reset"_s, u"usage"_s}));
        verifyLedger(*m_fixture->engine);
        // Nothing is due any more, and the next call finds the row as written.
        QCOMPARE(
            count(u"SELECT COUNT(*) FROM balances WHERE id = 'b_cara_ai' AND due_at <= %1"_s.arg(
                Mar05)),
            0);
        QVERIFY(api().trackTokens(test::everyScope(m_test), dollars(u"cara"_s, 5)).ok());
        QCOMPARE(balancesOf(u"cara"_s).value(u"b_cara_ai"_s).remaining, dec("185"));
        verifyLedger(*m_fixture->engine);
    }

    void aCallMeetingAResetPaysOneStatementMore()
    {
        // Feb 27: nothing of Cara's is due. Mar 5: her Feb 28 reset is. A
        // call first, so that both counted ones find the engine warm.
        *m_fixture->now = Feb28 - 2 * Day;
        QVERIFY(api().trackTokens(test::everyScope(m_test), dollars(u"cara"_s, 1)).ok());
        QList<qint64> statements;
        // The rows the clock adds: its entries and the rollovers it makes.
        const auto clockRows = [this] {
            return count(u"SELECT COUNT(*) FROM ledger WHERE route = 'clock'"_s) +
                   count(u"SELECT COUNT(*) FROM rollovers"_s);
        };
        const qint64 rowsBefore = clockRows();
        for (const qint64 at : {Feb28 - Day, Mar05}) {
            *m_fixture->now = at;
            engine::StatementLog::start();
            QVERIFY(api().trackTokens(test::everyScope(m_test), dollars(u"cara"_s, 1)).ok());
            statements << engine::StatementLog::runs();
            engine::StatementLog::stop();
        }
        qInfo("statements of a call: %lld with nothing due, %lld meeting a reset",
              statements.first(), statements.last());
        // PostgreSQL: the read of what is due; the writes go with the
        // call's. SQLite, where a statement is no round trip, reads what is
        // due with every batch, and adds each row with a statement of its own.
        const qint64 allowed = m_fixture->engine->dialect() == engine::Dialect::Postgres
                                   ? 1
                                   : clockRows() - rowsBefore;
        QVERIFY2(statements.last() <= statements.first() + allowed,
                 qPrintable(u"%1 then %2, %3 allowed"_s.arg(statements.first())
                                .arg(statements.last())
                                .arg(allowed)));
        QCOMPARE(kindsOf(ledgerOf(u"cara"_s), u"b_cara_ai"_s, u"clock"_s),
                 (QStringList{u"rollover"_s, u"reset"_s}));
        verifyLedger(*m_fixture->engine);
    }

    void theSweepStepsAThousandAtATime()
    {
        *m_fixture->now = Jan31Noon;
        QVERIFY(m_fixture->engine->loadWorkspace(manyDue(2500, Feb28)).ok());
        *m_fixture->now = Mar01;
        // 2,500 of these and 4 of clock.json's are due: three steps.
        const auto resets = [&] {
            return count(u"SELECT COUNT(*) FROM ledger WHERE kind = 'reset' AND route = 'clock'"_s);
        };
        auto first = m_fixture->engine->clockSweep().step();
        QVERIFY(first.changed && first.more);
        QCOMPARE(resets(), 1000);
        QVERIFY(m_fixture->engine->clockSweep().step().more);
        QCOMPARE(resets(), 2000);
        auto last = m_fixture->engine->clockSweep().step();
        QVERIFY(last.changed && !last.more);
        QCOMPARE(resets(), 2504);
        QVERIFY(!m_fixture->engine->clockSweep().step().changed);
        verifyLedger(*m_fixture->engine);
    }

    void thePortalPageShowsTheBalanceAfterItsReset()
    {
        // A link made before the reset, opened after it (within its 15 minutes).
        QVERIFY(m_fixture->engine->loadWorkspace(manyDue(1, Jan31Noon + 5 * 60'000)).ok());
        const engine::Scope many = manySandbox();
        QVERIFY(many.orgPk != 0);
        m_fixture->engine->setPortalBase(QUrl(u"http://127.0.0.1:1/"_s));
        auto portal = api().billingPortal(test::everyScope(many), u"c0"_s, {});
        QVERIFY2(portal.ok(), portal.ok() ? "" : qPrintable(portal.error().message));
        const QString token = QUrl(portal.value().url).path().section(u'/', -1);
        *m_fixture->now = Jan31Noon + 10 * 60'000;
        const auto page = m_fixture->engine->portalPage(token);
        QCOMPARE(page.status, 200);
        QCOMPARE(count(u"SELECT COUNT(*) FROM ledger WHERE balance_id = 'b0' AND kind = 'reset'"_s),
                 1);
        QVERIFY2(!page.html.contains(">90<") && !page.html.contains(">90.00<"),
                 page.html.constData()); // not last period's remaining
    }

    void twoEnginesNeverApplyABalanceTwice()
    {
        *m_fixture->now = Jan31Noon;
        QVERIFY(m_fixture->engine->loadWorkspace(manyDue(3000, Feb28)).ok());
        *m_fixture->now = Mar01;
        // A second server on the same database, on the same clock.
        engine::Engine other(m_fixture->database.location(),
                             [now = m_fixture->now] { return *now; });
        QVERIFY(other.open().ok());
        const auto sweep = [](engine::Engine &engine) {
            for (int i = 0; i < 10 && engine.clockSweep().step().more; ++i) {
            }
        };
        std::thread a([&] { sweep(*m_fixture->engine); });
        std::thread b([&] { sweep(other); });
        a.join();
        b.join();
        QCOMPARE(count(u"SELECT COUNT(*) FROM ledger l JOIN organizations o ON o.pk = l.org_pk"
                       " WHERE o.slug = 'many' AND l.kind = 'reset'"_s),
                 3000);
        verifyLedger(*m_fixture->engine);
    }

    void theSandboxClockMovesForwardOnly()
    {
        const engine::KeyContext sandbox = test::everyScope(m_test);
        auto reading = api().clock(sandbox);
        QVERIFY(reading.ok());
        QCOMPARE(reading.value().now, Jan31Noon);
        QCOMPARE(reading.value().offsetMs, 0);

        api::ClockAdvance advance;
        advance.to = Mar05;
        auto live = api().advanceClock(test::everyScope(m_live), advance);
        QVERIFY(!live.ok());
        QCOMPARE(live.error().status, 403);
        QCOMPARE(live.error().code, u"sandbox_only"_s);
        advance.to = Jan31Noon - 1;
        auto back = api().advanceClock(sandbox, advance);
        QVERIFY(!back.ok());
        QCOMPARE(back.error().status, 400);
        QVERIFY2(back.error().message.startsWith(u"to:"_s), qPrintable(back.error().message));
        advance.to = Jan31Noon + 3660 * Day;
        QCOMPARE(api().advanceClock(sandbox, advance).error().status, 400);

        // The dry run says what the advance then does, and writes nothing.
        const qint64 written = count(u"SELECT COUNT(*) FROM ledger"_s);
        advance.to = Mar05;
        advance.dryRun = true;
        auto preview = api().advanceClock(sandbox, advance);
        QVERIFY2(preview.ok(), preview.ok() ? "" : qPrintable(preview.error().message));
        QCOMPARE(count(u"SELECT COUNT(*) FROM ledger"_s), written);
        QCOMPARE(api().clock(sandbox).value().now, Jan31Noon);
        advance.dryRun = false;
        auto moved = api().advanceClock(sandbox, advance);
        QVERIFY2(moved.ok(), moved.ok() ? "" : qPrintable(moved.error().message));
        QCOMPARE(moved.value().now, Mar05);
        QCOMPARE(moved.value().applied, preview.value().applied);
        QCOMPARE(moved.value().byFeature, preview.value().byFeature);
        // cara's two resets and rollovers, dan's reset; dan's plan ended
        // (its period does not move); cara's period moved.
        QCOMPARE(moved.value().applied.resets, 3);
        QCOMPARE(moved.value().applied.rollovers, 2);
        QCOMPARE(moved.value().applied.expiries, 1);
        QCOMPARE(moved.value().applied.periods, 1);
        QCOMPARE(balancesOf(u"cara"_s).value(u"b_cara_calls"_s).remaining, dec("1000"));
        // Production's clock did not move.
        QCOMPARE(api().clock(test::everyScope(m_live)).value().now, Jan31Noon);
        QCOMPARE(balancesOf(u"cara"_s, &m_live).value(u"b_live_calls"_s).remaining, dec("4"));
        // Another server on the database agrees.
        engine::Engine other(m_fixture->database.location(),
                             [now = m_fixture->now] { return *now; });
        QVERIFY(other.open().ok());
        QCOMPARE(engine::ApiOperations(other).clock(sandbox).value().now, Mar05);
        // Forward only, from the new now.
        advance.to = Mar05 - 1;
        QCOMPARE(api().advanceClock(sandbox, advance).error().status, 400);
        verifyLedger(*m_fixture->engine);
    }

    // The sweep leaves a sandbox to the advance that moves it, so the answer
    // counts everything the advance brought due: here the sweep ticks every
    // millisecond while 3,000 balances are applied in three steps.
    void anAdvanceCountsAllItBroughtDue()
    {
        QVERIFY(m_fixture->engine->loadWorkspace(manyDue(3000, Feb28)).ok());
        const engine::Scope many = manySandbox();
        QVERIFY(many.orgPk != 0);
        // This server's sweep and another's, both every millisecond.
        engine::Engine other(m_fixture->database.location(),
                             [now = m_fixture->now] { return *now; });
        QVERIFY(other.open().ok());
        other.startClock(std::chrono::milliseconds(1));
        m_fixture->engine->startClock(std::chrono::milliseconds(1));
        api::ClockAdvance advance;
        advance.to = Mar01;
        advance.dryRun = true;
        const auto preview = api().advanceClock(test::everyScope(many), advance);
        QVERIFY2(preview.ok(), preview.ok() ? "" : qPrintable(preview.error().message));
        QCOMPARE(preview.value().applied.resets, 3000);
        advance.dryRun = false;
        const auto moved = api().advanceClock(test::everyScope(many), advance);
        QVERIFY2(moved.ok(), moved.ok() ? "" : qPrintable(moved.error().message));
        QCOMPARE(moved.value().applied, preview.value().applied);
        // And the advance applied them itself: no sweep took a share.
        QCOMPARE(count(u"SELECT COUNT(*) FROM ledger WHERE kind = 'reset' AND route = 'clock'"_s),
                 0);
        QCOMPARE(count(u"SELECT COUNT(*) FROM ledger WHERE kind = 'reset'"
                       " AND route = 'clock.advance'"_s),
                 3000);
        verifyLedger(*m_fixture->engine);
    }

    void badRulesAreRefusedWhereTheyComeIn_data()
    {
        QTest::addColumn<QByteArray>("item");
        QTest::addColumn<QString>("named");
        QTest::newRow("interval_count 0")
            << QByteArray(R"({"feature_id":"api_calls","interval":"month","interval_count":0})")
            << u"items[0].interval_count"_s;
        QTest::newRow("negative max")
            << QByteArray(R"({"feature_id":"api_calls","interval":"month",)"
                          R"("rollover":{"max":-1,"length":1,"duration":"month"}})")
            << u"items[0].rollover.max"_s;
        QTest::newRow("length 0")
            << QByteArray(R"({"feature_id":"api_calls","interval":"month",)"
                          R"("rollover":{"max":null,"length":0,"duration":"month"}})")
            << u"items[0].rollover.length"_s;
        QTest::newRow("unknown duration")
            << QByteArray(R"({"feature_id":"api_calls","interval":"month",)"
                          R"("rollover":{"max":null,"length":1,"duration":"fortnight"}})")
            << u"items[0].rollover.duration"_s;
        QTest::newRow("unknown interval")
            << QByteArray(R"({"feature_id":"api_calls","interval":"decade"})")
            << u"items[0].interval"_s;
        QTest::newRow("a rollover that never resets")
            << QByteArray(R"({"feature_id":"api_calls",)"
                          R"("rollover":{"max":null,"length":1,"duration":"month"}})")
            << u"items[0].rollover"_s;
    }
    void badRulesAreRefusedWhereTheyComeIn()
    {
        QFETCH(QByteArray, item);
        QFETCH(QString, named);
        // products.update
        auto update =
            api::decodeBody<api::UpdateProductRequest>(QByteArray("{\"items\":[" + item + "]}"));
        QVERIFY(!update.ok());
        QCOMPARE(update.error().status, 400);
        QVERIFY2(update.error().message.contains(named), qPrintable(update.error().message));
        // a workspace file
        const api::JsonValue bad =
            test::replaced(clockWorkspace(), u"organizations.0.test.products.0.items.0"_s, item);
        auto loaded = m_fixture->engine->loadWorkspace(test::replaced(
            test::replaced(test::replaced(bad, u"organizations.0.slug"_s, "\"other\""),
                           u"organizations.0.id"_s, "\"org_other\""),
            u"organizations.0.api_keys"_s, QByteArray()));
        QVERIFY(!loaded.ok());
        QVERIFY2(loaded.error().message.contains(u"items[0]"_s),
                 qPrintable(loaded.error().message));
    }
};

QTEST_GUILESS_MAIN(TestBillingClock)
#include "tst_billingclock.moc"
