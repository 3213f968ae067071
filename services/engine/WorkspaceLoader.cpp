#include "services/engine/WorkspaceLoader.h"

#include "services/api/Balance.h"
#include "services/api/BillingControls.h"
#include "services/api/JsonReader.h"
#include "services/api/Product.h"
#include "services/api/Reward.h"
#include "services/api/WireCodec.h"
#include "services/engine/ApiKeys.h"
#include "services/engine/Scope.h"
#include "services/engine/Sql.h"
#include "services/engine/StoredJson.h"

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
constexpr std::pair<QLatin1StringView, int> PlanStatuses[] = {
    {"active"_L1, 0}, {"trialing"_L1, 1}, {"past_due"_L1, 2}, {"canceled"_L1, 3}, {"expired"_L1, 4},
};
constexpr std::pair<QLatin1StringView, int> Processors[] = {{"stripe"_L1, 0}, {"revenuecat"_L1, 1}};

QVariant orNull(const std::optional<QString> &value)
{
    return value ? QVariant(*value) : QVariant();
}

QVariant orNull(const std::optional<qint64> &value)
{
    return value ? QVariant(*value) : QVariant();
}

QString nonEmptyId(const JsonReader &reader)
{
    const QString id = reader.string();
    if (reader.ok() && id.trimmed().isEmpty())
        reader.fail(u"must not be empty"_s);
    return id;
}

// Rows waiting to be inserted, flushed in foreign-key order.
class Batches final
{
public:
    static constexpr qsizetype FlushAt = 20000;

    explicit Batches(QSqlDatabase db)
        : m_db(std::move(db))
    {}

    void declare(const QString &table, const QStringList &columns)
    {
        m_order.append(table);
        m_columns.insert(table, columns);
    }
    api::Result<api::Done> add(const QString &table, QVariantList row)
    {
        m_rows[table].append(std::move(row));
        if (++m_pending >= FlushAt)
            return flush();
        return api::Done{};
    }
    api::Result<api::Done> flush()
    {
        for (const QString &table : std::as_const(m_order)) {
            QList<QVariantList> &rows = m_rows[table];
            if (rows.isEmpty())
                continue;
            if (auto inserted = insertRows(m_db, table, m_columns.value(table), rows); !inserted)
                return inserted.error();
            rows.clear();
        }
        m_pending = 0;
        return api::Done{};
    }

private:
    QSqlDatabase m_db;
    QStringList m_order;
    QHash<QString, QStringList> m_columns;
    QHash<QString, QList<QVariantList>> m_rows;
    qsizetype m_pending = 0;
};

class Loader final
{
public:
    Loader(const QSqlDatabase &db, Dialect dialect)
        : m_db(db)
        , m_keys(db, dialect)
        , m_batches(db)
    {
        m_batches.declare(u"organizations"_s,
                          {u"pk"_s, u"id"_s, u"slug"_s, u"name"_s, u"master_org_pk"_s,
                           u"test_secret_connected"_s, u"live_secret_connected"_s,
                           u"test_account_id"_s, u"live_account_id"_s, u"linked_at"_s,
                           u"created_at"_s});
        m_batches.declare(u"processor_access"_s, {u"org_pk"_s, u"env"_s, u"account_id"_s});
        m_batches.declare(u"api_keys"_s, {u"pk"_s, u"org_pk"_s, u"env"_s, u"prefix"_s, u"hash"_s,
                                          u"scopes"_s, u"name"_s, u"created_at"_s});
        m_batches.declare(u"features"_s, {u"pk"_s, u"org_pk"_s, u"env"_s, u"id"_s, u"name"_s,
                                          u"type"_s, u"default_markup"_s, u"created_at"_s});
        m_batches.declare(u"credit_markups"_s,
                          {u"feature_pk"_s, u"provider"_s, u"model"_s, u"markup"_s});
        m_batches.declare(u"products"_s,
                          {u"pk"_s, u"org_pk"_s, u"env"_s, u"id"_s, u"version"_s, u"name"_s,
                           u"group_name"_s, u"is_add_on"_s, u"is_default"_s, u"archived"_s,
                           u"items"_s, u"free_trial"_s, u"created_at"_s});
        m_batches.declare(u"customers"_s, {u"pk"_s, u"org_pk"_s, u"env"_s, u"id"_s, u"name"_s,
                                           u"email"_s, u"fingerprint"_s, u"metadata"_s,
                                           u"send_email_receipts"_s, u"disable_pooled_balance"_s,
                                           u"disable_overage_billing"_s, u"created_at"_s});
        m_batches.declare(u"customer_processors"_s,
                          {u"customer_pk"_s, u"type"_s, u"external_id"_s});
        m_batches.declare(u"entities"_s, {u"pk"_s, u"customer_pk"_s, u"id"_s, u"feature_id"_s,
                                          u"name"_s, u"created_at"_s});
        m_batches.declare(u"customer_products"_s,
                          {u"pk"_s, u"id"_s, u"customer_pk"_s, u"product_pk"_s, u"processor"_s,
                           u"subscription_id"_s, u"schedule_id"_s, u"status"_s, u"quantity"_s,
                           u"started_at"_s, u"current_period_start"_s, u"current_period_end"_s,
                           u"trial_ends_at"_s, u"canceled_at"_s, u"expires_at"_s, u"created_at"_s});
        m_batches.declare(u"balances"_s, {u"pk"_s,
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
        m_batches.declare(u"rollovers"_s,
                          {u"pk"_s, u"balance_pk"_s, u"granted"_s, u"balance"_s, u"expires_at"_s});
        m_batches.declare(u"rewards"_s, {u"pk"_s, u"org_pk"_s, u"env"_s, u"id"_s, u"kind"_s,
                                         u"record"_s, u"created_at"_s});
        m_batches.declare(u"promo_codes"_s, {u"org_pk"_s, u"env"_s, u"code"_s, u"reward_pk"_s});
        m_batches.declare(u"billing_controls"_s,
                          {u"customer_pk"_s, u"entity_pk"_s, u"controls"_s, u"updated_at"_s});
        m_batches.declare(u"usage_events"_s,
                          {u"pk"_s, u"org_pk"_s, u"env"_s, u"customer_pk"_s, u"entity_pk"_s,
                           u"feature_pk"_s, u"model_id"_s, u"tokens"_s, u"value"_s, u"properties"_s,
                           u"timestamp"_s, u"idempotency_key"_s, u"created_at"_s});
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
        if (auto flushed = m_batches.flush(); !flushed)
            return flushed.error();
        return m_summary;
    }

private:
    // Stops a loop at the first problem, carrying the reader's error out.
#define MD_CHECK(reader)                                                                           \
    if (!(reader).ok())                                                                            \
        return *(reader).error();

    api::Result<qint64> key(const QString &table)
    {
        return m_keys.next(table);
    }

    api::Result<api::Done> add(const QString &table, QVariantList row)
    {
        return m_batches.add(table, std::move(row));
    }

    api::Result<bool> exists(const QString &sql, const QVariantList &binds)
    {
        auto query = runSql(m_db, sql, binds);
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
        auto pk = key(u"organizations"_s);
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
                        if (auto added = add(u"processor_access"_s,
                                             {pk.value(), environmentWord(env), accountId});
                            !added)
                            return added.error();
                    }
                }
            }
        }
        MD_CHECK(org)
        if (auto added =
                add(u"organizations"_s,
                    {pk.value(), id, slug, name, masterPk, int(testConnected), int(liveConnected),
                     orNull(testAccount), orNull(liveAccount), orNull(linkedAt), createdAt});
            !added)
            return added.error();
        ++m_summary.organizations;

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
        auto pk = key(u"api_keys"_s);
        if (!pk)
            return pk.error();
        ++m_summary.apiKeys;
        return add(u"api_keys"_s, {pk.value(), orgPk, environmentWord(*env), prefix, hash,
                                   scopes.join(u' '), name, createdAt});
    }

    api::Result<api::Done> environment(const JsonReader &env, const Scope &scope)
    {
        env.object();
        m_features.clear();
        m_products.clear();
        m_latestVersion.clear();
        m_customerIds.clear();
        m_rewardIds.clear();
        m_promoCodes.clear();
        m_idempotencyKeys.clear();
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
            if (auto loaded = this->customer(customer, scope); !loaded)
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
        if (m_features.contains(id))
            idReader.fail(u"feature \"%1\" appears twice"_s.arg(id));
        MD_CHECK(feature)
        auto pk = key(u"features"_s);
        if (!pk)
            return pk.error();
        m_features.insert(id, pk.value());
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
                if (auto added = add(u"credit_markups"_s, {pk.value(), provider, model, value});
                    !added)
                    return added.error();
            }
        }
        MD_CHECK(feature)
        return add(u"features"_s, {pk.value(), scope.orgPk, scope.envWord(), id, name,
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
            if (product.ok() && !m_features.contains(item.featureId))
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
        if (m_products.contains(versionKey))
            idReader.fail(u"product \"%1\" version %2 appears twice"_s.arg(id).arg(version));
        MD_CHECK(product)
        auto pk = key(u"products"_s);
        if (!pk)
            return pk.error();
        m_products.insert(versionKey, pk.value());
        // The newest version is the one a plan id without a version means.
        if (m_latestVersion.value(id, 0) < version) {
            m_latestVersion.insert(id, version);
            m_products.insert(id, pk.value());
        }
        return add(u"products"_s,
                   {pk.value(), scope.orgPk, scope.envWord(), id, version, name, orNull(group),
                    int(isAddOn), int(isDefault), int(archived), storedText(items),
                    trial ? QVariant(storedText(*trial)) : QVariant(), createdAt});
    }

    api::Result<api::Done> customer(const JsonReader &customer, const Scope &scope)
    {
        customer.object();
        const JsonReader idReader = customer.field("id"_L1);
        const QString id = nonEmptyId(idReader);
        const QString name = customer.field("name"_L1).optString().value_or(QString());
        const QString email = customer.field("email"_L1).optString().value_or(QString());
        const JsonReader fingerprintReader = customer.field("fingerprint"_L1);
        const std::optional<QString> fingerprint =
            fingerprintReader.isMissing() ? std::nullopt : fingerprintReader.nullableString();
        const qint64 createdAt = customer.field("created_at"_L1).integer();
        const JsonReader metadataReader = customer.field("metadata"_L1);
        const api::JsonValue metadata =
            metadataReader.isMissing() ? api::JsonValue::object() : metadataReader.object();
        const bool receipts = customer.field("send_email_receipts"_L1).optBoolean().value_or(false);
        const JsonReader config = customer.field("config"_L1);
        bool noPooled = false;
        bool noOverage = false;
        if (!config.isMissing()) {
            config.object();
            noPooled = config.field("disable_pooled_balance"_L1).optBoolean().value_or(false);
            noOverage = config.field("disable_overage_billing"_L1).optBoolean().value_or(false);
        }
        MD_CHECK(customer)
        if (m_customerIds.contains(id))
            idReader.fail(u"customer \"%1\" appears twice"_s.arg(id));
        MD_CHECK(customer)
        auto pk = key(u"customers"_s);
        if (!pk)
            return pk.error();
        const qint64 customerPk = pk.value();
        m_customerIds.insert(id);
        if (auto added =
                add(u"customers"_s, {customerPk, scope.orgPk, scope.envWord(), id, name, email,
                                     orNull(fingerprint), storedText(metadata), int(receipts),
                                     int(noPooled), int(noOverage), createdAt});
            !added)
            return added.error();
        ++m_summary.customers;
        if (auto loaded = billingControls(customer, customerPk, 0, createdAt); !loaded)
            return loaded.error();

        QSet<int> processorTypes;
        for (const JsonReader &processor :
             customer.field("processors"_L1).optArray().value_or(QList<JsonReader>())) {
            processor.object();
            const JsonReader typeReader = processor.field("type"_L1);
            const int type = typeReader.word(Processors);
            const QString externalId = nonEmptyId(processor.field("id"_L1));
            if (customer.ok() && processorTypes.contains(type))
                typeReader.fail(
                    u"the customer has two \"%1\" identities"_s.arg(Processors[type].first));
            processorTypes.insert(type);
            MD_CHECK(customer)
            if (auto added = add(u"customer_processors"_s,
                                 {customerPk, QString(Processors[type].first), externalId});
                !added)
                return added.error();
        }

        QHash<QString, qint64> entities;
        for (const JsonReader &entity :
             customer.field("entities"_L1).optArray().value_or(QList<JsonReader>())) {
            entity.object();
            const JsonReader entityIdReader = entity.field("id"_L1);
            const QString entityId = nonEmptyId(entityIdReader);
            const JsonReader featureReader = entity.field("feature_id"_L1);
            const std::optional<QString> featureId =
                featureReader.isMissing() ? std::nullopt : featureReader.nullableString();
            if (customer.ok() && featureId && !m_features.contains(*featureId))
                featureReader.fail(
                    u"feature \"%1\" is not defined in this environment"_s.arg(*featureId));
            const QString entityName = entity.field("name"_L1).optString().value_or(QString());
            const qint64 entityCreated = entity.field("created_at"_L1).integer();
            if (customer.ok() && entities.contains(entityId))
                entityIdReader.fail(u"entity \"%1\" appears twice"_s.arg(entityId));
            MD_CHECK(customer)
            auto entityPk = key(u"entities"_s);
            if (!entityPk)
                return entityPk.error();
            entities.insert(entityId, entityPk.value());
            if (auto added = add(u"entities"_s, {entityPk.value(), customerPk, entityId,
                                                 orNull(featureId), entityName, entityCreated});
                !added)
                return added.error();
            if (auto loaded = billingControls(entity, customerPk, entityPk.value(), entityCreated);
                !loaded)
                return loaded.error();
        }

        QHash<QString, qint64> customerProducts;
        for (const JsonReader &cp :
             customer.field("products"_L1).optArray().value_or(QList<JsonReader>())) {
            if (auto loaded = customerProduct(cp, customerPk, customerProducts); !loaded)
                return loaded.error();
        }
        // Oldest first, so keys (which count down) list the newest first.
        QList<JsonReader> balances =
            customer.field("balances"_L1).optArray().value_or(QList<JsonReader>());
        QList<std::pair<qint64, qsizetype>> order;
        order.reserve(balances.size());
        for (qsizetype i = 0; i < balances.size(); ++i)
            order.append({balances.at(i)
                              .field("created_at"_L1)
                              .raw()
                              .numberText()
                              .toByteArray()
                              .toLongLong(),
                          i});
        std::sort(order.begin(), order.end());
        QList<JsonReader> sorted;
        sorted.reserve(balances.size());
        for (const auto &[created, index] : std::as_const(order))
            sorted.append(balances.at(index));
        balances = std::move(sorted);
        for (const JsonReader &balance : std::as_const(balances)) {
            if (auto loaded = this->balance(balance, scope, customerPk, entities, customerProducts);
                !loaded)
                return loaded.error();
        }
        for (const JsonReader &event :
             customer.field("usage_events"_L1).optArray().value_or(QList<JsonReader>())) {
            if (auto loaded = usageEvent(event, scope, customerPk, entities); !loaded)
                return loaded.error();
        }
        MD_CHECK(customer)
        return api::Done{};
    }

    // A customer's or entity's billing_controls: the object
    // customers.update_billing_controls takes (camelCase keys), checked the
    // same way; entityPk 0 for the customer's own (as BillingControlStore keys them).
    api::Result<api::Done> billingControls(const JsonReader &owner, qint64 customerPk,
                                           qint64 entityPk, qint64 createdAt)
    {
        const JsonReader reader = owner.field("billing_controls"_L1);
        if (reader.isMissingOrNull())
            return api::Done{};
        const api::BillingControls controls = api::BillingControls::read(reader);
        for (const auto &[path, id] : controls.namedFeatures())
            if (reader.ok() && !m_features.contains(id))
                reader.fail(
                    u"%1.featureId: feature \"%2\" is not defined in this environment"_s.arg(path,
                                                                                             id));
        MD_CHECK(reader)
        if (controls.isEmpty())
            return api::Done{};
        return add(u"billing_controls"_s, {customerPk, entityPk, storedText(controls), createdAt});
    }

    api::Result<api::Done> customerProduct(const JsonReader &cp, qint64 customerPk,
                                           QHash<QString, qint64> &customerProducts)
    {
        cp.object();
        const JsonReader idReader = cp.field("id"_L1);
        const QString id = nonEmptyId(idReader);
        const JsonReader planReader = cp.field("plan_id"_L1);
        const QString planId = planReader.string();
        const JsonReader versionReader = cp.field("version"_L1);
        const std::optional<qint64> version = versionReader.optInteger(1);
        const auto nullableText = [&](QLatin1StringView name) {
            const JsonReader r = cp.field(name);
            return r.isMissing() ? std::optional<QString>() : r.nullableString();
        };
        const auto nullableTime = [&](QLatin1StringView name) {
            const JsonReader r = cp.field(name);
            return r.isMissing() ? std::optional<qint64>() : r.nullableInteger();
        };
        const std::optional<QString> processor = nullableText("processor"_L1);
        if (processor && cp.ok())
            cp.field("processor"_L1).word(Processors);
        const std::optional<QString> subscriptionId = nullableText("subscription_id"_L1);
        const std::optional<QString> scheduleId = nullableText("schedule_id"_L1);
        const int status = cp.field("status"_L1).word(PlanStatuses);
        const qint64 quantity = cp.field("quantity"_L1).optInteger(0).value_or(1);
        const qint64 startedAt = cp.field("started_at"_L1).integer();
        const auto periodStart = nullableTime("current_period_start"_L1);
        const auto periodEnd = nullableTime("current_period_end"_L1);
        const auto trialEndsAt = nullableTime("trial_ends_at"_L1);
        const auto canceledAt = nullableTime("canceled_at"_L1);
        const auto expiresAt = nullableTime("expires_at"_L1);
        const qint64 createdAt = cp.field("created_at"_L1).integer();
        MD_CHECK(cp)
        const QString productKey = version ? planId + u'@' + QString::number(*version) : planId;
        if (!m_products.contains(productKey))
            (version ? versionReader : planReader)
                .fail(version
                          ? u"plan \"%1\" has no version %2 in this environment"_s.arg(planId).arg(
                                *version)
                          : u"plan \"%1\" is not defined in this environment"_s.arg(planId));
        if (cp.ok() && m_customerProductIds.contains(id))
            idReader.fail(u"customer product \"%1\" appears twice"_s.arg(id));
        MD_CHECK(cp)
        auto pk = key(u"customer_products"_s);
        if (!pk)
            return pk.error();
        m_customerProductIds.insert(id);
        customerProducts.insert(id, pk.value());
        return add(u"customer_products"_s,
                   {pk.value(), id, customerPk, m_products.value(productKey), orNull(processor),
                    orNull(subscriptionId), orNull(scheduleId), QString(PlanStatuses[status].first),
                    quantity, startedAt, orNull(periodStart), orNull(periodEnd),
                    orNull(trialEndsAt), orNull(canceledAt), orNull(expiresAt), createdAt});
    }

    api::Result<api::Done> balance(const JsonReader &balance, const Scope &scope, qint64 customerPk,
                                   const QHash<QString, qint64> &entities,
                                   const QHash<QString, qint64> &customerProducts)
    {
        balance.object();
        const JsonReader idReader = balance.field("id"_L1);
        const QString id = nonEmptyId(idReader);
        const JsonReader featureReader = balance.field("feature_id"_L1);
        const QString featureId = featureReader.string();
        if (balance.ok() && !m_features.contains(featureId))
            featureReader.fail(
                u"feature \"%1\" is not defined in this environment"_s.arg(featureId));
        const JsonReader cpReader = balance.field("customer_product_id"_L1);
        const std::optional<QString> cpId =
            cpReader.isMissing() ? std::nullopt : cpReader.nullableString();
        if (balance.ok() && cpId && !customerProducts.contains(*cpId))
            cpReader.fail(
                u"customer product \"%1\" is not one of this customer's products"_s.arg(*cpId));
        const JsonReader entityReader = balance.field("entity_id"_L1);
        const std::optional<QString> entityId =
            entityReader.isMissing() ? std::nullopt : entityReader.nullableString();
        if (balance.ok() && entityId && !entities.contains(*entityId))
            entityReader.fail(
                u"entity \"%1\" is not one of this customer's entities"_s.arg(*entityId));
        const api::Decimal included = balance.field("included_grant"_L1).nonNegativeDecimal();
        const api::Decimal prepaid = balance.field("prepaid_grant"_L1).nonNegativeDecimal();
        const api::Decimal remaining = balance.field("remaining"_L1).decimal();
        const api::Decimal usage = balance.field("usage"_L1).nonNegativeDecimal();
        const bool unlimited = balance.field("unlimited"_L1).optBoolean().value_or(false);
        const bool overage = balance.field("overage_allowed"_L1).optBoolean().value_or(false);
        const JsonReader resetReader = balance.field("reset"_L1);
        std::optional<api::Reset> reset;
        if (!resetReader.isMissingOrNull())
            reset = api::Reset::read(resetReader);
        const JsonReader priceReader = balance.field("price"_L1);
        std::optional<api::Price> price;
        if (!priceReader.isMissingOrNull())
            price = api::Price::read(priceReader);
        const JsonReader expiresReader = balance.field("expires_at"_L1);
        const std::optional<qint64> expiresAt =
            expiresReader.isMissing() ? std::nullopt : expiresReader.nullableInteger();
        const qint64 createdAt = balance.field("created_at"_L1).integer();
        const QList<api::Rollover> rollovers =
            balance.field("rollovers"_L1).isMissing()
                ? QList<api::Rollover>()
                : api::readList<api::Rollover>(balance.field("rollovers"_L1));
        MD_CHECK(balance)
        if (m_balanceIds.contains(id))
            idReader.fail(u"balance \"%1\" appears twice"_s.arg(id));
        MD_CHECK(balance)
        m_balanceIds.insert(id);
        auto pk = key(u"balances"_s);
        if (!pk)
            return pk.error();
        if (auto added = add(u"balances"_s,
                             {pk.value(),
                              id,
                              scope.orgPk,
                              scope.envWord(),
                              customerPk,
                              entityId ? QVariant(entities.value(*entityId)) : QVariant(),
                              m_features.value(featureId),
                              cpId ? QVariant(customerProducts.value(*cpId)) : QVariant(),
                              included.toString(),
                              prepaid.toString(),
                              remaining.toString(),
                              usage.toString(),
                              int(unlimited),
                              int(overage),
                              reset ? QVariant(QString(api::toWire(reset->interval))) : QVariant(),
                              reset ? orNull(reset->intervalCount) : QVariant(),
                              reset ? orNull(reset->resetsAt) : QVariant(),
                              price ? QVariant(storedText(*price)) : QVariant(),
                              orNull(expiresAt),
                              createdAt});
            !added)
            return added.error();
        ++m_summary.balances;
        for (const api::Rollover &rollover : rollovers) {
            auto rolloverPk = key(u"rollovers"_s);
            if (!rolloverPk)
                return rolloverPk.error();
            if (auto added = add(u"rollovers"_s,
                                 {rolloverPk.value(), pk.value(), rollover.granted.toString(),
                                  rollover.balance.toString(), rollover.expiresAt});
                !added)
                return added.error();
        }
        return api::Done{};
    }

    api::Result<api::Done> usageEvent(const JsonReader &event, const Scope &scope,
                                      qint64 customerPk, const QHash<QString, qint64> &entities)
    {
        event.object();
        const JsonReader featureReader = event.field("feature_id"_L1);
        const QString featureId = featureReader.string();
        if (event.ok() && !m_features.contains(featureId))
            featureReader.fail(
                u"feature \"%1\" is not defined in this environment"_s.arg(featureId));
        const JsonReader entityReader = event.field("entity_id"_L1);
        const std::optional<QString> entityId =
            entityReader.isMissing() ? std::nullopt : entityReader.nullableString();
        if (event.ok() && entityId && !entities.contains(*entityId))
            entityReader.fail(
                u"entity \"%1\" is not one of this customer's entities"_s.arg(*entityId));
        const JsonReader modelReader = event.field("model_id"_L1);
        const std::optional<QString> modelId =
            modelReader.isMissing() ? std::nullopt : modelReader.nullableString();
        const JsonReader tokensReader = event.field("tokens"_L1);
        const api::JsonValue tokens =
            tokensReader.isMissing() ? api::JsonValue::object() : tokensReader.object();
        if (!tokensReader.isMissing())
            for (const auto &[pool, count] : tokensReader.members())
                count.integer();
        const api::Decimal value = event.field("value"_L1).decimal();
        const JsonReader propertiesReader = event.field("properties"_L1);
        const api::JsonValue properties =
            propertiesReader.isMissing() ? api::JsonValue::object() : propertiesReader.object();
        const qint64 timestamp = event.field("timestamp"_L1).integer(1);
        const JsonReader keyReader = event.field("idempotency_key"_L1);
        const std::optional<QString> idempotencyKey =
            keyReader.isMissing() ? std::nullopt : keyReader.nullableString();
        if (event.ok() && idempotencyKey && m_idempotencyKeys.contains(*idempotencyKey))
            keyReader.fail(
                u"idempotency key \"%1\" is used by another event"_s.arg(*idempotencyKey));
        if (idempotencyKey)
            m_idempotencyKeys.insert(*idempotencyKey);
        const qint64 createdAt = event.field("created_at"_L1).optInteger().value_or(timestamp);
        MD_CHECK(event)
        auto pk = key(u"usage_events"_s);
        if (!pk)
            return pk.error();
        return add(u"usage_events"_s, {pk.value(), scope.orgPk, scope.envWord(), customerPk,
                                       entityId ? QVariant(entities.value(*entityId)) : QVariant(),
                                       m_features.value(featureId), orNull(modelId),
                                       storedText(tokens), value.toString(), storedText(properties),
                                       timestamp, orNull(idempotencyKey), createdAt});
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
        auto pk = key(u"rewards"_s);
        if (!pk)
            return pk.error();
        if (auto added = add(u"rewards"_s, {pk.value(), scope.orgPk, scope.envWord(), id,
                                            coupon.isMissing() ? u"feature_grant"_s : u"coupon"_s,
                                            text, createdAt});
            !added)
            return added.error();
        for (const QString &code : std::as_const(codes))
            if (auto added =
                    add(u"promo_codes"_s, {scope.orgPk, scope.envWord(), code, pk.value()});
                !added)
                return added.error();
        return api::Done{};
    }
#undef MD_CHECK

    QSqlDatabase m_db;
    KeyAllocator m_keys;
    Batches m_batches;
    LoadSummary m_summary;
    QHash<QString, qint64> m_orgBySlug;
    // Per environment (ids are unique within one organization's environment).
    QHash<QString, qint64> m_features;
    QHash<QString, qint64> m_products; // "id@version" and the bare id of the newest version
    QHash<QString, qint64> m_latestVersion;
    QSet<QString> m_customerIds;
    QSet<QString> m_rewardIds;
    QSet<QString> m_promoCodes;
    QSet<QString> m_idempotencyKeys;
    // Unique across the whole database.
    QSet<QString> m_orgIds;
    QSet<QString> m_keyHashes;
    QSet<QString> m_customerProductIds;
    QSet<QString> m_balanceIds;
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
