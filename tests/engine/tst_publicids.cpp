// Ids and cursors reveal nothing and are taken only as issued (docs/storage.md,
// "Ids and cursors"; issue 34): an id maps back to its row, has one spelling
// and differs between workspaces; a legacy id (`tq_34`) names only a row from
// before migration 8, spelled exactly so; a cursor this server did not issue
// for this list, organization and environment is 400 invalid_cursor, and an
// issued one pages on. Runs on SQLite and PostgreSQL.
#include "services/engine/ids/PublicIds.h"
#include "services/engine/ledger/AuditTrail.h"
#include "services/engine/sql/Sql.h"
#include "services/engine/track/FailedEvents.h"
#include "tests/engine/EngineFixture.h"
#include "tests/engine/ScopeRoutes.h"

#include <QRegularExpression>
#include <QSet>
#include <QtEndian>

#include <limits>

using namespace md;
using namespace Qt::StringLiterals;
using engine::PublicIds;
using Kind = engine::PublicIds::Kind;

namespace {

const QList<Kind> AllKinds{Kind::AuditEntry, Kind::LedgerEntry, Kind::ApiKey,
                           Kind::QueuedCall, Kind::UsageAlert,  Kind::UsageEvent};

QString base64Url(const QByteArray &bytes)
{
    return QString::fromLatin1(
        bytes.toBase64(QByteArray::Base64UrlEncoding | QByteArray::OmitTrailingEquals));
}

QByteArray bytesOf(const QString &cursor)
{
    return QByteArray::fromBase64(cursor.toLatin1(), QByteArray::Base64UrlEncoding);
}

PublicIds idsOf(engine::Engine &engine)
{
    auto ids = PublicIds::of(engine.database().connection().value());
    if (!ids)
        qFatal("no public ids: %s", qPrintable(ids.error().message));
    return ids.value();
}

api::Result<api::Page<api::AuditEntry>> auditLog(engine::Engine &engine, const engine::Scope &scope,
                                                 api::AuditLogRequest request)
{
    return engine.withConnection(
        [&](const QSqlDatabase &db) { return engine::AuditTrail::list(db, scope, request); });
}

api::AuditLogRequest firstPage(qint64 limit = 1)
{
    api::AuditLogRequest request;
    request.limit = limit;
    return request;
}

} // namespace

class TestPublicIds final : public QObject
{
    Q_OBJECT

    test::EngineFixture m_fixture;
    engine::Scope m_test; // alpha's sandbox: three audit entries

    PublicIds ids() { return idsOf(*m_fixture.engine); }

    // An issued id whose characters hold a letter, so that its upper case differs.
    QString issuedWithALetter(Kind kind)
    {
        static const QRegularExpression letter(u"_.*[a-z]"_s);
        for (qint64 pk = 34;; ++pk)
            if (const QString id = ids().make(kind, pk); letter.match(id).hasMatch())
                return id;
    }

    // The cursor after the first entry of a scope's audit log.
    QString auditCursor(const engine::Scope &scope)
    {
        auto page = auditLog(*m_fixture.engine, scope, firstPage());
        if (!page || !page.value().nextCursor)
            qFatal("no second page of the audit log");
        return *page.value().nextCursor;
    }

    void expectInvalidCursor(const api::ApiError &error)
    {
        QCOMPARE(error.status, 400);
        QCOMPARE(error.code, u"invalid_cursor"_s);
    }

private Q_SLOTS:
    void initTestCase()
    {
        MD_OPEN_FIXTURE(m_fixture);
        QVERIFY(m_fixture.engine->loadWorkspace(test::smallWorkspace()).ok());
        QVERIFY(m_fixture.engine
                    ->loadWorkspace(test::jsonValue(
                        R"({"format":"meterdesk-workspace","version":1,"organizations":[)"
                        R"({"id":"org_b","slug":"beta","name":"Beta","created_at":0}]})"))
                    .ok());
        // A load's entry and two keys' in each environment of each organization.
        for (const QString &org : {u"alpha"_s, u"beta"_s})
            for (const engine::Environment env :
                 {engine::Environment::Sandbox, engine::Environment::Production})
                for (const QString &name : {u"first"_s, u"second"_s})
                    QVERIFY(m_fixture.engine->createKey(org, env, {u"*"_s}, name).ok());
        const auto orgs = m_fixture.engine->organizations().value();
        QCOMPARE(orgs.first().slug, u"alpha"_s);
        m_test = {orgs.first().pk, engine::Environment::Sandbox};
    }

    void idsMapBackToTheirRows()
    {
        static const QRegularExpression shape(u"^[a-z]+_[0-9a-f][0-9a-hjkmnp-tv-z]{12}$"_s);
        const PublicIds publicIds = ids();
        for (const Kind kind : AllKinds) {
            for (const qint64 pk :
                 {qint64(1), qint64(2), qint64(34), qint64(4294967295), qint64(4294967296),
                  qint64(1) << 53, std::numeric_limits<qint64>::max()}) {
                const QString id = publicIds.make(kind, pk);
                QVERIFY2(id.startsWith(PublicIds::prefixOf(kind)), qPrintable(id));
                QVERIFY2(shape.match(id).hasMatch(), qPrintable(id));
                const auto row = publicIds.parse(kind, id);
                QVERIFY2(row, qPrintable(id));
                QCOMPARE(row->pk, pk);
                QVERIFY(!row->legacy);
            }
        }
    }

    void idsShowNoCount()
    {
        const PublicIds publicIds = ids();
        QStringList made;
        for (qint64 pk = 1; pk <= 200; ++pk)
            made.append(publicIds.make(Kind::LedgerEntry, pk));
        QStringList sorted = made;
        sorted.sort();
        QVERIFY2(sorted != made, "consecutive keys gave ids in order");
        QCOMPARE(QSet<QString>(made.begin(), made.end()).size(), made.size());
        // Each prefix has a permutation of its own.
        QVERIFY(publicIds.make(Kind::QueuedCall, 34).mid(3) !=
                publicIds.make(Kind::ApiKey, 34).mid(4));
    }

    void onlyTheIssuedSpellingIsTaken_data()
    {
        QTest::addColumn<QString>("id");
        const QString issued = issuedWithALetter(Kind::QueuedCall);
        const QString digits = issued.mid(3);
        QTest::newRow("upper case") << issued.toUpper();
        QTest::newRow("upper-case prefix") << QString(u"TQ_"_s + digits);
        QTest::newRow("a leading zero") << QString(u"tq_0"_s + digits);
        QTest::newRow("a character more") << QString(issued + u"a"_s);
        QTest::newRow("a character less") << issued.chopped(1);
        QTest::newRow("another prefix") << QString(u"key_"_s + digits);
        QTest::newRow("no prefix") << digits;
        QTest::newRow("space before") << QString(QChar(u' ') + issued);
        QTest::newRow("space after") << QString(issued + u' ');
        QTest::newRow("first digit past f") << QString(u"tq_g"_s + digits.mid(1));
        for (const char16_t left : {u'i', u'l', u'o', u'u'})
            QTest::newRow(qPrintable(u"the letter %1"_s.arg(QChar(left))))
                << QString(issued.chopped(1) + QChar(left));
        QTest::newRow("zero-padded number") << u"tq_000034"_s;
        QTest::newRow("number with a sign") << u"tq_+34"_s;
        QTest::newRow("number of no row from before") << u"tq_34"_s;
        QTest::newRow("other digits") << u"tq_\u0663\u0664"_s;
        QTest::newRow("nothing after the prefix") << u"tq_"_s;
    }
    void onlyTheIssuedSpellingIsTaken()
    {
        QFETCH(QString, id);
        QVERIFY(ids().parse(Kind::QueuedCall, issuedWithALetter(Kind::QueuedCall)));
        QVERIFY2(!ids().parse(Kind::QueuedCall, id), qPrintable(id));
    }

    void workspacesDiffer()
    {
        test::EngineFixture other;
        MD_OPEN_FIXTURE(other);
        const PublicIds here = ids();
        const PublicIds there = idsOf(*other.engine);
        for (const Kind kind : AllKinds) {
            const QString id = here.make(kind, 34);
            QVERIFY(there.make(kind, 34) != id);
            const auto elsewhere = there.parse(kind, id);
            QVERIFY(!elsewhere || elsewhere->pk != 34);
        }
        // Another engine on the same database reads the same secret.
        engine::Engine again(m_fixture.database.location());
        QVERIFY(again.open().ok());
        QCOMPARE(idsOf(again).make(Kind::AuditEntry, 34), here.make(Kind::AuditEntry, 34));
        // A cursor of another workspace is no cursor here.
        QVERIFY(other.engine->loadWorkspace(test::smallWorkspace()).ok());
        for (const QString &name : {u"first"_s, u"second"_s})
            QVERIFY(
                other.engine->createKey(u"alpha"_s, engine::Environment::Sandbox, {u"*"_s}, name)
                    .ok());
        const engine::Scope otherTest{other.engine->organizations().value().first().pk,
                                      engine::Environment::Sandbox};
        auto page = auditLog(*other.engine, otherTest, firstPage());
        QVERIFY(page && page.value().nextCursor);
        api::AuditLogRequest request = firstPage();
        request.startCursor = *page.value().nextCursor;
        const auto refused = auditLog(*m_fixture.engine, m_test, request);
        QVERIFY(!refused);
        expectInvalidCursor(refused.error());
    }

    void issuedCursorsPageOn()
    {
        auto total = engine::runSql(m_fixture.engine->database().connection().value(),
                                    u"SELECT COUNT(*), MAX(pk) FROM audit_log"
                                    " WHERE org_pk = ? AND env = 'test'"_s,
                                    {m_test.orgPk});
        QVERIFY(total && total.value().next());
        const qint64 newest = total.value().value(1).toLongLong();
        QStringList seen;
        api::AuditLogRequest request = firstPage();
        for (;;) {
            auto page = auditLog(*m_fixture.engine, m_test, request);
            QVERIFY2(page, page ? "" : qPrintable(page.error().message));
            QCOMPARE(page.value().list.size(), 1);
            seen.append(page.value().list.first().id);
            if (!page.value().hasMore)
                break;
            request.startCursor = *page.value().nextCursor;
            // The cursor shows no key: not the newest entry's 8 bytes. (Its
            // digits in text are checked only when long enough that random
            // bytes hold them by chance once in 2^32: a digit or two would,
            // once in a few runs.)
            const QByteArray bytes = bytesOf(request.startCursor);
            QByteArray bigEndian(8, '\0');
            qToBigEndian(quint64(newest), bigEndian.data());
            QVERIFY(!bytes.contains(bigEndian));
            const QByteArray digits = QByteArray::number(newest);
            QVERIFY(digits.size() < 4 || !bytes.contains(digits));
        }
        QCOMPARE(qint64(seen.size()), total.value().value(0).toLongLong());
        QCOMPARE(QSet<QString>(seen.begin(), seen.end()).size(), seen.size());
        QCOMPARE(ids().parse(Kind::AuditEntry, seen.first())->pk, newest);
    }

    void forgedCursorsAreRefused_data()
    {
        QTest::addColumn<QString>("cursor");
        const QString issued = auditCursor(m_test);
        QByteArray flipped = bytesOf(issued);
        flipped[flipped.size() / 2] = char(flipped.at(flipped.size() / 2) ^ 1);
        QTest::newRow("a number") << base64Url("99999999999");
        QTest::newRow("a space and a number") << base64Url(" 5");
        QTest::newRow("the old form") << base64Url("3");
        QTest::newRow("a tagged position") << base64Url("l1:3");
        QTest::newRow("garbage") << u"nonsense!"_s;
        QTest::newRow("one byte flipped") << base64Url(flipped);
        QTest::newRow("a character more") << QString(issued + u'A');
        QTest::newRow("a character less") << issued.chopped(1);
        QTest::newRow("padded") << QString(issued + u'=');
        QTest::newRow("upper case") << issued.toUpper();
        // Issued, but for another list, environment or organization.
        api::BalancePagesRequest pages;
        pages.filter.statuses = {api::BalanceStatus::Active, api::BalanceStatus::Expired};
        pages.pageSize = 1;
        QTest::newRow("another list")
            << test::balancePages(*m_fixture.engine, m_test, pages).value().cursors.value(1);
        const auto orgs = m_fixture.engine->organizations().value();
        QTest::newRow("another environment")
            << auditCursor({m_test.orgPk, engine::Environment::Production});
        QTest::newRow("another organization")
            << auditCursor({orgs.last().pk, engine::Environment::Sandbox});
    }
    void forgedCursorsAreRefused()
    {
        QFETCH(QString, cursor);
        QVERIFY(!cursor.isEmpty());
        api::AuditLogRequest request = firstPage();
        request.startCursor = cursor;
        const auto page = auditLog(*m_fixture.engine, m_test, request);
        QVERIFY2(!page, qPrintable(cursor));
        expectInvalidCursor(page.error());
    }

    void balanceCursorsAreSealedToo()
    {
        api::ListBalancesRequest request;
        request.statuses = {api::BalanceStatus::Active, api::BalanceStatus::Expired};
        request.limit = 1;
        auto first = test::listBalances(*m_fixture.engine, m_test, request);
        QVERIFY(first && first.value().nextCursor);
        const QString issued = *first.value().nextCursor;
        request.startCursor = issued;
        auto second = test::listBalances(*m_fixture.engine, m_test, request);
        QVERIFY(second);
        QVERIFY(second.value().list.first().id != first.value().list.first().id);
        QByteArray flipped = bytesOf(issued);
        flipped[0] = char(flipped.at(0) ^ 1);
        for (const QString &forged :
             {base64Url("b1:1:1"), base64Url(" 5"), base64Url(flipped), auditCursor(m_test)}) {
            request.startCursor = forged;
            const auto page = test::listBalances(*m_fixture.engine, m_test, request);
            QVERIFY2(!page, qPrintable(forged));
            expectInvalidCursor(page.error());
        }
        request.startCursor = issued;
        const auto elsewhere = test::listBalances(
            *m_fixture.engine, {m_test.orgPk, engine::Environment::Production}, request);
        QVERIFY(!elsewhere);
        expectInvalidCursor(elsewhere.error());
    }

    // A database from before migration 8: its rows keep their counter ids,
    // spelled exactly so; rows made after it never answer to one.
    void legacyIdsNameOldRowsOnly()
    {
        test::EngineFixture fixture;
        MD_OPEN_FIXTURE(fixture);
        QVERIFY(fixture.engine->loadWorkspace(test::smallWorkspace()).ok());
        const QSqlDatabase old = fixture.engine->database().connection().value();
        const engine::Dialect dialect = fixture.engine->dialect();
        const engine::Scope scope{fixture.engine->organizations().value().first().pk,
                                  engine::Environment::Sandbox};
        // Back to version 7: what migrations 8 to 12 made, taken away.
        QStringList back{u"DROP INDEX api_keys_previous_hash"_s,
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
};

QTEST_GUILESS_MAIN(TestPublicIds)
#include "tst_publicids.moc"
