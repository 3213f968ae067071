// Conformance, promotion from sandbox to production (docs/promotion.md):
// environments.diff and environments.promote, three ways
// (tests/conformance/CMakeLists.txt). The workspace is
// data/promotion-workspace.json: organization echo, whose sandbox and
// production differ in every way a diff can show.
#include "tests/conformance/ConformanceHarness.h"

#include <QTest>

using namespace md;
using namespace Qt::StringLiterals;
using test::await;

namespace {

const QString LiveKey = u"sk_live_echo0000000000000000000000000000"_s;
const QString SandboxKey = u"sk_test_echo0000000000000000000000000000"_s;
const QString PlansOnlyKey = u"sk_live_echoplans000000000000000000000000"_s;

template <typename Record> QStringList summary(const QList<api::DiffEntry<Record>> &entries)
{
    QStringList lines;
    for (const auto &entry : entries) {
        QStringList fields;
        for (const api::FieldDifference &field : entry.fields)
            fields.append(field.field);
        lines.append(u"%1 %2: %3"_s.arg(entry.id, api::toWire(entry.change), fields.join(u", "_s)));
    }
    return lines;
}

} // namespace

class TestPromotionConformance final : public QObject
{
    Q_OBJECT

    test::TestDatabase m_database;
    test::ServerProcess m_server;
    std::unique_ptr<backend::BillingBackend> m_live;
    api::EnvironmentDiff m_first; // the diff of the workspace as loaded

    api::EnvironmentDiff diff()
    {
        auto answer = await(m_live->environmentDiff());
        if (!answer)
            qFatal("diff failed: %s", qPrintable(answer.error().message));
        return answer.value();
    }

    // How many entries production's audit log holds.
    qsizetype logged()
    {
        api::AuditLogRequest request;
        request.limit = 200;
        const auto page = await(m_live->listAuditLog(request));
        if (!page || page.value().hasMore)
            qFatal("audit_log.list failed or holds more than a page");
        return page.value().list.size();
    }

    std::optional<api::Product> newest(const QString &id)
    {
        std::optional<api::Product> found;
        const auto products = await(m_live->listProducts());
        if (!products)
            qFatal("products.list failed: %s", qPrintable(products.error().message));
        for (const api::Product &p : products.value().list)
            if (p.id == id && (!found || p.version > found->version))
                found = p;
        return found;
    }

private Q_SLOTS:
    void initTestCase()
    {
        const QString problem = test::openWorkspace(
            m_database, m_server,
            QStringLiteral(MD_TEST_CONFORMANCE_DIR "/promotion-workspace.json"));
        QVERIFY2(problem.isEmpty(), qPrintable(problem));
        m_live = test::backendFor(m_database, m_server, LiveKey);
    }

    void diffShowsWhatDiffers()
    {
        m_first = diff();
        // "same" is the same, "shelved" archived in the sandbox and absent in
        // production; "steady" is the same reward on both sides.
        QCOMPARE(summary(m_first.products),
                 (QStringList{u"basic changed: items.calls.included_usage"_s,
                              u"legacy removed: name, is_add_on, is_default, group, items, "
                              "free_trial"_s,
                              u"metered added: name, is_add_on, is_default, group, items, "
                              "free_trial"_s,
                              u"pro added: name, is_add_on, is_default, group, items, "
                              "free_trial"_s}));
        QCOMPARE(summary(m_first.rewards),
                 (QStringList{u"old_gift removed: feature_grant"_s,
                              u"spring changed: coupon.value, "
                              "coupon.promo_codes.SPRING.global_max_redemption"_s,
                              u"welcome added: feature_grant"_s}));
        const api::FieldDifference &included = m_first.products.first().fields.first();
        QCOMPARE(included.sandbox, api::JsonValue::number(100));
        QCOMPARE(included.production, api::JsonValue::number(50));
        QCOMPARE(m_first.products.at(1).sandbox, std::nullopt);
        QCOMPARE(m_first.products.at(1).production->id, u"legacy"_s);
        QCOMPARE(m_first.products.at(3).sandbox->items.first().tiers->size(), 2);
    }

    void aSandboxKeyIsRefused()
    {
        auto sandbox = test::backendFor(m_database, m_server, SandboxKey);
        const auto refused = await(sandbox->environmentDiff());
        QVERIFY(!refused);
        QCOMPARE(refused.error().status, 403);
        QCOMPARE(refused.error().code, u"live_key_required"_s);
        api::EnvironmentPromotion promotion;
        promotion.products = m_first.promotion({u"basic"_s}, {}).products;
        QCOMPARE(await(sandbox->promoteEnvironment(promotion)).error().code,
                 u"live_key_required"_s);
    }

    void rewardsNeedTheirScope()
    {
        auto plans = test::backendFor(m_database, m_server, PlansOnlyKey);
        // The diff shows it the products only: the rewards are not its to read.
        const auto shown = await(plans->environmentDiff());
        QVERIFY2(shown, shown ? "" : qPrintable(shown.error().message));
        QCOMPARE(shown.value().products, m_first.products);
        QCOMPARE(shown.value().rewards, QList<api::DiffEntry<api::RewardEntry>>());
        api::EnvironmentPromotion promotion;
        promotion.rewards = m_first.promotion({}, {u"spring"_s}).rewards;
        const auto refused = await(plans->promoteEnvironment(promotion));
        QVERIFY(!refused);
        QCOMPARE(refused.error().status, 403);
        QCOMPARE(refused.error().code, u"insufficient_scopes"_s);
    }

    // "metered" names a feature production does not have: nothing of the
    // promotion is written, and the error says which step failed.
    void aFailedStepWritesNothing()
    {
        api::EnvironmentPromotion promotion;
        promotion = m_first.promotion({u"basic"_s, u"pro"_s, u"metered"_s}, {u"welcome"_s});
        const auto refused = await(m_live->promoteEnvironment(promotion));
        QVERIFY(!refused);
        QCOMPARE(refused.error().status, 404);
        QCOMPARE(refused.error().code, u"feature_not_found"_s);
        QVERIFY2(refused.error().message.startsWith(u"products[1] (\"metered\"): "_s),
                 qPrintable(refused.error().message));
        QCOMPARE(diff(), m_first);
        QCOMPARE(newest(u"basic"_s)->version, 1);
    }

    void malformedPromotionsAreRefused()
    {
        api::EnvironmentPromotion twice;
        twice.products = m_first.promotion({u"basic"_s}, {}).products;
        twice.products.append(twice.products.first());
        QCOMPARE(await(m_live->promoteEnvironment(twice)).error().code, u"invalid_inputs"_s);
        QCOMPARE(await(m_live->promoteEnvironment({})).error().code, u"invalid_inputs"_s);
        api::EnvironmentPromotion many;
        for (qsizetype i = 0; i <= api::EnvironmentPromotion::MaxSteps; ++i)
            many.products.append({u"p%1"_s.arg(i), std::nullopt, std::nullopt});
        const auto tooMany = await(m_live->promoteEnvironment(many));
        QCOMPARE(tooMany.error().code, u"invalid_inputs"_s);
        QVERIFY2(tooMany.error().message.contains(u"at most 1000"_s),
                 qPrintable(tooMany.error().message));
    }

    // A step whose `to` is its `production` would change nothing: the
    // promotion is refused, naming the step, before anything is written;
    // sent again, it is refused again.
    void stepsThatChangeNothingAreRefused()
    {
        const qsizetype before = logged();
        api::EnvironmentPromotion idle = m_first.promotion({u"basic"_s}, {});
        idle.products.append({u"n0"_s, std::nullopt, std::nullopt});
        for (int attempt = 0; attempt < 2; ++attempt) {
            const auto refused = await(m_live->promoteEnvironment(idle));
            QVERIFY(!refused);
            QCOMPARE(refused.error().status, 400);
            QCOMPARE(refused.error().code, u"invalid_inputs"_s);
            QVERIFY2(refused.error().message.startsWith(u"products[1] (\"n0\"): changes nothing"_s),
                     qPrintable(refused.error().message));
        }
        const api::DiffEntry<api::RewardEntry> &spring = m_first.rewards.at(1);
        QCOMPARE(spring.id, u"spring"_s);
        api::EnvironmentPromotion same;
        same.rewards.append({spring.id, spring.production, spring.production});
        const auto refused = await(m_live->promoteEnvironment(same));
        QVERIFY(!refused);
        QVERIFY2(refused.error().message.startsWith(u"rewards[0] (\"spring\"): changes nothing"_s),
                 qPrintable(refused.error().message));
        QCOMPARE(logged(), before);
        QCOMPARE(diff(), m_first);
        QCOMPARE(newest(u"basic"_s)->version, 1);
    }

    // Every difference promoted, then undone: production as it was.
    void promotionAppliesThenUndoes()
    {
        api::EnvironmentPromotion promotion;
        promotion = m_first.promotion({u"basic"_s, u"pro"_s, u"legacy"_s},
                                      {u"spring"_s, u"welcome"_s, u"old_gift"_s});
        const auto promoted = await(m_live->promoteEnvironment(promotion));
        QVERIFY2(promoted, promoted ? "" : qPrintable(promoted.error().message));
        QCOMPARE(promoted.value().products.size(), 3);
        QCOMPARE(promoted.value().rewards.size(), 3);

        // basic: paula is on version 1, so its new items are version 2.
        const api::Product basic = *newest(u"basic"_s);
        QCOMPARE(basic.version, 2);
        QCOMPARE(basic.env, api::Environment::Production);
        QCOMPARE(*basic.items.first().includedUsage, api::Decimal::fromInteger(100));
        QCOMPARE(promoted.value().products.first().after, basic);
        QCOMPARE(newest(u"pro"_s)->version, 1);
        QCOMPARE(newest(u"pro"_s)->freeTrial->length, 14);
        QVERIFY(newest(u"legacy"_s)->archived);
        QCOMPARE(promoted.value().products.at(1).id, u"legacy"_s); // in the diff's order
        QCOMPARE(promoted.value().products.at(1).after, std::nullopt);
        // What remains differs only where production lacks a feature.
        const api::EnvironmentDiff after = diff();
        QCOMPARE(summary(after.products),
                 QStringList{u"metered added: name, is_add_on, is_default, group, items, "
                             "free_trial"_s});
        QCOMPARE(after.rewards, QList<api::DiffEntry<api::RewardEntry>>());

        // The audit log has each step, before and after.
        api::AuditLogRequest request;
        request.resourceType = u"reward"_s;
        request.resourceId = u"spring"_s;
        const auto audit = await(m_live->listAuditLog(request));
        QVERIFY(audit);
        QCOMPARE(audit.value().list.size(), 1);
        QCOMPARE(audit.value().list.first().action, u"reward.promote"_s);
        QVERIFY(audit.value().list.first().before.toJson().contains("\"value\":15"));
        QVERIFY(audit.value().list.first().after.toJson().contains("\"value\":10"));

        // The same call again finds production changed, and writes nothing.
        const qsizetype entries = logged();
        const auto replayed = await(m_live->promoteEnvironment(promotion));
        QVERIFY(!replayed);
        QCOMPARE(replayed.error().code, u"production_changed"_s);
        QCOMPARE(logged(), entries);
        QCOMPARE(diff(), after);

        // Undone: each step back, through the same call.
        const auto undone = await(m_live->promoteEnvironment(promoted.value().undoing()));
        QVERIFY2(undone, undone ? "" : qPrintable(undone.error().message));
        // The same differences again (production's records carry their own
        // versions and times, so only what is compared is the same).
        const api::EnvironmentDiff again = diff();
        QCOMPARE(summary(again.products), summary(m_first.products));
        QCOMPARE(summary(again.rewards), summary(m_first.rewards));
        for (qsizetype i = 0; i < again.products.size(); ++i)
            QCOMPARE(again.products.at(i).fields, m_first.products.at(i).fields);
        // Version 2 had no customers: it was put back in place.
        QCOMPARE(newest(u"basic"_s)->version, 2);
        QCOMPARE(*newest(u"basic"_s)->items.first().includedUsage, api::Decimal::fromInteger(50));
    }

    // Production changed after the diff was read: the promotion is refused
    // and says so, and nothing is written.
    void aStaleDiffIsRefused()
    {
        const api::EnvironmentDiff shown = diff();
        api::UpdateProductRequest rename;
        rename.name = u"Basic (renamed in production)"_s;
        QVERIFY(await(m_live->updateProduct(u"basic"_s, rename)));
        api::EnvironmentPromotion promotion;
        // pro first: a step that would succeed, undone with the rest.
        promotion.products =
            shown.promotion({u"pro"_s}, {}).products + shown.promotion({u"basic"_s}, {}).products;
        const auto refused = await(m_live->promoteEnvironment(promotion));
        QVERIFY(!refused);
        QVERIFY2(refused.error().status == 409, qPrintable(refused.error().message));
        QCOMPARE(refused.error().code, u"production_changed"_s);
        QVERIFY2(refused.error().message.contains(u"products[1] (\"basic\")"_s),
                 qPrintable(refused.error().message));
        QVERIFY(newest(u"pro"_s)->archived); // the first step was not kept
    }

    void cleanupTestCase()
    {
        m_live.reset();
        if (test::overHttp())
            QCOMPARE(m_server.stop(), 0);
    }
};

QTEST_GUILESS_MAIN(TestPromotionConformance)
#include "tst_conformance_promotion.moc"
