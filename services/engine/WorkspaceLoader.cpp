#include "services/engine/WorkspaceLoader.h"

#include "services/api/JsonReader.h"
#include "services/api/Product.h"
#include "services/api/Reward.h"
#include "services/api/WireCodec.h"
#include "services/engine/ApiKeys.h"
#include "services/engine/CustomerLoader.h"
#include "services/engine/Scope.h"
#include "services/engine/Sql.h"
#include "services/engine/StoredJson.h"
#include "services/engine/WorkspaceLoadState.h"

#include <QFile>

namespace md::engine {

using namespace Qt::StringLiterals;
using api::ApiError;
using api::JsonReader;

namespace {

constexpr std::pair<QLatin1StringView, int> FeatureTypes[] = {
    {"single_use"_L1, 0}, {"continuous_use"_L1, 1}, {"boolean"_L1, 2},
    {"static"_L1, 3},     {"credit_system"_L1, 4},
};
class Loader final
{
public:
    Loader(const QSqlDatabase &db, Dialect dialect)
        : m_state(db, dialect)
    {
        m_state.batches.declare(u"organizations"_s,
                                {u"pk"_s, u"id"_s, u"slug"_s, u"name"_s, u"master_org_pk"_s,
                                 u"test_secret_connected"_s, u"live_secret_connected"_s,
                                 u"test_account_id"_s, u"live_account_id"_s, u"linked_at"_s,
                                 u"created_at"_s});
        m_state.batches.declare(u"processor_access"_s, {u"org_pk"_s, u"env"_s, u"account_id"_s});
        m_state.batches.declare(u"api_keys"_s,
                                {u"pk"_s, u"org_pk"_s, u"env"_s, u"prefix"_s, u"hash"_s,
                                 u"scopes"_s, u"name"_s, u"created_at"_s});
        m_state.batches.declare(u"features"_s, {u"pk"_s, u"org_pk"_s, u"env"_s, u"id"_s, u"name"_s,
                                                u"type"_s, u"default_markup"_s, u"created_at"_s});
        m_state.batches.declare(u"credit_markups"_s,
                                {u"feature_pk"_s, u"provider"_s, u"model"_s, u"markup"_s});
        m_state.batches.declare(u"products"_s,
                                {u"pk"_s, u"org_pk"_s, u"env"_s, u"id"_s, u"version"_s, u"name"_s,
                                 u"group_name"_s, u"is_add_on"_s, u"is_default"_s, u"archived"_s,
                                 u"items"_s, u"free_trial"_s, u"created_at"_s});
        m_state.batches.declare(u"customers"_s,
                                {u"pk"_s, u"org_pk"_s, u"env"_s, u"id"_s, u"name"_s, u"email"_s,
                                 u"fingerprint"_s, u"metadata"_s, u"send_email_receipts"_s,
                                 u"disable_pooled_balance"_s, u"disable_overage_billing"_s,
                                 u"created_at"_s});
        m_state.batches.declare(u"customer_processors"_s,
                                {u"customer_pk"_s, u"type"_s, u"external_id"_s});
        m_state.batches.declare(u"entities"_s, {u"pk"_s, u"customer_pk"_s, u"id"_s, u"feature_id"_s,
                                                u"name"_s, u"created_at"_s});
        m_state.batches.declare(
            u"customer_products"_s,
            {u"pk"_s, u"id"_s, u"customer_pk"_s, u"product_pk"_s, u"processor"_s,
             u"subscription_id"_s, u"schedule_id"_s, u"status"_s, u"quantity"_s, u"started_at"_s,
             u"current_period_start"_s, u"current_period_end"_s, u"trial_ends_at"_s,
             u"canceled_at"_s, u"expires_at"_s, u"created_at"_s});
        m_state.batches.declare(u"balances"_s, {u"pk"_s,
                                                u"id"_s,
                                                u"org_pk"_s,
                                                u"env"_s,
                                                u"customer_pk"_s,
                                                u"entity_pk"_s,
                                                u"feature_pk"_s,
                                                u"customer_product_pk"_s,
                                                u"included_grant"_s,
                                                u"prepaid_grant"_s,
                                                u"remaining"_s,
                                                u"usage"_s,
                                                u"unlimited"_s,
                                                u"overage_allowed"_s,
                                                u"reset_interval"_s,
                                                u"reset_interval_count"_s,
                                                u"resets_at"_s,
                                                u"price"_s,
                                                u"expires_at"_s,
                                                u"created_at"_s});
        m_state.batches.declare(u"rollovers"_s, {u"pk"_s, u"balance_pk"_s, u"granted"_s,
                                                 u"balance"_s, u"expires_at"_s});
        m_state.batches.declare(u"rewards"_s, {u"pk"_s, u"org_pk"_s, u"env"_s, u"id"_s, u"kind"_s,
                                               u"record"_s, u"created_at"_s});
        m_state.batches.declare(u"promo_codes"_s,
                                {u"org_pk"_s, u"env"_s, u"code"_s, u"reward_pk"_s});
        m_state.batches.declare(u"billing_controls"_s,
                                {u"customer_pk"_s, u"entity_pk"_s, u"controls"_s, u"updated_at"_s});
        m_state.batches.declare(u"usage_events"_s,
                                {u"pk"_s, u"org_pk"_s, u"env"_s, u"customer_pk"_s, u"entity_pk"_s,
                                 u"feature_pk"_s, u"model_id"_s, u"tokens"_s, u"value"_s,
                                 u"properties"_s, u"timestamp"_s, u"idempotency_key"_s,
                                 u"created_at"_s});
    }

    api::Result<LoadSummary> run(const JsonReader &root)
    {
        root.object();
        const JsonReader format = root.field("format"_L1);
        if (format.string() != "meterdesk-workspace"_L1 && root.ok())
            format.fail(u"expected \"meterdesk-workspace\""_s);
        const JsonReader version = root.field("version"_L1);
        if (version.integer(1, 1000) != WorkspaceLoader::FormatVersion && root.ok())
            version.fail(u"this Meterdesk reads workspace format version %1"_s.arg(
                WorkspaceLoader::FormatVersion));
        if (!root.ok())
            return *root.error();
        for (const JsonReader &org : root.field("organizations"_L1).array()) {
            if (auto loaded = organization(org); !loaded)
                return loaded.error();
        }
        if (!root.ok())
            return *root.error();
        if (auto flushed = m_state.batches.flush(); !flushed)
            return flushed.error();
        return m_state.summary;
    }

private:
    api::Result<bool> exists(const QString &sql, const QVariantList &binds)
    {
        auto query = runSql(m_state.db, sql, binds);
        if (!query)
            return query.error();
        return query.value().next();
    }

    api::Result<api::Done> organization(const JsonReader &org)
    {
        org.object();
        const JsonReader idReader = org.field("id"_L1);
        const QString id = nonEmptyId(idReader);
        const JsonReader slugReader = org.field("slug"_L1);
        const QString slug = nonEmptyId(slugReader);
        const QString name = org.field("name"_L1).string();
        const qint64 createdAt = org.field("created_at"_L1).integer();
        const JsonReader masterReader = org.field("master_org"_L1);
        const std::optional<QString> master =
            masterReader.isMissing() ? std::nullopt : masterReader.nullableString();
        MD_CHECK(org)
        if (m_orgBySlug.contains(slug))
            slugReader.fail(u"organization \"%1\" appears twice in the file"_s.arg(slug));
        else if (m_orgIds.contains(id))
            idReader.fail(u"organization id \"%1\" appears twice in the file"_s.arg(id));
        MD_CHECK(org)
        m_orgIds.insert(id);
        auto taken = exists(u"SELECT 1 FROM organizations WHERE slug = ? OR id = ?"_s, {slug, id});
        if (!taken)
            return taken.error();
        if (taken.value())
            slugReader.fail(
                u"organization \"%1\" (%2) already exists in this database; load into an empty database"_s
                    .arg(slug, id));
        QVariant masterPk;
        if (master) {
            if (!m_orgBySlug.contains(*master))
                masterReader.fail(
                    u"master organization \"%1\" must appear earlier in the file"_s.arg(*master));
            else
                masterPk = m_orgBySlug.value(*master);
        }
        MD_CHECK(org)
        auto pk = m_state.key(u"organizations"_s);
        if (!pk)
            return pk.error();
        m_orgBySlug.insert(slug, pk.value());

        const JsonReader processor = org.field("processor"_L1);
        bool testConnected = false;
        bool liveConnected = false;
        std::optional<QString> testAccount;
        std::optional<QString> liveAccount;
        std::optional<qint64> linkedAt;
        if (!processor.isMissing()) {
            processor.object();
            testConnected =
                processor.field("test_secret_connected"_L1).optBoolean().value_or(false);
            liveConnected =
                processor.field("live_secret_connected"_L1).optBoolean().value_or(false);
            const JsonReader test = processor.field("test_account_id"_L1);
            testAccount = test.isMissing() ? std::nullopt : test.nullableString();
            const JsonReader live = processor.field("live_account_id"_L1);
            liveAccount = live.isMissing() ? std::nullopt : live.nullableString();
            const JsonReader linked = processor.field("linked_at"_L1);
            linkedAt = linked.isMissing() ? std::nullopt : linked.nullableInteger();
            const JsonReader access = processor.field("accessible_accounts"_L1);
            if (!access.isMissing()) {
                for (Environment env : {Environment::Test, Environment::Live}) {
                    const auto accounts =
                        access.field(QLatin1StringView(env == Environment::Test ? "test" : "live"))
                            .optArray();
                    QSet<QString> listed;
                    for (const JsonReader &account : accounts.value_or(QList<JsonReader>())) {
                        const QString accountId = nonEmptyId(account);
                        if (org.ok() && listed.contains(accountId))
                            account.fail(u"account \"%1\" is listed twice"_s.arg(accountId));
                        listed.insert(accountId);
                        MD_CHECK(org)
                        if (auto added = m_state.add(u"processor_access"_s,
                                                     {pk.value(), environmentWord(env), accountId});
                            !added)
                            return added.error();
                    }
                }
            }
        }
        MD_CHECK(org)
        if (auto added = m_state.add(u"organizations"_s,
                                     {pk.value(), id, slug, name, masterPk, int(testConnected),
                                      int(liveConnected), orNull(testAccount), orNull(liveAccount),
                                      orNull(linkedAt), createdAt});
            !added)
            return added.error();
        ++m_state.summary.organizations;

        for (const JsonReader &apiKey :
             org.field("api_keys"_L1).optArray().value_or(QList<JsonReader>())) {
            if (auto loaded = this->apiKey(apiKey, pk.value()); !loaded)
                return loaded.error();
        }
        MD_CHECK(org)
        for (Environment env : {Environment::Test, Environment::Live}) {
            const JsonReader envReader =
                org.field(QLatin1StringView(env == Environment::Test ? "test" : "live"));
            if (envReader.isMissing())
                continue;
            if (auto loaded = environment(envReader, Scope{pk.value(), env}); !loaded)
                return loaded.error();
        }
        return api::Done{};
    }

    api::Result<api::Done> apiKey(const JsonReader &apiKey, qint64 orgPk)
    {
        apiKey.object();
        const JsonReader envReader = apiKey.field("env"_L1);
        const auto env = environmentFromWord(envReader.string());
        if (apiKey.ok() && !env)
            envReader.fail(u"expected \"test\" or \"live\""_s);
        QStringList scopes;
        for (const JsonReader &scope : apiKey.field("scopes"_L1).array()) {
            const QString word = scope.string();
            if (scope.ok() && !ApiKeys::knownScopes().contains(word))
                scope.fail(u"unknown scope \"%1\"; known: %2"_s.arg(
                    word, ApiKeys::knownScopes().join(u", "_s)));
            scopes.append(word);
        }
        const QString name = apiKey.field("name"_L1).optString().value_or(QString());
        const qint64 createdAt = apiKey.field("created_at"_L1).integer();
        const JsonReader secretReader = apiKey.field("secret"_L1);
        const JsonReader hashReader = apiKey.field("hash"_L1);
        QString hash;
        QString prefix;
        if (!secretReader.isMissing()) {
            const QString secret = secretReader.string();
            if (apiKey.ok() && ApiKeys::environmentOf(secret) != env)
                secretReader.fail(
                    u"expected a key starting sk_%1_"_s.arg(envReader.raw().toString()));
            hash = ApiKeys::hashOf(secret);
            prefix = ApiKeys::prefixOf(secret);
        } else {
            hash = hashReader.string();
            if (apiKey.ok() && !(hash.startsWith("sha256:"_L1) && hash.size() == 71))
                hashReader.fail(
                    u"expected \"sha256:\" and 64 hex digits (or give \"secret\" instead)"_s);
            prefix = apiKey.field("prefix"_L1).string();
        }
        MD_CHECK(apiKey)
        // A key authenticates one organization: its hash is unique in the database.
        auto taken = exists(u"SELECT 1 FROM api_keys WHERE hash = ?"_s, {hash});
        if (!taken)
            return taken.error();
        if (m_keyHashes.contains(hash) || taken.value())
            (secretReader.isMissing() ? hashReader : secretReader)
                .fail(u"this key is already given %1"_s.arg(
                    taken.value() ? u"in this database"_s : u"earlier in the file"_s));
        MD_CHECK(apiKey)
        m_keyHashes.insert(hash);
        auto pk = m_state.key(u"api_keys"_s);
        if (!pk)
            return pk.error();
        ++m_state.summary.apiKeys;
        return m_state.add(u"api_keys"_s, {pk.value(), orgPk, environmentWord(*env), prefix, hash,
                                           scopes.join(u' '), name, createdAt});
    }

    api::Result<api::Done> environment(const JsonReader &env, const Scope &scope)
    {
        env.object();
        m_state.features.clear();
        m_state.products.clear();
        m_latestVersion.clear();
        m_state.customerIds.clear();
        m_rewardIds.clear();
        m_promoCodes.clear();
        m_state.idempotencyKeys.clear();
        for (const JsonReader &feature :
             env.field("features"_L1).optArray().value_or(QList<JsonReader>()))
            if (auto loaded = this->feature(feature, scope); !loaded)
                return loaded.error();
        for (const JsonReader &product :
             env.field("products"_L1).optArray().value_or(QList<JsonReader>()))
            if (auto loaded = this->product(product, scope); !loaded)
                return loaded.error();
        for (const JsonReader &customer :
             env.field("customers"_L1).optArray().value_or(QList<JsonReader>()))
            if (auto loaded = CustomerLoader::load(m_state, customer, scope); !loaded)
                return loaded.error();
        for (const JsonReader &reward :
             env.field("rewards"_L1).optArray().value_or(QList<JsonReader>()))
            if (auto loaded = this->reward(reward, scope); !loaded)
                return loaded.error();
        MD_CHECK(env)
        return api::Done{};
    }

    api::Result<api::Done> feature(const JsonReader &feature, const Scope &scope)
    {
        feature.object();
        const JsonReader idReader = feature.field("id"_L1);
        const QString id = nonEmptyId(idReader);
        const QString name = feature.field("name"_L1).string();
        const JsonReader typeReader = feature.field("type"_L1);
        const int type = typeReader.word(FeatureTypes);
        const qint64 createdAt = feature.field("created_at"_L1).integer();
        MD_CHECK(feature)
        if (m_state.features.contains(id))
            idReader.fail(u"feature \"%1\" appears twice"_s.arg(id));
        MD_CHECK(feature)
        auto pk = m_state.key(u"features"_s);
        if (!pk)
            return pk.error();
        m_state.features.insert(id, pk.value());
        QVariant defaultMarkup;
        const JsonReader credit = feature.field("credit_system"_L1);
        if (!credit.isMissing()) {
            if (type != 4)
                credit.fail(
                    u"only a feature of type \"credit_system\" has credit_system settings"_s);
            credit.object();
            const JsonReader markupReader = credit.field("default_markup"_L1);
            if (!markupReader.isMissingOrNull())
                defaultMarkup = markup(markupReader);
            QSet<QString> seen;
            for (const JsonReader &entry :
                 credit.field("markups"_L1).optArray().value_or(QList<JsonReader>())) {
                entry.object();
                const QString provider = nonEmptyId(entry.field("provider"_L1));
                const JsonReader modelReader = entry.field("model"_L1);
                const QString model = modelReader.isMissing()
                                          ? QString()
                                          : modelReader.nullableString().value_or(QString());
                const QString value = markup(entry.field("markup"_L1));
                MD_CHECK(feature)
                if (seen.contains(provider + u'/' + model))
                    entry.fail(u"a markup for %1 is given twice"_s.arg(
                        model.isEmpty() ? provider : provider + u'/' + model));
                seen.insert(provider + u'/' + model);
                MD_CHECK(feature)
                if (auto added =
                        m_state.add(u"credit_markups"_s, {pk.value(), provider, model, value});
                    !added)
                    return added.error();
            }
        }
        MD_CHECK(feature)
        return m_state.add(u"features"_s,
                           {pk.value(), scope.orgPk, scope.envWord(), id, name,
                            QString(FeatureTypes[type].first), defaultMarkup, createdAt});
    }

    // A markup percentage: -100 (free) or more.
    static QString markup(const JsonReader &reader)
    {
        const api::Decimal value = reader.decimal();
        if (reader.ok() && value < api::Decimal::fromInteger(-100))
            reader.fail(u"a markup is a percentage of at least -100"_s);
        return value.toString();
    }

    api::Result<api::Done> product(const JsonReader &product, const Scope &scope)
    {
        product.object();
        const JsonReader idReader = product.field("id"_L1);
        const QString id = nonEmptyId(idReader);
        const qint64 version = product.field("version"_L1).integer(1);
        const QString name = product.field("name"_L1).string();
        const JsonReader groupReader = product.field("group"_L1);
        const std::optional<QString> group =
            groupReader.isMissing() ? std::nullopt : groupReader.nullableString();
        const bool isAddOn = product.field("is_add_on"_L1).boolean();
        const bool isDefault = product.field("is_default"_L1).boolean();
        const bool archived = product.field("archived"_L1).optBoolean().value_or(false);
        const JsonReader itemsReader = product.field("items"_L1);
        // Items and trial are the wire's product item and free trial (§2.5), strictly.
        QList<api::ProductItem> items;
        for (const JsonReader &itemReader : itemsReader.array()) {
            const api::ProductItem item = api::ProductItem::read(itemReader);
            if (product.ok() && !m_state.features.contains(item.featureId))
                itemReader.field("feature_id"_L1)
                    .fail(
                        u"feature \"%1\" is not defined in this environment"_s.arg(item.featureId));
            items.append(item);
        }
        const JsonReader trialReader = product.field("free_trial"_L1);
        std::optional<api::FreeTrial> trial;
        if (!trialReader.isMissingOrNull())
            trial = api::FreeTrial::read(trialReader);
        const qint64 createdAt = product.field("created_at"_L1).integer();
        MD_CHECK(product)
        const QString versionKey = id + u'@' + QString::number(version);
        if (m_state.products.contains(versionKey))
            idReader.fail(u"product \"%1\" version %2 appears twice"_s.arg(id).arg(version));
        MD_CHECK(product)
        auto pk = m_state.key(u"products"_s);
        if (!pk)
            return pk.error();
        m_state.products.insert(versionKey, pk.value());
        // The newest version is the one a plan id without a version means.
        if (m_latestVersion.value(id, 0) < version) {
            m_latestVersion.insert(id, version);
            m_state.products.insert(id, pk.value());
        }
        return m_state.add(u"products"_s,
                           {pk.value(), scope.orgPk, scope.envWord(), id, version, name,
                            orNull(group), int(isAddOn), int(isDefault), int(archived),
                            storedText(items), trial ? QVariant(storedText(*trial)) : QVariant(),
                            createdAt});
    }

    api::Result<api::Done> reward(const JsonReader &reward, const Scope &scope)
    {
        reward.object();
        const JsonReader coupon = reward.field("coupon"_L1);
        const JsonReader grant = reward.field("feature_grant"_L1);
        if (coupon.isMissing() == grant.isMissing())
            reward.fail(u"a reward holds exactly one of \"coupon\" and \"feature_grant\""_s);
        MD_CHECK(reward)
        const JsonReader record = coupon.isMissing() ? grant : coupon;
        // The record is the wire's (rewards.list answers it as stored), strictly.
        const QString text = coupon.isMissing() ? storedText(api::FeatureGrantRecord::read(record))
                                                : storedText(api::CouponRecord::read(record));
        const JsonReader idReader = record.field("id"_L1);
        const QString id = nonEmptyId(idReader);
        const qint64 createdAt = record.field("created_at"_L1).integer();
        QStringList codes;
        for (const JsonReader &promo :
             record.field("promo_codes"_L1).optArray().value_or(QList<JsonReader>())) {
            const JsonReader codeReader = promo.field("code"_L1);
            const QString code = nonEmptyId(codeReader);
            if (reward.ok() && m_promoCodes.contains(code))
                codeReader.fail(u"promo code \"%1\" is already used by another reward"_s.arg(code));
            m_promoCodes.insert(code);
            codes.append(code);
        }
        if (reward.ok() && m_rewardIds.contains(id))
            idReader.fail(u"reward \"%1\" appears twice"_s.arg(id));
        MD_CHECK(reward)
        m_rewardIds.insert(id);
        auto pk = m_state.key(u"rewards"_s);
        if (!pk)
            return pk.error();
        if (auto added =
                m_state.add(u"rewards"_s, {pk.value(), scope.orgPk, scope.envWord(), id,
                                           coupon.isMissing() ? u"feature_grant"_s : u"coupon"_s,
                                           text, createdAt});
            !added)
            return added.error();
        for (const QString &code : std::as_const(codes))
            if (auto added =
                    m_state.add(u"promo_codes"_s, {scope.orgPk, scope.envWord(), code, pk.value()});
                !added)
                return added.error();
        return api::Done{};
    }
    LoadState m_state;
    QHash<QString, qint64> m_orgBySlug;
    QHash<QString, qint64> m_latestVersion; // per environment
    QSet<QString> m_rewardIds;              // per environment
    QSet<QString> m_promoCodes;             // per environment
    // Unique across the whole database.
    QSet<QString> m_orgIds;
    QSet<QString> m_keyHashes;
};

} // namespace

api::Result<LoadSummary> WorkspaceLoader::load(const QSqlDatabase &db, Dialect dialect,
                                               const api::JsonValue &workspace)
{
    WriteTransaction transaction(db, dialect);
    if (auto begun = transaction.begin(); !begun)
        return begun.error();
    Loader loader(db, dialect);
    auto summary = loader.run(JsonReader(workspace));
    if (!summary)
        return summary.error();
    if (auto committed = transaction.commit(); !committed)
        return committed.error();
    return summary;
}

api::Result<LoadSummary> WorkspaceLoader::loadFile(const QSqlDatabase &db, Dialect dialect,
                                                   const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return ApiError::invalidRequest(u"cannot read %1: %2"_s.arg(path, file.errorString()));
    auto document = api::JsonValue::parse(file.readAll(), path);
    if (!document)
        return document.error();
    if (!document.value().isObject())
        return ApiError::invalidInputs(QString(), u"%1 must hold a JSON object"_s.arg(path));
    return load(db, dialect, document.value());
}

} // namespace md::engine
