// Promotion from sandbox to production as an admin drives it (offscreen), on
// EngineBackend or over HTTP (MD_GUI_BACKEND), on the conformance suite's
// promotion workspace with its production key: the differences with a box
// each and side by side, the keyboard choosing one, the review, Promote,
// Undo last change on the Products page, and a stale diff said and read again.
#include "models/admin/ProductListModel.h"
#include "models/admin/PromotionModel.h"
#include "services/engine/Engine.h"
#include "tests/gui/GuiBackend.h"
#include "tests/support/TestDatabase.h"
#include "views/admin/ProductsPage.h"
#include "views/admin/PromotionDialog.h"
#include "views/common/ChangeReview.h"
#include "views/window/Translator.h"

#include <QAbstractItemModelTester>
#include <QLabel>
#include <QMessageBox>
#include <QPushButton>
#include <QSignalSpy>
#include <QTableView>
#include <QTableWidget>
#include <QTest>

using namespace md;
using namespace Qt::StringLiterals;

namespace {

const QString LiveKey = u"sk_live_echo0000000000000000000000000000"_s;

template <typename T> api::Result<T> wait(QFuture<api::Result<T>> reply)
{
    while (!reply.isFinished())
        QCoreApplication::processEvents(QEventLoop::AllEvents, 10);
    return reply.result();
}

int rowOf(const models::PromotionModel &model, const QString &id)
{
    for (int row = 0; row < model.rowCount(); ++row)
        if (model.index(row, models::PromotionModel::IdColumn).data().toString() == id)
            return row;
    return -1;
}

QStringList rowOfTable(const QTableWidget *table, int row)
{
    QStringList cells;
    for (int column = 0; column < table->columnCount(); ++column)
        cells.append(table->item(row, column) ? table->item(row, column)->text() : QString());
    return cells;
}

} // namespace

class TestPromotion final : public QObject
{
    Q_OBJECT

    test::TestDatabase m_database;
    test::ServerProcess m_server;
    std::unique_ptr<backend::BillingBackend> m_backend;

    // Production's newest version of `id` (the key is production's).
    api::Product production(const QString &id)
    {
        api::Product newest;
        const auto products = wait(m_backend->listProducts());
        for (const api::Product &p : products.value().list)
            if (p.id == id && p.version >= newest.version)
                newest = p;
        return newest;
    }

    views::PromotionDialog *openLoaded(views::ProductsPage &page)
    {
        views::PromotionDialog *dialog = page.promote();
        if (!QTest::qWaitFor([&] { return dialog->state()->text().contains(u"difference"_s); }))
            return nullptr;
        return dialog;
    }

private Q_SLOTS:
    void initTestCase()
    {
        // English, with its plural forms, as the console shows it.
        views::Translator::install(QLocale(QLocale::English));
        QVERIFY2(m_database.error().isEmpty(), qPrintable(m_database.error()));
        {
            engine::Engine setup(m_database.location());
            QVERIFY(setup.open().ok());
            QVERIFY(setup.loadWorkspaceFile(QStringLiteral(MD_PROMOTION_WORKSPACE)).ok());
        }
        QString problem;
        m_backend = test::openGuiBackend(m_database.location(), LiveKey, m_server, &problem);
        QVERIFY2(m_backend, qPrintable(problem));
    }

    void theModelListsAndChooses()
    {
        models::PromotionModel model(m_backend.get());
        QAbstractItemModelTester tester(&model);
        QSignalSpy loaded(&model, &models::ListTableModel::loaded);
        QSignalSpy failed(&model, &models::ListTableModel::failed);
        model.reload();
        QVERIFY(QTest::qWaitFor([&] { return !loaded.isEmpty() || !failed.isEmpty(); }, 10000));
        QVERIFY2(failed.isEmpty(),
                 qPrintable(failed.value(0).value(0).value<api::ApiError>().message));
        QCOMPARE(model.rowCount(), 7); // 4 products, 3 rewards
        const int basic = rowOf(model, u"basic"_s);
        QCOMPARE(model.fieldsOf(basic), (QList<models::FieldChange>{
                                            {u"items.calls.included_usage"_s, u"50"_s, u"100"_s}}));
        QCOMPARE(model.index(rowOf(model, u"legacy"_s), models::PromotionModel::ChangeColumn)
                     .data()
                     .toString(),
                 u"only in production"_s);
        QCOMPARE(model.chosenCount(), 0);
        QVERIFY(model.setData(model.index(basic, 0), Qt::Checked, Qt::CheckStateRole));
        QCOMPARE(model.chosenChanges().first().field,
                 u"product basic · items.calls.included_usage"_s);
        model.chooseAll(true);
        QCOMPARE(model.chosenCount(), 7);
        QVERIFY(!model.canUndo());
    }

    void promoteReviewAndUndo()
    {
        views::ProductsPage page(m_backend.get());
        page.show();
        QVERIFY(QTest::qWaitForWindowExposed(&page));
        const auto listed = [&page] {
            const int row = page.model()->rowOf(u"basic"_s);
            return row < 0 ? 0 : page.model()->product(row).version;
        };
        page.refresh();
        QTRY_COMPARE(listed(), 1);
        views::PromotionDialog *dialog = openLoaded(page);
        QVERIFY(dialog);
        QCOMPARE(dialog->state()->text(), u"7 differences."_s);
        QVERIFY(!dialog->reviewButton()->isEnabled()); // nothing chosen yet
        QVERIFY(dialog->problemLabel()->text().contains(u"Choose at least one"_s));

        // The keyboard chooses: down to basic's row, Space ticks it; the
        // side-by-side follows the current row.
        auto *model = static_cast<models::PromotionModel *>(dialog->table()->model());
        dialog->table()->setFocus();
        dialog->table()->setCurrentIndex(model->index(rowOf(*model, u"basic"_s), 0));
        QTest::keyClick(dialog->table(), Qt::Key_Space);
        QCOMPARE(model->chosenCount(), 1);
        QCOMPARE(rowOfTable(dialog->sideBySide()->table(), 0),
                 (QStringList{u"items.calls.included_usage"_s, u"50"_s, u"100"_s}));
        QVERIFY(dialog->reviewButton()->isEnabled());

        dialog->reviewButton()->click();
        QVERIFY(dialog->isReviewing());
        QCOMPARE(rowOfTable(dialog->review()->table(), 0),
                 (QStringList{u"product basic · items.calls.included_usage"_s, u"50"_s, u"100"_s}));
        QSignalSpy accepted(dialog, &QDialog::accepted);
        dialog->saveButton()->click();
        // A fast backend may answer before a wait starts: count, do not wait for a new signal.
        QVERIFY(QTest::qWaitFor([&] { return !accepted.isEmpty(); }, 10000));
        QCOMPARE(page.status()->text(), u"Promoted 1 change to production."_s);
        QVERIFY(page.undoButton()->isEnabled());
        // Paula is on version 1: the sandbox's items are version 2.
        QCOMPARE(production(u"basic"_s).version, 2);
        QCOMPARE(*production(u"basic"_s).items.first().includedUsage,
                 api::Decimal::fromInteger(100));
        QTRY_COMPARE(listed(), 2); // the page lists production as the promotion left it

        // Undo reaches production: it asks first, and Cancel changes nothing.
        page.undoButton()->click();
        auto *ask = page.findChild<QMessageBox *>(u"undoQuestion"_s);
        QVERIFY(ask && ask->isVisible());
        QVERIFY(ask->text().contains(u"production"_s));
        ask->button(QMessageBox::Cancel)->click();
        QTRY_VERIFY(!page.findChild<QMessageBox *>(u"undoQuestion"_s));
        QCOMPARE(*production(u"basic"_s).items.first().includedUsage,
                 api::Decimal::fromInteger(100));
        QVERIFY(page.undoButton()->isEnabled());
        page.undoButton()->click();
        ask = page.findChild<QMessageBox *>(u"undoQuestion"_s);
        QVERIFY(ask);
        for (QAbstractButton *button : ask->buttons())
            if (ask->buttonRole(button) == QMessageBox::DestructiveRole)
                button->click();
        QTRY_VERIFY(page.status()->text().startsWith(u"Undid"_s));
        QCOMPARE(page.status()->text(),
                 u"Undid the last change to production (1 promoted change)."_s);
        QCOMPARE(*production(u"basic"_s).items.first().includedUsage,
                 api::Decimal::fromInteger(50));
        QVERIFY(!page.undoButton()->isEnabled());
    }

    // Production changed while the review was open: Promote says so, writes
    // nothing, and the differences are read again.
    void aStaleDiffIsSaid()
    {
        views::ProductsPage page(m_backend.get());
        page.show();
        views::PromotionDialog *dialog = openLoaded(page);
        QVERIFY(dialog);
        auto *model = static_cast<models::PromotionModel *>(dialog->table()->model());
        QVERIFY(model->setData(model->index(rowOf(*model, u"basic"_s), 0), Qt::Checked,
                               Qt::CheckStateRole));
        dialog->reviewButton()->click();
        api::UpdateProductRequest rename;
        rename.name = u"Basic (changed in production)"_s;
        QVERIFY(wait(m_backend->updateProduct(u"basic"_s, rename)));
        QSignalSpy reread(model, &models::ListTableModel::loaded);
        QSignalSpy failed(model, &models::ListTableModel::failed);
        dialog->saveButton()->click();
        QVERIFY2(QTest::qWaitFor([&] { return !reread.isEmpty() || !failed.isEmpty(); }, 10000),
                 qPrintable(dialog->review()->problem()));
        QVERIFY2(failed.isEmpty(),
                 qPrintable(failed.value(0).value(0).value<api::ApiError>().message));
        QVERIFY(dialog->isVisible());
        QVERIFY2(dialog->review()->problem().contains(u"changed since the differences were read"_s),
                 qPrintable(dialog->review()->problem()));
        QVERIFY(dialog->review()->problem().contains(u"read again"_s));
        QCOMPARE(production(u"basic"_s).name, u"Basic (changed in production)"_s);
        QCOMPARE(*production(u"basic"_s).items.first().includedUsage,
                 api::Decimal::fromInteger(50));
        QCOMPARE(model->chosenCount(), 0); // read again: choose again
        QVERIFY(!page.undoButton()->isEnabled());
        // Nothing to promote from the old review; a new one can be.
        QVERIFY(!dialog->saveButton()->isEnabled());
        dialog->backButton()->click();
        QVERIFY(model->setData(model->index(rowOf(*model, u"basic"_s), 0), Qt::Checked,
                               Qt::CheckStateRole));
        dialog->reviewButton()->click();
        QVERIFY(dialog->saveButton()->isEnabled());
        dialog->reject();
    }

    // Space ticks the current row from whichever of its cells is current (a
    // click on its id makes that cell current), and unticks it again.
    void spaceTicksTheRowFromAnyOfItsCells()
    {
        views::ProductsPage page(m_backend.get());
        page.show();
        QVERIFY(QTest::qWaitForWindowExposed(&page));
        views::PromotionDialog *dialog = openLoaded(page);
        QVERIFY(dialog);
        auto *model = static_cast<models::PromotionModel *>(dialog->table()->model());
        const int basic = rowOf(*model, u"basic"_s);
        QVERIFY(basic >= 0);
        const auto ticked = [&] {
            return model->index(basic, models::PromotionModel::KindColumn)
                       .data(Qt::CheckStateRole)
                       .toInt() == Qt::Checked;
        };
        QVERIFY(!ticked());
        dialog->table()->setFocus();
        dialog->table()->setCurrentIndex(model->index(basic, models::PromotionModel::IdColumn));
        QTest::keyClick(dialog->table(), Qt::Key_Space);
        QVERIFY(ticked());
        QCOMPARE(model->chosenCount(), 1);
        QVERIFY(dialog->reviewButton()->isEnabled());
        dialog->table()->setCurrentIndex(model->index(basic, models::PromotionModel::FieldsColumn));
        QTest::keyClick(dialog->table(), Qt::Key_Space);
        QVERIFY(!ticked());
        QCOMPARE(model->chosenCount(), 0);
        dialog->reject();
    }
};

QTEST_MAIN(TestPromotion)
#include "tst_promotion.moc"
