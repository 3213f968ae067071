// The one error value every layer passes on: HTTP status, wire code and a
// sentence that names what to fix (docs/api.md, "Errors").
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

    // The `{message, code}` body.
    QByteArray toJsonText() const;
    // Decodes a `{message, code}` body; the code is empty when the shape is wrong.
    static ApiError fromJsonText(int status, QByteArrayView body);

    friend bool operator==(const ApiError &, const ApiError &) = default;
};

} // namespace md::api
