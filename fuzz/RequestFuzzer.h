// What every request decoder's fuzz target checks. Any body either decodes or
// is refused with 400 invalid_inputs, never anything worse; and a request that
// decodes survives the trip the console makes with it (written, sent, decoded
// again by the server) unchanged.
#pragma once

#include "services/api/WireCodec.h"

#include <cstddef>
#include <cstdint>

namespace md::fuzz {

template <typename T> int decodeRequest(const uint8_t *data, size_t size)
{
    using namespace Qt::StringLiterals;
    // The server reads an empty body as {} (ApiServer::dispatch).
    const QByteArray body =
        size == 0 ? QByteArray("{}")
                  : QByteArray::fromRawData(reinterpret_cast<const char *>(data), qsizetype(size));
    const api::Result<T> decoded = api::decodeBody<T>(body);
    if (!decoded) {
        if (decoded.error().status != 400 || decoded.error().code != "invalid_inputs"_L1)
            qFatal("refused with %d %s: %s", decoded.error().status,
                   qPrintable(decoded.error().code), qPrintable(decoded.error().message));
        return 0;
    }
    const QByteArray sent = api::toJsonText(decoded.value());
    const api::Result<T> again = api::decodeBody<T>(sent);
    if (!again)
        qFatal("the re-encoded request is refused: %s\n%s", qPrintable(again.error().message),
               sent.constData());
    if (!(again.value() == decoded.value()))
        qFatal("the re-encoded request decodes to another value:\n%s", sent.constData());
    return 0;
}

} // namespace md::fuzz
