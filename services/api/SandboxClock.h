// The sandbox clock's routes (docs/api.md, "The billing clock"):
// /v1/meterdesk/clock.get answers a ClockReading; /v1/meterdesk/clock.advance
// takes a ClockAdvance and answers a ClockAdvanced: what falling due did
// (or, with dry_run, would do) to balances and subscriptions. Documented in
// docs/openapi.yaml under /v1/meterdesk.
#pragma once

#include "services/api/Decimal.h"
#include "services/api/WireCodec.h"

#include <QList>
#include <QString>

namespace md::api {

struct ClockReading
{
    qint64 now = 0;      // the environment's now (ms)
    qint64 offsetMs = 0; // how far it is ahead of the real time; 0 in production

    static ClockReading read(const JsonReader &reader);
    void write(JsonWriter &writer) const;
    friend bool operator==(const ClockReading &, const ClockReading &) = default;
};

struct ClockAdvance
{
    qint64 to = 0;       // the sandbox's new now: not before its now, at most ten years ahead
    bool dryRun = false; // say what would fall due, change nothing

    static ClockAdvance read(const JsonReader &reader);
    void write(JsonWriter &writer) const;
    friend bool operator==(const ClockAdvance &, const ClockAdvance &) = default;
};

// What the clock did to one feature's balances.
struct ClockFeatureEffect
{
    QString featureId;
    qint64 resets = 0;
    qint64 rollovers = 0;
    qint64 expiries = 0;
    Decimal restored;   // what the resets gave back (negative: overage forgiven)
    Decimal rolledOver; // what became rollovers
    Decimal expired;    // what the expiries took

    static ClockFeatureEffect read(const JsonReader &reader);
    void write(JsonWriter &writer) const;
    friend bool operator==(const ClockFeatureEffect &, const ClockFeatureEffect &) = default;
};

struct ClockApplied
{
    qint64 resets = 0;
    qint64 rollovers = 0;
    qint64 expiries = 0; // balances and rollovers expired, and plans ended
    qint64 periods = 0;  // subscriptions moved to a new period

    static ClockApplied read(const JsonReader &reader);
    void write(JsonWriter &writer) const;
    friend bool operator==(const ClockApplied &, const ClockApplied &) = default;
};

struct ClockAdvanced
{
    qint64 now = 0;
    bool dryRun = false;
    ClockApplied applied;
    QList<ClockFeatureEffect> byFeature; // by feature id

    static ClockAdvanced read(const JsonReader &reader);
    void write(JsonWriter &writer) const;
    friend bool operator==(const ClockAdvanced &, const ClockAdvanced &) = default;
};

} // namespace md::api
