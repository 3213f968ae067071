// The one error value every layer passes on: HTTP status, wire code and a
// sentence that names what to fix (docs/api.md, "Errors"). Its body on the
// wire is ErrorBody's, so that JSON, which reports its own errors as an
// ApiError, is not needed to say one.
#pragma once

#include <QByteArray>
#include <QString>

namespace md::api {

struct ApiError
{
    int status = 500;
    QString code;
    QString message;

    static ApiError invalidInputs(const QString &path, const QString &problem);
    static ApiError invalidRequest(const QString &message);
    static ApiError invalidCursor(const QString &message);
    static ApiError notFound(const QString &code, const QString &message);
    static ApiError internal(const QString &message);
    // Status 0: something failed on this machine (a file, the network), not
    // an answer from a server.
    static ApiError local(const QString &code, const QString &message);
    // 501: an operation this Meterdesk does not implement yet.
    static ApiError notImplemented(const QString &operation);

    friend bool operator==(const ApiError &, const ApiError &) = default;
};

} // namespace md::api
