// The embedded billing engine's state and threads: one database and its
// migrations, the key cache, the price catalogue in use, the track_tokens
// writer and queue. Thread-safe: every call uses the calling thread's
// connection. What a route does is ApiOperations' (docs/architecture.md).
#pragma once

#include "services/api/Result.h"
#include "services/api/TrackTokens.h"
#include "services/engine/ClockSweep.h"
#include "services/engine/KeyContext.h"
#include "services/engine/access/ApiKeyStore.h"
#include "services/engine/access/PortalPage.h"
#include "services/engine/pricing/PriceCatalogue.h"
#include "services/engine/processors/StripeClient.h"
#include "services/engine/sql/Database.h"
#include "services/engine/sql/Scope.h"
#include "services/engine/sql/StopCheck.h"
#include "services/engine/track/TrackQueue.h"
#include "services/engine/track/TrackWriter.h"
#include "services/engine/webhooks/WebhookUrlRule.h"
#include "services/engine/workspace/LoadSummary.h"

#include <QDeadlineTimer>
#include <QStringList>
#include <QUrl>

#include <atomic>
#include <functional>
#include <future>
#include <memory>

namespace md::engine {

using Clock = std::function<qint64()>;

class OpenRevenue;

struct OrganizationRow
{
    qint64 pk = 0;
    QString id;
    QString slug;
    QString name;
    bool isTenant = false;
};

class Engine final
{
public:
    explicit Engine(QString location, Clock clock = {});
    // Stops the sweep and the writer first: they use the rest.
    ~Engine();
    Q_DISABLE_COPY_MOVE(Engine)

    // Opens the database and brings its schema up to date.
    api::Result<api::Done> open();
    Database &database() { return m_database; }
    // The real now; a scope's now is its sandbox's when that was moved on.
    qint64 now() const { return m_clock(); }
    qint64 now(const Scope &scope);
    SandboxClock &sandboxClock() { return m_sandboxClock; }
    // The billing clock's sweep, every `every` from now on (a server and the
    // console start it; tests that want no background writes do not).
    void startClock(std::chrono::milliseconds every = std::chrono::seconds(1));
    ClockSweep &clockSweep() { return *m_sweep; }
    // Where the organizations' processor is read (docs/processors.md).
    void setStripeBase(const QUrl &base);
    StripeClient::Options stripeOptions() const;
    // What the open periods owe so far, kept for revenue.summary.
    OpenRevenue &openRevenue() { return *m_openRevenue; }
    // Where portal links point: the server's public base URL, or the
    // console's local portal server once it runs. Empty: no portal here.
    void setPortalBase(const QUrl &base);
    QUrl portalBase() const;
    // The page a portal link shows (status and HTML).
    PortalPage::Answer portalPage(const QString &token);
    Dialect dialect() const { return m_database.dialect(); }
    // Where webhook endpoints may point (meterdesk-server's --webhooks-allow-*
    // flags); set before serving.
    void setWebhookPolicy(const WebhookPolicy &policy) { m_webhookPolicy = policy; }
    const WebhookPolicy &webhookPolicy() const { return m_webhookPolicy; }

    api::Result<api::TrackTokensResponse> trackTokens(const Scope &scope,
                                                      const api::TrackTokensRequest &request,
                                                      const std::optional<QString> &idempotencyKey);
    // The same, answered through `answer` (once; maybe on another thread)
    // rather than waited for: a synchronous call is group-committed by the
    // writer thread (TrackWriter) and the calling thread goes on meanwhile.
    void trackTokens(const Scope &scope, const api::TrackTokensRequest &request,
                     const std::optional<QString> &idempotencyKey, TrackWriter::Answer answer);

    // The async flag: stored now, applied by the queue's worker (see TrackQueue).
    TrackQueue &trackQueue() { return *m_queue; }
    // The track_tokens writer's thread, started now (TrackWriter::start).
    void startTrackWriter() { m_writer->start(); }
    // The writer itself: usage.batch hands it many calls at once.
    TrackWriter &trackWriter() { return *m_writer; }
    // The writer's batches so far (/metrics).
    TrackWriter::BatchSizes trackBatchSizes() const { return m_writer->batchSizes(); }

    // The model prices in use: the bundled snapshot unless another was set.
    // Both may be called from any thread, also while calls are priced.
    void setCatalogue(std::shared_ptr<const PriceCatalogue> catalogue);
    std::shared_ptr<const PriceCatalogue> catalogue() const;

    // Runs `f(QSqlDatabase)` on the calling thread's connection; `f` returns a Result.
    template <typename F>
    auto withConnection(F &&f) -> decltype(f(std::declval<const QSqlDatabase &>()))
    {
        auto db = m_database.connection();
        if (!db)
            return db.error();
        return f(db.value());
    }

    // Runs `f(QSqlDatabase)`, which must write no balance, usage or control,
    // where its writes cost the usage path nothing: on SQLite on the track
    // writer's thread and connection, between batches (another connection's
    // commit would drop the writer's cache, TrackCache), waiting for it; on
    // PostgreSQL on the calling thread's.
    template <typename F>
    auto withWriterConnection(F &&f) -> decltype(f(std::declval<const QSqlDatabase &>()))
    {
        if (dialect() != Dialect::Sqlite)
            return withConnection(std::forward<F>(f));
        std::promise<decltype(f(std::declval<const QSqlDatabase &>()))> done;
        m_writer->post([&] { done.set_value(withConnection(f)); }, TrackWriter::Touches::NoUsage);
        return done.get_future().get();
    }

    // A load is recorded in the audit log of each organization it brings.
    api::Result<LoadSummary> loadWorkspace(const api::JsonValue &workspace);
    api::Result<LoadSummary> loadWorkspaceFile(const QString &path);
    api::Result<api::JsonValue> dumpWorkspace();
    // True when no organization exists yet (a fresh database).
    api::Result<bool> isEmpty();
    api::Result<QList<OrganizationRow>> organizations();

    // The operator on the command line acting for an organization's
    // environment: every scope, no key (the audit log names the OS user).
    api::Result<KeyContext> operatorKey(const QString &orgSlug, Environment env);
    api::Result<NewApiKey> createKey(const QString &orgSlug, Environment env,
                                     const QStringList &scopes, const QString &name);
    // 401 unauthorized for a missing, malformed, unknown, revoked or expired
    // key, or a rolled key's old secret after its overlap. A key found is
    // remembered (by its hash) for KeyCacheLifetime, sparing a database read
    // on every request, so a key revoked on another server is refused here
    // within that; unknown keys are always looked up. Records the minute of
    // use (last_used_at) at most once a minute.
    api::Result<KeyContext> authenticate(const QString &secret);
    static constexpr std::chrono::seconds KeyCacheLifetime{1};
    // Drops the remembered keys: a key changed here is refused at once.
    void forgetKeys();

private:
    qint64 ahead(const Scope &scope);
    void touchKey(const StoredKey &key, qint64 now);
    api::Result<LoadSummary>
    recordedLoad(const std::function<api::Result<LoadSummary>(const QSqlDatabase &)> &load);
    Database m_database;
    Clock m_clock;
    SandboxClock m_sandboxClock;
    struct CachedKey
    {
        KeyContext context;
        QDeadlineTimer expiry;
        qint64 validUntil = 0; // the key's expiry, or its old secret's end
    };
    QMutex m_keyCacheMutex;
    QHash<QString, CachedKey> m_keyCache;    // by key hash; no secret is kept
    std::atomic<quint64> m_keyGeneration{0}; // moved by forgetKeys()
    mutable QMutex m_catalogueMutex;
    std::shared_ptr<const PriceCatalogue> m_catalogue;
    mutable QMutex m_stripeMutex;
    StripeClient::Options m_stripe;
    mutable QMutex m_portalMutex;
    QUrl m_portalBase;
    WebhookPolicy m_webhookPolicy;
    std::unique_ptr<TrackQueue> m_queue;   // after the database: stopped before it closes
    std::unique_ptr<TrackWriter> m_writer; // likewise
    std::unique_ptr<ClockSweep> m_sweep;
    std::unique_ptr<OpenRevenue> m_openRevenue;
};

} // namespace md::engine
