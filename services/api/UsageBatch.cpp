#include "services/api/UsageBatch.h"

#include "services/api/ErrorBody.h"
#include "services/api/Identifier.h"
#include "services/api/WireCodec.h"

namespace md::api {

namespace {

using namespace Qt::StringLiterals;

enum class Kind { Tokens, Feature };

constexpr std::pair<QLatin1StringView, Kind> KindWords[] = {
    {"tokens"_L1, Kind::Tokens},
    {"feature"_L1, Kind::Feature},
};

} // namespace

Result<UsageBatchEvent> UsageBatchEvent::read(const JsonValue &item)
{
    const JsonReader reader(item);
    reader.object();
    const Kind kind = reader.field("kind"_L1).word(KindWords);
    if (!reader.ok())
        return *reader.error();
    UsageBatchEvent event;
    event.call = kind == Kind::Tokens ? TrackTokensRequest::read(reader)
                                      : TrackRequest::read(reader).asCall();
    if (event.call.async) // the batch is async or not as a whole
        reader.field("async"_L1).fail(u"set async on the batch, not on an event"_s);
    const JsonReader key = reader.field("idempotency_key"_L1);
    if (!key.isMissing()) {
        const QString text = key.string();
        if (reader.ok())
            if (const auto problem = idempotencyKeyProblem(text.toUtf8()))
                key.fail(*problem);
        event.idempotencyKey = text;
    }
    if (!reader.ok())
        return *reader.error();
    return event;
}

UsageBatchRequest UsageBatchRequest::read(const JsonReader &reader)
{
    reader.object();
    UsageBatchRequest request;
    request.dryRun = reader.field("dry_run"_L1).optBoolean().value_or(false);
    const qsizetype most = request.dryRun ? MaxDryRunEvents : MaxEvents;
    const JsonReader events = reader.field("events"_L1);
    const QList<JsonReader> items = events.array();
    if (reader.ok() && (items.isEmpty() || items.size() > most))
        events.fail(u"must hold 1 to %1 events, got %2"_s.arg(most).arg(items.size()));
    request.async = reader.field("async"_L1).optBoolean().value_or(false);
    if (reader.ok() && request.async && request.dryRun)
        reader.field("async"_L1).fail(u"a dry run writes nothing, so it is never async"_s);
    if (!reader.ok())
        return request;
    request.events.reserve(items.size());
    for (const JsonReader &item : items)
        request.events.append(UsageBatchEvent::read(item.raw()));
    return request;
}

void UsageBatchRequest::write(JsonWriter &writer) const
{
    writer.beginObject().field("async"_L1, async);
    if (dryRun)
        writer.field("dry_run"_L1, true);
    writer.key("events"_L1).beginArray();
    for (const Result<UsageBatchEvent> &event : events) {
        if (!event)
            continue;
        const UsageBatchEvent &e = event.value();
        writer.beginObject().field("kind"_L1, e.call.value ? "feature"_L1 : "tokens"_L1);
        if (e.idempotencyKey)
            writer.field("idempotency_key"_L1, *e.idempotencyKey);
        if (e.call.value)
            TrackRequest::fromCall(e.call).writeFields(writer);
        else
            e.call.writeFields(writer);
        writer.endObject();
    }
    writer.endArray().endObject();
}

UsageBatchResult UsageBatchResult::of(const Result<TrackTokensResponse> &answer)
{
    UsageBatchResult result;
    if (!answer) {
        result.status = answer.error().status;
        result.error = answer.error();
    } else if (answer.value().queued) {
        result.status = 202;
    } else {
        result.body = answer.value();
    }
    return result;
}

UsageBatchResult UsageBatchResult::read(const JsonReader &reader)
{
    reader.object();
    UsageBatchResult result;
    result.status = int(reader.field("status"_L1).integer(100, 599));
    const JsonReader body = reader.field("body"_L1);
    if (!body.isMissing())
        result.body = TrackTokensResponse::read(body);
    const JsonReader error = reader.field("error"_L1);
    if (!error.isMissing()) {
        error.object();
        result.error = ApiError::received(result.status, error.field("code"_L1).string(),
                                          error.field("message"_L1).string());
    }
    const JsonReader before = reader.field("balance_before"_L1);
    if (!before.isMissing())
        result.balanceBefore = BalanceSummary::read(before);
    return result;
}

void UsageBatchResult::write(JsonWriter &writer) const
{
    writer.beginObject().field("status"_L1, qint64(status));
    if (body) {
        writer.key("body"_L1);
        body->write(writer);
    }
    if (error)
        writer.key("error"_L1)
            .beginObject()
            .field("code"_L1, error->code)
            .field("message"_L1, error->message)
            .endObject();
    if (balanceBefore) {
        writer.key("balance_before"_L1);
        balanceBefore->write(writer);
    }
    writer.endObject();
}

UsageBatchResponse UsageBatchResponse::read(const JsonReader &reader)
{
    reader.object();
    UsageBatchResponse response;
    response.results = readList<UsageBatchResult>(reader.field("results"_L1));
    return response;
}

void UsageBatchResponse::write(JsonWriter &writer) const
{
    writer.beginObject().key("results"_L1);
    writeList(writer, results);
    writer.endObject();
}

} // namespace md::api
