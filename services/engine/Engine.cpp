#include "services/engine/Engine.h"

#include "services/engine/Migrator.h"
#include "services/engine/access/ApiKeyStore.h"
#include "services/engine/access/PortalLinks.h"
#include "services/engine/ids/PublicIds.h"
#include "services/engine/ledger/AuditTrail.h"
#include "services/engine/sql/Sql.h"
#include "services/engine/statements/OpenRevenue.h"
#include "services/engine/track/CallCheck.h"
#include "services/engine/workspace/WorkspaceDumper.h"
#include "services/engine/workspace/WorkspaceLoader.h"

#include <QDateTime>

namespace md::engine {

using namespace Qt::StringLiterals;
using api::ApiError;

namespace {

// The async flag's answer: stored now, applied later; 204 (queued).
api::TrackTokensResponse accepted(const QString &customerId)
{
    api::TrackTokensResponse answer;
    answer.customerId = customerId;
    answer.queued = true;
    return answer;
}

} // namespace

Engine::Engine(QString location, Clock clock)
    : m_database(std::move(location))
    , m_clock(clock ? std::move(clock) : Clock([] { return QDateTime::currentMSecsSinceEpoch(); }))
    , m_sandboxClock(m_clock)
    , m_catalogue(std::shared_ptr<const PriceCatalogue>(&PriceCatalogue::bundled(),
                                                        [](const PriceCatalogue *) {}))
    , m_queue(std::make_unique<TrackQueue>(
          m_database, m_clock, [this](const Scope &scope) { return ahead(scope); },
          [this] { return catalogue(); }))
    , m_writer(std::make_unique<TrackWriter>(
          m_database, m_clock, [this](const Scope &scope) { return ahead(scope); },
          [this] { return catalogue(); }))
    , m_sweep(std::make_unique<ClockSweep>(m_database, m_sandboxClock, *m_writer))
    , m_openRevenue(std::make_unique<OpenRevenue>(
          m_database, [this](const Scope &scope) { return now(scope); }))
{
    // Another Stripe for every engine of the process: a test's, or an
    // egress proxy (docs/operations.md, "Processor keys").
    if (const QString base = qEnvironmentVariable("MD_STRIPE_API_BASE"); !base.isEmpty())
        m_stripe.base = QUrl(base);
}

Engine::~Engine()
{
    m_openRevenue.reset(); // a refresh under way reads the clock and the database
    m_sweep->stop();       // PostgreSQL's sweep thread; on SQLite the writer runs it
    m_writer.reset();
}

qint64 Engine::ahead(const Scope &scope)
{
    if (scope.env != Environment::Sandbox)
        return 0; // no look-up for production
    auto db = m_database.connection();
    return db ? m_sandboxClock.ahead(db.value(), scope) : 0;
}

void Engine::setStripeBase(const QUrl &base)
{
    const QMutexLocker lock(&m_stripeMutex);
    m_stripe.base = base;
}

StripeClient::Options Engine::stripeOptions() const
{
    const QMutexLocker lock(&m_stripeMutex);
    return m_stripe;
}

qint64 Engine::now(const Scope &scope)
{
    return m_clock() + ahead(scope);
}

void Engine::startClock(std::chrono::milliseconds every)
{
    m_sweep->start(every);
}

void Engine::setCatalogue(std::shared_ptr<const PriceCatalogue> catalogue)
{
    const QMutexLocker lock(&m_catalogueMutex);
    m_catalogue = std::move(catalogue);
}

std::shared_ptr<const PriceCatalogue> Engine::catalogue() const
{
    const QMutexLocker lock(&m_catalogueMutex);
    return m_catalogue;
}

api::Result<api::Done> Engine::open()
{
    auto db = m_database.connection();
    if (!db)
        return db.error();
    auto migrated = Migrator::migrate(db.value(), m_database.dialect());
    if (!migrated)
        return migrated.error();
    // Ids and cursors are made with the workspace's secret: read it now, so
    // that a database without one fails to open rather than on a listing.
    if (auto ids = PublicIds::of(db.value()); !ids)
        return ids.error();
    return api::Done{};
}

api::Result<api::TrackTokensResponse>
Engine::trackTokens(const Scope &scope, const api::TrackTokensRequest &request,
                    const std::optional<QString> &idempotencyKey)
{
    if (request.async) {
        if (auto stored = m_queue->enqueue(scope, request, idempotencyKey); !stored)
            return stored.error();
        return accepted(request.customerId);
    }
    return m_writer->track(scope, request, idempotencyKey);
}

void Engine::trackTokens(const Scope &scope, const api::TrackTokensRequest &request,
                         const std::optional<QString> &idempotencyKey, TrackWriter::Answer answer)
{
    if (request.async)
        return m_queue->enqueue(scope, request, idempotencyKey,
                                [answer = std::move(answer),
                                 customerId = request.customerId](api::Result<api::Done> stored) {
                                    if (!stored)
                                        return answer(stored.error());
                                    answer(accepted(customerId));
                                });
    m_writer->submit(scope, request, idempotencyKey, std::move(answer));
}

api::Result<LoadSummary> Engine::loadWorkspace(const api::JsonValue &workspace)
{
    return recordedLoad([&](const QSqlDatabase &db) {
        return WorkspaceLoader::load(db, m_database.dialect(), workspace, now());
    });
}

api::Result<LoadSummary> Engine::loadWorkspaceFile(const QString &path)
{
    return recordedLoad([&](const QSqlDatabase &db) {
        return WorkspaceLoader::loadFile(db, m_database.dialect(), path, now());
    });
}

api::Result<LoadSummary>
Engine::recordedLoad(const std::function<api::Result<LoadSummary>(const QSqlDatabase &)> &load)
{
    auto db = m_database.connection();
    if (!db)
        return db.error();
    WriteTransaction transaction(db.value(), m_database.dialect());
    if (auto begun = transaction.begin(); !begun)
        return begun.error();
    // A load brings whole organizations (it refuses one that exists): each
    // new one gets an entry in both its environments, by the person loading.
    auto newest = runSql(db.value(), u"SELECT COALESCE(MAX(pk), 0) FROM organizations"_s);
    if (!newest || !newest.value().next())
        return newest ? ApiError::internal(u"reading organizations failed"_s) : newest.error();
    const qint64 before = newest.value().value(0).toLongLong();
    auto loaded = load(db.value());
    if (!loaded)
        return loaded;
    // Read whole before writing: on PostgreSQL a statement run while another
    // is still being read drops that one's remaining rows.
    auto orgs = queryRows(db.value(), u"SELECT pk, id FROM organizations WHERE pk > ?"_s, {before});
    if (!orgs)
        return orgs.error();
    const api::JsonValue summary =
        api::JsonValue::object({{"organizations"_L1, qint64(loaded.value().organizations)},
                                {"customers"_L1, qint64(loaded.value().customers)},
                                {"balances"_L1, qint64(loaded.value().balances)},
                                {"api_keys"_L1, qint64(loaded.value().apiKeys)}});
    for (const QVariantList &org : std::as_const(orgs.value())) {
        for (Environment env : {Environment::Sandbox, Environment::Production}) {
            if (auto recorded =
                    AuditTrail::record(db.value(), m_database.dialect(),
                                       {org.at(0).toLongLong(), env}, AuditTrail::consoleUser(),
                                       {u"workspace.load"_s, u"organization"_s,
                                        org.at(1).toString(), api::JsonValue::null(), summary},
                                       m_clock());
                !recorded)
                return recorded.error();
        }
    }
    if (auto committed = transaction.commit(); !committed)
        return committed.error();
    // PostgreSQL plans by its statistics, and autovacuum would gather them
    // only later: until then a fresh organization's per-call statements may
    // walk it (tst_queryplans). Best effort: the load itself is done.
    if (m_database.dialect() == Dialect::Postgres)
        (void)runSql(db.value(), u"ANALYZE"_s);
    // A file from last month arrives as it was then: what fell due since is
    // applied now, so the workspace is current before anyone reads it.
    if (auto current = m_sweep->bringUpToDate({}, m_clock(), u"clock"_s, false); !current)
        return current.error();
    return loaded;
}

api::Result<api::JsonValue> Engine::dumpWorkspace()
{
    auto db = m_database.connection();
    if (!db)
        return db.error();
    return WorkspaceDumper::dump(db.value());
}

api::Result<bool> Engine::isEmpty()
{
    auto db = m_database.connection();
    if (!db)
        return db.error();
    auto query = runSql(db.value(), u"SELECT 1 FROM organizations LIMIT 1"_s);
    if (!query)
        return query.error();
    return !query.value().next();
}

api::Result<QList<OrganizationRow>> Engine::organizations()
{
    auto db = m_database.connection();
    if (!db)
        return db.error();
    auto query = runSql(
        db.value(), u"SELECT pk, id, slug, name, master_org_pk FROM organizations ORDER BY pk"_s);
    if (!query)
        return query.error();
    QList<OrganizationRow> list;
    while (query.value().next()) {
        const QSqlQuery &q = query.value();
        list.append({q.value(0).toLongLong(), q.value(1).toString(), q.value(2).toString(),
                     q.value(3).toString(), !q.value(4).isNull()});
    }
    return list;
}

api::Result<KeyContext> Engine::operatorKey(const QString &orgSlug, Environment env)
{
    auto orgs = organizations();
    if (!orgs)
        return orgs.error();
    for (const OrganizationRow &org : std::as_const(orgs.value()))
        if (org.slug == orgSlug)
            return KeyContext{{org.pk, env, 0}, org.id, org.slug, {u"*"_s}, org.name, {}, {}, {}};
    return ApiError::notFound(api::ErrorCode::NotFound,
                              u"organization \"%1\" does not exist"_s.arg(orgSlug));
}

api::Result<NewApiKey> Engine::createKey(const QString &orgSlug, Environment env,
                                         const QStringList &scopes, const QString &name)
{
    for (const QString &scope : scopes)
        if (!ApiKeys::knownScopes().contains(scope))
            return ApiError::invalidRequest(u"unknown scope \"%1\"; known scopes: %2"_s.arg(
                scope, ApiKeys::knownScopes().join(u", "_s)));
    auto key = operatorKey(orgSlug, env);
    if (!key)
        return key.error();
    auto db = m_database.connection();
    if (!db)
        return db.error();
    WriteTransaction transaction(db.value(), m_database.dialect());
    if (auto begun = transaction.begin(); !begun)
        return begun.error();
    auto created = ApiKeyStore(db.value(), m_database.dialect(), key.value().scope, m_clock())
                       .create({name, scopes, std::nullopt});
    if (!created)
        return created.error();
    if (auto recorded = AuditTrail::record(
            db.value(), m_database.dialect(), key.value().scope, AuditTrail::consoleUser(),
            {u"api_key.create"_s, u"api_key"_s, created.value().id, api::JsonValue::null(),
             ApiKeys::described(created.value())},
            m_clock());
        !recorded)
        return recorded.error();
    if (auto committed = transaction.commit(); !committed)
        return committed.error();
    const QString secret = created.value().secret.value_or(QString());
    return NewApiKey{secret, ApiKeys::prefixOf(secret), ApiKeys::hashOf(secret)};
}

api::Result<KeyContext> Engine::authenticate(const QString &secret)
{
    const auto refused = [](const QString &why) {
        return ApiError{401, api::ErrorCode::Unauthorized, why};
    };
    const ApiError unauthorized =
        refused(u"send a valid secret key as \"Authorization: Bearer sk_test_…\" or sk_live_…"_s);
    const auto env = ApiKeys::environmentOf(secret);
    if (!env)
        return unauthorized;
    const QString hash = ApiKeys::hashOf(secret);
    const qint64 now = m_clock();
    {
        // Keys found in the last second are not looked up again (see
        // KeyCacheLifetime); one that expires meanwhile is refused below.
        const QMutexLocker lock(&m_keyCacheMutex);
        if (const auto cached = m_keyCache.constFind(hash);
            cached != m_keyCache.cend() && !cached->expiry.hasExpired() && now < cached->validUntil)
            return cached->context;
    }
    // A revoke committed while this lookup runs clears the cache meanwhile
    // (forgetKeys): what this lookup read must not be remembered then.
    const quint64 generation = m_keyGeneration.load();
    auto db = m_database.connection();
    if (!db)
        return db.error();
    auto found = ApiKeyStore::find(db.value(), hash);
    if (!found)
        return found.error();
    if (!found.value() || found.value()->env != *env)
        return unauthorized;
    const StoredKey &key = *found.value();
    // Not compared with now: a server whose clock is behind the revoking
    // one's must refuse the key all the same.
    if (key.revokedAt)
        return refused(u"this key was revoked; ask an admin for a new one"_s);
    if (key.expiresAt && *key.expiresAt <= now)
        return refused(u"this key has expired; ask an admin for a new one"_s);
    if (key.byPreviousSecret && *key.previousUntil <= now)
        return refused(
            u"this key was rolled and its old secret no longer works; use the new one"_s);
    touchKey(key, now);
    const KeyContext context{Scope{key.orgPk, *env, key.keyPk},
                             key.orgId,
                             key.orgSlug,
                             key.scopes,
                             key.orgName,
                             key.name,
                             key.expiresAt,
                             PublicIds::idOf(db.value(), PublicIds::Kind::ApiKey, key.keyPk)};
    const qint64 validUntil =
        std::min(key.expiresAt.value_or(std::numeric_limits<qint64>::max()),
                 key.previousUntil.value_or(std::numeric_limits<qint64>::max()));
    const QMutexLocker lock(&m_keyCacheMutex);
    if (m_keyGeneration.load() != generation)
        return context;
    if (m_keyCache.size() > 10000)
        m_keyCache.clear(); // many keys in a short time: start again rather than grow
    m_keyCache.insert(hash, {context, QDeadlineTimer(KeyCacheLifetime), validUntil});
    return context;
}

void Engine::forgetKeys()
{
    const QMutexLocker lock(&m_keyCacheMutex);
    ++m_keyGeneration;
    m_keyCache.clear();
}

void Engine::touchKey(const StoredKey &key, qint64 now)
{
    const qint64 minute = now - now % ApiKeyStore::LastUsedGrainMs;
    if (key.lastUsedAt && *key.lastUsedAt >= minute)
        return;
    // Best effort, and never in the request's way: on the writer's thread,
    // unwaited (on SQLite another connection's commit would also drop the
    // writer's cache; on PostgreSQL a roll holding the row would hold the
    // request).
    const qint64 keyPk = key.keyPk;
    m_writer->post(
        [this, keyPk, minute] {
            // A failed write loses one minute's mark, which the next use writes.
            (void)withConnection(
                [&](const QSqlDatabase &db) { return ApiKeyStore::touch(db, keyPk, minute); });
        },
        TrackWriter::Touches::NoUsage);
}

} // namespace md::engine

namespace md::engine {

void Engine::setPortalBase(const QUrl &base)
{
    QMutexLocker lock(&m_portalMutex);
    m_portalBase = base;
}

QUrl Engine::portalBase() const
{
    QMutexLocker lock(&m_portalMutex);
    return m_portalBase;
}

PortalPage::Answer Engine::portalPage(const QString &token)
{
    auto db = m_database.connection();
    if (!db)
        return {500, QByteArray()};
    // A link lives in real time; what the page shows is brought up to date
    // at the environment's now first (the billing clock). A bad link is
    // the page's to refuse.
    const auto link = PortalLinks::verify(db.value(), m_database.dialect(), token, m_clock());
    qint64 shownAt = m_clock();
    if (link) {
        Scope clock = link.value().scope;
        clock.keyPk = 0;
        shownAt = now(link.value().scope);
        if (!m_sweep->bringUpToDate({clock, {}, link.value().customerId, {}, {}}, shownAt,
                                    u"clock"_s, true))
            return {500, QByteArray()};
    }
    return PortalPage::render(db.value(), link, shownAt);
}

} // namespace md::engine
