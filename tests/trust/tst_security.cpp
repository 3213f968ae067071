// Security at the HTTP boundary (issues 8 and 34), against a real
// meterdesk-server: every route of docs/openapi.yaml refuses a key that lacks
// its scope, before reading its path's id or body, and serves one holding
// only that scope; no key, a wrong key or a wrong method
// is refused everywhere; test and live keys never see each other's data;
// another platform's tenants cannot be reached; bodies are bounded in size
// and nesting; no secret is stored in the database, only its hash; and an
// internal error shows the caller a reference, not the database's words.
#include "services/api/JsonReader.h"
#include "services/engine/Engine.h"
#include "services/engine/access/ApiKeys.h"
#include "services/engine/sql/Database.h"
#include "services/engine/sql/Sql.h"
#include "services/server/ApiRoutes.h"
#include "tests/support/HttpClient.h"
#include "tests/support/JsonEdit.h"
#include "tests/support/ServerProcess.h"
#include "tests/support/TestDatabase.h"

#include <QDirIterator>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>
#include <QTest>

#include <algorithm>

using namespace md;
using namespace Qt::StringLiterals;

namespace {

const QByteArray AllKey = "sk_test_admin00000000000000000000000000";
const QByteArray LiveKey = "sk_live_security000000000000000000000000";
const QByteArray RivalKey = "sk_test_rival00000000000000000000000000";

// A key per scope holding only it, and one holding every other scope.
QByteArray onlyKey(qsizetype scope)
{
    return "sk_test_only" + QByteArray::number(scope).rightJustified(28, '0');
}
QByteArray allButKey(qsizetype scope)
{
    return "sk_test_allbut" + QByteArray::number(scope).rightJustified(26, '0');
}
QStringList scopes()
{
    QStringList list = engine::ApiKeys::knownScopes();
    list.removeAll(u"*"_s);
    return list;
}

struct Route
{
    QByteArray path;
    QStringList scopes; // the key needs one of them; none: any valid key
    QByteArray body;
};

const QStringList Promoting{u"plans:write"_s, u"rewards:write"_s};

// A body that is not JSON (a plain string: see the note on raw strings below).
const QByteArray Unfinished = "{\"x\":";

// moc (6.4) miscounts braces inside raw strings: every raw string in this
// file closes what it opens.

// Every route with a body it accepts (against the admin workspace).
const QList<Route> &routes()
{
    static const QList<Route> list{
        {"/v1/balances.list", {u"balances:read"_s}, "{}"},
        {"/v1/billing.import",
         {u"billing:write"_s},
         R"({"customer_id":"zed","dry_run":true,"billables":[{"plan":{"plan_id":"basic"}}]})"},
        {"/v1/balances.track_tokens",
         {u"balances:write"_s},
         R"({"customer_id":"dora","model_id":"openai/gpt-4o-mini","input_tokens":1,"output_tokens":1})"},
        {"/v1/rewards.update",
         {u"rewards:write"_s},
         R"({"reward_id":"launch","coupon":{"name":"Launch"}})"},
        {"/v1/customers/dora/billing_portal", {u"billing:read"_s}, "{}"},
        {"/v1/products/basic", {u"plans:write"_s}, R"({"name":"Basic"})"},
        {"/v1/platform/organizations/stripe",
         {u"platform:write"_s},
         R"({"organization_slug":"delta-t1","test_account_id":"acct_ok"})"},
        {"/v1/meterdesk/whoami", {}, "{}"},
        {"/v1/meterdesk/about", {}, "{}"},
        {"/v1/meterdesk/balances.totals", {u"balances:read"_s}, "{}"},
        {"/v1/meterdesk/customers.list", {u"balances:read"_s}, "{}"},
        {"/v1/meterdesk/customers.get", {u"balances:read"_s}, R"({"customer_id":"dora"})"},
        {"/v1/meterdesk/features.list", {u"balances:read"_s}, "{}"},
        {"/v1/meterdesk/products.list", {u"balances:read"_s}, "{}"},
        {"/v1/meterdesk/rewards.list", {u"balances:read"_s}, "{}"},
        {"/v1/meterdesk/organizations.list", {u"balances:read"_s}, "{}"},
        {"/v1/meterdesk/models.list", {u"balances:read"_s}, "{}"},
        {"/v1/meterdesk/track_tokens.price",
         {u"balances:read"_s},
         R"({"customer_id":"dora","model_id":"openai/gpt-4o-mini","input_tokens":1,"output_tokens":1})"},
        {"/v1/meterdesk/usage_events.list", {u"balances:read"_s}, "{}"},
        {"/v1/meterdesk/usage_events.totals", {u"balances:read"_s}, "{}"},
        {"/v1/meterdesk/charges.preview", {u"balances:read"_s}, R"({"customer_id":"dora"})"},
        {"/v1/meterdesk/statements.list", {u"balances:read"_s}, "{}"},
        {"/v1/meterdesk/statements.get", {u"balances:read"_s}, R"({"id":"stmt_0000000000000"})"},
        {"/v1/meterdesk/processors.verify", {u"balances:read"_s}, "{}"},
        {"/v1/meterdesk/processors.subscriptions", {u"billing:write"_s}, "{}"},
        {"/v1/meterdesk/processors.keys", {u"keys:read"_s, u"keys:write"_s}, "{}"},
        {"/v1/meterdesk/processors.connect", {u"keys:write"_s}, R"({"secret":"sk_live_x"})"},
        {"/v1/meterdesk/processors.disconnect", {u"keys:write"_s}, "{}"},
        {"/v1/meterdesk/revenue.summary",
         {u"balances:read"_s},
         R"({"from":0,"to":86400000,"group_by":"month"})"},
        {"/v1/meterdesk/balances.track",
         {u"balances:write"_s},
         R"({"customer_id":"dora","feature_id":"calls","value":1})"},
        {"/v1/meterdesk/balances.check",
         {u"balances:read"_s},
         R"({"customer_id":"dora","feature_id":"calls"})"},
        {"/v1/meterdesk/usage.batch",
         {u"balances:write"_s},
         R"({"events":[{"kind":"feature","customer_id":"dora","feature_id":"calls"}]})"},
        {"/v1/meterdesk/customers.billing_controls",
         {u"balances:read"_s},
         R"({"customer_id":"dora"})"},
        {"/v1/meterdesk/customers.update_billing_controls",
         {u"billing:write"_s},
         R"({"customer_id":"dora","billing_controls":{"usageAlerts":[]}})"},
        {"/v1/meterdesk/usage_alerts.list", {u"balances:read"_s}, "{}"},
        {"/v1/meterdesk/audit_log.list", {u"balances:read"_s}, "{}"},
        {"/v1/meterdesk/ledger.list", {u"balances:read"_s}, R"({"customer_id":"dora"})"},
        {"/v1/meterdesk/clock.get", {u"balances:read"_s}, "{}"},
        {"/v1/meterdesk/clock.advance", {u"balances:write"_s}, R"({"to":1,"dry_run":true})"},
        {"/v1/meterdesk/balances.adjust",
         {u"balances:write"_s},
         R"({"balance_id":"b_nobody","amount":1,"reason":"test"})"},
        {"/v1/meterdesk/balances.create",
         {u"balances:write"_s},
         R"({"customer_id":"nobody","feature_id":"calls","amount":1,"reason":"test"})"},
        {"/v1/meterdesk/environments.diff", Promoting, "{}"},
        {"/v1/meterdesk/environments.promote", Promoting,
         R"({"products":[{"id":"basic","production":null,"to":{"created_at":1,"id":"basic","name":"Basic","env":"production","is_add_on":false,"is_default":false,"group":null,"version":1,"items":[],"free_trial":null}}]})"},
        {"/v1/meterdesk/balances.pages", {u"balances:read"_s}, "{}"},
        {"/v1/meterdesk/track_queue.failed", {u"balances:read"_s}, "{}"},
        {"/v1/meterdesk/track_queue.retry", {u"balances:write"_s}, R"({"ids":["tq_1"]})"},
        {"/v1/meterdesk/track_queue.discard", {u"balances:write"_s}, R"({"ids":["tq_1"]})"},
        {"/v1/meterdesk/webhook_endpoints.list", {u"webhooks:read"_s}, "{}"},
        {"/v1/meterdesk/webhook_endpoints.create",
         {u"webhooks:write"_s},
         R"({"url":"https://receiver.invalid/x","events":["*"]})"},
        {"/v1/meterdesk/webhook_endpoints.update", {u"webhooks:write"_s}, R"({"id":"we_1"})"},
        {"/v1/meterdesk/webhook_endpoints.delete", {u"webhooks:write"_s}, R"({"id":"we_1"})"},
        {"/v1/meterdesk/webhook_endpoints.rotate_secret",
         {u"webhooks:write"_s},
         R"({"id":"we_1"})"},
        {"/v1/meterdesk/webhook_endpoints.send_test", {u"webhooks:write"_s}, R"({"id":"we_1"})"},
        {"/v1/meterdesk/webhook_deliveries.list", {u"webhooks:read"_s}, "{}"},
        {"/v1/meterdesk/webhook_deliveries.redeliver", {u"webhooks:write"_s}, R"({"id":"wd_1"})"},
        {"/v1/meterdesk/api_keys.list", {u"keys:read"_s, u"keys:write"_s}, "{}"},
        {"/v1/meterdesk/api_keys.create",
         {u"keys:write"_s},
         R"({"name":"x","scopes":["keys:write"]})"},
        {"/v1/meterdesk/api_keys.revoke", {u"keys:write"_s}, R"({"id":"key_1"})"},
        {"/v1/meterdesk/api_keys.roll", {u"keys:write"_s}, R"({"id":"key_1"})"},
    };
    return list;
}

QJsonObject workspace()
{
    QFile file(QStringLiteral(MD_TEST_CONFORMANCE_DIR "/admin-workspace.json"));
    if (!file.open(QIODevice::ReadOnly))
        qFatal("cannot read the admin workspace");
    QJsonObject root = QJsonDocument::fromJson(file.readAll()).object();
    QJsonArray organizations = root.value(u"organizations"_s).toArray();
    const auto key = [](const QByteArray &secret, const QStringList &held) {
        return QJsonObject{{u"env"_s, QString::fromLatin1(secret.mid(3, 4))},
                           {u"secret"_s, QString::fromLatin1(secret)},
                           {u"scopes"_s, QJsonArray::fromStringList(held)},
                           {u"created_at"_s, 1000}};
    };
    for (qsizetype i = 0; i < organizations.size(); ++i) {
        QJsonObject organization = organizations.at(i).toObject();
        QJsonArray keys = organization.value(u"api_keys"_s).toArray();
        if (organization.value(u"id"_s) == "org_delta"_L1) {
            for (qsizetype s = 0; s < scopes().size(); ++s) {
                QStringList others = scopes();
                others.removeAt(s);
                keys.append(key(onlyKey(s), {scopes().at(s)}));
                keys.append(key(allButKey(s), others));
            }
            keys.append(key(LiveKey, {u"*"_s}));
        } else if (organization.value(u"id"_s) == "org_rival"_L1) {
            keys.append(key(RivalKey, {u"*"_s}));
        }
        organization.insert(u"api_keys"_s, keys);
        organizations.replace(i, organization);
    }
    root.insert(u"organizations"_s, organizations);
    return root;
}

QString describe(const test::HttpClient::Response &response)
{
    return u"%1 %2"_s.arg(response.status).arg(QString::fromUtf8(response.body.left(300)));
}

// A path of ApiRoutes::listing() as this workspace can call it.
QByteArray callable(QByteArray path)
{
    return path.replace("{customer_id}", "dora").replace("{product_id}", "basic");
}

// A key holding one scope, none of `needed` (an unknown key, if every
// scope were needed: its 401 would fail the test).
QByteArray keyWithout(const QStringList &needed)
{
    qsizetype s = 0;
    while (s < scopes().size() && needed.contains(scopes().at(s)))
        ++s;
    return onlyKey(s);
}

} // namespace

class TestSecurity final : public QObject
{
    Q_OBJECT

    test::TestDatabase m_database;
    test::ServerProcess m_server;
    QList<QByteArray> m_madeSecrets; // by api_keys.create: stored as hashes too

    test::HttpClient::Response post(const QByteArray &key, const QByteArray &path,
                                    const QByteArray &body)
    {
        test::HttpClient client(m_server.url(), key);
        return client.post(path, body);
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY2(m_database.error().isEmpty(), qPrintable(m_database.error()));
        {
            engine::Engine setup(m_database.location());
            QVERIFY(setup.open().ok());
            auto loaded = setup.loadWorkspace(test::fromQt(workspace()));
            QVERIFY2(loaded.ok(), loaded.ok() ? "" : qPrintable(loaded.error().message));
        }
        const QString problem = m_server.start(m_database.location());
        QVERIFY2(problem.isEmpty(), qPrintable(problem));
    }

    void cleanupTestCase() { QCOMPARE(m_server.stop(), 0); }

    void everyDocumentedRouteIsCovered()
    {
        QFile spec(QStringLiteral(MD_SOURCE_DIR "/docs/openapi.yaml"));
        QVERIFY(spec.open(QIODevice::ReadOnly | QIODevice::Text));
        static const QRegularExpression pathLine(uR"(^  (/v1/\S+):$)"_s,
                                                 QRegularExpression::MultilineOption);
        QStringList covered;
        for (const Route &route : routes())
            covered << QString::fromLatin1(route.path);
        auto matches = pathLine.globalMatch(QString::fromUtf8(spec.readAll()));
        int documented = 0;
        while (matches.hasNext()) {
            QString path = matches.next().captured(1);
            path.replace(u"{customer_id}"_s, u"dora"_s).replace(u"{product_id}"_s, u"basic"_s);
            QVERIFY2(covered.contains(path), qPrintable(path + u" has no scope case here"_s));
            ++documented;
        }
        QCOMPARE(documented, routes().size());
    }

    // The table above is the server's own: no route is forgotten here, and
    // each needs the scopes the table says.
    void everyServedRouteIsCovered()
    {
        QStringList served;
        for (const auto &[path, access] : server::ApiRoutes().listing()) {
            const QByteArray called = callable(path);
            served << QString::fromLatin1(called);
            const auto here = std::find_if(routes().cbegin(), routes().cend(),
                                           [&called](const Route &r) { return r.path == called; });
            QVERIFY2(here != routes().cend(), called.constData());
            QCOMPARE(access.scopes, here->scopes);
            for (const QString &scope : access.scopes)
                QVERIFY2(scopes().contains(scope), qPrintable(scope));
        }
        QCOMPARE(served.size(), routes().size());
    }

    void everyRouteNeedsItsScope_data()
    {
        QTest::addColumn<int>("route");
        for (qsizetype r = 0; r < routes().size(); ++r)
            QTest::newRow(routes().at(r).path.constData()) << int(r);
    }
    void everyRouteNeedsItsScope()
    {
        QFETCH(int, route);
        const Route &tried = routes().at(route);
        for (qsizetype s = 0; s < scopes().size(); ++s) {
            const QString scope = scopes().at(s);
            if (tried.scopes.isEmpty()) {
                QCOMPARE(post(allButKey(s), tried.path, tried.body).status, 200);
                continue;
            }
            // A key holding only this scope: refused unless it is one the route takes.
            const auto only = post(onlyKey(s), tried.path, tried.body);
            if (!tried.scopes.contains(scope)) {
                QVERIFY2(only.status == 403 && only.body.contains("insufficient_scopes"),
                         qPrintable(u"with only "_s + scope + u": "_s + describe(only)));
                continue;
            }
            // These keys are sandbox keys: a route for production keys
            // refuses them for that, not for their scope.
            const bool liveOnly = only.status == 403 && only.body.contains("live_key_required");
            QVERIFY2(only.status / 100 == 2 || only.status == 400 || only.status == 404 || liveOnly,
                     qPrintable(u"with only "_s + scope + u": "_s + describe(only)));
            // A key holding every other scope: refused when this is the one it takes.
            if (tried.scopes == QStringList{scope}) {
                const auto without = post(allButKey(s), tried.path, tried.body);
                QVERIFY2(without.status == 403 && without.body.contains("insufficient_scopes"),
                         qPrintable(u"without "_s + scope + u": "_s + describe(without)));
            }
        }
    }

    // Issue 34: the key and its scope come before the body on every route
    // the server has (ApiRoutes::listing(), so a new one is tried too). A
    // key without the scope hears 403 naming it, not what is wrong with the
    // body; for the promotion routes, a sandbox key hears live_key_required,
    // and for the sandbox's clock a production key hears sandbox_only (issue 51).
    void theKeyAndScopeComeBeforeTheBody_data()
    {
        QTest::addColumn<QByteArray>("path");
        QTest::addColumn<QStringList>("needed");
        QTest::addColumn<bool>("liveKey");
        QTest::addColumn<bool>("sandboxKey");
        QTest::addColumn<QByteArray>("body");
        for (const auto &[path, access] : server::ApiRoutes().listing())
            if (!access.scopes.isEmpty()) // any valid key may call the others
                for (const QByteArray &body : {Unfinished, QByteArray("[]")})
                    QTest::addRow("%s %s", path.constData(), body.constData())
                        << callable(path) << access.scopes << access.liveKey << access.sandboxKey
                        << body;
    }
    void theKeyAndScopeComeBeforeTheBody()
    {
        QFETCH(QByteArray, path);
        QFETCH(QStringList, needed);
        QFETCH(bool, liveKey);
        QFETCH(bool, sandboxKey);
        QFETCH(QByteArray, body);
        const auto refused = post(keyWithout(needed), path, body);
        QVERIFY2(refused.status == 403 && refused.body.contains("insufficient_scopes"),
                 qPrintable(describe(refused)));
        for (const QString &scope : needed)
            QVERIFY2(refused.body.contains(scope.toLatin1()), qPrintable(describe(refused)));
        if (liveKey) {
            const auto sandbox = post(AllKey, path, body);
            QVERIFY2(sandbox.status == 403 && sandbox.body.contains("live_key_required"),
                     qPrintable(describe(sandbox)));
        }
        if (sandboxKey) {
            const auto production = post(LiveKey, path, body);
            QVERIFY2(production.status == 403 && production.body.contains("sandbox_only"),
                     qPrintable(describe(production)));
        }
        // A key that may call the route hears about the body.
        const auto allowed = post(liveKey ? LiveKey : AllKey, path, Unfinished);
        QVERIFY2(allowed.status == 400 && allowed.body.contains("invalid_inputs"),
                 qPrintable(describe(allowed)));
    }

    // A path's id is read after the key and its scope, too.
    void aPathIdComesAfterTheKeyAndScope()
    {
        const QByteArray blank = "/v1/products/%20";
        QCOMPARE(post({}, blank, "{}").status, 401);
        const auto refused = post(keyWithout({u"plans:write"_s}), blank, "{}");
        QVERIFY2(refused.status == 403 && refused.body.contains("plans:write"),
                 qPrintable(describe(refused)));
        const auto allowed = post(AllKey, blank, "{}");
        QVERIFY2(allowed.status == 400 && allowed.body.contains("product_id"),
                 qPrintable(describe(allowed)));
    }

    void everyRouteRefusesStrangers()
    {
        for (const Route &route : routes()) {
            QCOMPARE(post({}, route.path, route.body).status, 401);
            QCOMPARE(post("sk_test_wrong000000000000000000000000", route.path, route.body).status,
                     401);
            QCOMPARE(post("Basic YWxhZGRpbjpvcGVuc2VzYW1l", route.path, route.body).status, 401);
            test::HttpClient client(m_server.url(), AllKey);
            QCOMPARE(client.send("GET", route.path, {}).status, 405);
        }
    }

    void testAndLiveNeverMeet()
    {
        // The live key of the same organization sees none of its test data...
        const auto customers = post(LiveKey, "/v1/meterdesk/customers.list", "{}");
        QCOMPARE(customers.status, 200);
        QVERIFY2(!customers.body.contains("dora"), customers.body.constData());
        QCOMPARE(post(LiveKey, "/v1/meterdesk/customers.get", R"({"customer_id":"dora"})").status,
                 404);
        QCOMPARE(post(LiveKey, "/v1/customers/dora/billing_portal", "{}").status, 404);
        QCOMPARE(post(LiveKey, "/v1/products/basic", R"({"name":"Hijacked"})").status, 404);
        QCOMPARE(post(LiveKey, "/v1/billing.import", routes().at(1).body).status, 404); // no plan
        // ...and what a test key writes stays in test.
        QCOMPARE(post(AllKey, "/v1/billing.import",
                      R"({"customer_id":"zed","billables":[{"plan":{"plan_id":"basic"}}]})")
                     .status,
                 200);
        QCOMPARE(post(AllKey, "/v1/meterdesk/customers.get", R"({"customer_id":"zed"})").status,
                 200);
        QCOMPARE(post(LiveKey, "/v1/meterdesk/customers.get", R"({"customer_id":"zed"})").status,
                 404);
        const auto balances = post(LiveKey, "/v1/balances.list", "{}");
        QCOMPARE(balances.status, 200);
        QVERIFY2(!balances.body.contains("dora") && !balances.body.contains("zed"),
                 balances.body.constData());
    }

    void anotherPlatformsTenantsAreUnreachable()
    {
        const auto organizations = post(RivalKey, "/v1/meterdesk/organizations.list", "{}");
        QCOMPARE(organizations.status, 200);
        QVERIFY(organizations.body.contains("rival-t1"));
        QVERIFY2(!organizations.body.contains("delta"), organizations.body.constData());
        const auto link = post(RivalKey, "/v1/platform/organizations/stripe",
                               R"({"organization_slug":"delta-t1","test_account_id":"acct_ok"})");
        QCOMPARE(link.status, 404);
        QVERIFY(link.body.contains("not_found"));
        QVERIFY(!link.body.contains("Delta tenant"));
    }

    void keysStayWithinTheirOrganizationAndEnvironment()
    {
        const auto made = post(AllKey, "/v1/meterdesk/api_keys.create",
                               "{\"name\":\"victim\",\"scopes\":[\"balances:read\"]}");
        QCOMPARE(made.status, 200);
        const QJsonObject key = QJsonDocument::fromJson(made.body).object();
        const QByteArray target = "{\"id\":\"" + key.value(u"id"_s).toString().toLatin1() + "\"}";
        // Another organization's key, and the same organization's live key,
        // neither see it nor reach it: 404, as for a key that does not exist.
        for (const QByteArray &stranger : {RivalKey, LiveKey}) {
            const auto listed = post(stranger, "/v1/meterdesk/api_keys.list", "{}");
            QCOMPARE(listed.status, 200);
            QVERIFY(!listed.body.contains(key.value(u"id"_s).toString().toLatin1()));
            QCOMPARE(post(stranger, "/v1/meterdesk/api_keys.revoke", target).status, 404);
            QCOMPARE(post(stranger, "/v1/meterdesk/api_keys.roll", target).status, 404);
        }
        const QByteArray secret = key.value(u"secret"_s).toString().toLatin1();
        m_madeSecrets.append(secret);
        QCOMPARE(post(secret, "/v1/meterdesk/about", "{}").status, 200);
        // A listing shows the secret's first characters, never the rest.
        const auto listed = post(AllKey, "/v1/meterdesk/api_keys.list", "{}");
        QVERIFY(listed.body.contains(secret.left(12)));
        QVERIFY(!listed.body.contains(secret.left(13)));
        QVERIFY(!listed.body.contains(AllKey.left(13)));
    }

    void bodiesAreBounded()
    {
        const QByteArray big = "{\"customer_id\":\"" + QByteArray(1024 * 1024, 'x') + "\"}";
        const auto tooBig = post(AllKey, "/v1/meterdesk/customers.get", big);
        QCOMPARE(tooBig.status, 413);
        QVERIFY(tooBig.body.contains("payload_too_large"));
        const int depth = api::JsonReader::MaxDepth;
        const auto tooDeep =
            post(AllKey, "/v1/balances.track_tokens",
                 "{\"customer_id\":\"dora\",\"properties\":" + QByteArray(depth, '[') +
                     QByteArray(depth, ']') + "}");
        QCOMPARE(tooDeep.status, 400);
        QVERIFY2(tooDeep.body.contains("deeper than"), tooDeep.body.constData());
        // The server still answers after both.
        QCOMPARE(post(AllKey, "/v1/meterdesk/whoami", "{}").status, 200);
    }

    void onlyHashesOfKeysAreStored()
    {
        QList<QByteArray> secrets{AllKey, "sk_test_adminread0000000000000000000000",
                                  "sk_live_admin00000000000000000000000000", LiveKey, RivalKey};
        for (qsizetype s = 0; s < scopes().size(); ++s)
            secrets << onlyKey(s) << allButKey(s);
        engine::Database database(m_database.location());
        auto rows = engine::queryRows(database.connection().value(),
                                      u"SELECT prefix, hash, scopes, name FROM api_keys"_s, {});
        QVERIFY(rows.ok());
        // The workspace's keys, and those made through the API so far.
        secrets << m_madeSecrets;
        QVERIFY(rows.value().size() >= secrets.size());
        QSet<QString> hashes;
        for (const QVariantList &row : rows.value()) {
            QVERIFY(row.at(1).toString().startsWith("sha256:"_L1));
            hashes.insert(row.at(1).toString());
            for (const QVariant &column : row)
                for (const QByteArray &secret : std::as_const(secrets))
                    QVERIFY(!column.toString().toLatin1().contains(secret.mid(8)));
        }
        for (const QByteArray &secret : std::as_const(secrets))
            QVERIFY(hashes.contains(engine::ApiKeys::hashOf(QString::fromLatin1(secret))));
        if (test::TestDatabase::usesPostgres())
            return;
        // Every byte SQLite keeps on disk, the write-ahead log included.
        QDirIterator files(QFileInfo(m_database.location()).absolutePath(), QDir::Files);
        while (files.hasNext()) {
            QFile file(files.next());
            QVERIFY(file.open(QIODevice::ReadOnly));
            const QByteArray bytes = file.readAll();
            for (const QByteArray &secret : std::as_const(secrets))
                QVERIFY2(!bytes.contains(secret.mid(8)), qPrintable(file.fileName()));
        }
    }

    // Last: it breaks the schema under the running server for a moment.
    void internalErrorsHideTheDatabasesWords()
    {
        engine::Database database(m_database.location());
        const QSqlDatabase db = database.connection().value();
        QVERIFY(engine::runSql(db, u"ALTER TABLE usage_events RENAME TO hidden_events"_s).ok());
        const auto failed = post(AllKey, "/v1/meterdesk/usage_events.list", "{}");
        QVERIFY(engine::runSql(db, u"ALTER TABLE hidden_events RENAME TO usage_events"_s).ok());
        QCOMPARE(failed.status, 500);
        QVERIFY2(failed.body.contains("reference") && !failed.body.contains("usage_events") &&
                     !failed.body.contains("hidden_events"),
                 failed.body.constData());
        QCOMPARE(post(AllKey, "/v1/meterdesk/usage_events.list", "{}").status, 200);
    }
};

QTEST_GUILESS_MAIN(TestSecurity)
#include "tst_security.moc"
