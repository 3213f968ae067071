// The console's shell: six pages with icons that render, keyboard access to
// each page, the window's own icon, and a window that fits on its screen.
#include "tests/support/StubBackend.h"
#include "views/window/MainWindow.h"
#include "views/window/WindowPlacement.h"

#include <QAction>
#include <QApplication>
#include <QDesktopServices>
#include <QDir>
#include <QFile>
#include <QLabel>
#include <QListWidget>
#include <QMessageBox>
#include <QPrintDialog>
#include <QPushButton>
#include <QScreen>
#include <QSettings>
#include <QStackedWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>

using namespace Qt::StringLiterals;

// Stands in for the desktop's file viewer.
class UrlCatcher final : public QObject
{
    Q_OBJECT

public:
    QList<QUrl> opened;

public Q_SLOTS:
    void open(const QUrl &url) { opened.append(url); }
};

using md::views::MainWindow;
using md::views::WindowPlacement;

class TestMainWindow final : public QObject
{
    Q_OBJECT

    QTemporaryDir m_settings;

private Q_SLOTS:
    // Nothing remembered from another run: settings of the test's own.
    void initTestCase()
    {
        QCoreApplication::setOrganizationName(u"MeterdeskTest"_s);
        QCoreApplication::setApplicationName(u"mainwindow"_s);
        QSettings::setPath(QSettings::NativeFormat, QSettings::UserScope, m_settings.path());
    }

    void pagesHaveIconsThatRender()
    {
        md::test::StubBackend backend;
        md::views::MainWindow window(&backend);
        auto *navigation = window.findChild<QListWidget *>(u"navigation"_s);
        QVERIFY(navigation);
        QCOMPARE(navigation->count(), 10);
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
        for (int page = 6; page >= 0; --page) {
            QTest::keyClick(&window, Qt::Key(Qt::Key_1 + page), Qt::ControlModifier);
            QCOMPARE(navigation->currentRow(), page);
        }
    }

    // F1 opens the guide the package installs under share/doc; where there is
    // none, a message says where it would be instead of nothing happening.
    void f1OpensTheInstalledUserGuide()
    {
        QTemporaryDir data;
        QVERIFY(QDir(data.path()).mkpath(u"doc/meterdesk"_s));
        QFile guide(data.filePath(u"doc/meterdesk/user-guide.md"_s));
        QVERIFY(guide.open(QIODevice::WriteOnly));
        guide.close();
        qputenv("XDG_DATA_DIRS", QFile::encodeName(data.path()));
        qputenv("XDG_DATA_HOME", QFile::encodeName(data.filePath(u"home"_s)));
        UrlCatcher catcher;
        QDesktopServices::setUrlHandler(u"file"_s, &catcher, "open");

        md::test::StubBackend backend;
        md::views::MainWindow window(&backend);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QTest::keyClick(&window, Qt::Key_F1);
        QCOMPARE(catcher.opened, QList<QUrl>{QUrl::fromLocalFile(guide.fileName())});

        QVERIFY(guide.remove());
        QTest::keyClick(&window, Qt::Key_F1);
        QCOMPARE(catcher.opened.size(), 1);
        QTRY_VERIFY(window.findChild<QMessageBox *>());
        QVERIFY(window.findChild<QMessageBox *>()->text().contains(u"docs/user-guide.md"_s));
        QDesktopServices::unsetUrlHandler(u"file"_s);
    }

    // Ctrl+P (File > Print balances…) shows the Balances page and asks for a printer.
    void ctrlPAsksForAPrinter()
    {
        md::test::StubBackend backend;
        md::views::MainWindow window(&backend);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        auto *navigation = window.findChild<QListWidget *>(u"navigation"_s);
        navigation->setCurrentRow(3);
        bool asked = false;
        QTimer::singleShot(0, &window, [&] {
            auto *dialog = qobject_cast<QPrintDialog *>(QApplication::activeModalWidget());
            asked = dialog != nullptr;
            if (dialog)
                dialog->reject();
        });
        QTest::keyClick(&window, Qt::Key_P, Qt::ControlModifier);
        QVERIFY(asked);
        QCOMPARE(navigation->currentRow(), 0);
    }

    // A 1280×720 screen less a 32 px panel: with nothing remembered the window
    // opens inside it, title bar included, and still takes most of it.
    void opensWithinASmallScreen()
    {
        const QRect screen(0, 0, 1280, 688);
        const QMargins titleBar(0, 30, 0, 0);
        const QRect placed = WindowPlacement::placement({}, screen, titleBar);
        QVERIFY(screen.contains(placed.marginsAdded(titleBar)));
        QVERIFY2(placed.width() >= 1100 && placed.height() >= 550,
                 qPrintable(u"%1×%2"_s.arg(placed.width()).arg(placed.height())));
    }

    // A window last used on a 1920×1080 screen, opened on a 1280×720 one.
    void aRememberedLargerWindowIsShrunk()
    {
        const QRect placed = WindowPlacement::placement(
            QRect(0, 30, 1920, 1050), QRect(0, 0, 1280, 720), QMargins(0, 30, 0, 0));
        QCOMPARE(placed, QRect(0, 30, 1280, 690));
    }

    // Where no screen is now (a monitor unplugged, a window dragged past the
    // top): moved on by the least, its size kept; one that fits stays put.
    void aRememberedPositionOffTheScreenIsMovedOn()
    {
        const QRect screen(0, 0, 1280, 720);
        const QMargins titleBar(0, 30, 0, 0);
        QCOMPARE(WindowPlacement::placement(QRect(2500, 200, 800, 600), screen, titleBar),
                 QRect(480, 120, 800, 600));
        QCOMPARE(WindowPlacement::placement(QRect(-900, -500, 800, 600), screen, titleBar),
                 QRect(0, 30, 800, 600));
        QCOMPARE(WindowPlacement::placement(QRect(100, 80, 800, 600), screen, titleBar),
                 QRect(100, 80, 800, 600));
        // A second screen, right of the first.
        QCOMPARE(WindowPlacement::placement(QRect(4000, 100, 800, 600), QRect(1280, 0, 1920, 1080),
                                            titleBar),
                 QRect(2400, 100, 800, 600));
    }

    // The window uses that placement: the offscreen screen (800×600) could not
    // show the fixed 1280×780 it used to open at.
    void aNewWindowOpensWithinItsScreen()
    {
        md::test::StubBackend backend;
        MainWindow window(&backend);
        const QRect available = window.screen()->availableGeometry();
        QVERIFY2(available.contains(window.geometry()),
                 qPrintable(u"%1×%2"_s.arg(window.width()).arg(window.height())));
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
