#include "services/server/HealthChecks.h"

#include "services/api/JsonWriter.h"
#include "services/engine/Migrator.h"
#include "services/engine/sql/Sql.h"
#include "services/server/ApiAnswers.h"

#include <QElapsedTimer>

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
    http::HttpResponse response = jsonAnswer(code, writer.take());
    return response;
}

} // namespace

http::HttpResponse HealthChecks::live()
{
    return status(200, u"ok"_s, std::nullopt);
}

http::HttpResponse HealthChecks::ready(engine::Engine &engine)
{
    QElapsedTimer timer;
    timer.start();
    auto version = engine.withConnection([](const QSqlDatabase &db) {
        return engine::queryRows(db, u"SELECT COALESCE(MAX(version), 0) FROM schema_version"_s, {});
    });
    // The database's own words may name hosts and users: the server's log
    // has them (a failed statement is logged); the answer only says what.
    if (!version)
        return status(503, u"unavailable"_s, u"the database does not answer"_s);
    if (timer.elapsed() > DatabaseAnswerMs)
        return status(503, u"unavailable"_s,
                      u"the database took %1 ms to answer (more than %2)"_s.arg(timer.elapsed())
                          .arg(DatabaseAnswerMs));
    const qint64 schema = version.value().value(0).value(0).toLongLong();
    if (schema != engine::Migrator::latestVersion())
        return status(503, u"unavailable"_s,
                      u"the database's schema is version %1, this server's %2"_s.arg(schema).arg(
                          engine::Migrator::latestVersion()));
    const auto [backlog, limit] = engine.trackQueue().backlog();
    if (backlog >= limit)
        return status(
            503, u"unavailable"_s,
            u"%1 async calls wait to be applied, the most this server takes"_s.arg(backlog));
    return status(200, u"ready"_s, std::nullopt);
}

} // namespace md::server
