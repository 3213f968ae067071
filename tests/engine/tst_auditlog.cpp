// The audit log's store: rows can be added and never changed or removed,
// whoever asks (the schema refuses); a key's creation is recorded without
// its secret; a write that joins an audited one commits with it or not at all.
#include "services/engine/ledger/AuditTrail.h"
#include "services/engine/sql/Sql.h"
#include "services/engine/workspace/DemoWorkspace.h"
#include "tests/engine/EngineFixture.h"

using namespace md;
using namespace Qt::StringLiterals;

class TestAuditLog final : public QObject
{
    Q_OBJECT

    test::EngineFixture m_fixture;

    QSqlDatabase db() { return m_fixture.engine->database().connection().value(); }
    engine::Dialect dialect() { return m_fixture.engine->dialect(); }

    qint64 count()
    {
        auto rows = engine::runSql(db(), u"SELECT COUNT(*) FROM audit_log"_s);
        rows.value().next();
        return rows.value().value(0).toLongLong();
    }

private Q_SLOTS:
    void initTestCase()
    {
        MD_OPEN_FIXTURE(m_fixture);
        QVERIFY(m_fixture.engine->loadWorkspace(test::smallWorkspace()).ok());
    }

    void theLoadIsRecordedPerOrganizationAndEnvironment()
    {
        auto rows =
            engine::runSql(db(), u"SELECT COUNT(*), MIN(action), MIN(actor_kind) FROM audit_log"_s);
        QVERIFY(rows.ok() && rows.value().next());
        const auto orgs = m_fixture.engine->organizations().value();
        QCOMPARE(rows.value().value(0).toLongLong(), 2 * orgs.size());
        QCOMPARE(rows.value().value(1).toString(), u"workspace.load"_s);
        QCOMPARE(rows.value().value(2).toString(), u"console"_s);
    }

    // The demo brings three organizations: each gets its entries. On
    // PostgreSQL the entries of all but the first were once lost, written
    // while the list of new organizations was still being read.
    void aLoadOfSeveralOrganizationsRecordsEach()
    {
        test::EngineFixture fixture;
        MD_OPEN_FIXTURE(fixture);
        engine::DemoOptions options;
        options.customers = 10;
        options.nowMs = 1'800'000'000'000; // the demo's history lies before its now
        const auto loaded = fixture.engine->loadWorkspace(engine::DemoWorkspace::build(options));
        QVERIFY2(loaded.ok(), loaded.ok() ? "" : qPrintable(loaded.error().message));
        const auto orgs = fixture.engine->organizations().value();
        QVERIFY(orgs.size() > 1);
        auto rows = engine::runSql(fixture.engine->database().connection().value(),
                                   u"SELECT COUNT(DISTINCT org_pk), COUNT(*) FROM audit_log"
                                   " WHERE action = 'workspace.load'"_s);
        QVERIFY(rows.ok() && rows.value().next());
        QCOMPARE(rows.value().value(0).toLongLong(), orgs.size());
        QCOMPARE(rows.value().value(1).toLongLong(), 2 * orgs.size());
    }

    void rowsCannotBeChangedOrRemoved_data()
    {
        QTest::addColumn<QString>("sql");
        QTest::newRow("update") << u"UPDATE audit_log SET actor_name = 'someone else'"_s;
        QTest::newRow("delete") << u"DELETE FROM audit_log"_s;
    }
    void rowsCannotBeChangedOrRemoved()
    {
        QFETCH(QString, sql);
        const qint64 before = count();
        auto changed = engine::runSql(db(), sql);
        QVERIFY(!changed.ok());
        QVERIFY2(changed.error().message.contains(u"append-only"_s),
                 qPrintable(changed.error().message));
        QCOMPARE(count(), before);
        auto kept = engine::runSql(db(), u"SELECT COUNT(*) FROM audit_log WHERE actor_name ="
                                         " 'someone else'"_s);
        QVERIFY(kept.ok() && kept.value().next());
        QCOMPARE(kept.value().value(0).toLongLong(), 0);
    }

    void aKeyIsRecordedWithoutItsSecret()
    {
        auto key = m_fixture.engine->createKey(u"alpha"_s, engine::Environment::Sandbox,
                                               {u"balances:read"_s}, u"reporting"_s);
        QVERIFY(key.ok());
        auto rows = engine::runSql(
            db(), u"SELECT resource_id, after FROM audit_log WHERE action = 'api_key.create'"_s);
        QVERIFY(rows.ok() && rows.value().next());
        const QString after = rows.value().value(1).toString();
        QVERIFY(after.contains(u"\"reporting\""_s));
        QVERIFY(after.contains(u"balances:read"_s));
        for (const QString &secret : {key.value().secret, key.value().hash, key.value().prefix})
            QVERIFY(!after.contains(secret) && !rows.value().value(0).toString().contains(secret));
    }

    void anInnerRollbackKeepsNothing()
    {
        const qint64 before = count();
        {
            engine::WriteTransaction outer(db(), dialect());
            QVERIFY(outer.begin().ok());
            QVERIFY(engine::AuditTrail::record(db(), dialect(), {1, engine::Environment::Sandbox},
                                               engine::AuditTrail::consoleUser(),
                                               {u"test.write"_s, u"test"_s, u"x"_s}, 1)
                        .ok());
            {
                engine::WriteTransaction inner(db(), dialect());
                QVERIFY(inner.begin().ok());
                // ends without commit: it chose not to keep its writes
            }
            QVERIFY(!outer.commit().ok());
        }
        QCOMPARE(count(), before);
        {
            engine::WriteTransaction outer(db(), dialect());
            QVERIFY(outer.begin().ok());
            {
                engine::WriteTransaction inner(db(), dialect());
                QVERIFY(inner.begin().ok());
                QVERIFY(engine::AuditTrail::record(db(), dialect(),
                                                   {1, engine::Environment::Sandbox},
                                                   engine::AuditTrail::consoleUser(),
                                                   {u"test.write"_s, u"test"_s, u"y"_s}, 2)
                            .ok());
                QVERIFY(inner.commit().ok());
            }
            QVERIFY(outer.commit().ok());
        }
        QCOMPARE(count(), before + 1);
    }
};

QTEST_GUILESS_MAIN(TestAuditLog)
#include "tst_auditlog.moc"
