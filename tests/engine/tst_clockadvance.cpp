// The sandbox clock on a stored workspace (docs/api.md, "The billing
// clock"), on SQLite and PostgreSQL: clock.advance moves a sandbox forward
// only, never production's, answers what it brought due as its dry run
// counted it, with sweeps of two servers running; calls queued there are
// applied at its now; its refusals name what to fix; bad rollover rules are
// refused where they come in.
#include "services/api/WireCodec.h"
#include "tests/engine/ClockTestBase.h"

#include <QTest>

using namespace md;
using namespace md::test::clock;

class TestClockAdvance final : public ClockTestBase
{
    Q_OBJECT

private Q_SLOTS:
    void init() { setUp(); }

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

    // A call queued in a sandbox whose clock moved is applied at the
    // sandbox's now: a balance expired there is not drawn on, though the
    // server's own clock has not reached its expiry (issue 51).
    void aQueuedCallIsAppliedAtItsSandboxsNow()
    {
        const engine::KeyContext sandbox = test::everyScope(m_test);
        auto made = api().createBalance(sandbox, {u"cara"_s, u"ai_credits"_s, std::nullopt,
                                                  dec("50"), Jan31Noon + Day, u"for a day"_s});
        QVERIFY2(made.ok(), made.ok() ? "" : qPrintable(made.error().message));
        const QString id = made.value().balanceId;
        api::ClockAdvance advance;
        advance.to = Jan31Noon + 2 * Day;
        QVERIFY(api().advanceClock(sandbox, advance).ok());
        QCOMPARE(balancesOf(u"cara"_s).value(id).status, api::BalanceStatus::Expired);

        api::TrackTokensRequest call = dollars(u"cara"_s, 1'000'000); // more than all she holds
        call.async = true;
        QVERIFY(api().trackTokens(sandbox, call).ok());
        const auto drained = m_fixture->engine->trackQueue().drain();
        QVERIFY2(drained.ok() && drained.value() == 1,
                 drained.ok() ? "" : qPrintable(drained.error().message));
        const api::BalanceRow after = balancesOf(u"cara"_s).value(id);
        QCOMPARE(after.remaining, dec("50"));
        QCOMPARE(after.usage, dec("0"));
        for (const api::LedgerEntry &entry : ledgerOf(u"cara"_s))
            QVERIFY2(entry.balanceId != id || entry.kind != "usage"_L1, qPrintable(entry.id));
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

QTEST_GUILESS_MAIN(TestClockAdvance)
#include "tst_clockadvance.moc"
