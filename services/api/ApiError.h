// The one error value every layer passes on: HTTP status, wire code and a
// sentence that names what to fix (docs/api.md, "Errors"). Its body on the
// wire is ErrorBody's, so that JSON, which reports its own errors as an
// ApiError, is not needed to say one. The engine and the server make one
// from an ErrorCode only (ErrorCode.h): no word goes out unlisted.
#pragma once

#include "services/api/ErrorCode.h"

#include <QByteArray>
#include <QString>

namespace md::api {

struct ApiError
{
    int status = 500;
    QString code;
    QString message;

    ApiError() = default;
    ApiError(int status, ErrorCode code, QString message);

    static ApiError invalidInputs(const QString &path, const QString &problem);
    static ApiError invalidRequest(const QString &message);
    static ApiError invalidCursor(const QString &message);
    static ApiError notFound(ErrorCode code, const QString &message);
    static ApiError internal(const QString &message);
    // Status 0: something failed on this machine (a file, the network), not
    // an answer from a server.
    static ApiError local(const QString &code, const QString &message);
    // What another server said, as it said it, or the console's word on an
    // answer it could not read.
    static ApiError received(int status, const QString &code, const QString &message);
    // 501: an operation this Meterdesk does not implement yet.
    static ApiError notImplemented(const QString &operation);

    friend bool operator==(const ApiError &, const ApiError &) = default;
};

} // namespace md::api
