// The command palette: filters actions as you type and runs the chosen one
// from the keyboard.
#include "views/window/CommandPalette.h"

#include <QAction>
#include <QLineEdit>
#include <QListWidget>
#include <QSignalSpy>
#include <QTest>

using namespace Qt::StringLiterals;

class TestCommandPalette final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void typeAndRun()
    {
        QAction refresh(u"&Refresh"_s);
        refresh.setShortcut(QKeySequence::Refresh);
        QAction quit(u"&Quit"_s);
        QAction disabled(u"Re&do"_s);
        disabled.setEnabled(false);
        QSignalSpy refreshed(&refresh, &QAction::triggered);
        QSignalSpy quitted(&quit, &QAction::triggered);
        md::views::CommandPalette palette({&refresh, &quit, &disabled});
        palette.show();
        QCOMPARE(palette.list()->count(), 2); // the disabled one is not offered
        QTest::keyClicks(palette.search(), u"re"_s);
        QCOMPARE(palette.list()->count(), 1);
        QVERIFY(palette.list()->item(0)->text().startsWith(u"Refresh"_s));
        QTest::keyClick(palette.search(), Qt::Key_Return);
        QCOMPARE(refreshed.count(), 1);
        QCOMPARE(quitted.count(), 0);
    }

    void arrowsMoveThroughTheList()
    {
        QAction first(u"First"_s);
        QAction second(u"Second"_s);
        QSignalSpy secondRun(&second, &QAction::triggered);
        md::views::CommandPalette palette({&first, &second});
        palette.show();
        QTest::keyClick(palette.search(), Qt::Key_Down);
        QTest::keyClick(palette.search(), Qt::Key_Return);
        QCOMPARE(secondRun.count(), 1);
    }
};

QTEST_MAIN(TestCommandPalette)
#include "tst_commandpalette.moc"
