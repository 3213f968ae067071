// How CSV columns become a billing.import body (docs/import-formats.md):
// which column feeds each field (one column may feed several), and what an
// old system's plan names stand for. Saved in profiles by column name.
#pragma once

#include <QJsonObject>
#include <QMap>
#include <QStringList>

namespace md::models {

// How CSV columns become a billing.import body; -1 leaves a field out.
struct CsvMapping
{
    int customerId = -1;
    int name = -1;
    int email = -1;
    int stripeId = -1;
    int revenueCatId = -1;
    int plan = -1;
    int status = -1;
    QMap<QString, int> usage; // feature id → column of its reported usage
    // What a plan cell's text stands for, when it is not the plan's id: an
    // old system's name ("Pro Monthly (USD)") → the plan id ("pro").
    QMap<QString, QString> planValues;

    // The plan id a plan cell's text stands for (planValues, else the text).
    QString planId(const QString &cellText) const { return planValues.value(cellText, cellText); }
    // Columns named like the fields (customer_id, name, email, stripe_id,
    // revenuecat_id, plan_id, status, usage:<feature>), case-insensitively.
    static CsvMapping guess(const QStringList &header);
    // By column names, so a saved profile fits files whose columns move; a
    // name missing from `header` leaves its field out. Plan values go with it.
    QJsonObject toJson(const QStringList &header) const;
    static CsvMapping fromJson(const QJsonObject &object, const QStringList &header);
    friend bool operator==(const CsvMapping &, const CsvMapping &) = default;
};

} // namespace md::models
