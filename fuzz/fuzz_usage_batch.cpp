// Bodies of /v1/meterdesk/usage.batch. A body is decoded or refused with
// 400 invalid_inputs as a whole; an event that does not read is refused at
// its index with 400 invalid_inputs, never anything worse; and the events
// that read survive the console's trip (written, decoded again) unchanged,
// the refused ones left out.
#include "services/api/UsageBatch.h"
#include "services/api/WireCodec.h"

#include <cstddef>
#include <cstdint>

namespace {

using namespace Qt::StringLiterals;
using md::api::ApiError;

void expectInvalidInputs(const ApiError &error)
{
    if (error.status != 400 || error.code != "invalid_inputs"_L1)
        qFatal("refused with %d %s: %s", error.status, qPrintable(error.code),
               qPrintable(error.message));
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    using namespace md;
    const QByteArray body =
        size == 0 ? QByteArray("{}")
                  : QByteArray::fromRawData(reinterpret_cast<const char *>(data), qsizetype(size));
    const auto decoded = api::decodeBody<api::UsageBatchRequest>(body);
    if (!decoded) {
        expectInvalidInputs(decoded.error());
        return 0;
    }
    QList<api::UsageBatchEvent> read;
    for (const auto &event : decoded.value().events) {
        if (event)
            read.append(event.value());
        else
            expectInvalidInputs(event.error());
    }
    if (read.isEmpty())
        return 0; // nothing a client would send
    const QByteArray sent = api::toJsonText(decoded.value());
    const auto again = api::decodeBody<api::UsageBatchRequest>(sent);
    if (!again)
        qFatal("the re-encoded batch is refused: %s\n%s", qPrintable(again.error().message),
               sent.constData());
    if (again.value().events.size() != read.size() || again.value().async != decoded.value().async)
        qFatal("the re-encoded batch holds other events:\n%s", sent.constData());
    for (qsizetype i = 0; i < read.size(); ++i)
        if (!again.value().events.at(i) || !(again.value().events.at(i).value() == read.at(i)))
            qFatal("event %d decodes to another value:\n%s", int(i), sent.constData());
    return 0;
}
