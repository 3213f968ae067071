#include "services/server/HealthChecks.h"

#include "services/api/JsonWriter.h"
#include "services/engine/Migrator.h"
#include "services/engine/sql/Sql.h"
#include "services/server/ApiAnswers.h"

#include <atomic>

namespace md::server {

using namespace Qt::StringLiterals;

namespace {

http::HttpResponse status(int code, const QString &word, const std::optional<QString> &reason)
{
    api::JsonWriter writer;
    writer.beginObject().field("status"_L1, word);
    if (reason)
        writer.field("reason"_L1, *reason);
    writer.endObject();
    return jsonAnswer(code, writer.take());
}

} // namespace

HealthChecks::HealthChecks(engine::Engine &engine, After after)
    : m_engine(engine)
    , m_after(std::move(after))
    , m_prober([this] { probeLoop(); })
{}

HealthChecks::~HealthChecks()
{
    stop();
}

void HealthChecks::stop()
{
    {
        const std::lock_guard lock(m_mutex);
        m_stopping = true;
    }
    m_wake.notify_one();
    if (m_prober.joinable())
        m_prober.join();
}

http::HttpResponse HealthChecks::live()
{
    return status(200, u"ok"_s, std::nullopt);
}

void HealthChecks::ready(const http::HttpResponder &responder)
{
    // The probe and the deadline both answer; only the first is sent, so the
    // request log and the metrics see one answer.
    const auto answered = std::make_shared<std::atomic_bool>(false);
    const http::HttpResponder once([answered, responder](http::HttpResponse answer) {
        if (!answered->exchange(true))
            responder.send(std::move(answer));
    });
    m_after(DatabaseAnswer, [once] {
        once.send(
            status(503, u"unavailable"_s,
                   u"the database did not answer within %1 ms"_s.arg(DatabaseAnswer.count())));
    });
    {
        const std::lock_guard lock(m_mutex);
        m_asking.push_back(once);
    }
    m_wake.notify_one();
}

void HealthChecks::probeLoop()
{
    std::unique_lock lock(m_mutex);
    for (;;) {
        m_wake.wait(lock, [this] { return m_stopping || !m_asking.empty(); });
        if (m_stopping)
            return;
        // Who asked before this probe began; later askers wait for the next,
        // so each answer reads the database after its request came.
        const std::vector<http::HttpResponder> asking = std::exchange(m_asking, {});
        lock.unlock();
        const http::HttpResponse answer = probe();
        for (const http::HttpResponder &responder : asking)
            responder.send(answer);
        lock.lock();
    }
}

http::HttpResponse HealthChecks::probe()
{
    auto version = m_engine.withConnection([this](const QSqlDatabase &db) {
        // A statement stuck behind a lock ends on the server's side too, so
        // the probe's thread is free for the next one (and for stop()); a
        // second after the deadline, so that the deadline is what answers
        // (a busy machine may fire its timer late, never a second late).
        if (m_engine.dialect() == engine::Dialect::Postgres) {
            const auto limited =
                engine::runSql(db, u"SET statement_timeout = %1"_s.arg(2 * DatabaseAnswer.count()));
            if (!limited)
                return api::Result<QList<QVariantList>>(limited.error());
        }
        return engine::queryRows(db, u"SELECT COALESCE(MAX(version), 0) FROM schema_version"_s, {});
    });
    // The database's own words may name hosts and users: the server's log
    // has them (a failed statement is logged); the answer only says what.
    if (!version)
        return status(503, u"unavailable"_s, u"the database does not answer"_s);
    const qint64 schema = version.value().value(0).value(0).toLongLong();
    if (schema != engine::Migrator::latestVersion())
        return status(503, u"unavailable"_s,
                      u"the database's schema is version %1, this server's %2"_s.arg(schema).arg(
                          engine::Migrator::latestVersion()));
    const auto [backlog, limit] = m_engine.trackQueue().backlog();
    if (backlog >= limit)
        return status(
            503, u"unavailable"_s,
            u"%1 async calls wait to be applied, the most this server takes"_s.arg(backlog));
    return status(200, u"ready"_s, std::nullopt);
}

} // namespace md::server
