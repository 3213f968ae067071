// An error's body on the wire, `{"message": …, "code": …}` (docs/api.md,
// "Errors"): written by the server, read by the remote backend.
#pragma once

#include "services/api/ApiError.h"

#include <QByteArray>
#include <QByteArrayView>

namespace md::api {

class ErrorBody final
{
public:
    static QByteArray of(const ApiError &error);
    // The code is empty when the body is not of that shape.
    static ApiError read(int status, QByteArrayView body);
};

} // namespace md::api
