// Issue 39 in the console, on EngineBackend or on RemoteBackend to a local
// server (MD_GUI_BACKEND): the Keys page makes a key through its form and
// shows its secret once with Copy; a roll asks how long the old secret
// works and shows the new one; a revoke asks first. And a console whose
// key only reads: every edit, adjust, import and promote is off with a
// tooltip naming the scope it needs, Enter on a row opens no form, and the
// status bar says READ ONLY; a key holding everything has them all on.
#include "models/connection/KeyScopes.h"
#include "models/operator/ApiKeyModel.h"
#include "services/remote/RemoteBackend.h"
#include "tests/gui/GuiBackend.h"
#include "tests/support/Await.h"
#include "tests/support/TestDatabase.h"
#include "views/admin/ProductDialog.h"
#include "views/admin/ProductsPage.h"
#include "views/admin/RewardsPage.h"
#include "views/operator/ApiKeyDialog.h"
#include "views/operator/KeysPage.h"
#include "views/operator/SecretDialog.h"
#include "views/window/MainWindow.h"
#include "views/window/ScopeLock.h"

#include <QAbstractItemModelTester>
#include <QAction>
#include <QApplication>
#include <QCheckBox>
#include <QClipboard>
#include <QInputDialog>
#include <QLabel>
#include <QLineEdit>
#include <QMenuBar>
#include <QMessageBox>
#include <QPushButton>
#include <QTableView>
#include <QTest>

using namespace md;
using namespace Qt::StringLiterals;
using test::await;

namespace {

const QString Key = u"sk_test_admin00000000000000000000000000"_s; // admin-workspace.json

QAction *menuAction(QMainWindow &window, const QString &text)
{
    for (QAction *menu : window.menuBar()->actions())
        for (QAction *item : menu->menu()->actions())
            if (item->text() == text)
                return item;
    return nullptr;
}

} // namespace

class TestKeysPage final : public QObject
{
    Q_OBJECT

    test::TestDatabase m_database;
    test::ServerProcess m_server;
    std::unique_ptr<backend::BillingBackend> m_backend;

    // A backend for another key of the same workspace, as the console would open it.
    std::unique_ptr<backend::BillingBackend> backendWith(const QString &key)
    {
        if (qEnvironmentVariable("MD_GUI_BACKEND") == "remote"_L1)
            return std::make_unique<remote::RemoteBackend>(m_server.url(), key);
        test::ServerProcess unused;
        QString problem;
        auto backend = test::openGuiBackend(m_database.location(), key, unused, &problem);
        if (!backend)
            qFatal("%s", qPrintable(problem));
        return backend;
    }

    static int rowNamed(views::KeysPage &page, const QString &name)
    {
        for (int row = 0; row < page.keys()->rowCount(); ++row)
            if (page.keys()->key(row).name == name)
                return row;
        return -1;
    }

    static views::SecretDialog *shownSecret(views::KeysPage &page)
    {
        return page.findChild<views::SecretDialog *>();
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY2(m_database.error().isEmpty(), qPrintable(m_database.error()));
        QString problem;
        m_backend = test::openLoadedBackend(
            m_database.location(), QStringLiteral(MD_ADMIN_WORKSPACE), Key, m_server, &problem);
        QVERIFY2(m_backend, qPrintable(problem));
    }

    void aKeyIsMadeThroughTheFormAndItsSecretShownOnce()
    {
        views::KeysPage page(m_backend.get());
        QAbstractItemModelTester tester(page.keys(),
                                        QAbstractItemModelTester::FailureReportingMode::QtTest);
        page.show();
        QTRY_VERIFY_WITH_TIMEOUT(page.keys()->rowCount() > 0, 10000);
        views::ApiKeyDialog *dialog = page.newKey();
        dialog->createButton()->click();
        QVERIFY(dialog->problem()->text().contains(u"name"_s));
        dialog->nameField()->setText(u"finance dashboard"_s);
        dialog->createButton()->click();
        QVERIFY(dialog->problem()->text().contains(u"scope"_s));
        dialog->scopeBox(u"balances:read"_s)->setChecked(true);
        dialog->allScopes()->setChecked(true);
        QVERIFY(!dialog->scopeBox(u"balances:read"_s)->isEnabled());
        dialog->allScopes()->setChecked(false);
        dialog->expiresBox()->setChecked(true);
        dialog->createButton()->click();
        QTRY_VERIFY_WITH_TIMEOUT(shownSecret(page), 10000);
        views::SecretDialog *secret = shownSecret(page);
        const QString shown = secret->secretField()->text();
        QVERIFY(shown.startsWith(u"sk_test_"_s));
        secret->copyButton()->click();
        QCOMPARE(QApplication::clipboard()->text(), shown);
        secret->close();
        QTRY_VERIFY(!shownSecret(page));
        QTRY_VERIFY_WITH_TIMEOUT(rowNamed(page, u"finance dashboard"_s) >= 0, 10000);
        const api::ApiKey made = page.keys()->key(rowNamed(page, u"finance dashboard"_s));
        QCOMPARE(made.scopes, QStringList{u"balances:read"_s});
        QCOMPARE(made.prefix, shown.left(12) + u'…');
        QVERIFY(made.expiresAt.has_value());
        // Nowhere on the page is the secret again.
        const QModelIndex keyCell =
            page.keys()->index(rowNamed(page, made.name), models::ApiKeyModel::KeyColumn);
        QVERIFY(!keyCell.data().toString().contains(shown));
    }

    void aRollAsksHowLongTheOldSecretWorksThenShowsTheNewOne()
    {
        auto made = await(m_backend->createApiKey({u"sync job"_s, {u"balances:read"_s}, {}}));
        QVERIFY(made.ok());
        views::KeysPage page(m_backend.get());
        page.show();
        QTRY_VERIFY_WITH_TIMEOUT(rowNamed(page, u"sync job"_s) >= 0, 10000);
        page.table()->setCurrentIndex(page.keys()->index(rowNamed(page, u"sync job"_s), 0));
        page.rollKey();
        auto *ask = page.findChild<QInputDialog *>(u"rollKeyAsk"_s);
        QVERIFY(ask);
        ask->setTextValue(u"Keep it working for 1 hour"_s);
        ask->accept();
        QTRY_VERIFY_WITH_TIMEOUT(shownSecret(page), 10000);
        const QString fresh = shownSecret(page)->secretField()->text();
        QVERIFY(fresh.startsWith(u"sk_test_"_s) && fresh != *made.value().secret);
        QTRY_VERIFY_WITH_TIMEOUT(
            page.keys()
                ->index(rowNamed(page, u"sync job"_s), models::ApiKeyModel::StateColumn)
                .data()
                .toString()
                .contains(u"old secret"_s),
            10000);
    }

    void aRevokeAsksFirst()
    {
        auto made = await(m_backend->createApiKey({u"old laptop"_s, {u"balances:read"_s}, {}}));
        QVERIFY(made.ok());
        views::KeysPage page(m_backend.get());
        page.show();
        QTRY_VERIFY_WITH_TIMEOUT(rowNamed(page, u"old laptop"_s) >= 0, 10000);
        page.table()->setCurrentIndex(page.keys()->index(rowNamed(page, u"old laptop"_s), 0));
        page.revokeKey();
        auto *ask = page.findChild<QMessageBox *>(u"revokeKeyAsk"_s);
        QVERIFY(ask);
        ask->button(QMessageBox::Cancel)->click(); // Cancel is the default: nothing happens
        QTRY_VERIFY(!page.findChild<QMessageBox *>(u"revokeKeyAsk"_s));
        QVERIFY(!page.keys()->key(rowNamed(page, u"old laptop"_s)).revokedAt);
        page.revokeKey();
        page.findChild<QPushButton *>(u"confirmRevoke"_s)->click();
        QTRY_VERIFY_WITH_TIMEOUT(
            page.keys()->key(rowNamed(page, u"old laptop"_s)).revokedAt.has_value(), 10000);
        page.table()->setCurrentIndex(page.keys()->index(rowNamed(page, u"old laptop"_s), 0));
        QVERIFY(!page.findChild<QPushButton *>(u"revokeKey"_s)->isEnabled());
        QVERIFY(!page.findChild<QPushButton *>(u"rollKey"_s)->isEnabled());
    }

    // The key the console itself uses is named as such before it is revoked.
    void revokingTheConsolesOwnKeySaysSo()
    {
        auto made = await(m_backend->createApiKey(
            {u"this console"_s, {u"keys:read"_s, u"keys:write"_s, u"balances:read"_s}, {}}));
        QVERIFY(made.ok());
        auto console = backendWith(*made.value().secret);
        views::MainWindow window(console.get());
        window.connectionReady();
        auto *scopes = window.findChild<models::KeyScopes *>();
        QVERIFY(scopes);
        QTRY_COMPARE_WITH_TIMEOUT(scopes->ownKeyId(), std::optional(made.value().id), 10000);
        views::KeysPage &page = *window.keysPage();
        page.show();
        QTRY_VERIFY_WITH_TIMEOUT(rowNamed(page, u"this console"_s) >= 0, 10000);
        page.table()->setCurrentIndex(page.keys()->index(rowNamed(page, u"this console"_s), 0));
        page.revokeKey();
        auto *ask = page.findChild<QMessageBox *>(u"revokeKeyAsk"_s);
        QVERIFY(ask);
        QVERIFY2(ask->text().contains(u"is the key this console is connected with"_s),
                 qPrintable(ask->text()));
        ask->button(QMessageBox::Cancel)->click();
        // Another key is asked about as any key.
        const int own = rowNamed(page, u"this console"_s);
        page.table()->setCurrentIndex(page.keys()->index(own == 0 ? 1 : 0, 0));
        page.revokeKey();
        QTRY_VERIFY(page.findChildren<QMessageBox *>(u"revokeKeyAsk"_s).size() == 1);
        QVERIFY(
            !page.findChild<QMessageBox *>(u"revokeKeyAsk"_s)->text().contains(u"this console"_s));
    }

    void aReadOnlyKeySeesNoEnabledEditAdjustImportOrPromote()
    {
        auto made = await(m_backend->createApiKey({u"finance staff"_s, {u"balances:read"_s}, {}}));
        QVERIFY(made.ok());
        auto reader = backendWith(*made.value().secret);
        views::MainWindow window(reader.get());
        window.connectionReady();
        QTRY_VERIFY_WITH_TIMEOUT(
            window.findChild<QLabel *>(u"readOnlyBadge"_s)->isVisibleTo(&window), 10000);
        const auto off = [&](QWidget *root, const QString &name, const QString &scope) {
            const auto widgets = root->findChildren<QWidget *>(name);
            QVERIFY2(!widgets.isEmpty(), qPrintable(name));
            for (QWidget *widget : widgets) {
                QVERIFY2(!widget->isEnabled(), qPrintable(name));
                QVERIFY2(widget->toolTip().contains(scope), qPrintable(widget->toolTip()));
            }
        };
        off(window.productsPage(), u"editRecord"_s, u"plans:write"_s);
        off(window.rewardsPage(), u"editRecord"_s, u"rewards:write"_s);
        off(&window, u"adjustBalance"_s, u"balances:write"_s);
        off(&window, u"promoteButton"_s, u"plans:write"_s);
        off(&window, u"editControls"_s, u"billing:write"_s);
        off(&window, u"newKey"_s, u"keys:write"_s);
        off(&window, u"newEndpoint"_s, u"webhooks:write"_s);
        off(&window, u"importUsage"_s, u"balances:write"_s);
        QVERIFY(!menuAction(window, u"Import &usage…"_s)->isEnabled());
        QVERIFY(!menuAction(window, u"&Import customers…"_s)->isEnabled());
        QVERIFY(
            menuAction(window, u"&Import customers…"_s)->toolTip().contains(u"billing:write"_s));
        QVERIFY(!menuAction(window, u"Pro&mote sandbox to production…"_s)->isEnabled());
        QVERIFY(!menuAction(window, u"Sandbox &clock…"_s)->isEnabled());
        QVERIFY2(menuAction(window, u"Sandbox &clock…"_s)->toolTip().contains(u"balances:write"_s),
                 qPrintable(menuAction(window, u"Sandbox &clock…"_s)->toolTip()));
        // A row chosen enables nothing the key may not do, and Enter opens no form.
        views::ProductsPage *products = window.productsPage();
        QTRY_VERIFY_WITH_TIMEOUT(products->table()->model()->rowCount() > 0, 10000);
        products->table()->setCurrentIndex(products->table()->model()->index(0, 0));
        QTest::keyClick(products->table(), Qt::Key_Return);
        QVERIFY(!products->findChild<views::ProductDialog *>());
    }

    void aLockHasTheLastWordAndGivesBackWhatThePageAsked()
    {
        models::KeyScopes scopes;
        QPushButton button(u"Edit…"_s);
        button.setToolTip(u"Opens the form"_s);
        views::ScopeLock::require(&button, {u"plans:write"_s}, &scopes);
        QVERIFY(button.isEnabled()); // nothing known yet: the server decides
        scopes.setScopes(QStringList{u"balances:read"_s});
        QVERIFY(!button.isEnabled());
        QVERIFY(button.toolTip().contains(u"plans:write"_s));
        button.setEnabled(true); // a page choosing a row
        QVERIFY(!button.isEnabled());
        button.setToolTip(u"Opens this row's form"_s); // a page's own words, kept for later
        QVERIFY(button.toolTip().contains(u"plans:write"_s));
        scopes.setScopes(QStringList{u"plans:write"_s});
        QVERIFY(button.isEnabled()); // what the page asked last
        QCOMPARE(button.toolTip(), u"Opens this row's form"_s);
        button.setEnabled(false);
        QVERIFY(!button.isEnabled());
        QAction action(u"Import"_s);
        views::ScopeLock::require(&action, {u"billing:write"_s, u"*"_s}, &scopes);
        QVERIFY(!action.isEnabled());
        QVERIFY(action.toolTip().contains(u"billing:write"_s));
        scopes.setScopes(QStringList{u"*"_s});
        QVERIFY(action.isEnabled());
    }

    void aKeyHoldingEverythingHasThemAllOn()
    {
        views::MainWindow window(m_backend.get());
        window.connectionReady();
        QTRY_VERIFY_WITH_TIMEOUT(window.keyScopes()->known(), 10000);
        QVERIFY(window.keyScopes()->allowsAny({u"keys:write"_s}));
        QVERIFY(!window.findChild<QLabel *>(u"readOnlyBadge"_s)->isVisibleTo(&window));
        QVERIFY(window.findChild<QPushButton *>(u"newKey"_s)->isEnabled());
        QVERIFY(window.findChild<QPushButton *>(u"promoteButton"_s)->isEnabled());
        QVERIFY(menuAction(window, u"&Import customers…"_s)->isEnabled());
    }
};

QTEST_MAIN(TestKeysPage)
#include "tst_keyspage.moc"
