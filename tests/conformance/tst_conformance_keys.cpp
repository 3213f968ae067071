// Conformance, API keys (docs/api.md, "API keys"): a key made with its
// secret shown once, listed by its first characters with when it was last
// used, revoked and refused, rolled with and without an overlap, and no key
// handing out, revoking or rolling what it does not hold; every change in
// the audit log without a secret. Each check of a key's use goes through a
// backend made for that key, as a client would. Runs three ways:
// tests/conformance/CMakeLists.txt.
#include "tests/conformance/ConformanceSuite.h"

using namespace md;
using namespace md::test::conformance;

class TestKeysConformance final : public ConformanceSuite
{
    Q_OBJECT

    api::ApiKey create(backend::BillingBackend &by, const QStringList &scopes,
                       std::optional<qint64> expiresAt = std::nullopt)
    {
        auto made = await(by.createApiKey({u"conformance"_s, scopes, expiresAt}));
        if (!made)
            qFatal("api_keys.create failed: %s", qPrintable(made.error().message));
        return made.value();
    }

    std::optional<api::ApiKey> listed(const QString &id)
    {
        auto keys = await(m_admin->listApiKeys());
        if (!keys)
            qFatal("api_keys.list failed: %s", qPrintable(keys.error().message));
        for (const api::ApiKey &key : keys.value().list)
            if (key.id == id)
                return key;
        return std::nullopt;
    }

    // What the server answers the secret now: its scopes, or the error.
    api::Result<api::AboutInfo> aboutWith(const QString &secret)
    {
        return await(backendFor(secret)->about());
    }

    QList<api::AuditEntry> auditOf(const QString &keyId)
    {
        api::AuditLogRequest request;
        request.resourceType = u"api_key"_s;
        request.resourceId = keyId;
        auto page = await(m_admin->listAuditLog(request));
        if (!page)
            qFatal("audit_log.list failed: %s", qPrintable(page.error().message));
        return page.value().list;
    }

private Q_SLOTS:
    void createAnswersTheSecretOnceAndListsItsPrefix()
    {
        const auto made = create(*m_admin, {u"balances:read"_s});
        QVERIFY(made.id.startsWith(u"key_"_s));
        QVERIFY(made.secret && made.secret->startsWith(u"sk_test_"_s));
        QCOMPARE(made.prefix, made.secret->left(12) + u'…');
        QCOMPARE(made.scopes, QStringList{u"balances:read"_s});
        const auto key = listed(made.id);
        QVERIFY(key);
        QVERIFY(!key->secret);
        QCOMPARE(key->prefix, made.prefix);
        QVERIFY(!key->revokedAt && !key->expiresAt);
        const auto audit = auditOf(made.id);
        QCOMPARE(audit.size(), 1);
        QCOMPARE(audit.first().action, u"api_key.create"_s);
        QVERIFY(!audit.first().after.toJson().contains(made.secret->toUtf8()));
    }

    void theNewKeyWorksWithItsScopesOnly()
    {
        const auto made = create(*m_admin, {u"balances:read"_s});
        const auto about = aboutWith(*made.secret);
        QVERIFY2(about.ok(), about.ok() ? "" : qPrintable(about.error().message));
        QCOMPARE(about.value().scopes, std::optional(QStringList{u"balances:read"_s}));
        auto reader = backendFor(*made.secret);
        QVERIFY(await(reader->listBalances({})).ok());
        expectError(await(reader->listApiKeys()), 403, u"insufficient_scopes"_s, u"keys:read"_s);
        expectError(await(reader->createApiKey({u"x"_s, {u"balances:read"_s}, std::nullopt})), 403,
                    u"insufficient_scopes"_s, u"keys:write"_s);
    }

    void lastUseIsKeptToTheMinute()
    {
        const auto made = create(*m_admin, {u"balances:read"_s});
        QVERIFY(!listed(made.id)->lastUsedAt);
        QVERIFY(aboutWith(*made.secret).ok());
        // Written beside the request, not in its way: it shows shortly after.
        QTRY_VERIFY(listed(made.id)->lastUsedAt.has_value());
        const qint64 used = *listed(made.id)->lastUsedAt;
        QCOMPARE(used % 60'000, 0);
        QVERIFY(used <= QDateTime::currentMSecsSinceEpoch());
        QVERIFY(used > QDateTime::currentMSecsSinceEpoch() - 120'000);
        QCOMPARE(auditOf(made.id).size(), 1); // use is no change
    }

    void aKeyHandsOutOnlyScopesItHolds()
    {
        const auto keeper = create(*m_admin, {u"keys:write"_s, u"balances:read"_s});
        auto backend = backendFor(*keeper.secret);
        expectError(await(backend->createApiKey({u"x"_s, {u"*"_s}, std::nullopt})), 403,
                    u"insufficient_scopes"_s, u"\"*\""_s);
        expectError(await(backend->createApiKey({u"x"_s, {u"balances:write"_s}, std::nullopt})),
                    403, u"insufficient_scopes"_s, u"balances:write"_s);
        const auto narrow = create(*backend, {u"balances:read"_s});
        QCOMPARE(narrow.scopes, QStringList{u"balances:read"_s});
        // Nor revokes or rolls a wider key: rolling would hand it that key's secret.
        const auto wide = create(*m_admin, {u"balances:write"_s});
        expectError(await(backend->rollApiKey({wide.id, 0})), 403, u"insufficient_scopes"_s,
                    u"balances:write"_s);
        expectError(await(backend->revokeApiKey({wide.id})), 403, u"insufficient_scopes"_s,
                    u"balances:write"_s);
        QVERIFY(aboutWith(*wide.secret).ok());
    }

    void aRevokedKeyIsRefusedAndSaysSo()
    {
        const auto made = create(*m_admin, {u"balances:read"_s});
        QVERIFY(aboutWith(*made.secret).ok());
        const auto revoked = await(m_admin->revokeApiKey({made.id}));
        QVERIFY2(revoked.ok(), revoked.ok() ? "" : qPrintable(revoked.error().message));
        QVERIFY(revoked.value().revokedAt);
        QVERIFY(!revoked.value().secret);
        expectError(aboutWith(*made.secret), 401, u"unauthorized"_s, u"revoked"_s);
        QCOMPARE(listed(made.id)->revokedAt, revoked.value().revokedAt);
        // Again: nothing changes, nothing more is recorded.
        const auto again = await(m_admin->revokeApiKey({made.id}));
        QVERIFY(again.ok());
        QCOMPARE(again.value().revokedAt, revoked.value().revokedAt);
        const auto audit = auditOf(made.id);
        QCOMPARE(audit.size(), 2);
        QCOMPARE(audit.first().action, u"api_key.revoke"_s);
        expectError(await(m_admin->rollApiKey({made.id, 0})), 409, u"api_key_revoked"_s,
                    u"revoked"_s);
    }

    void aRollWithAnOverlapKeepsTheOldSecretWorking()
    {
        const auto made = create(*m_admin, {u"balances:read"_s});
        const auto rolled = await(m_admin->rollApiKey({made.id, 3'600'000}));
        QVERIFY2(rolled.ok(), rolled.ok() ? "" : qPrintable(rolled.error().message));
        QCOMPARE(rolled.value().id, made.id);
        QVERIFY(rolled.value().secret && *rolled.value().secret != *made.secret);
        QCOMPARE(rolled.value().prefix, rolled.value().secret->left(12) + u'…');
        QVERIFY(rolled.value().previousExpiresAt);
        QVERIFY(*rolled.value().previousExpiresAt >
                QDateTime::currentMSecsSinceEpoch() + 3'500'000);
        QVERIFY(aboutWith(*made.secret).ok());
        QVERIFY(aboutWith(*rolled.value().secret).ok());
        // Rolled again without one: only the newest secret works.
        const auto again = await(m_admin->rollApiKey({made.id, 0}));
        QVERIFY(again.ok());
        expectError(aboutWith(*made.secret), 401, u"unauthorized"_s, QString());
        expectError(aboutWith(*rolled.value().secret), 401, u"unauthorized"_s, QString());
        QVERIFY(aboutWith(*again.value().secret).ok());
        const auto audit = auditOf(made.id);
        QCOMPARE(audit.size(), 3);
        for (const api::AuditEntry &entry : audit) {
            QVERIFY(!entry.after.toJson().contains(again.value().secret->toUtf8()));
            QVERIFY(!entry.after.toJson().contains(rolled.value().secret->toUtf8()));
        }
    }

    void aKeyThatExpiresMakesNoneThatOutlivesIt()
    {
        const qint64 soon = QDateTime::currentMSecsSinceEpoch() + 3'600'000;
        const auto keeper = create(*m_admin, {u"keys:write"_s, u"balances:read"_s}, soon);
        auto backend = backendFor(*keeper.secret);
        expectError(await(backend->createApiKey({u"x"_s, {u"balances:read"_s}, std::nullopt})), 403,
                    u"outlives_caller"_s, u"expires_at"_s);
        expectError(await(backend->createApiKey({u"x"_s, {u"balances:read"_s}, soon + 1})), 403,
                    u"outlives_caller"_s, u"expires_at"_s);
        const auto within = await(backend->createApiKey({u"x"_s, {u"balances:read"_s}, soon}));
        QVERIFY2(within.ok(), within.ok() ? "" : qPrintable(within.error().message));
        // Nor takes the secret of a peer that lives longer by rolling it.
        const auto peer = create(*m_admin, {u"balances:read"_s});
        expectError(await(backend->rollApiKey({peer.id, 0})), 403, u"outlives_caller"_s,
                    u"expires"_s);
        QVERIFY(aboutWith(*peer.secret).ok());
    }

    void badRequestsNameWhatToFix()
    {
        expectError(await(m_admin->createApiKey({u"x"_s, {u"balances:reed"_s}, std::nullopt})), 400,
                    u"invalid_inputs"_s, u"balances:reed"_s);
        expectError(await(m_admin->createApiKey({u"x"_s, {}, std::nullopt})), 400,
                    u"invalid_inputs"_s, u"scopes"_s);
        expectError(await(m_admin->createApiKey({u" "_s, {u"*"_s}, std::nullopt})), 400,
                    u"invalid_inputs"_s, u"name"_s);
        expectError(await(m_admin->createApiKey({u"x"_s, {u"*"_s}, 1000})), 400,
                    u"invalid_inputs"_s, u"expires_at"_s);
        const auto made = create(*m_admin, {u"balances:read"_s});
        expectError(await(m_admin->rollApiKey({made.id, api::ApiKey::MaxOverlapMs + 1})), 400,
                    u"invalid_inputs"_s, u"overlap_ms"_s);
        expectError(await(m_admin->revokeApiKey({u"key_nothere"_s})), 404, u"api_key_not_found"_s,
                    u"key_nothere"_s);
    }

    void aKeyThatExpiresLaterWorksUntilThenAndListsIt()
    {
        const qint64 later = QDateTime::currentMSecsSinceEpoch() + 86'400'000;
        const auto made = create(*m_admin, {u"balances:read"_s}, later);
        QCOMPARE(made.expiresAt, std::optional(later));
        QVERIFY(aboutWith(*made.secret).ok());
        QCOMPARE(listed(made.id)->expiresAt, std::optional(later));
    }
};

QTEST_GUILESS_MAIN(TestKeysConformance)
#include "tst_conformance_keys.moc"
