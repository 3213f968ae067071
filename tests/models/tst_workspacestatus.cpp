// The status bar names the connection in words; the raw location is only a tooltip.
#include "models/connection/WorkspaceStatus.h"

#include <QTest>

using namespace Qt::StringLiterals;
using md::backend::ConnectionInfo;
using md::models::WorkspaceStatus;

class TestWorkspaceStatus final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void connectionsInWords_data()
    {
        QTest::addColumn<QString>("kind");
        QTest::addColumn<QString>("location");
        QTest::addColumn<QString>("words");
        QTest::newRow("sqlite") << u"embedded"_s << u"/home/ann/billing/demo.db"_s
                                << u"Workspace demo.db on this computer"_s;
        QTest::newRow("postgres") << u"embedded"_s
                                  << u"postgresql://ann@db1.example.com:5432/billing"_s
                                  << u"PostgreSQL database billing on db1.example.com"_s;
        QTest::newRow("postgres, local socket") << u"embedded"_s << u"postgresql:///billing"_s
                                                << u"PostgreSQL database billing on localhost"_s;
        QTest::newRow("server") << u"remote"_s << u"https://api.example.com"_s
                                << u"Server api.example.com"_s;
        QTest::newRow("server with port")
            << u"remote"_s << u"http://127.0.0.1:8080"_s << u"Server 127.0.0.1:8080"_s;
    }
    void connectionsInWords()
    {
        QFETCH(QString, kind);
        QFETCH(QString, location);
        QFETCH(QString, words);
        ConnectionInfo connection;
        connection.kind = kind;
        connection.location = location;
        QCOMPARE(WorkspaceStatus::inWords(connection), words);
    }
};

QTEST_GUILESS_MAIN(TestWorkspaceStatus)
#include "tst_workspacestatus.moc"
