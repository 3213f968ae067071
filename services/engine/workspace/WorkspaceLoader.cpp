#include "services/engine/workspace/WorkspaceLoader.h"

#include "services/api/JsonReader.h"
#include "services/engine/access/ApiKeys.h"
#include "services/engine/balances/BalanceCustomerRows.h"
#include "services/engine/balances/BalanceSums.h"
#include "services/engine/customers/CustomerPlans.h"
#include "services/engine/ledger/UsageDays.h"
#include "services/engine/sql/Scope.h"
#include "services/engine/sql/Sql.h"
#include "services/engine/workspace/CustomerLoader.h"
#include "services/engine/workspace/ProductLoader.h"
#include "services/engine/workspace/WorkspaceLoadState.h"
#include "services/engine/workspace/WorkspaceTables.h"

#include <QDateTime>
#include <QFile>

namespace md::engine {

using namespace Qt::StringLiterals;
using api::ApiError;
using api::JsonReader;

namespace {

class Loader final
{
public:
    Loader(const QSqlDatabase &db, Dialect dialect, qint64 nowMs)
        : m_state(db, dialect)
        , m_now(nowMs)
        , m_dialect(dialect)
    {
        for (const WorkspaceTable &table : WorkspaceTable::all())
            m_state.batches.declare(table.name, table.columns);
        // Not in the file: the loader writes each balance's opening entries.
        m_state.batches.declare(u"ledger"_s,
                                {u"pk"_s, u"org_pk"_s, u"env"_s, u"customer_pk"_s, u"feature_pk"_s,
                                 u"balance_id"_s, u"at"_s, u"kind"_s, u"amount"_s,
                                 u"balance_after"_s, u"usage"_s, u"route"_s});
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
        // PostgreSQL: the kept sums are made once the balances are in
        // (BalanceSums, migration 18).
        if (m_dialect == Dialect::Postgres)
            if (auto off = runSql(m_state.db, u"SET LOCAL meterdesk.keep_sums = 'off'"_s); !off)
                return off.error();
        for (const JsonReader &org : root.field("organizations"_L1).array()) {
            if (auto loaded = organization(org); !loaded)
                return loaded.error();
        }
        const std::optional<qint64> statementsFrom = root.field("statements_from"_L1).optInteger();
        if (!root.ok())
            return *root.error();
        if (auto flushed = m_state.batches.flush(); !flushed)
            return flushed.error();
        if (auto revenue = m_state.revenue.write(m_state.db); !revenue)
            return revenue.error();
        if (m_dialect == Dialect::Postgres)
            if (auto on = runSql(m_state.db, u"SET LOCAL meterdesk.keep_sums = 'on'"_s); !on)
                return on.error();
        // The loaded events' days and balances' sums, added up once they are all in.
        for (const qint64 orgPk : std::as_const(m_orgBySlug))
            for (const Environment env : {Environment::Sandbox, Environment::Production}) {
                if (auto days = UsageDays::rebuild(m_state.db, m_dialect, Scope{orgPk, env}); !days)
                    return days.error();
                if (m_dialect == Dialect::Postgres) {
                    if (auto sums = BalanceSums::rebuild(m_state.db, m_dialect, Scope{orgPk, env});
                        !sums)
                        return sums.error();
                    if (auto rows = BalanceCustomerRows::rebuild(m_state.db, Scope{orgPk, env});
                        !rows)
                        return rows.error();
                }
            }
        if (auto opened = openStatements(statementsFrom.value_or(m_now)); !opened)
            return opened.error();
        return m_state.summary;
    }

private:
    // Each loaded customer's first statement period: the one holding its
    // creation, or `from` if it was made before (docs/billing.md,
    // "Statements"); the clock closes those that ended since.
    api::Result<api::Done> openStatements(qint64 from)
    {
        qint64 after = std::numeric_limits<qint64>::min();
        for (;;) {
            auto rows = queryRows(m_state.db,
                                  u"SELECT pk, created_at FROM customers WHERE pk > ?"
                                  " AND statement_due_at IS NULL ORDER BY pk LIMIT 1000"_s,
                                  {after});
            if (!rows)
                return rows.error();
            if (rows.value().isEmpty())
                return api::Done{};
            QList<std::pair<qint64, qint64>> customers;
            for (const QVariantList &row : std::as_const(rows.value())) {
                after = row.at(0).toLongLong();
                customers.append({after, std::max(from, row.at(1).toLongLong())});
            }
            if (auto opened = CustomerPlans::openFirstPeriods(m_state.db, m_dialect, customers);
                !opened)
                return opened.error();
        }
    }

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
        // What it bills in (docs/billing.md, "Money is exact"): fixed once loaded.
        const JsonReader currencyReader = org.field("currency"_L1);
        const QString currency = currencyReader.optString().value_or(u"usd"_s);
        MD_CHECK(org)
        const auto money = Money::of(currency);
        if (!money)
            currencyReader.fail(u"\"%1\" is not an ISO 4217 currency code in lower case, such as"
                                " \"usd\", \"eur\" or \"jpy\""_s.arg(currency));
        else
            m_state.money = *money;
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
            // The directory files before migration 22 carried: the link
            // asks Stripe now (docs/processors.md), so it is left, and said.
            if (!processor.field("accessible_accounts"_L1).isMissing())
                ++m_state.summary.accessListsIgnored;
        }
        MD_CHECK(org)
        if (auto added = m_state.add(u"organizations"_s,
                                     {pk.value(), id, slug, name, masterPk, int(testConnected),
                                      int(liveConnected), orNull(testAccount), orNull(liveAccount),
                                      orNull(linkedAt), createdAt, m_state.money.code()});
            !added)
            return added.error();
        ++m_state.summary.organizations;

        for (const JsonReader &apiKey :
             org.field("api_keys"_L1).optArray().value_or(QList<JsonReader>())) {
            if (auto loaded = this->apiKey(apiKey, pk.value()); !loaded)
                return loaded.error();
        }
        MD_CHECK(org)
        for (Environment env : {Environment::Sandbox, Environment::Production}) {
            const JsonReader envReader =
                org.field(QLatin1StringView(env == Environment::Sandbox ? "test" : "live"));
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
        const auto expiresAt = apiKey.field("expires_at"_L1).optInteger();
        const auto revokedAt = apiKey.field("revoked_at"_L1).optInteger();
        const auto lastUsedAt = apiKey.field("last_used_at"_L1).optInteger();
        const auto previousHash = apiKey.field("previous_hash"_L1).optString();
        const auto previousUntil = apiKey.field("previous_until"_L1).optInteger();
        const auto rolledAt = apiKey.field("rolled_at"_L1).optInteger();
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
        return m_state.add(u"api_keys"_s,
                           {pk.value(), orgPk, environmentWord(*env), prefix, hash,
                            scopes.join(u' '), name, createdAt, orNull(expiresAt),
                            orNull(revokedAt), orNull(lastUsedAt), orNull(previousHash),
                            orNull(previousUntil), orNull(rolledAt)});
    }

    api::Result<api::Done> environment(const JsonReader &env, const Scope &scope)
    {
        env.object();
        m_state.features.clear();
        m_state.products.clear();
        m_state.latestVersion.clear();
        m_state.planKeys.clear();
        m_state.customerIds.clear();
        m_state.rewardIds.clear();
        m_state.promoCodes.clear();
        m_state.idempotencyKeys.clear();
        for (const JsonReader &feature :
             env.field("features"_L1).optArray().value_or(QList<JsonReader>()))
            if (auto loaded = ProductLoader::feature(m_state, feature, scope); !loaded)
                return loaded.error();
        for (const JsonReader &product :
             env.field("products"_L1).optArray().value_or(QList<JsonReader>()))
            if (auto loaded = ProductLoader::product(m_state, product, scope); !loaded)
                return loaded.error();
        for (const JsonReader &customer :
             env.field("customers"_L1).optArray().value_or(QList<JsonReader>()))
            if (auto loaded = CustomerLoader::load(m_state, customer, scope); !loaded)
                return loaded.error();
        for (const JsonReader &reward :
             env.field("rewards"_L1).optArray().value_or(QList<JsonReader>()))
            if (auto loaded = ProductLoader::reward(m_state, reward, scope); !loaded)
                return loaded.error();
        MD_CHECK(env)
        return api::Done{};
    }

    LoadState m_state;
    qint64 m_now; // the engine's
    Dialect m_dialect;
    QHash<QString, qint64> m_orgBySlug;
    // Unique across the whole database.
    QSet<QString> m_orgIds;
    QSet<QString> m_keyHashes;
};

} // namespace

api::Result<LoadSummary> WorkspaceLoader::load(const QSqlDatabase &db, Dialect dialect,
                                               const api::JsonValue &workspace, qint64 nowMs)
{
    WriteTransaction transaction(db, dialect);
    if (auto begun = transaction.begin(); !begun)
        return begun.error();
    Loader loader(db, dialect, nowMs);
    auto summary = loader.run(JsonReader(workspace));
    if (!summary)
        return summary.error();
    if (auto committed = transaction.commit(); !committed)
        return committed.error();
    return summary;
}

api::Result<LoadSummary> WorkspaceLoader::loadFile(const QSqlDatabase &db, Dialect dialect,
                                                   const QString &path, qint64 nowMs)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return ApiError::invalidRequest(u"cannot read %1: %2"_s.arg(path, file.errorString()));
    auto document = api::JsonValue::parse(file.readAll(), path);
    if (!document)
        return document.error();
    if (!document.value().isObject())
        return ApiError::invalidInputs(QString(), u"%1 must hold a JSON object"_s.arg(path));
    return load(db, dialect, document.value(), nowMs);
}

} // namespace md::engine
