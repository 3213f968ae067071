// The usage backfill wizard's source (docs/import-formats.md, "Usage"):
// past usage events from CSV through a column mapping, a JSON array of
// events, or JSON Lines, each event in usage.batch's shape ("kind" may be
// left out: a model makes it tokens). Every row is checked by the wire's
// own decoder, as the server will check it, and keeps its problem beside it
// (the cell, for CSV). A row without an idempotency key gets one made from
// what it says and its time (or, without a time, from the file and its
// line), so a commit run again never counts it twice.
#pragma once

#include "models/import/ImportSource.h"
#include "services/api/UsageBatch.h"

#include <QCoreApplication>
#include <QMap>

namespace md::models {

enum class UsageField {
    CustomerId,
    FeatureId,
    ModelId,
    EntityId,
    Value,
    InputTokens,
    OutputTokens,
    Timestamp,
    IdempotencyKey,
};

// CSV column of each field; a field left out has none.
struct UsageMapping
{
    QMap<UsageField, int> columns;

    int column(UsageField field) const { return columns.value(field, -1); }
    // By the fields' wire names and a few common ones (customer, feature,
    // model, quantity, amount, time, date, key), case-insensitively.
    static UsageMapping guess(const QStringList &header);
    // By column name, so a saved profile fits files whose columns move.
    QJsonObject toJson(const QStringList &header) const;
    static UsageMapping fromJson(const QJsonObject &object, const QStringList &header);
    static QString wireName(UsageField field);
    friend bool operator==(const UsageMapping &, const UsageMapping &) = default;
};

struct UsageRow
{
    int line = 0;                              // 1-based line of the source
    QStringList cells;                         // CSV: the record as read
    std::optional<api::UsageBatchEvent> event; // when valid
    QMap<int, QString> cellErrors;             // CSV column → what is wrong
    QString error;                             // what is wrong, in words
    bool isValid() const { return event.has_value(); }
};

// How keys are made for rows with a time and no key (docs/import-formats.md):
// EventOnly, `usage-<event>-<n>`, was the first build's; ByCustomer leads with
// the customer, so a request's keys sit together in the server's index. A
// file whose journal predates ByCustomer keeps EventOnly, so that sending it
// again counts nothing twice.
enum class UsageKeyFormat { EventOnly = 1, ByCustomer = 2 };

struct UsageFileContent
{
    ImportFormat format = ImportFormat::Csv;
    UsageKeyFormat keyFormat = UsageKeyFormat::ByCustomer;
    QStringList header; // CSV
    QChar separator = u',';
    QList<UsageRow> rows;
};

class UsageFile final
{
    Q_DECLARE_TR_FUNCTIONS(UsageFile)

public:
    // Reads `data` (named `fileName`): CSV through `mapping` (guessed from
    // the header when nullopt), else JSON. `keyPrefix` and `keyFormat` make
    // the keys of rows that have none.
    static UsageFileContent read(const QByteArray &data, const QString &fileName,
                                 const std::optional<UsageMapping> &mapping,
                                 const QString &keyPrefix,
                                 UsageKeyFormat keyFormat = UsageKeyFormat::ByCustomer);
    // CSV rows checked again through another mapping (keys made as before).
    static void remap(UsageFileContent &content, const UsageMapping &mapping,
                      const QString &keyPrefix);
    // The prefix of keys made for rows without a time: the file's hash, so
    // another file never shares them.
    static QString keyPrefix(const QByteArray &data);
};

} // namespace md::models
