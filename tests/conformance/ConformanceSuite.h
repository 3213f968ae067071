// The fixture every conformance suite shares (tests/conformance/CMakeLists.txt
// runs each suite three ways, ConformanceHarness.h): the small, pricing and
// admin workspaces, their keys, a server when over HTTP, and the helpers the
// suites use. One suite per area of the API, each a subclass.
#pragma once

#include "services/api/Version.h"
#include "services/api/WireCodec.h"
#include "services/embedded/EngineBackend.h"
#include "services/engine/pricing/PriceCatalogue.h"
#include "services/engine/processors/ProcessorKeys.h"
#include "services/engine/sql/Sql.h"
#include "services/remote/RemoteBackend.h"
#include "tests/conformance/ConformanceHarness.h"
#include "tests/engine/EngineFixture.h"
#include "tests/support/StripeMock.h"

#include <QFile>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QSignalSpy>

#include <thread>

namespace md::test::conformance {

using namespace Qt::StringLiterals;
using api::BalanceStatus;
using api::ListBalancesRequest;

inline const QString FixtureKey = u"sk_test_fixture0000000000000000000001"_s;
// The pricing workspace's organization (data/pricing-workspace.json).
inline const QString PricingKey = u"sk_test_pricing0000000000000000000000"_s;
// The admin workspace's organization (data/admin-workspace.json): every scope, and read only.
inline const QString AdminKey = u"sk_test_admin00000000000000000000000000"_s;
inline const QString AdminLiveKey = u"sk_live_admin00000000000000000000000000"_s;
inline const QString AdminReadKey = u"sk_test_adminread0000000000000000000000"_s;
inline const QString CataloguePath = test::cataloguePath();

using test::await;
using test::dec;
using test::overHttp;
using test::serverArguments;
using test::testCa;

inline QString mode()
{
    return test::conformanceMode();
}

inline QStringList ids(const api::ListBalancesResponse &page)
{
    QStringList list;
    for (const api::BalanceRow &row : page.list)
        list.append(row.id);
    return list;
}

class ConformanceSuite : public QObject
{
    Q_OBJECT

protected:
    test::TestDatabase m_database;
    test::ServerProcess m_server;
    QString m_readOnlyBillingKey; // billing:write only
    QString m_liveKey;            // live environment, balances:read
    std::unique_ptr<backend::BillingBackend> m_backend;
    std::unique_ptr<backend::BillingBackend> m_pricing; // the pricing workspace
    std::unique_ptr<backend::BillingBackend> m_admin;   // the admin workspace
    engine::PriceCatalogue m_catalogue;                 // the test catalogue both sides use
    bool m_legacyPriced = false;

    api::Decimal remainingOf(backend::BillingBackend &backend, const QString &balanceId,
                             const QString &customerId)
    {
        ListBalancesRequest request;
        request.customerId = customerId;
        auto page = await(backend.listBalances(request));
        if (!page)
            qFatal("list failed: %s", qPrintable(page.error().message));
        for (const api::BalanceRow &row : page.value().list)
            if (row.id == balanceId)
                return row.remaining;
        qFatal("no balance %s", qPrintable(balanceId));
    }

    api::TrackTokensRequest callFor(const QString &customer, const QString &model,
                                    qint64 inputTokens)
    {
        api::TrackTokensRequest call;
        call.customerId = customer;
        call.modelId = model;
        call.inputTokens = inputTokens;
        return call;
    }

    std::unique_ptr<backend::BillingBackend> backendFor(const QString &secret)
    {
        return test::backendFor(m_database, m_server, secret);
    }

    api::ListBalancesResponse list(const ListBalancesRequest &request)
    {
        auto page = await(m_backend->listBalances(request));
        if (!page)
            qFatal("list failed: %s", qPrintable(page.error().message));
        return page.value();
    }

    QStringList walk(ListBalancesRequest request)
    {
        QStringList seen;
        for (int guard = 0; guard < 1000; ++guard) {
            const auto page = list(request);
            seen += ids(page);
            if (!page.hasMore)
                return seen;
            request.startCursor = *page.nextCursor;
        }
        qFatal("pagination did not end");
    }

    // POSTs raw bytes with the given headers; returns HTTP status and body.
    std::pair<int, QJsonObject> rawPost(const QString &path,
                                        const QList<std::pair<QByteArray, QByteArray>> &headers,
                                        const QByteArray &body, const QByteArray &verb = "POST")
    {
        const test::RawAnswer answer = test::rawRequest(m_server, path, headers, body, verb);
        return {answer.status, answer.json()};
    }

    // A customer imported on the admin workspace's `legacy` plan, priced
    // (once) at 29.00 a month per seat and 0.50 per 10 calls past 100 per
    // seat (docs/billing.md): the charges and statements suites' plan.
    void importOnPricedLegacy(const QString &customer, const char *usage, int seats = 1)
    {
        if (!m_legacyPriced) {
            auto priced = api::decodeBody<api::UpdateProductRequest>(
                R"({"items":[{"feature_id":"calls","included_usage":100,"interval":"month",
                              "usage_model":"pay_per_use","price":0.5,"billing_units":10},
                             {"feature_id":null,"interval":"month","price":29}]})");
            auto updated = await(m_admin->updateProduct(u"legacy"_s, priced.value()));
            if (!updated)
                qFatal("products.update failed: %s", qPrintable(updated.error().message));
            m_legacyPriced = true;
        }
        auto request = api::decodeBody<api::ImportCustomerRequest>(
            uR"({"customer_id":"%1","processors":[{"type":"stripe","id":"cus_%1"}],
                "billables":[{"plan":{"plan_id":"legacy","quantity":%3,
                  "balances":[{"feature_id":"calls","usage":%2}]}}]})"_s
                .arg(customer, QString::fromLatin1(usage))
                .arg(seats)
                .toUtf8());
        if (!request)
            qFatal("bad import: %s", qPrintable(request.error().message));
        auto imported = await(m_admin->importCustomer(request.value()));
        if (!imported)
            qFatal("import failed: %s", qPrintable(imported.error().message));
    }

    // The newest or a given version of an admin workspace product.
    api::Product product(const QString &id, qint64 version)
    {
        const auto products = await(m_admin->listProducts());
        for (const api::Product &p : products.value().list)
            if (p.id == id && p.version == version)
                return p;
        return {};
    }

    // Everything the database holds, to show that a call wrote nothing.
    api::JsonValue dumpOfDatabase()
    {
        engine::Engine reader(m_database.location());
        if (!reader.open().ok())
            qFatal("cannot open the database");
        return reader.dumpWorkspace().value();
    }

    template <typename T>
    void expectError(const api::Result<T> &result, int status, const QString &code,
                     const QString &names)
    {
        QVERIFY(!result.ok());
        QCOMPARE(result.error().status, status);
        QCOMPARE(result.error().code, code);
        QVERIFY2(result.error().message.contains(names), qPrintable(result.error().message));
    }

    // The Stripe accounts a suite links, and what else its Stripe holds
    // (tests/compat/stripe-seed.mjs steps): a mock Stripe is started for it,
    // seeded with them (tests/support/StripeMock.h), and the organizations
    // named get a test key.
    QStringList m_stripeAccounts;
    QJsonArray m_stripeSteps;
    QStringList m_stripeKeysOf;

    // A key for each environment whose file says one is connected (dumps
    // never carry them), and, for a suite that links, the mock Stripe every
    // engine of the process and the server read.
    void connectProcessorKeys(engine::Engine &setup)
    {
        auto db = setup.database().connection();
        QVERIFY(db.ok());
        auto flagged = engine::queryRows(
            db.value(),
            u"SELECT pk, test_secret_connected, live_secret_connected FROM organizations"_s, {});
        QVERIFY(flagged.ok());
        for (const QVariantList &org : std::as_const(flagged.value()))
            for (const auto &[env, column] : {std::pair(engine::Environment::Sandbox, 1),
                                              std::pair(engine::Environment::Production, 2)})
                if (org.at(column).toInt() != 0)
                    QVERIFY(engine::ProcessorKeys::connect(
                                db.value(), setup.dialect(), {org.at(0).toLongLong(), env},
                                u"sk_%1_meterdesk_conformance_%2"_s.arg(
                                    engine::environmentWord(env), org.at(0).toString()),
                                setup.now())
                                .ok());
        if (m_stripeAccounts.isEmpty() && m_stripeSteps.isEmpty())
            return;
        for (const QString &slug : std::as_const(m_stripeKeysOf)) {
            auto org = engine::queryRows(db.value(),
                                         u"SELECT pk FROM organizations WHERE slug = ?"_s, {slug});
            QVERIFY(org.ok() && org.value().size() == 1);
            QVERIFY(engine::ProcessorKeys::connect(
                        db.value(), setup.dialect(),
                        {org.value().first().first().toLongLong(), engine::Environment::Sandbox},
                        u"sk_test_meterdesk_conformance_"_s + slug, setup.now())
                        .ok());
        }
        QString problem;
        test::StripeMock *stripe = test::StripeMock::shared(&problem);
        QVERIFY2(stripe, qPrintable(problem));
        if (!m_stripeAccounts.isEmpty())
            problem = stripe->seedAccounts(m_stripeAccounts);
        QVERIFY2(problem.isEmpty(), qPrintable(problem));
        if (!m_stripeSteps.isEmpty())
            problem = stripe->seed(m_stripeSteps);
        QVERIFY2(problem.isEmpty(), qPrintable(problem));
        qputenv("MD_STRIPE_API_BASE", stripe->url().toString().toUtf8());
    }

private Q_SLOTS:
    // Loads the three workspaces and their keys, and starts the server when
    // the suite runs over HTTP.
    void initTestCase()
    {
        QVERIFY2(m_database.error().isEmpty(), qPrintable(m_database.error()));
        {
            engine::Engine setup(m_database.location());
            QVERIFY(setup.open().ok());
            QVERIFY(setup.loadWorkspace(test::smallWorkspace()).ok());
            auto pricing = setup.loadWorkspaceFile(
                QStringLiteral(MD_TEST_CONFORMANCE_DIR "/pricing-workspace.json"));
            QVERIFY2(pricing.ok(), pricing.ok() ? "" : qPrintable(pricing.error().message));
            auto admin = setup.loadWorkspaceFile(
                QStringLiteral(MD_TEST_CONFORMANCE_DIR "/admin-workspace.json"));
            QVERIFY2(admin.ok(), admin.ok() ? "" : qPrintable(admin.error().message));
            connectProcessorKeys(setup);
            auto billing =
                setup.createKey(u"alpha"_s, engine::Environment::Sandbox, {u"billing:write"_s}, {});
            auto live = setup.createKey(u"alpha"_s, engine::Environment::Production,
                                        {u"balances:read"_s}, {});
            QVERIFY(billing.ok() && live.ok());
            m_readOnlyBillingKey = billing.value().secret;
            m_liveKey = live.value().secret;
        }
        if (overHttp()) {
            const QString problem = m_server.start(m_database.location(), serverArguments());
            QVERIFY2(problem.isEmpty(), qPrintable(problem));
            QCOMPARE(m_server.url().scheme(), mode() == "remote-tls"_L1 ? u"https"_s : u"http"_s);
        }
        m_backend = backendFor(FixtureKey);
        m_pricing = backendFor(PricingKey);
        m_admin = backendFor(AdminKey);
        auto catalogue = engine::PriceCatalogue::fromFile(CataloguePath);
        QVERIFY(catalogue.ok());
        m_catalogue = std::move(catalogue.value());
    }

    void cleanupTestCase()
    {
        m_backend.reset();
        m_pricing.reset();
        if (overHttp())
            QCOMPARE(m_server.stop(), 0); // SIGTERM: finish, then exit 0
    }
};

} // namespace md::test::conformance
