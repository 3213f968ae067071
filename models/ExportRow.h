// One exported row as typed cells (docs/export.md): the CSV line and the
// workbook row are both made from it, so the two formats never disagree.
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

// Empty, text, an exact amount, a boolean, an integer or a time.
using ExportCell = std::variant<std::monostate, QString, api::Decimal, bool, qint64, ExportTime>;
using ExportRow = QList<ExportCell>;

// The CSV forms, each with its line break: text quoted where needed, amounts
// as their exact digits, times in ISO 8601 UTC with milliseconds.
QString csvHeaderOf(const QStringList &columns);
QString csvLineOf(const ExportRow &row);

} // namespace md::models
