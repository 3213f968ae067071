// Tools ▸ Sandbox clock… as a user drives it (offscreen), on EngineBackend
// or on RemoteBackend to a local server (MD_GUI_BACKEND), on the demo
// workspace: the sandbox's now is read and a month later offered, with the
// keyboard on it; the server's dry run shows what falls due by feature
// (the model checked by QAbstractItemModelTester); the review says it
// again; Move clock moves it, and no balance shows a past reset after; a
// production workspace is told its clock cannot be moved.
#include "models/operator/SandboxClockModel.h"
#include "services/engine/Engine.h"
#include "tests/gui/GuiBackend.h"
#include "tests/support/Await.h"
#include "tests/support/TestDatabase.h"
#include "views/common/ChangeReview.h"
#include "views/operator/SandboxClockDialog.h"

#include <QAbstractItemModelTester>
#include <QDateTimeEdit>
#include <QLabel>
#include <QMessageBox>
#include <QPushButton>
#include <QSignalSpy>
#include <QTableView>
#include <QTest>

using namespace md;
using namespace Qt::StringLiterals;
using test::await;

namespace {

const QString Key = u"sk_test_clockgui00000000000000000000000"_s;

} // namespace

class TestSandboxClock final : public QObject
{
    Q_OBJECT

    test::TestDatabase m_database;
    test::ServerProcess m_server;
    std::unique_ptr<backend::BillingBackend> m_backend;
    QString m_liveKey;

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY2(m_database.error().isEmpty(), qPrintable(m_database.error()));
        QString problem;
        QVERIFY2(!test::loadDemo(m_database.location(), Key, 40, &problem).isEmpty(),
                 qPrintable(problem));
        {
            engine::Engine setup(m_database.location());
            QVERIFY(setup.open().ok());
            const QString slug = setup.organizations().value().first().slug;
            auto live = setup.createKey(slug, engine::Environment::Production,
                                        {u"balances:read"_s, u"balances:write"_s}, u"gui"_s);
            QVERIFY(live.ok());
            m_liveKey = live.value().secret;
        }
        m_backend = test::openGuiBackend(m_database.location(), Key, m_server, &problem);
        QVERIFY2(m_backend, qPrintable(problem));
    }

    void previewThenMove()
    {
        views::SandboxClockDialog dialog(m_backend.get());
        QAbstractItemModelTester tester(dialog.model());
        dialog.show();
        QTRY_VERIFY_WITH_TIMEOUT(dialog.target()->isEnabled(), 10000);
        QCOMPARE(dialog.focusWidget(), dialog.target()); // the keyboard is on the moment
        const qint64 now = dialog.model()->reading()->now;
        QCOMPARE(dialog.target()->dateTime(), QDateTime::fromMSecsSinceEpoch(now).addMonths(1));
        // The demo's monthly balances all reset within a month.
        QTRY_VERIFY_WITH_TIMEOUT(dialog.model()->previewed().has_value(), 10000);
        QVERIFY(dialog.model()->rowCount() > 0);
        QVERIFY(dialog.model()->previewed()->applied.resets > 0);
        QVERIFY2(dialog.state()->text().contains(u"reset"_s), qPrintable(dialog.state()->text()));
        QVERIFY(dialog.reviewButton()->isEnabled());
        dialog.reviewButton()->click();
        QVERIFY(dialog.isReviewing());
        QSignalSpy advanced(&dialog, &views::SandboxClockDialog::advanced);
        dialog.saveButton()->click();
        QTRY_COMPARE_WITH_TIMEOUT(advanced.count(), 1, 30000);
        const auto answer = advanced.first().first().value<api::ClockAdvanced>();
        QCOMPARE(answer.applied, dialog.model()->previewed()->applied);

        // The sandbox is a month on, and no balance shows a reset it passed.
        const auto clock = await(m_backend->clock());
        QVERIFY(clock.ok());
        QVERIFY(clock.value().offsetMs > 25LL * 86'400'000);
        api::ListBalancesRequest request;
        request.limit = api::ListBalancesRequest::MaxLimit;
        for (;;) {
            const auto page = await(m_backend->listBalances(request));
            QVERIFY(page.ok());
            for (const api::BalanceRow &row : page.value().list)
                if (row.reset && row.reset->resetsAt)
                    QVERIFY2(*row.reset->resetsAt > clock.value().now, qPrintable(row.id));
            if (!page.value().hasMore)
                break;
            request.startCursor = *page.value().nextCursor;
        }
    }

    // A moment typed before now stays as typed, with the reason it cannot
    // be chosen; no two-digit year is read into another century.
    void aMomentBeforeNowIsRefusedInWords()
    {
        views::SandboxClockDialog dialog(m_backend.get());
        dialog.show();
        QTRY_VERIFY_WITH_TIMEOUT(dialog.target()->isEnabled(), 10000);
        QVERIFY(dialog.target()->displayFormat().contains(u"yyyy"_s));
        const QDateTime now = QDateTime::fromMSecsSinceEpoch(dialog.model()->reading()->now);
        const QDateTime before = now.addDays(-6);
        dialog.target()->setDateTime(before); // not moved to now by the field
        QCOMPARE(dialog.target()->dateTime(), before);
        QTRY_VERIFY2(dialog.problemLabel()->text().contains(u"only moves forward"_s),
                     qPrintable(dialog.problemLabel()->text()));
        QVERIFY(!dialog.reviewButton()->isEnabled());
    }

    // The moment and its preview are the dialog's own, not the person's
    // edits: Escape closes it at once, with nothing to discard.
    void escapeClosesWhatWasOnlyLookedAt()
    {
        views::SandboxClockDialog dialog(m_backend.get());
        dialog.show();
        QTRY_VERIFY_WITH_TIMEOUT(dialog.model()->previewed().has_value(), 10000);
        QTest::keyClick(&dialog, Qt::Key_Escape);
        QVERIFY(!dialog.findChild<QMessageBox *>(u"discardQuestion"_s));
        QVERIFY(!dialog.isVisible());
    }

    void productionIsToldItsClockIsReal()
    {
        QString problem;
        test::ServerProcess server;
        auto live = test::openGuiBackend(m_database.location(), m_liveKey, server, &problem);
        QVERIFY2(live, qPrintable(problem));
        views::SandboxClockDialog dialog(live.get());
        dialog.show();
        QTRY_VERIFY_WITH_TIMEOUT(dialog.state()->text().contains(u"production"_s), 10000);
        QVERIFY(!dialog.reviewButton()->isEnabled());
    }
};

QTEST_MAIN(TestSandboxClock)
#include "tst_sandboxclock.moc"
