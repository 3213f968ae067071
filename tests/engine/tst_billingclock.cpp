// The billing clock on a stored workspace (docs/api.md, "The billing
// clock"), on SQLite and PostgreSQL: a read brings what fell due up to date
// before it answers, with reset, rollover and expiry entries the trial
// balance agrees with; a server down for months catches up every period in
// order; a track call meeting a reset lands after it, at one statement more;
// the sweep takes at most 1,000 balances a step; two engines on one
// database never apply a balance twice. The sandbox clock: tst_clockadvance.
#include "services/engine/sql/StatementLog.h"
#include "services/engine/webhooks/WebhookOutbox.h"
#include "tests/engine/ClockTestBase.h"

#include <QTest>

#include <thread>

using namespace md;
using namespace md::test::clock;

class TestBillingClock final : public ClockTestBase
{
    Q_OBJECT

private Q_SLOTS:
    void init() { setUp(); }

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

    // The writer keeps a customer's rows between calls (SQLite); one that
    // ended since is not drawn on (the clock expires it, and the kept rows
    // are read again after the first of them ends).
    void aKeptRowIsNotDrawnOnPastItsExpiry()
    {
        *m_fixture->now = Mar05;
        // This period's 200 and the 20 carried over, then 1 of the top-up.
        auto first = api().trackTokens(test::everyScope(m_test), dollars(u"cara"_s, 221));
        QVERIFY2(first.ok(), first.ok() ? "" : qPrintable(first.error().message));
        QCOMPARE(first.value().deductions.last().balanceId, u"b_cara_topup"_s);
        *m_fixture->now = 1741996800000 + Day; // Mar 16: the top-up ended on Mar 15
        auto after = api().trackTokens(test::everyScope(m_test), dollars(u"cara"_s, 1));
        if (after) // else refused: nothing left to draw on
            for (const api::Deduction &part : after.value().deductions)
                QVERIFY(part.balanceId != u"b_cara_topup"_s);
        QCOMPARE(balancesOf(u"cara"_s).value(u"b_cara_topup"_s).status,
                 api::BalanceStatus::Expired);
        verifyLedger(*m_fixture->engine);
    }

    void aCallMeetingAResetPaysOneStatementMore()
    {
        // Feb 27: nothing of Cara's is due. Mar 5: her Feb 28 reset is. A
        // call first, so that both counted ones find the engine warm.
        *m_fixture->now = Feb28 - 2 * Day;
        QVERIFY(api().trackTokens(test::everyScope(m_test), dollars(u"cara"_s, 1)).ok());
        // Warm too: which webhook endpoints want a reset, read once a second
        // at most (WebhookOutbox::EndpointsKeptMs), here none.
        const auto wanted = m_fixture->engine->withConnection([&](const QSqlDatabase &db) {
            return engine::WebhookOutbox(db, m_fixture->engine->dialect(), m_test, 0)
                .wants(u"balances.reset"_s);
        });
        QVERIFY(wanted.ok() && !wanted.value());
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
};

QTEST_GUILESS_MAIN(TestBillingClock)
#include "tst_billingclock.moc"
