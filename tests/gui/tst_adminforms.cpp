// The admin forms as an admin drives them (offscreen), on EngineBackend or
// over HTTP (MD_GUI_BACKEND), on the conformance suite's admin workspace:
// edit, invalid input blocks the review with the reason shown, the review
// shows the difference, save, undo.
#include "models/admin/ProductListModel.h"
#include "models/admin/RewardListModel.h"
#include "models/admin/TenantListModel.h"
#include "tests/gui/GuiBackend.h"
#include "tests/support/StripeMock.h"
#include "tests/support/TestDatabase.h"
#include "views/admin/ProductDialog.h"
#include "views/admin/ProductsPage.h"
#include "views/admin/RewardDialog.h"
#include "views/admin/RewardsPage.h"
#include "views/admin/TenantsPage.h"
#include "views/common/ChangeReview.h"

#include <QAbstractItemModelTester>
#include <QComboBox>
#include <QLabel>
#include <QLineEdit>
#include <QMessageBox>
#include <QPointer>
#include <QPushButton>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTableView>
#include <QTableWidget>
#include <QTest>

using namespace md;
using namespace Qt::StringLiterals;

namespace {

const QString Key = u"sk_test_admin00000000000000000000000000"_s;

} // namespace

class TestAdminForms final : public QObject
{
    Q_OBJECT

    test::TestDatabase m_database;
    test::ServerProcess m_server;
    std::unique_ptr<backend::BillingBackend> m_backend;

    api::Product stored(const QString &id)
    {
        auto products = m_backend->listProducts();
        while (!products.isFinished())
            QCoreApplication::processEvents(QEventLoop::AllEvents, 10);
        api::Product newest;
        const auto listed = products.result(); // a copy: the loop must not outlive it
        for (const api::Product &p : listed.value().list)
            if (p.id == id && p.version >= newest.version)
                newest = p;
        return newest;
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY2(m_database.error().isEmpty(), qPrintable(m_database.error()));
        // Links ask Stripe: the mock, reaching acct_ok2, read by the engine
        // or the server about to start (docs/processors.md).
        QString problem;
        test::StripeMock *stripe = test::StripeMock::shared(&problem);
        QVERIFY2(stripe, qPrintable(problem));
        problem = stripe->seedAccounts({u"acct_ok2"_s});
        QVERIFY2(problem.isEmpty(), qPrintable(problem));
        qputenv("MD_STRIPE_API_BASE", stripe->url().toString().toUtf8());
        m_backend = test::openLoadedBackend(
            m_database.location(), QStringLiteral(MD_ADMIN_WORKSPACE), Key, m_server, &problem);
        QVERIFY2(m_backend, qPrintable(problem));
        // Delta's test key, as `processors connect` stores it.
        problem = test::StripeMock::connectTestKey(m_database.location(), u"delta"_s,
                                                   u"sk_test_meterdesk_gui_000000001"_s);
        QVERIFY2(problem.isEmpty(), qPrintable(problem));
    }

private:
    // The form of the workspace's product `id` ("draft" unless said), from
    // `page` shown and loaded; null when that row does not come.
    static views::ProductDialog *editDraft(views::ProductsPage &page,
                                           const QString &id = u"draft"_s)
    {
        page.show();
        page.refresh();
        if (!QTest::qWaitFor([&page, &id] { return page.model()->rowOf(id) >= 0; }))
            return nullptr;
        page.table()->selectRow(page.model()->rowOf(id));
        return page.editSelected();
    }

private Q_SLOTS:
    // Cancel and Escape close an untouched form at once; on edits they ask,
    // and Keep editing keeps them.
    void cancelAsksBeforeDroppingEdits()
    {
        views::ProductsPage page(m_backend.get());
        QPointer<views::ProductDialog> dialog = editDraft(page); // deleted on close
        QVERIFY(dialog);
        QVERIFY(QTest::qWaitForWindowExposed(dialog));
        QTest::keyClick(dialog, Qt::Key_Escape);
        QVERIFY(!dialog->isVisible()); // nothing typed: closed, nothing asked
        QTRY_VERIFY(!dialog);

        dialog = editDraft(page);
        QVERIFY(QTest::qWaitForWindowExposed(dialog));
        dialog->nameEdit()->selectAll();
        QTest::keyClicks(dialog->nameEdit(), u"Draft (typed)"_s);
        const auto question = [&dialog] {
            return dialog->findChild<QMessageBox *>(u"discardQuestion"_s);
        };
        QTest::keyClick(dialog, Qt::Key_Escape);
        QVERIFY(question() && question()->isVisible());
        QVERIFY(dialog->isVisible());
        question()->defaultButton()->click(); // Keep editing
        QTRY_VERIFY(!question());
        QVERIFY(dialog->isVisible());
        QCOMPARE(dialog->nameEdit()->text(), u"Draft (typed)"_s);

        const auto buttons = dialog->findChildren<QAbstractButton *>();
        const auto cancel = std::find_if(buttons.cbegin(), buttons.cend(), [](QAbstractButton *b) {
            return b->text().remove(u'&') == "Cancel"_L1;
        });
        QVERIFY(cancel != buttons.cend());
        (*cancel)->click();
        QVERIFY(question());
        for (QAbstractButton *button : question()->buttons())
            if (question()->buttonRole(button) == QMessageBox::DestructiveRole)
                button->click();
        QTRY_VERIFY(!dialog);
        QVERIFY(stored(u"draft"_s).name != u"Draft (typed)"_s);
    }

    void productFormEditReviewSaveUndo()
    {
        views::ProductsPage page(m_backend.get());
        QAbstractItemModelTester tester(page.model());
        views::ProductDialog *dialog = editDraft(page);
        QVERIFY(dialog);
        QVERIFY(!dialog->reviewButton()->isEnabled()); // nothing changed yet

        // A name typed, then tiers that do not parse: the review is blocked, with the reason.
        dialog->nameEdit()->selectAll();
        QTest::keyClicks(dialog->nameEdit(), u"Draft (tiered)"_s);
        QVERIFY(dialog->reviewButton()->isEnabled());
        QTableWidget *items = dialog->items();
        items->item(0, views::ProductDialog::TiersColumn)->setText(u"1000:0.5; 2000"_s);
        QVERIFY(!dialog->reviewButton()->isEnabled());
        // Said in words, numbered from 1 (FieldWords).
        QVERIFY2(dialog->problemLabel()->text().startsWith(u"Item 1"_s) &&
                     dialog->problemLabel()->text().contains(u"tiers"_s),
                 qPrintable(dialog->problemLabel()->text()));
        items->item(0, views::ProductDialog::TiersColumn)
            ->setText(u"1000:0.5; 500:0.4; inf:0.25"_s);
        QVERIFY2(dialog->problemLabel()->text().startsWith(u"Item 1, tier 2: the up-to value"_s),
                 qPrintable(dialog->problemLabel()->text()));
        items->item(0, views::ProductDialog::TiersColumn)->setText(u"1000:0.5; inf:0.25"_s);
        items->item(0, views::ProductDialog::FeatureColumn)->setText(u"nope"_s);
        QTRY_VERIFY(dialog->problemLabel()->text().contains(u"nope"_s)); // features read first
        QVERIFY(!dialog->reviewButton()->isEnabled());
        items->item(0, views::ProductDialog::FeatureColumn)->setText(u"calls"_s);
        QVERIFY(dialog->problemLabel()->text().isEmpty());
        QVERIFY(dialog->reviewButton()->isEnabled());

        // The review: the name and the item, before and after.
        dialog->reviewButton()->click();
        QVERIFY(dialog->isReviewing());
        QTableWidget *review = dialog->review()->table();
        QCOMPARE(review->rowCount(), 2);
        QCOMPARE(review->item(0, 1)->text(), u"Draft"_s);
        QCOMPARE(review->item(0, 2)->text(), u"Draft (tiered)"_s);
        QCOMPARE(review->item(1, 0)->text(), u"Item calls · tiers"_s);
        QCOMPARE(review->item(1, 2)->text(), u"1000:0.5; inf:0.25"_s);

        QSignalSpy saved(dialog, &views::ProductDialog::saved);
        dialog->saveButton()->click();
        QVERIFY(saved.count() == 1 || saved.wait(10000));
        QTRY_VERIFY(page.status()->text().contains(u"Saved draft"_s));
        api::Product after = stored(u"draft"_s);
        QCOMPARE(after.name, u"Draft (tiered)"_s);
        QCOMPARE(after.items.first().tiers->size(), 2);

        // Undo writes the previous values back.
        QVERIFY(page.undoButton()->isEnabled());
        page.undoButton()->click();
        QTRY_VERIFY(page.status()->text().contains(u"Undid"_s));
        after = stored(u"draft"_s);
        QCOMPARE(after.name, u"Draft"_s);
        QVERIFY(!after.items.first().tiers);
        QVERIFY(!page.undoButton()->isEnabled());
    }

    // Issue 51: a version renumbered (nobody is on draft) goes back on Undo,
    // and the audit log has the undo.
    void undoPutsARenumberedVersionBack()
    {
        views::ProductsPage page(m_backend.get());
        views::ProductDialog *dialog = editDraft(page);
        QVERIFY(dialog);
        const qint64 was = stored(u"draft"_s).version;
        dialog->versionEdit()->setValue(7);
        QVERIFY2(dialog->reviewButton()->isEnabled(), qPrintable(dialog->problemLabel()->text()));
        dialog->reviewButton()->click();
        QSignalSpy saved(dialog, &views::ProductDialog::saved);
        dialog->saveButton()->click();
        QTRY_COMPARE(saved.count(), 1);
        QCOMPARE(stored(u"draft"_s).version, 7);

        page.undoButton()->click();
        QTRY_VERIFY2(page.status()->text().contains(u"Undid"_s), qPrintable(page.status()->text()));
        QCOMPARE(stored(u"draft"_s).version, was);
        api::AuditLogRequest audit;
        audit.resourceType = u"product"_s;
        audit.resourceId = u"draft"_s;
        auto entries = m_backend->listAuditLog(audit);
        QTRY_VERIFY(entries.isFinished());
        const api::AuditEntry newest = entries.result().value().list.value(0);
        QCOMPARE(newest.before.value("version"_L1).numberText(), "7");
        QCOMPARE(newest.after.value("version"_L1).numberText(), QByteArray::number(was));
    }

    // Issue 51: the review says, from the server's dry run, that Save makes
    // a new version of basic (dora is on version 1) and changes draft's
    // items in place; looking writes nothing. Tiers without a last "inf"
    // are refused before that, naming the item.
    void reviewSaysWhenSaveMakesANewVersion()
    {
        views::ProductsPage page(m_backend.get());
        views::ProductDialog *dialog = editDraft(page, u"basic"_s);
        QVERIFY(dialog);
        QTableWidget *items = dialog->items();
        items->item(0, views::ProductDialog::TiersColumn)->setText(u"100000:0.002"_s);
        QVERIFY(!dialog->reviewButton()->isEnabled());
        QVERIFY2(dialog->problemLabel()->text().startsWith(
                     u"Item 1: the tiers must end with a tier up to \"inf\""_s),
                 qPrintable(dialog->problemLabel()->text()));
        QVERIFY(items->item(0, views::ProductDialog::TiersColumn)->background() != QBrush());
        items->item(0, views::ProductDialog::TiersColumn)->setText(QString());
        items->item(0, views::ProductDialog::IncludedColumn)->setText(u"200"_s);
        dialog->reviewButton()->click();
        QCOMPARE(dialog->review()->table()->item(0, 0)->text(), u"Item calls · included usage"_s);
        QTRY_COMPARE(dialog->review()->note(),
                     u"Customers are on version 1 of basic, so Save makes version 2 with these "
                     "items; version 1 stays as it is for them."_s);
        dialog->reject();
        QCOMPARE(stored(u"basic"_s).version, 1);
        QCOMPARE(stored(u"basic"_s).items.first().includedUsage, api::Decimal::fromInteger(100));

        dialog = editDraft(page);
        QVERIFY(dialog);
        dialog->items()->item(0, views::ProductDialog::IncludedColumn)->setText(u"20"_s);
        dialog->reviewButton()->click();
        QTRY_COMPARE(
            dialog->review()->note(),
            u"No customer is on version 1 of draft, so Save changes its items in place."_s);
        dialog->reject();
    }

    // The billing clock's fields: a rollover typed as "max/length interval"
    // and a count of intervals, checked as typed, reviewed, saved.
    void productFormEditsRolloverAndEvery()
    {
        views::ProductsPage page(m_backend.get());
        views::ProductDialog *dialog = editDraft(page);
        QVERIFY(dialog);
        QTableWidget *items = dialog->items();
        QCOMPARE(items->item(0, views::ProductDialog::RolloverColumn)->text(), QString());
        items->item(0, views::ProductDialog::RolloverColumn)->setText(u"800 for a month"_s);
        QVERIFY(!dialog->reviewButton()->isEnabled());
        QVERIFY2(dialog->problemLabel()->text().startsWith(u"Item 1"_s) &&
                     dialog->problemLabel()->text().contains(u"500/2 month"_s),
                 qPrintable(dialog->problemLabel()->text())); // says how to write it
        QVERIFY(items->item(0, views::ProductDialog::RolloverColumn)->background() != QBrush());
        items->item(0, views::ProductDialog::RolloverColumn)->setText(u"800/1 month"_s);
        items->item(0, views::ProductDialog::EveryColumn)->setText(u"0"_s);
        QVERIFY(!dialog->reviewButton()->isEnabled());
        QVERIFY(items->item(0, views::ProductDialog::EveryColumn)->background() != QBrush());
        items->item(0, views::ProductDialog::EveryColumn)->setText(u"2"_s);
        QVERIFY2(dialog->reviewButton()->isEnabled(), qPrintable(dialog->problemLabel()->text()));

        dialog->reviewButton()->click();
        QTableWidget *review = dialog->review()->table();
        QCOMPARE(review->rowCount(), 2);
        QCOMPARE(review->item(0, 0)->text(), u"Item calls · every"_s);
        QCOMPARE(review->item(0, 2)->text(), u"2"_s);
        QCOMPARE(review->item(1, 0)->text(), u"Item calls · rollover"_s);
        QCOMPARE(review->item(1, 2)->text(), u"800/1 month"_s);
        QSignalSpy saved(dialog, &views::ProductDialog::saved);
        dialog->saveButton()->click();
        QTRY_COMPARE(saved.count(), 1);
        const api::ProductItem item = stored(u"draft"_s).items.first();
        QCOMPARE(item.intervalCount, 2);
        QCOMPARE(item.rollover,
                 (api::RolloverRule{api::Decimal::fromInteger(800), 1, api::ResetInterval::Month}));

        page.undoButton()->click();
        QTRY_VERIFY(page.status()->text().contains(u"Undid"_s));
        QCOMPARE(stored(u"draft"_s).items.first().rollover, std::nullopt);
    }

    void rewardFormEditReviewSaveUndo()
    {
        views::RewardsPage page(m_backend.get());
        QAbstractItemModelTester tester(page.model());
        page.show();
        page.refresh();
        QTRY_VERIFY(page.model()->rowOf(u"bonus"_s) >= 0);
        page.table()->selectRow(page.model()->rowOf(u"bonus"_s));
        views::RewardDialog *dialog = page.editSelected();
        QVERIFY(dialog);
        QVERIFY(!dialog->reviewButton()->isEnabled());

        // A new promo code without its code blocks the review, naming the field.
        dialog->addCode();
        // Its code's cell is open for typing.
        QVERIFY(dialog->codes()->viewport()->findChild<QLineEdit *>());
        QCOMPARE(dialog->codes()->currentRow(), 1);
        QVERIFY(!dialog->reviewButton()->isEnabled());
        QCOMPARE(dialog->problemLabel()->text(),
                 u"Feature grant, promo code 2: the code must not be empty"_s);
        // Another reward's code passes here; the server refuses it on Save.
        dialog->codes()->item(1, 0)->setText(u"TAKEN"_s);
        QVERIFY(dialog->reviewButton()->isEnabled());
        dialog->reviewButton()->click();
        QCOMPARE(dialog->review()->table()->item(0, 0)->text(), u"Promo codes"_s);
        QVERIFY(dialog->review()->table()->item(0, 2)->text().contains(u"TAKEN"_s));
        dialog->saveButton()->click();
        QTRY_VERIFY(dialog->review()->problem().startsWith(u"Not saved"_s));
        QVERIFY2(dialog->review()->problem().contains(u"TAKEN"_s),
                 qPrintable(dialog->review()->problem()));
        QVERIFY(dialog->isVisible());

        // Fixed: another code, and a new name.
        dialog->backButton()->click();
        QVERIFY(!dialog->isReviewing());
        dialog->codes()->item(1, 0)->setText(u"BONUS3"_s);
        dialog->nameEdit()->setText(u"Bonus credits"_s);
        dialog->reviewButton()->click();
        QCOMPARE(dialog->review()->table()->rowCount(), 2);
        QSignalSpy saved(dialog, &views::RewardDialog::saved);
        QVERIFY(dialog->saveButton()->isEnabled());
        dialog->saveButton()->click();
        QVERIFY2(saved.count() == 1 || saved.wait(10000), qPrintable(dialog->review()->problem()));
        QTRY_VERIFY(page.status()->text().contains(u"Saved bonus"_s));
        QTRY_COMPARE(page.model()->index(page.model()->rowOf(u"bonus"_s), 3).data().toString(),
                     u"BONUS, BONUS3"_s);

        page.undoButton()->click();
        QTRY_VERIFY(page.status()->text().contains(u"Undid"_s));
        QTRY_COMPARE(page.model()->index(page.model()->rowOf(u"bonus"_s), 3).data().toString(),
                     u"BONUS"_s);
        QCOMPARE(page.model()->index(page.model()->rowOf(u"bonus"_s), 2).data().toString(),
                 u"Bonus"_s);
    }

    void tenantLinkShowsTheServersMessage()
    {
        views::TenantsPage page(m_backend.get());
        QAbstractItemModelTester tester(page.model());
        page.show();
        page.refresh();
        QTRY_COMPARE(page.model()->tenantSlugs(), (QStringList{u"delta-t1"_s, u"delta-t2"_s}));
        views::LinkAccountDialog *dialog = page.linkAccount();
        QCOMPARE(dialog->tenant()->currentText(), u"delta-t1"_s);
        QVERIFY(!dialog->linkButton()->isEnabled()); // no account yet
        QVERIFY(dialog->problem()->text().contains(u"account"_s));
        QTest::keyClicks(dialog->testAccount(), u"acct_far"_s);
        QVERIFY(dialog->linkButton()->isEnabled());
        dialog->linkButton()->click();
        QTRY_VERIFY(dialog->problem()->text().startsWith(u"Not linked"_s));
        QVERIFY(dialog->problem()->text().contains(u"acct_far"_s));
        QVERIFY(dialog->isVisible()); // stays open to fix
        dialog->testAccount()->setText(u"acct_ok2"_s);
        dialog->linkButton()->click();
        QTRY_VERIFY(page.status()->text().contains(u"acct_ok2"_s));
        QTRY_VERIFY(page.model()->index(1, models::TenantListModel::TestColumn).data().toString() ==
                    u"acct_ok2"_s);
    }

    // Save and Undo read the list again: the product saved, then the one
    // undone, is the row selected afterwards, not the first.
    void saveAndUndoKeepTheProductSelected()
    {
        views::ProductsPage page(m_backend.get());
        const auto selected = [&page] {
            const QModelIndexList rows = page.table()->selectionModel()->selectedRows();
            return rows.size() == 1 ? page.model()->idAt(rows.first().row()) : QString();
        };
        const auto name = [&page] {
            return page.model()->product(page.model()->rowOf(u"draft"_s)).name;
        };
        views::ProductDialog *dialog = editDraft(page);
        QVERIFY(dialog);
        QVERIFY2(page.model()->rowOf(u"draft"_s) > 0, "draft must not be the first row");
        dialog->nameEdit()->setText(u"Draft (renamed)"_s);
        QVERIFY2(dialog->reviewButton()->isEnabled(), qPrintable(dialog->problemLabel()->text()));
        dialog->reviewButton()->click();
        QSignalSpy reloaded(page.model(), &models::ListTableModel::loaded);
        dialog->saveButton()->click();
        QTRY_VERIFY(!reloaded.isEmpty());
        QCOMPARE(name(), u"Draft (renamed)"_s);
        QCOMPARE(selected(), u"draft"_s);

        page.table()->selectRow(0); // looking elsewhere: Undo shows what it undid
        reloaded.clear();
        page.undoButton()->click();
        QTRY_VERIFY(!reloaded.isEmpty());
        QCOMPARE(name(), u"Draft"_s);
        QCOMPARE(selected(), u"draft"_s);
    }

    // The same on the Rewards page.
    void saveAndUndoKeepTheRewardSelected()
    {
        views::RewardsPage page(m_backend.get());
        page.show();
        page.refresh();
        QTRY_VERIFY(page.model()->rowOf(u"bonus"_s) >= 0);
        QVERIFY2(page.model()->rowOf(u"bonus"_s) > 0, "bonus must not be the first row");
        const auto selected = [&page] {
            const QModelIndexList rows = page.table()->selectionModel()->selectedRows();
            return rows.size() == 1 ? page.model()->idAt(rows.first().row()) : QString();
        };
        const auto name = [&page] {
            return page.model()
                ->index(page.model()->rowOf(u"bonus"_s), models::RewardListModel::NameColumn)
                .data()
                .toString();
        };
        page.table()->selectRow(page.model()->rowOf(u"bonus"_s));
        views::RewardDialog *dialog = page.editSelected();
        QVERIFY(dialog);
        dialog->nameEdit()->setText(u"Bonus (renamed)"_s);
        QVERIFY2(dialog->reviewButton()->isEnabled(), qPrintable(dialog->problemLabel()->text()));
        dialog->reviewButton()->click();
        QSignalSpy reloaded(page.model(), &models::ListTableModel::loaded);
        dialog->saveButton()->click();
        QTRY_VERIFY(!reloaded.isEmpty());
        QCOMPARE(name(), u"Bonus (renamed)"_s);
        QCOMPARE(selected(), u"bonus"_s);

        page.table()->selectRow(0);
        reloaded.clear();
        page.undoButton()->click();
        QTRY_VERIFY(!reloaded.isEmpty());
        QCOMPARE(name(), u"Bonus"_s);
        QCOMPARE(selected(), u"bonus"_s);
    }
};

QTEST_MAIN(TestAdminForms)
#include "tst_adminforms.moc"
