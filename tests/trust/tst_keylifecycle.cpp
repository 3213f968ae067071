// API keys across servers (issue 39; docs/operations.md, "API keys"): two
// meterdesk-server processes on one database, as behind a load balancer. A
// key revoked through one is refused by the other within two seconds,
// though the other had it remembered; a key's expiry and a rolled key's
// overlap end are kept by both at the moment they pass. On SQLite and on
// PostgreSQL (MD_TEST_DATABASE).
#include "tests/support/HttpClient.h"
#include "tests/support/ServerProcess.h"
#include "tests/support/TestDatabase.h"
#include "tests/trust/TrustWorkspace.h"

#include <QDateTime>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTest>

using namespace md;
using namespace Qt::StringLiterals;

class TestKeyLifecycle final : public QObject
{
    Q_OBJECT

    test::TestDatabase m_database;
    test::ServerProcess m_first;
    test::ServerProcess m_second;

    static int statusWith(const test::ServerProcess &server, const QString &secret)
    {
        test::HttpClient http(server.url(), secret.toLatin1(), 10000);
        return http.post("/v1/meterdesk/about", "{}").status;
    }

    static QJsonObject adminCall(const test::ServerProcess &server, const QByteArray &path,
                                 const QJsonObject &body)
    {
        test::HttpClient http(server.url(), test::TrustKey.toLatin1(), 10000);
        const auto answer = http.post(path, QJsonDocument(body).toJson(QJsonDocument::Compact));
        if (answer.status != 200)
            qFatal("%s answered %d: %s", path.constData(), answer.status, answer.body.constData());
        return QJsonDocument::fromJson(answer.body).object();
    }

    QJsonObject createKey(const QJsonObject &extra = {})
    {
        QJsonObject body{{u"name"_s, u"trust"_s}, {u"scopes"_s, QJsonArray{u"balances:read"_s}}};
        for (auto it = extra.begin(); it != extra.end(); ++it)
            body.insert(it.key(), it.value());
        return adminCall(m_first, "/v1/meterdesk/api_keys.create", body);
    }

    bool bothRefuse(const QString &secret)
    {
        return statusWith(m_first, secret) == 401 && statusWith(m_second, secret) == 401;
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY2(m_database.error().isEmpty(), qPrintable(m_database.error()));
        QVERIFY(test::loadTrustWorkspace(m_database.location(), 2).isEmpty());
        QVERIFY(m_first.start(m_database.location()).isEmpty());
        QVERIFY(m_second.start(m_database.location()).isEmpty());
    }

    void cleanupTestCase()
    {
        QCOMPARE(m_first.stop(), 0);
        QCOMPARE(m_second.stop(), 0);
    }

    void aKeyRevokedOnOneServerIsRefusedByTheOtherWithinTwoSeconds()
    {
        const QJsonObject key = createKey();
        const QString secret = key.value(u"secret"_s).toString();
        // The second server remembers the key from this use on.
        QCOMPARE(statusWith(m_second, secret), 200);
        adminCall(m_first, "/v1/meterdesk/api_keys.revoke", {{u"id"_s, key.value(u"id"_s)}});
        QCOMPARE(statusWith(m_first, secret), 401); // at once where it was revoked
        // The bound is the feature itself: the second server's key cache lasts a second.
        QTRY_COMPARE_WITH_TIMEOUT(statusWith(m_second, secret), 401, 2000);
    }

    void anExpiredKeyIsRefusedByEveryServerFromThatMoment()
    {
        const qint64 expires = QDateTime::currentMSecsSinceEpoch() + 1500;
        const QString secret =
            createKey({{u"expires_at"_s, expires}}).value(u"secret"_s).toString();
        QCOMPARE(statusWith(m_first, secret), 200);
        QCOMPARE(statusWith(m_second, secret), 200);
        QTRY_VERIFY_WITH_TIMEOUT(bothRefuse(secret), 10000);
        QVERIFY(QDateTime::currentMSecsSinceEpoch() >= expires);
        test::HttpClient http(m_second.url(), secret.toLatin1(), 10000);
        QVERIFY(http.post("/v1/meterdesk/about", "{}").body.contains("expired"));
    }

    void aRolledKeysOldSecretWorksOnBothUntilItsOverlapEnds()
    {
        const QJsonObject key = createKey();
        const QString old = key.value(u"secret"_s).toString();
        QCOMPARE(statusWith(m_second, old), 200);
        const QJsonObject rolled =
            adminCall(m_first, "/v1/meterdesk/api_keys.roll",
                      {{u"id"_s, key.value(u"id"_s)}, {u"overlap_ms"_s, 1500}});
        const QString fresh = rolled.value(u"secret"_s).toString();
        const qint64 until = rolled.value(u"previous_expires_at"_s).toInteger();
        QVERIFY(until > 0);
        QCOMPARE(statusWith(m_first, fresh), 200);
        QCOMPARE(statusWith(m_second, fresh), 200);
        if (QDateTime::currentMSecsSinceEpoch() < until - 200)
            QCOMPARE(statusWith(m_second, old), 200);
        QTRY_VERIFY_WITH_TIMEOUT(bothRefuse(old), 10000);
        QVERIFY(QDateTime::currentMSecsSinceEpoch() >= until);
        QCOMPARE(statusWith(m_first, fresh), 200);
        QCOMPARE(statusWith(m_second, fresh), 200);
    }
};

QTEST_GUILESS_MAIN(TestKeyLifecycle)
#include "tst_keylifecycle.moc"
