// usage.batch (docs/api.md, "usage.batch"): up to 1,000 track_tokens and
// balances.track calls in one request, each answered on its own at its
// index. An event that does not read is refused at its index, not the
// request: only a body that is no list of 1 to 1,000 objects is a 400.
#pragma once

#include "services/api/TrackUsage.h"

#include <variant>

namespace md::api {

struct UsageBatchEvent
{
    // `"kind": "tokens"` is a track_tokens call, `"feature"` a balances.track
    // call; both as the pipeline carries them (TrackTokensRequest::value).
    TrackTokensRequest call;
    std::optional<QString> idempotencyKey; // as the Idempotency-Key header

    // One event on a reader of its own, so its first problem is its own and
    // its paths read from the event (`customer_id`).
    static Result<UsageBatchEvent> read(const JsonValue &event);
    friend bool operator==(const UsageBatchEvent &, const UsageBatchEvent &) = default;
};

struct UsageBatchRequest
{
    static constexpr qsizetype MaxEvents = 1000;
    // A dry run writes nothing, so it may plan more at once: a customer's
    // whole backfill, in order (docs/api.md, "usage.batch").
    static constexpr qsizetype MaxDryRunEvents = 10000;
    // Each event, or why it does not read (400 at its index).
    QList<Result<UsageBatchEvent>> events;
    bool async = false;
    // Every event planned in order as if applied, nothing written; each
    // answered as it would be (the backfill wizard's preview).
    bool dryRun = false;

    static UsageBatchRequest read(const JsonReader &reader);
    // Events that read; a refused one is written as it is not sent.
    void write(JsonWriter &writer) const;
};

// One event's answer: its status, and its body (200), or its error.
struct UsageBatchResult
{
    int status = 200; // 200 applied, 202 accepted (async), else the error's
    std::optional<TrackTokensResponse> body;
    std::optional<ApiError> error;
    // A dry run's first 200 answer for each balance (a customer's or an
    // entity's feature): that balance before the event, with no rows when
    // none is held. Summaries leave rollovers out, so what events drew from
    // them is their deductions less the rise in `usage` (docs/api.md,
    // "usage.batch").
    std::optional<BalanceSummary> balanceBefore;

    static UsageBatchResult of(const Result<TrackTokensResponse> &answer);
    static UsageBatchResult read(const JsonReader &reader);
    void write(JsonWriter &writer) const;
    friend bool operator==(const UsageBatchResult &, const UsageBatchResult &) = default;
};

struct UsageBatchResponse
{
    QList<UsageBatchResult> results; // one per event, in the request's order

    static UsageBatchResponse read(const JsonReader &reader);
    void write(JsonWriter &writer) const;
    friend bool operator==(const UsageBatchResponse &, const UsageBatchResponse &) = default;
};

} // namespace md::api
