#include "services/server/ApiAnswers.h"

#include "services/api/ErrorBody.h"
#include <QRandomGenerator>

namespace md::server {

using namespace Qt::StringLiterals;
using api::ApiError;

http::HttpResponse jsonAnswer(int status, QByteArray body)
{
    return {status, "application/json", std::move(body), {}, false};
}

http::HttpResponse errorAnswer(const ApiError &error)
{
    if (error.status == 503) { // busy or stopping: worth trying again soon
        http::HttpResponse answer = jsonAnswer(503, api::ErrorBody::of(error));
        answer.headers.append({QByteArrayLiteral("Retry-After"), QByteArrayLiteral("1")});
        return answer;
    }
    if (error.status != 500)
        return jsonAnswer(error.status, api::ErrorBody::of(error));
    // An internal error's words (the database's, say) name tables and values:
    // they go to the log under a reference, and the caller gets the reference.
    const QString reference = QString::number(QRandomGenerator::global()->generate(), 16);
    qWarning("internal error %s: %s", qPrintable(reference), qPrintable(error.message));
    ApiError shown = error;
    shown.status = 500;
    shown.message =
        u"internal error (reference %1); the server's log has the details"_s.arg(reference);
    return jsonAnswer(500, api::ErrorBody::of(shown));
}

http::HttpResponse methodNotAllowed(const QByteArray &path, const QByteArray &allowed)
{
    http::HttpResponse answer = errorAnswer(
        {405, api::ErrorCode::MethodNotAllowed,
         allowed == "POST"
             ? u"%1 takes POST with a JSON body"_s.arg(QString::fromUtf8(path.left(200)))
             : u"%1 takes %2"_s.arg(QString::fromUtf8(path.left(200)),
                                    QString::fromLatin1(allowed))});
    answer.headers.append({"Allow", allowed});
    return answer;
}

ApiError shuttingDown()
{
    return {503, api::ErrorCode::ShuttingDown,
            u"this server is shutting down; send the request again"_s};
}

ApiError sandboxOnly()
{
    return {403, api::ErrorCode::SandboxOnly,
            u"only a sandbox's clock can be moved; use a sandbox key"_s};
}

} // namespace md::server
