// The console's shell: six pages with icons that render, keyboard access to
// each page, and the window's own icon.
#include "tests/support/StubBackend.h"
#include "views/MainWindow.h"

#include <QAction>
#include <QLabel>
#include <QListWidget>
#include <QPushButton>
#include <QStackedWidget>
#include <QTest>

using namespace Qt::StringLiterals;

class TestMainWindow final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void pagesHaveIconsThatRender()
    {
        md::test::StubBackend backend;
        md::views::MainWindow window(&backend);
        auto *navigation = window.findChild<QListWidget *>(u"navigation"_s);
        QVERIFY(navigation);
        QCOMPARE(navigation->count(), 6);
        for (int i = 0; i < navigation->count(); ++i) {
            const QIcon icon = navigation->item(i)->icon();
            QVERIFY2(!icon.isNull() && !icon.pixmap(20, 20).isNull(),
                     qPrintable(navigation->item(i)->text()));
        }
        QVERIFY(!window.windowIcon().pixmap(64, 64).isNull());
    }

    void ctrlNumberShowsEachPage()
    {
        md::test::StubBackend backend;
        md::views::MainWindow window(&backend);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        auto *navigation = window.findChild<QListWidget *>(u"navigation"_s);
        for (int page = 5; page >= 0; --page) {
            QTest::keyClick(&window, Qt::Key(Qt::Key_1 + page), Qt::ControlModifier);
            QCOMPARE(navigation->currentRow(), page);
        }
    }

    void errorsShowInsteadOfABlankPage()
    {
        md::test::StubBackend backend; // every call answers 501
        md::views::MainWindow window(&backend);
        window.show();
        window.connectionReady();
        // The failure is said in place, with Retry, and the status bar names the connection
        // problem.
        QTRY_VERIFY(!window.findChild<QWidget *>(u"balancesTable"_s)->isVisible());
        bool said = false;
        for (const QLabel *label : window.findChildren<QLabel *>())
            said = said || (label->isVisible() && label->text().contains(u"could not be loaded"_s));
        QVERIFY(said);
        bool retry = false;
        for (const QPushButton *button : window.findChildren<QPushButton *>())
            retry = retry || (button->isVisible() && button->text() == u"&Retry"_s);
        QVERIFY(retry);
    }
};

QTEST_MAIN(TestMainWindow)
#include "tst_mainwindow.moc"
