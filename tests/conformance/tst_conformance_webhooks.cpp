// Conformance, webhooks (docs/api.md, "Webhooks"): endpoints made, listed,
// changed, rotated and deleted, the secret shown only when made, refused
// URLs named, every change audited without its secret, events written by
// the changes they report (and not by a change that failed), deliveries
// listed, redelivered and a test event sent; an id is never issued again
// after a delete, in any organization. Receivers point at the
// `.invalid` top-level domain, which never resolves, so over HTTP the
// server's senders fail and retry later whatever this machine's network
// is. Runs three ways: tests/conformance/CMakeLists.txt.
#include "tests/conformance/ConformanceSuite.h"

#include <QSet>

using namespace md;
using namespace md::test::conformance;

class TestWebhooksConformance final : public ConformanceSuite
{
    Q_OBJECT

    api::WebhookEndpoint create(const QString &url, const QStringList &events)
    {
        api::WebhookEndpointCreate request{url, events, u"conformance"_s};
        auto made = await(m_admin->createWebhookEndpoint(request));
        if (!made)
            qFatal("webhook_endpoints.create failed: %s", qPrintable(made.error().message));
        return made.value();
    }

    QList<api::WebhookDelivery> deliveries(const api::WebhookDeliveriesRequest &request)
    {
        auto page = await(m_admin->listWebhookDeliveries(request));
        if (!page)
            qFatal("webhook_deliveries.list failed: %s", qPrintable(page.error().message));
        return page.value().list;
    }

    QList<api::AuditEntry> auditOf(const QString &endpointId)
    {
        api::AuditLogRequest request;
        request.resourceType = u"webhook_endpoint"_s;
        request.resourceId = endpointId;
        auto page = await(m_admin->listAuditLog(request));
        if (!page)
            qFatal("audit_log.list failed: %s", qPrintable(page.error().message));
        return page.value().list;
    }

private Q_SLOTS:
    void createAnswersTheSecretOnceOnly()
    {
        const auto made = create(u"https://receiver.invalid/hooks"_s, {u"product.updated"_s});
        QVERIFY(made.id.startsWith(u"we_"_s));
        QVERIFY(made.secret && made.secret->startsWith(u"whsec_"_s));
        QVERIFY(made.enabled);
        QCOMPARE(made.description, std::optional(u"conformance"_s));
        const auto listed = await(m_admin->listWebhookEndpoints());
        QVERIFY(listed.ok());
        bool found = false;
        for (const api::WebhookEndpoint &endpoint : listed.value().list)
            if (endpoint.id == made.id) {
                found = true;
                QVERIFY(!endpoint.secret);
                QCOMPARE(endpoint.url, made.url);
                QCOMPARE(endpoint.events, made.events);
            }
        QVERIFY(found);
        const auto audit = auditOf(made.id);
        QCOMPARE(audit.size(), 1);
        QCOMPARE(audit.first().action, u"webhook_endpoint.create"_s);
        QVERIFY(!audit.first().after.toJson().contains(made.secret->toUtf8()));
        QVERIFY(!audit.first().after.toJson().contains("whsec_"));
    }

    void refusedUrlsAre400NamingUrl_data()
    {
        QTest::addColumn<QString>("url");
        QTest::addColumn<QString>("says");
        QTest::newRow("ftp") << u"ftp://receiver.invalid/x"_s << u"https://"_s;
        QTest::newRow("no host") << u"https:///path"_s << u"url"_s;
        QTest::newRow("plain http") << u"http://receiver.invalid/x"_s << u"https://"_s;
        QTest::newRow("loopback") << u"https://127.0.0.1/x"_s << u"loopback"_s;
        QTest::newRow("loopback v6") << u"https://[::1]:8443/x"_s << u"loopback"_s;
        QTest::newRow("private") << u"https://10.1.2.3/x"_s << u"private"_s;
        QTest::newRow("metadata") << u"https://169.254.169.254/latest"_s << u"link-local"_s;
        QTest::newRow("mapped") << u"https://[::ffff:192.168.1.1]/x"_s << u"private"_s;
        QTest::newRow("localhost") << u"https://localhost:9000/x"_s << u"localhost"_s;
        QTest::newRow("localhost.") << u"https://localhost./x"_s << u"localhost"_s;
        QTest::newRow("6to4") << u"https://[2002:7f00:1::]/x"_s << u"6to4"_s;
        QTest::newRow("v4-compatible") << u"https://[::7f00:1]/x"_s << u"IPv4-compatible"_s;
        QTest::newRow("v4-translated") << u"https://[::ffff:0:127.0.0.1]/"_s << u"loopback"_s;
        QTest::newRow("NAT64") << u"https://[64:ff9b::a00:1]/x"_s << u"private"_s;
        QTest::newRow("credentials") << u"https://user:pw@receiver.invalid/x"_s << u"password"_s;
    }

    void refusedUrlsAre400NamingUrl()
    {
        QFETCH(QString, url);
        QFETCH(QString, says);
        const auto before = await(m_admin->listWebhookEndpoints()).value().list.size();
        const auto made = await(m_admin->createWebhookEndpoint({url, {u"*"_s}, std::nullopt}));
        QVERIFY(!made.ok());
        QCOMPARE(made.error().status, 400);
        QVERIFY2(made.error().message.startsWith(u"url"_s), qPrintable(made.error().message));
        QVERIFY2(made.error().message.contains(says), qPrintable(made.error().message));
        QCOMPARE(await(m_admin->listWebhookEndpoints()).value().list.size(), before);
    }

    void unknownEventTypesAreNamed()
    {
        const auto made = await(m_admin->createWebhookEndpoint(
            {u"https://receiver.invalid/x"_s, {u"balances.reset"_s, u"balances.rest"_s}, {}}));
        expectError(made, 400, u"invalid_inputs"_s, u"balances.rest"_s);
        const auto none =
            await(m_admin->createWebhookEndpoint({u"https://receiver.invalid/x"_s, {}, {}}));
        expectError(none, 400, u"invalid_inputs"_s, u"events"_s);
    }

    void anUnchangedUpdateWritesNothing()
    {
        const auto made = create(u"https://same.invalid/x"_s, {u"reward.updated"_s});
        api::WebhookEndpointUpdate same;
        same.id = made.id;
        same.url = made.url;
        same.events = made.events;
        same.description = made.description;
        same.enabled = true;
        const auto updated = await(m_admin->updateWebhookEndpoint(same));
        QVERIFY2(updated.ok(), updated.ok() ? "" : qPrintable(updated.error().message));
        QCOMPARE(updated.value().updatedAt, made.updatedAt);
        QVERIFY(!updated.value().secret);
        QCOMPARE(auditOf(made.id).size(), 1);
    }

    void updateDisableAndEnableAreAudited()
    {
        const auto made = create(u"https://change.invalid/x"_s, {u"reward.updated"_s});
        api::WebhookEndpointUpdate change;
        change.id = made.id;
        change.events = QStringList{u"reward.updated"_s, u"product.updated"_s};
        change.description = std::optional<QString>(); // cleared
        change.enabled = false;
        const auto updated = await(m_admin->updateWebhookEndpoint(change));
        QVERIFY2(updated.ok(), updated.ok() ? "" : qPrintable(updated.error().message));
        QCOMPARE(updated.value().events, *change.events);
        QVERIFY(!updated.value().description);
        QVERIFY(!updated.value().enabled);
        QVERIFY(updated.value().disabledReason);
        api::WebhookEndpointUpdate enable;
        enable.id = made.id;
        enable.enabled = true;
        const auto enabled = await(m_admin->updateWebhookEndpoint(enable));
        QVERIFY(enabled.ok() && enabled.value().enabled && !enabled.value().disabledReason);
        const auto audit = auditOf(made.id);
        QCOMPARE(audit.size(), 3);
        QCOMPARE(audit.first().action, u"webhook_endpoint.update"_s);
        QCOMPARE(audit.at(1).after.value("enabled"_L1).toBool(), false);
        api::WebhookEndpointUpdate badUrl;
        badUrl.id = made.id;
        badUrl.url = u"https://192.168.0.10/x"_s;
        expectError(await(m_admin->updateWebhookEndpoint(badUrl)), 400, u"invalid_inputs"_s,
                    u"url"_s);
    }

    void rotatingGivesANewSecretAndAuditsNone()
    {
        const auto made = create(u"https://rotate.invalid/x"_s, {u"*"_s});
        const auto rotated = await(m_admin->rotateWebhookSecret({made.id}));
        QVERIFY2(rotated.ok(), rotated.ok() ? "" : qPrintable(rotated.error().message));
        QVERIFY(rotated.value().secret && rotated.value().secret != made.secret);
        const auto audit = auditOf(made.id);
        QCOMPARE(audit.first().action, u"webhook_endpoint.rotate_secret"_s);
        for (const api::AuditEntry &entry : audit)
            QVERIFY(!entry.after.toJson().contains("whsec_") &&
                    !entry.before.toJson().contains("whsec_"));
    }

    void deleteRemovesItAndItsDeliveries()
    {
        const auto made = create(u"https://gone.invalid/x"_s, {u"*"_s});
        QVERIFY(await(m_admin->sendTestWebhook({made.id})).ok());
        const auto deleted = await(m_admin->deleteWebhookEndpoint({made.id}));
        QVERIFY(deleted.ok() && deleted.value().deleted && deleted.value().id == made.id);
        expectError(await(m_admin->deleteWebhookEndpoint({made.id})), 404,
                    u"webhook_endpoint_not_found"_s, made.id);
        expectError(await(m_admin->sendTestWebhook({made.id})), 404,
                    u"webhook_endpoint_not_found"_s, made.id);
        api::WebhookDeliveriesRequest mine;
        mine.endpointId = made.id;
        QVERIFY(deliveries(mine).isEmpty());
        QCOMPARE(auditOf(made.id).first().action, u"webhook_endpoint.delete"_s);
    }

    void idsAreNeverIssuedAgain()
    {
        // The newest endpoint and delivery deleted, then others made, here
        // and in another organization: none has an id seen before.
        const auto gone = create(u"https://gone-newest.invalid/x"_s, {u"balances.reset"_s});
        const auto test = await(m_admin->sendTestWebhook({gone.id}));
        QVERIFY(test.ok());
        QVERIFY(await(m_admin->deleteWebhookEndpoint({gone.id})).ok());
        const auto theirs = await(m_pricing->createWebhookEndpoint(
            {u"https://other-org.invalid/x"_s, {u"balances.reset"_s}, std::nullopt}));
        QVERIFY2(theirs.ok(), theirs.ok() ? "" : qPrintable(theirs.error().message));
        const auto theirTest = await(m_pricing->sendTestWebhook({theirs.value().id}));
        QVERIFY(theirTest.ok());
        const auto mine = create(u"https://gone-newest.invalid/x"_s, {u"balances.reset"_s});
        const auto myTest = await(m_admin->sendTestWebhook({mine.id}));
        QVERIFY(myTest.ok());
        const QSet<QString> endpoints{gone.id, theirs.value().id, mine.id};
        QCOMPARE(endpoints.size(), 3);
        const QSet<QString> deliveries{test.value().id, theirTest.value().id, myTest.value().id};
        QCOMPARE(deliveries.size(), 3);
        QVERIFY(await(m_pricing->deleteWebhookEndpoint({theirs.value().id})).ok());
    }

    void keysNeedTheWebhookScopes()
    {
        const auto reader = backendFor(AdminReadKey); // balances:read only
        expectError(await(reader->listWebhookEndpoints()), 403, u"insufficient_scopes"_s,
                    u"webhooks:read"_s);
        expectError(await(reader->createWebhookEndpoint(
                        {u"https://receiver.invalid/x"_s, {u"*"_s}, std::nullopt})),
                    403, u"insufficient_scopes"_s, u"webhooks:write"_s);
        expectError(await(reader->listWebhookDeliveries({})), 403, u"insufficient_scopes"_s,
                    u"webhooks:read"_s);
    }

    void aChangeWritesAnEventAndAFailedOneNone()
    {
        const auto made = create(u"https://products.invalid/x"_s, {u"product.updated"_s});
        api::WebhookDeliveriesRequest mine;
        mine.endpointId = made.id;
        api::UpdateProductRequest nothing;
        nothing.name = u"x"_s;
        QVERIFY(!await(m_admin->updateProduct(u"no_such_product"_s, nothing)).ok());
        QVERIFY(deliveries(mine).isEmpty());
        api::UpdateProductRequest rename;
        rename.name = u"Draft, told"_s;
        QVERIFY(await(m_admin->updateProduct(u"draft"_s, rename)).ok());
        const auto told = deliveries(mine);
        QCOMPARE(told.size(), 1);
        QCOMPARE(told.first().type, u"product.updated"_s);
        QVERIFY(told.first().eventId.startsWith(u"msg_"_s));
        QVERIFY(told.first().id.startsWith(u"wd_"_s));
        const api::JsonValue &payload = told.first().payload;
        QCOMPARE(payload.value("type"_L1).toString(), u"product.updated"_s);
        QVERIFY(payload.value("timestamp"_L1).toString().endsWith(u'Z'));
        const api::JsonValue &data = payload.value("data"_L1);
        QCOMPARE(data.value("resource"_L1).value("id"_L1).toString(), u"draft"_s);
        QCOMPARE(data.value("after"_L1).value("name"_L1).toString(), u"Draft, told"_s);
        // The same again changes nothing, so tells nothing.
        QVERIFY(await(m_admin->updateProduct(u"draft"_s, rename)).ok());
        QCOMPARE(deliveries(mine).size(), 1);
        // A disabled endpoint is not told.
        api::WebhookEndpointUpdate off;
        off.id = made.id;
        off.enabled = false;
        QVERIFY(await(m_admin->updateWebhookEndpoint(off)).ok());
        rename.name = u"Draft, untold"_s;
        QVERIFY(await(m_admin->updateProduct(u"draft"_s, rename)).ok());
        QCOMPARE(deliveries(mine).size(), 1);
    }

    void sendTestAndRedeliver()
    {
        const auto made = create(u"https://test.invalid/x"_s, {u"balances.reset"_s});
        const auto test = await(m_admin->sendTestWebhook({made.id}));
        QVERIFY2(test.ok(), test.ok() ? "" : qPrintable(test.error().message));
        QCOMPARE(test.value().type, u"webhook_endpoint.test"_s);
        QCOMPARE(test.value().endpointId, made.id);
        QCOMPARE(test.value().payload.value("data"_L1).value("endpoint_id"_L1).toString(), made.id);
        const auto again = await(m_admin->redeliverWebhook({test.value().id}));
        QVERIFY2(again.ok(), again.ok() ? "" : qPrintable(again.error().message));
        QCOMPARE(again.value().id, test.value().id);
        QCOMPARE(again.value().eventId, test.value().eventId);
        expectError(await(m_admin->redeliverWebhook({u"wd_0000000000000"_s})), 404,
                    u"webhook_delivery_not_found"_s, u"webhook_deliveries.list"_s);
        api::WebhookDeliveriesRequest tests;
        tests.type = u"webhook_endpoint.test"_s;
        tests.endpointId = made.id;
        QCOMPARE(deliveries(tests).size(), 1);
    }

    void deliveriesPageNewestFirst()
    {
        const auto made = create(u"https://pages.invalid/x"_s, {u"*"_s});
        QStringList sent;
        for (int i = 0; i < 5; ++i)
            sent.prepend(await(m_admin->sendTestWebhook({made.id})).value().id);
        api::WebhookDeliveriesRequest request;
        request.endpointId = made.id;
        request.limit = 2;
        QStringList seen;
        for (;;) {
            auto page = await(m_admin->listWebhookDeliveries(request));
            QVERIFY(page.ok());
            for (const api::WebhookDelivery &delivery : page.value().list)
                seen.append(delivery.id);
            if (!page.value().hasMore)
                break;
            request.startCursor = *page.value().nextCursor;
        }
        QCOMPARE(seen, sent);
        api::WebhookDeliveriesRequest succeeded;
        succeeded.endpointId = made.id;
        succeeded.status = api::DeliveryStatus::Succeeded; // nothing resolves .invalid
        QVERIFY(deliveries(succeeded).isEmpty());
        api::WebhookDeliveriesRequest bad;
        bad.type = u"no.such_event"_s;
        expectError(await(m_admin->listWebhookDeliveries(bad)), 400, u"invalid_inputs"_s,
                    u"type"_s);
    }
};

QTEST_GUILESS_MAIN(TestWebhooksConformance)
#include "tst_conformance_webhooks.moc"
