// One exported row as typed cells (docs/export.md): the CSV line and the
// workbook row are both made from it, so the two formats never disagree on
// a value. Each writes it for its reader: CSV for programs (the API's field
// names and words, exact digits, ISO times, the same in every language),
// a workbook for people (the console's titles and words, numbers, dates).
#pragma once

#include "services/api/Decimal.h"

#include <QList>
#include <QString>
#include <QStringList>

#include <variant>

namespace md::models {

struct ExportTime
{
    qint64 ms = 0; // since the epoch, UTC
    friend bool operator==(const ExportTime &, const ExportTime &) = default;
};

// A value the API and the console name differently: "month" in CSV,
// "monthly" in a workbook; an empty `wire` leaves the CSV field empty.
struct ExportWord
{
    QString wire;
    QString words;
    friend bool operator==(const ExportWord &, const ExportWord &) = default;
};

// Empty, text, an exact amount, a boolean, an integer, a time or a word.
using ExportCell =
    std::variant<std::monostate, QString, api::Decimal, bool, qint64, ExportTime, ExportWord>;
using ExportRow = QList<ExportCell>;

// A column's CSV header, the API's field ("customer_id"), and its title in a
// workbook, the console's ("Customer").
struct ExportColumn
{
    QString name;
    QString title;
};
using ExportColumns = QList<ExportColumn>;

// The CSV forms, each with its line break: text quoted where needed, amounts
// as their exact digits, times in ISO 8601 UTC with milliseconds.
QString csvHeaderOf(const ExportColumns &columns);
QString csvLineOf(const ExportRow &row);

} // namespace md::models
