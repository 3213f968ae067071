// processors.verify (docs/api.md, "processors.verify"; docs/processors.md,
// "Checking against Stripe"): the imported customers' plans compared with
// their Stripe subscriptions, every difference listed, nothing changed.
#pragma once

#include "services/api/JsonReader.h"
#include "services/api/JsonWriter.h"

#include <QStringList>

#include <optional>

namespace md::api {

struct ProcessorsVerifyRequest
{
    static constexpr qsizetype MaxCustomers = 1000;
    std::optional<QStringList> customerIds; // none: every customer with a linked plan

    static ProcessorsVerifyRequest read(const JsonReader &reader);
    void write(JsonWriter &writer) const;
    friend bool operator==(const ProcessorsVerifyRequest &,
                           const ProcessorsVerifyRequest &) = default;
};

// One field of one plan where Meterdesk and Stripe disagree; values as text
// (times in ISO 8601, UTC). `field` is status, current_period_start,
// current_period_end, quantity, plan_id or subscription (gone from Stripe).
struct ProcessorDrift
{
    QString customerId;
    QString subscriptionId;
    QString planId;
    QString field;
    QString meterdesk;
    QString processor;

    static ProcessorDrift read(const JsonReader &reader);
    void write(JsonWriter &writer) const;
    friend bool operator==(const ProcessorDrift &, const ProcessorDrift &) = default;
};

struct ProcessorsVerifyResponse
{
    qint64 checked = 0; // plans compared
    QList<ProcessorDrift> differences;

    static ProcessorsVerifyResponse read(const JsonReader &reader);
    void write(JsonWriter &writer) const;
    friend bool operator==(const ProcessorsVerifyResponse &,
                           const ProcessorsVerifyResponse &) = default;
};

} // namespace md::api
