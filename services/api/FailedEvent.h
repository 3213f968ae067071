// Asynchronous track_tokens calls that were accepted (204) and then could not
// be applied (a limit used up by calls applied in between, say): kept with their
// reason and original body, listed, retried or discarded through the
// /v1/meterdesk/track_queue.* routes (docs/api.md, "Failed events").
#pragma once

#include "services/api/WireCodec.h"

#include <QStringList>

namespace md::api {

struct FailedEvent
{
    QString id; // "tq_<n>"
    QString customerId;
    QString modelId;
    std::optional<QString> featureId;
    std::optional<QString> idempotencyKey;
    JsonValue request; // the call as accepted (its timestamp filled in)
    ApiError error;    // why it could not be applied, as a synchronous call would have heard
    qint64 receivedAt = 0;
    qint64 failedAt = 0;

    static FailedEvent read(const JsonReader &reader);
    void write(JsonWriter &writer) const;
    friend bool operator==(const FailedEvent &, const FailedEvent &) = default;
};

// `{ ids: [...] }` of track_queue.retry and track_queue.discard: 1 to 200 ids.
struct FailedEventIds
{
    static constexpr qsizetype MaxIds = 200;
    QStringList ids;

    static FailedEventIds read(const JsonReader &reader);
    void write(JsonWriter &writer) const;
    friend bool operator==(const FailedEventIds &, const FailedEventIds &) = default;
};

// The answer of both: which ids were acted on, and which are not (or no
// longer) failed events of this key's environment.
struct FailedEventOutcome
{
    QStringList done;
    QStringList notFound;

    static FailedEventOutcome read(const JsonReader &reader);
    void write(JsonWriter &writer) const;
    friend bool operator==(const FailedEventOutcome &, const FailedEventOutcome &) = default;
};

// Calls stored and not yet applied, and calls that failed (in /v1/meterdesk/about).
struct QueueCounts
{
    qint64 pending = 0;
    qint64 failed = 0;

    static QueueCounts read(const JsonReader &reader);
    void write(JsonWriter &writer) const;
    friend bool operator==(const QueueCounts &, const QueueCounts &) = default;
};

} // namespace md::api
