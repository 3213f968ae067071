// Ids across the migrations that changed them (docs/storage.md, "Ids and
// cursors"): a legacy id (`tq_34`) names only a row from before migration 8,
// spelled exactly so (issue 34); a webhook endpoint's or delivery's key
// deleted before migration 14 is not given again after it (issue 51). Runs
// on SQLite and PostgreSQL.
#include "services/engine/ids/PublicIds.h"
#include "services/engine/ledger/AuditTrail.h"
#include "services/engine/sql/KeyAllocator.h"
#include "services/engine/sql/Sql.h"
#include "services/engine/track/FailedEvents.h"
#include "tests/engine/EngineFixture.h"
#include "tests/engine/IdReads.h"
#include "tests/engine/ScopeRoutes.h"

using namespace md;
using namespace Qt::StringLiterals;
using engine::PublicIds;
using Kind = engine::PublicIds::Kind;
using test::auditLog;
using test::firstPage;
using test::idsOf;

class TestIdMigrations final : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void legacyIdsNameOldRowsOnly()
    {
        test::EngineFixture fixture;
        MD_OPEN_FIXTURE(fixture);
        QVERIFY(fixture.engine->loadWorkspace(test::smallWorkspace()).ok());
        const QSqlDatabase old = fixture.engine->database().connection().value();
        const engine::Dialect dialect = fixture.engine->dialect();
        const engine::Scope scope{fixture.engine->organizations().value().first().pk,
                                  engine::Environment::Sandbox};
        // Back to version 7: what migrations 8 and later made, taken away.
        QStringList back = test::TestDatabase::withoutBalanceSums();
        back += QStringList{u"DROP INDEX api_keys_previous_hash"_s,
                            u"ALTER TABLE api_keys DROP COLUMN expires_at"_s,
                            u"ALTER TABLE api_keys DROP COLUMN revoked_at"_s,
                            u"ALTER TABLE api_keys DROP COLUMN last_used_at"_s,
                            u"ALTER TABLE api_keys DROP COLUMN previous_hash"_s,
                            u"ALTER TABLE api_keys DROP COLUMN previous_until"_s,
                            u"ALTER TABLE api_keys DROP COLUMN rolled_at"_s,
                            u"DROP TABLE limit_reached"_s,
                            u"DROP TABLE webhook_deliveries"_s,
                            u"DROP TABLE webhook_events"_s,
                            u"DROP TABLE webhook_endpoints"_s,
                            u"DROP INDEX balances_due"_s,
                            u"DROP INDEX balances_due_by_scope"_s,
                            u"DROP INDEX customer_products_period_due"_s,
                            u"DROP INDEX customer_products_end_due"_s,
                            u"DROP TABLE clock_offsets"_s,
                            u"ALTER TABLE balances DROP COLUMN reset_anchor"_s,
                            u"ALTER TABLE balances DROP COLUMN rollover"_s,
                            u"ALTER TABLE balances DROP COLUMN expired_at"_s,
                            u"ALTER TABLE balances DROP COLUMN due_at"_s,
                            u"ALTER TABLE customer_products DROP COLUMN period_anchor"_s,
                            u"DROP TABLE workspace_secret"_s,
                            u"DROP TABLE legacy_ids"_s,
                            u"DROP INDEX usage_events_by_customer"_s,
                            u"DROP INDEX customer_products_by_product"_s,
                            u"DROP INDEX standalone_balances"_s,
                            u"DROP INDEX customer_products_by_plan"_s,
                            u"DROP INDEX balances_by_remaining"_s,
                            u"DROP INDEX balances_by_usage"_s,
                            u"DROP INDEX balances_by_next_reset"_s,
                            u"ALTER TABLE customer_products DROP COLUMN plan_pk"_s,
                            u"DROP TABLE usage_days"_s,
                            u"DELETE FROM schema_version WHERE version >= 8"_s};
        if (dialect == engine::Dialect::Sqlite)
            back << u"DROP TRIGGER customers_search_insert"_s
                 << u"DROP TRIGGER customers_search_delete"_s
                 << u"DROP TRIGGER customers_search_update"_s << u"DROP TABLE customers_search"_s;
        else
            back
                << u"DROP INDEX customers_search_id, customers_search_name, customers_search_email"_s
                << u"DROP SEQUENCE webhook_deliveries_pk_seq, webhook_events_pk_seq,"
                   " webhook_endpoints_pk_seq"_s;
        for (const QString &sql : std::as_const(back))
            QVERIFY2(engine::runSql(old, sql).ok(), qPrintable(sql));
        // Rows as the counter form knew them: a key, a failed call, an audit entry.
        qint64 keyPk = 0;
        qint64 callPk = 0;
        {
            engine::WriteTransaction transaction(old, dialect);
            QVERIFY(transaction.begin().ok());
            engine::KeyAllocator keys(old, dialect);
            keyPk = keys.next(u"api_keys"_s).value();
            callPk = keys.next(u"track_queue"_s).value();
            const qint64 entryPk = keys.next(u"audit_log"_s).value();
            const QString keyId = u"key_%1"_s.arg(keyPk);
            QVERIFY(engine::insertRows(old, u"api_keys"_s,
                                       {u"pk"_s, u"org_pk"_s, u"env"_s, u"prefix"_s, u"hash"_s,
                                        u"scopes"_s, u"name"_s, u"created_at"_s},
                                       {{keyPk, scope.orgPk, u"test"_s, u"sk_test_old"_s,
                                         u"sha256:old"_s, u"*"_s, u"old"_s, 1000}})
                        .ok());
            QVERIFY(engine::insertRows(old, u"track_queue"_s,
                                       {u"pk"_s, u"org_pk"_s, u"env"_s, u"request"_s,
                                        u"received_at"_s, u"failed_at"_s, u"error"_s},
                                       {{callPk, scope.orgPk, u"test"_s,
                                         uR"({"customer_id":"ann","model_id":"test/old"})"_s, 5000,
                                         6000, u"failed before the upgrade"_s}})
                        .ok());
            QVERIFY(engine::insertRows(old, u"audit_log"_s,
                                       {u"pk"_s, u"org_pk"_s, u"env"_s, u"at"_s, u"actor_kind"_s,
                                        u"actor_key_id"_s, u"actor_name"_s, u"action"_s,
                                        u"resource_type"_s, u"resource_id"_s},
                                       {{entryPk, scope.orgPk, u"test"_s, 7000, u"key"_s, keyId,
                                         u"old"_s, u"api_key.create"_s, u"api_key"_s, keyId}})
                        .ok());
            QVERIFY(transaction.commit().ok());
        }

        // The upgrade: the same database opened again migrates it.
        engine::Engine upgraded(fixture.database.location());
        const auto upgrade = upgraded.open();
        QVERIFY2(upgrade.ok(), qPrintable(upgrade.ok() ? QString() : upgrade.error().message));
        const QSqlDatabase db = upgraded.database().connection().value();
        // Migration 15 gave every customer product its plan's key: its
        // plan's lowest version.
        auto keyed = engine::queryRows(
            db,
            u"SELECT COUNT(*), SUM(CASE WHEN cp.plan_pk = (SELECT f.pk FROM products f"
            " WHERE f.org_pk = p.org_pk AND f.env = p.env AND f.id = p.id ORDER BY f.version"
            " LIMIT 1) THEN 1 ELSE 0 END) FROM customer_products cp"
            " JOIN products p ON p.pk = cp.product_pk"_s,
            {});
        QVERIFY(keyed && keyed.value().first().at(0).toLongLong() > 0);
        QCOMPARE(keyed.value().first().at(1).toLongLong(),
                 keyed.value().first().at(0).toLongLong());
        const PublicIds publicIds = idsOf(upgraded);
        const QString keyId = publicIds.make(Kind::ApiKey, keyPk);
        const QString legacyKeyId = u"key_%1"_s.arg(keyPk);
        const auto legacy = publicIds.parse(Kind::ApiKey, legacyKeyId);
        QVERIFY(legacy && legacy->legacy);
        QCOMPARE(legacy->pk, keyPk);
        QVERIFY(!publicIds.parse(Kind::ApiKey, u"key_0%1"_s.arg(keyPk)));
        QVERIFY(!publicIds.parse(Kind::ApiKey, u"key_%1"_s.arg(keyPk + 1)));
        // A key made after the upgrade has no legacy id.
        QVERIFY(
            upgraded.createKey(u"alpha"_s, engine::Environment::Sandbox, {u"*"_s}, u"new"_s).ok());
        auto newest = engine::runSql(db, u"SELECT MAX(pk) FROM api_keys"_s);
        QVERIFY(newest && newest.value().next());
        const qint64 newKeyPk = newest.value().value(0).toLongLong();
        QVERIFY(newKeyPk > keyPk);
        QVERIFY(!publicIds.parse(Kind::ApiKey, u"key_%1"_s.arg(newKeyPk)));
        QCOMPARE(publicIds.parse(Kind::ApiKey, publicIds.make(Kind::ApiKey, newKeyPk))->pk,
                 newKeyPk);

        // The old audit entry shows the key's id, and is found by either spelling.
        for (const QString &actor : {legacyKeyId, keyId}) {
            api::AuditLogRequest byActor = firstPage(50);
            byActor.actor = actor;
            auto found = auditLog(upgraded, scope, byActor);
            QVERIFY(found);
            QCOMPARE(found.value().list.size(), 1);
            QCOMPARE(found.value().list.first().actor.keyId.value_or(QString()), keyId);
            QCOMPARE(found.value().list.first().resourceId, keyId);
            api::AuditLogRequest byResource = firstPage(50);
            byResource.resourceType = u"api_key"_s;
            byResource.resourceId = actor;
            found = auditLog(upgraded, scope, byResource);
            QVERIFY(found);
            QCOMPARE(found.value().list.size(), 1);
            QCOMPARE(found.value().list.first().actor.name, u"old"_s);
        }

        // The failed call is listed by its new id and still answers to its old one.
        auto failed = engine::FailedEvents::list(db, scope, {});
        QVERIFY(failed);
        QCOMPARE(failed.value().list.size(), 1);
        const QString callId = publicIds.make(Kind::QueuedCall, callPk);
        QCOMPARE(failed.value().list.first().id, callId);
        const QString legacyCallId = u"tq_%1"_s.arg(callPk);
        auto outcome = engine::FailedEvents::discard(db, dialect, scope,
                                                     {u"tq_00%1"_s.arg(callPk), legacyCallId});
        QVERIFY(outcome);
        QCOMPARE(outcome.value().notFound, QStringList{u"tq_00%1"_s.arg(callPk)});
        QCOMPARE(outcome.value().done, QStringList{legacyCallId});
        // A call received after the upgrade under a key SQLite freed: not by the old id.
        QVERIFY(engine::insertRows(db, u"track_queue"_s,
                                   {u"pk"_s, u"org_pk"_s, u"env"_s, u"request"_s, u"received_at"_s,
                                    u"failed_at"_s, u"error"_s},
                                   {{callPk, scope.orgPk, u"test"_s,
                                     uR"({"customer_id":"ann","model_id":"test/new"})"_s,
                                     publicIds.legacyBefore() + 1, publicIds.legacyBefore() + 2,
                                     u"failed after the upgrade"_s}})
                    .ok());
        outcome = engine::FailedEvents::discard(db, dialect, scope, {legacyCallId});
        QVERIFY(outcome);
        QCOMPARE(outcome.value().notFound, QStringList{legacyCallId});
        outcome = engine::FailedEvents::discard(db, dialect, scope, {callId});
        QVERIFY(outcome);
        QCOMPARE(outcome.value().done, QStringList{callId});
    }

    void webhookKeysDeletedBeforeMigration14AreNotGivenAgain()
    {
        test::EngineFixture fixture;
        MD_OPEN_FIXTURE(fixture);
        if (fixture.engine->dialect() != engine::Dialect::Sqlite)
            QSKIP("PostgreSQL's sequences never gave a key twice: migration 14 does nothing there");
        QVERIFY(fixture.engine->loadWorkspace(test::smallWorkspace()).ok());
        const engine::KeyContext key = test::everyScope(
            {fixture.engine->organizations().value().first().pk, engine::Environment::Sandbox});
        engine::ApiOperations api(*fixture.engine);
        // Three endpoints, each with a test delivery; the two newest deleted.
        QStringList endpoints;
        QStringList deliveries;
        for (int i = 0; i < 3; ++i) {
            const auto made =
                api.createWebhookEndpoint(key, {u"https://receiver.invalid/x"_s, {u"*"_s}, {}});
            QVERIFY(made.ok());
            endpoints.append(made.value().id);
            deliveries.append(api.sendTestWebhook(key, {made.value().id}).value().id);
        }
        for (int i = 1; i < 3; ++i)
            QVERIFY(api.deleteWebhookEndpoint(key, {endpoints.at(i)}).ok());
        // As a database from before migration 14 holds them: no highest key kept.
        const QSqlDatabase old = fixture.engine->database().connection().value();
        for (const QString &sql :
             test::TestDatabase::withoutBalanceSums() +
                 QStringList{u"DELETE FROM sqlite_sequence WHERE name IN ('webhook_endpoints',"
                             " 'webhook_deliveries')"_s,
                             u"DROP INDEX customer_products_by_plan"_s,
                             u"DROP INDEX balances_by_remaining"_s,
                             u"DROP INDEX balances_by_usage"_s,
                             u"DROP INDEX balances_by_next_reset"_s,
                             u"ALTER TABLE customer_products DROP COLUMN plan_pk"_s,
                             u"DROP TABLE usage_days"_s,
                             u"DELETE FROM schema_version WHERE version >= 14"_s})
            QVERIFY2(engine::runSql(old, sql).ok(), qPrintable(sql));

        engine::Engine upgraded(fixture.database.location());
        const auto upgrade = upgraded.open();
        QVERIFY2(upgrade.ok(), qPrintable(upgrade.ok() ? QString() : upgrade.error().message));
        engine::ApiOperations after(upgraded);
        const auto next =
            after.createWebhookEndpoint(key, {u"https://receiver.invalid/x"_s, {u"*"_s}, {}});
        QVERIFY(next.ok());
        QVERIFY2(!endpoints.contains(next.value().id), qPrintable(next.value().id));
        const auto sent = after.sendTestWebhook(key, {next.value().id});
        QVERIFY(sent.ok());
        QVERIFY2(!deliveries.contains(sent.value().id), qPrintable(sent.value().id));
    }
};

QTEST_GUILESS_MAIN(TestIdMigrations)
#include "tst_idmigrations.moc"
