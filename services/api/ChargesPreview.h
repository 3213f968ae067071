// charges.preview (docs/api.md, "charges.preview"; docs/billing.md): what a
// customer owes for its open billing period so far, line by line.
#pragma once

#include "services/api/Decimal.h"
#include "services/api/JsonReader.h"
#include "services/api/JsonWriter.h"

#include <QList>

#include <optional>

namespace md::api {

// docs/billing.md: a plan's fixed price, usage past a grant, a prepaid
// purchase (or usage past it), an AI credit system's purchase or overflow.
enum class ChargeKind { Fixed, Usage, Prepaid, Credits };

QLatin1StringView toWire(ChargeKind value);
std::optional<ChargeKind> chargeKindFromWire(QStringView word);

struct ChargesPreviewRequest
{
    QString customerId;

    static ChargesPreviewRequest read(const JsonReader &reader);
    void write(JsonWriter &writer) const;
    friend bool operator==(const ChargesPreviewRequest &, const ChargesPreviewRequest &) = default;
};

struct ChargeLine
{
    ChargeKind kind = ChargeKind::Usage;
    std::optional<QString> planId;    // the plan of a fixed price or of the row
    std::optional<QString> featureId; // usage lines
    std::optional<QString> entityId;
    std::optional<QString> balanceId;
    // Fixed: the subscription's quantity. Usage, and a prepaid or credit
    // row's overflow: the usage past the grant. A purchase: what was bought.
    Decimal quantity;
    // Usage or a purchase: rounded up to whole billing units.
    std::optional<Decimal> billableUnits;
    Decimal amount; // rounded to the currency's minor unit
    QString description;

    static ChargeLine read(const JsonReader &reader);
    void write(JsonWriter &writer) const;
    friend bool operator==(const ChargeLine &, const ChargeLine &) = default;
};

struct ChargesPreview
{
    QString customerId;
    QString currency;
    qint64 periodStart = 0; // ms, included
    qint64 periodEnd = 0;   // ms, excluded
    QList<ChargeLine> lines;
    Decimal total; // the exact sum of the lines' amounts

    static ChargesPreview read(const JsonReader &reader);
    void write(JsonWriter &writer) const;
    friend bool operator==(const ChargesPreview &, const ChargesPreview &) = default;
};

} // namespace md::api
