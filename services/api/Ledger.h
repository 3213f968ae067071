// ledger.list (docs/ledger.md, docs/api.md "ledger.list"): every change of a
// customer's balances, newest first, each with its cause and what the
// balance held after it, answered as a Page<LedgerEntry>. Documented in
// docs/openapi.yaml under /v1/meterdesk.
#pragma once

#include "services/api/Decimal.h"
#include "services/api/WireCodec.h"

#include <QString>

#include <optional>

namespace md::api {

struct LedgerRequest
{
    QString customerId;
    std::optional<QString> featureId;
    qint64 limit = 50;
    QString startCursor;

    static LedgerRequest read(const JsonReader &reader);
    void write(JsonWriter &writer) const;
    friend bool operator==(const LedgerRequest &, const LedgerRequest &) = default;
};

// Where a change came from.
struct LedgerSource
{
    QString route;                  // "balances.track_tokens", "customers.import", "workspace.load"
    std::optional<QString> keyId;   // "key_<n>"; null for the console and the command line
    std::optional<QString> eventId; // "event_<n>" for usage

    friend bool operator==(const LedgerSource &, const LedgerSource &) = default;
};

struct LedgerEntry
{
    QString id; // "ledger_<n>"
    qint64 at = 0;
    QString kind; // usage, grant, reset, rollover, expiry, import, adjustment
    QString customerId;
    QString featureId;
    QString balanceId;
    Decimal amount;       // signed change of what the balance holds (remaining + rollovers)
    Decimal balanceAfter; // what it holds after the change
    Decimal usage;        // signed change of its usage counter
    LedgerSource source;

    static LedgerEntry read(const JsonReader &reader);
    void write(JsonWriter &writer) const;
    friend bool operator==(const LedgerEntry &, const LedgerEntry &) = default;
};

} // namespace md::api
