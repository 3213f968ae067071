// Writing CSV (RFC 4180), shared by the balance export and the import report.
#pragma once

#include <QString>

namespace md::models {

struct CsvText
{
    // The value, quoted when it holds a separator, a quote or a line break.
    static QString field(const QString &value);
};

} // namespace md::models
