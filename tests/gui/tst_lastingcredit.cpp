// Issue 51: a hand credit on a balance that resets lasts only until the
// reset. The adjustment form and its review say so, and offer where a credit
// lasts: the customer's balances of the feature that do not reset, or a new
// one (balances.create), which the balances table then lists. Runs twice, on
// EngineBackend and on RemoteBackend to a local server
// (tests/gui/CMakeLists.txt).
#include "models/balances/BalanceAdjustEdit.h"
#include "models/balances/BalanceListModel.h"
#include "tests/gui/GuiBackend.h"
#include "tests/support/TestDatabase.h"
#include "views/balances/AdjustBalanceDialog.h"
#include "views/balances/BalanceDetailPane.h"
#include "views/balances/BalanceLedgerTab.h"
#include "views/balances/BalancesPage.h"
#include "views/common/ChangeReview.h"

#include <QComboBox>
#include <QLabel>
#include <QLineEdit>
#include <QPointer>
#include <QPushButton>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTableView>
#include <QTest>

using namespace md;
using namespace Qt::StringLiterals;
using models::BalanceAdjustEdit;

namespace {
const QString Key = u"sk_test_gui00000000000000000000000000000"_s;
}

class TestLastingCredit final : public QObject
{
    Q_OBJECT

    test::TestDatabase m_database;
    test::ServerProcess m_server;
    std::unique_ptr<backend::BillingBackend> m_backend;

    QList<api::BalanceRow> allRows()
    {
        QList<api::BalanceRow> rows;
        api::ListBalancesRequest request;
        request.limit = api::ListBalancesRequest::MaxLimit;
        for (bool more = true; more;) {
            auto page = m_backend->listBalances(request);
            if (!QTest::qWaitFor([&] { return page.isFinished(); }, 10000) || !page.result())
                qFatal("balances.list failed");
            rows += page.result().value().list;
            more = page.result().value().hasMore;
            request.startCursor = page.result().value().nextCursor.value_or(QString());
        }
        return rows;
    }

    // The ids of the balances a credit on `of` could last on instead.
    static QStringList lastingOf(const QList<api::BalanceRow> &rows, const api::BalanceRow &of)
    {
        QStringList ids;
        for (const api::BalanceRow &r : rows)
            if (r.customerId == of.customerId && r.featureId == of.featureId &&
                r.entityId == of.entityId && !r.planId && !r.unlimited &&
                !BalanceAdjustEdit::resets(r))
                ids.append(r.id);
        return ids;
    }

    // A resetting row of the demo with balances that last, or without.
    std::optional<api::BalanceRow> resettingRow(bool withLasting)
    {
        const QList<api::BalanceRow> rows = allRows();
        for (const api::BalanceRow &r : rows)
            if (BalanceAdjustEdit::resets(r) && !r.unlimited &&
                lastingOf(rows, r).isEmpty() != withLasting)
                return r;
        return std::nullopt;
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY2(m_database.error().isEmpty(), qPrintable(m_database.error()));
        QString problem;
        test::loadDemo(m_database.location(), Key, 20, &problem);
        QVERIFY2(problem.isEmpty(), qPrintable(problem));
        m_backend = test::openGuiBackend(m_database.location(), Key, m_server, &problem);
        QVERIFY2(m_backend, qPrintable(problem));
    }

    // The form and its review say the credit ends at the reset; chosen, a
    // balance that does not reset takes it, and the review says it lasts.
    void aCreditGoesOnABalanceThatLasts()
    {
        const auto row = resettingRow(true);
        QVERIFY2(row, "the demo has a resetting row with a balance that lasts");
        const QStringList lasting = lastingOf(allRows(), *row);

        views::AdjustBalanceDialog dialog(m_backend.get(), *row);
        dialog.show();
        // The row opened on, the ones that last, and a new one.
        QTRY_COMPARE(dialog.targetBox()->count(), 2 + lasting.size());
        QVERIFY(dialog.targetBox()->isVisibleTo(&dialog));
        dialog.amountEdit()->setText(u"5"_s);
        dialog.reasonEdit()->setText(u"goodwill, ticket 51"_s);
        const QString untilReset = BalanceAdjustEdit::lasting(*row, api::Decimal::fromInteger(5));
        QVERIFY2(untilReset.startsWith(u"This balance resets on "_s) &&
                     untilReset.contains(u"the credit lasts until then"_s),
                 qPrintable(untilReset));
        QCOMPARE(dialog.lastingLabel()->text(), untilReset);
        dialog.reviewButton()->click();
        QCOMPARE(dialog.review()->note(), untilReset);

        dialog.backButton()->click();
        dialog.targetBox()->setCurrentIndex(1);
        const QString chosen = dialog.targetBox()->itemText(1).section(u' ', 0, 0);
        QVERIFY2(lasting.contains(chosen), qPrintable(chosen));
        dialog.reviewButton()->click();
        QVERIFY2(dialog.review()->note().startsWith(
                     u"Balance %1 does not reset; the credit lasts until it is used"_s.arg(chosen)),
                 qPrintable(dialog.review()->note()));
        QSignalSpy adjusted(&dialog, &views::AdjustBalanceDialog::adjusted);
        dialog.saveButton()->click();
        QTRY_COMPARE_WITH_TIMEOUT(adjusted.count(), 1, 10000);
        const auto entry = adjusted.first().first().value<api::LedgerEntry>();
        QCOMPARE(entry.balanceId, chosen);
        QCOMPARE(entry.amount, api::Decimal::fromInteger(5));
    }

    // A customer without a balance that lasts is offered a new one: made
    // from the balances page, it is listed there at once with what it holds.
    void aNewBalanceIsMadeWhereNoneLasts()
    {
        const auto row = resettingRow(false);
        QVERIFY2(row, "the demo has a resetting row without a balance that lasts");
        views::BalancesPage page(m_backend.get());
        page.resize(1000, 800);
        page.show();
        QVERIFY(QTest::qWaitForWindowActive(&page));
        models::BalanceFilter filter = page.filter();
        filter.customerId = row->customerId;
        filter.featureId = row->featureId;
        page.setFilter(filter);
        int at = -1;
        QTRY_VERIFY([&] {
            for (int r = 0; r < page.model()->rowCount(); ++r)
                if (page.model()->isLoaded(r) && page.model()->balance(r).id == row->id)
                    at = r;
            return at >= 0;
        }());
        const int before = page.model()->rowCount();
        page.table()->selectRow(at);
        auto *ledger = page.detail()->ledger();
        page.detail()->tabs()->setCurrentWidget(ledger);
        QPointer<views::AdjustBalanceDialog> dialog = ledger->adjustDialog();
        dialog->show();
        QTRY_COMPARE(dialog->targetBox()->count(), 2);
        QVERIFY2(dialog->alternativesLabel()->text().contains(u"choose a new one above"_s),
                 qPrintable(dialog->alternativesLabel()->text()));
        dialog->targetBox()->setCurrentIndex(1);
        QCOMPARE(dialog->saveButton()->text(), u"&Make balance"_s);
        dialog->amountEdit()->setText(u"-3"_s);
        dialog->reasonEdit()->setText(u"goodwill that lasts, ticket 51"_s);
        QVERIFY2(dialog->problemLabel()->text().contains(u"a new balance holds what it is given"_s),
                 qPrintable(dialog->problemLabel()->text()));
        QVERIFY(!dialog->reviewButton()->isEnabled());
        dialog->amountEdit()->setText(u"12.5"_s);
        QVERIFY2(dialog->reviewButton()->isEnabled(), qPrintable(dialog->problemLabel()->text()));
        dialog->reviewButton()->click();
        QVERIFY2(dialog->review()->note().startsWith(
                     u"A new balance of %1 that does not reset"_s.arg(row->featureId)),
                 qPrintable(dialog->review()->note()));
        QSignalSpy created(ledger, &views::BalanceLedgerTab::created);
        QSignalSpy said(&page, &views::BalancesPage::statusMessage);
        dialog->saveButton()->click();
        QTRY_COMPARE_WITH_TIMEOUT(created.count(), 1, 10000);
        QTRY_VERIFY(!dialog); // closed and gone
        const auto entry = created.first().first().value<api::LedgerEntry>();
        QCOMPARE(entry.kind, u"grant"_s);
        QCOMPARE(entry.customerId, row->customerId);
        QCOMPARE(entry.amount, *api::Decimal::parse("12.5"));
        QVERIFY(std::any_of(said.cbegin(), said.cend(), [&](const QList<QVariant> &message) {
            return message.first().toString().startsWith(u"Made balance %1"_s.arg(entry.balanceId));
        }));

        // Read again, the table lists it: standalone, holding what it was given.
        QTRY_VERIFY_WITH_TIMEOUT(
            page.model()->rowCount() == before + 1 && page.model()->isLoaded(before), 10000);
        std::optional<api::BalanceRow> made;
        for (int r = 0; r < page.model()->rowCount(); ++r)
            if (page.model()->isLoaded(r) && page.model()->balance(r).id == entry.balanceId)
                made = page.model()->balance(r);
        QVERIFY(made);
        QVERIFY(!made->planId);
        QVERIFY(!made->reset);
        QCOMPARE(made->entityId, row->entityId);
        QCOMPARE(made->remaining, *api::Decimal::parse("12.5"));
        QVERIFY(!lastingOf(allRows(), *row).isEmpty()); // it lasts where the next credit can go
    }

    void cleanupTestCase()
    {
        m_backend.reset();
        if (qEnvironmentVariable("MD_GUI_BACKEND") == "remote"_L1)
            QCOMPARE(m_server.stop(), 0);
    }
};

QTEST_MAIN(TestLastingCredit)
#include "tst_lastingcredit.moc"
