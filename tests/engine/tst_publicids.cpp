// Ids and cursors reveal nothing and are taken only as issued (docs/storage.md,
// "Ids and cursors"; issue 34): an id maps back to its row, has one spelling
// and differs between workspaces; a cursor this server did not issue for
// this list, organization and environment is 400 invalid_cursor, and an
// issued one pages on; a deleted webhook endpoint's or delivery's id is not
// issued again (issue 51). Ids across migrations: tst_idmigrations. Runs on
// SQLite and PostgreSQL.
#include "services/engine/ids/PublicIds.h"
#include "services/engine/ledger/AuditTrail.h"
#include "services/engine/sql/Sql.h"
#include "tests/engine/EngineFixture.h"
#include "tests/engine/IdReads.h"
#include "tests/engine/ScopeRoutes.h"

#include <QRegularExpression>
#include <QSet>
#include <QtEndian>

#include <limits>

using namespace md;
using namespace Qt::StringLiterals;
using engine::PublicIds;
using Kind = engine::PublicIds::Kind;
using test::auditLog;
using test::firstPage;
using test::idsOf;

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
    void webhookIdsAreNotIssuedAgain()
    {
        // The newest endpoint and its delivery deleted in one organization,
        // then one made in another (issue 51): ids of their own, on either
        // database. (Last: it adds to alpha's audit log.)
        engine::ApiOperations api(*m_fixture.engine);
        const auto orgs = m_fixture.engine->organizations().value();
        const engine::Scope beta{orgs.at(1).pk, engine::Environment::Sandbox};
        QCOMPARE(orgs.at(1).slug, u"beta"_s);
        const auto madeWithTest = [&](const engine::Scope &scope) {
            const auto key = test::everyScope(scope);
            const auto made =
                api.createWebhookEndpoint(key, {u"https://receiver.invalid/x"_s, {u"*"_s}, {}});
            const auto sent = api.sendTestWebhook(key, {made.value().id});
            return std::pair{made.value().id, sent.value().id};
        };
        const auto [gone, goneDelivery] = madeWithTest(m_test);
        QVERIFY(api.deleteWebhookEndpoint(test::everyScope(m_test), {gone}).ok());
        const auto [theirs, theirDelivery] = madeWithTest(beta);
        QVERIFY2(theirs != gone, qPrintable(theirs));
        QVERIFY2(theirDelivery != goneDelivery, qPrintable(theirDelivery));
    }
};

QTEST_GUILESS_MAIN(TestPublicIds)
#include "tst_publicids.moc"
