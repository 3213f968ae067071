// API keys: created once, stored only hashed, authenticate to one
// organization and environment with their scopes.
#include "services/engine/ApiOperations.h"
#include "services/engine/sql/Sql.h"
#include "tests/engine/EngineFixture.h"

using namespace md;
using namespace Qt::StringLiterals;

class TestApiKeys final : public QObject
{
    Q_OBJECT

    test::EngineFixture m_fixture;

private Q_SLOTS:
    void initTestCase()
    {
        MD_OPEN_FIXTURE(m_fixture);
        QVERIFY(m_fixture.engine->loadWorkspace(test::smallWorkspace()).ok());
    }

    void createdKeyAuthenticatesWithItsScopes()
    {
        auto key = m_fixture.engine->createKey(u"alpha"_s, engine::Environment::Production,
                                               {u"balances:read"_s}, {});
        QVERIFY(key.ok());
        QVERIFY(key.value().secret.startsWith(u"sk_live_"_s));
        QCOMPARE(key.value().secret.size(), 40);
        auto context = m_fixture.engine->authenticate(key.value().secret);
        QVERIFY(context.ok());
        QCOMPARE(context.value().orgSlug, u"alpha"_s);
        QCOMPARE(context.value().scope.env, engine::Environment::Production);
        QVERIFY(context.value().allows(u"balances:read"_s));
        QVERIFY(!context.value().allows(u"balances:write"_s));
    }

    void onlyTheHashIsStored()
    {
        auto key = m_fixture.engine->createKey(u"alpha"_s, engine::Environment::Sandbox, {u"*"_s},
                                               u"ci"_s);
        QVERIFY(key.ok());
        auto db = m_fixture.engine->database().connection();
        auto rows =
            engine::runSql(db.value(), u"SELECT prefix, hash, scopes, name FROM api_keys"_s);
        QVERIFY(rows.ok());
        int found = 0;
        while (rows.value().next()) {
            for (int column = 0; column < 4; ++column)
                QVERIFY(!rows.value().value(column).toString().contains(key.value().secret));
            found +=
                rows.value().value(1).toString() == engine::ApiKeys::hashOf(key.value().secret);
        }
        QCOMPARE(found, 1);
        if (!test::TestDatabase::usesPostgres()) {
            QFile file(m_fixture.database.location());
            QVERIFY(file.open(QIODevice::ReadOnly));
            QVERIFY(!file.readAll().contains(key.value().secret.toUtf8()));
        }
    }

    void rejections_data()
    {
        QTest::addColumn<QString>("secret");
        QTest::newRow("empty") << QString();
        QTest::newRow("not a key") << u"hello"_s;
        QTest::newRow("unknown") << u"sk_test_unknown000000000000000000000000"_s;
        // The fixture's test key, presented as if it were a live key.
        QTest::newRow("test key as live") << u"sk_live_fixture0000000000000000000001"_s;
    }
    void rejections()
    {
        QFETCH(QString, secret);
        auto context = m_fixture.engine->authenticate(secret);
        QVERIFY(!context.ok());
        QCOMPARE(context.error().status, 401);
        QCOMPARE(context.error().code, u"unauthorized"_s);
    }

    void fixtureKeySeesOnlyTestData()
    {
        auto context = m_fixture.engine->authenticate(u"sk_test_fixture0000000000000000000001"_s);
        QVERIFY(context.ok());
        QCOMPARE(context.value().scope.env, engine::Environment::Sandbox);
        auto page = engine::ApiOperations(*m_fixture.engine).listBalances(context.value(), {});
        QVERIFY(page.ok());
        for (const api::BalanceRow &row : page.value().list)
            QVERIFY(row.id != "b_live_ann"_L1);
    }

    void unknownOrgAndScopeAreRefused()
    {
        QCOMPARE(
            m_fixture.engine->createKey(u"nobody"_s, engine::Environment::Sandbox, {u"*"_s}, {})
                .error()
                .code,
            u"not_found"_s);
        QCOMPARE(
            m_fixture.engine->createKey(u"alpha"_s, engine::Environment::Sandbox, {u"root"_s}, {})
                .error()
                .code,
            u"invalid_request"_s);
    }

    void hashComparisonIsExact()
    {
        const QString a = engine::ApiKeys::hashOf(u"sk_test_a"_s);
        QVERIFY(engine::ApiKeys::sameHash(a, a));
        QVERIFY(!engine::ApiKeys::sameHash(a, engine::ApiKeys::hashOf(u"sk_test_b"_s)));
        QVERIFY(!engine::ApiKeys::sameHash(a, a.left(10)));
    }
};

QTEST_GUILESS_MAIN(TestApiKeys)
#include "tst_apikeys.moc"
