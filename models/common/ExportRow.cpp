#include "models/common/ExportRow.h"

#include "models/common/CsvText.h"

#include <QDateTime>

namespace md::models {

using namespace Qt::StringLiterals;

QString csvHeaderOf(const ExportColumns &columns)
{
    QStringList names;
    names.reserve(columns.size());
    for (const ExportColumn &column : columns)
        names.append(column.name);
    return names.join(u',') + u"\r\n"_s;
}

QString csvLineOf(const ExportRow &row)
{
    QStringList fields;
    fields.reserve(row.size());
    for (const ExportCell &cell : row)
        fields.append(std::visit(
            [](const auto &value) -> QString {
                using T = std::decay_t<decltype(value)>;
                if constexpr (std::is_same_v<T, QString>)
                    return CsvText::field(value);
                else if constexpr (std::is_same_v<T, api::Decimal>)
                    return value.toString();
                else if constexpr (std::is_same_v<T, bool>)
                    return value ? u"true"_s : u"false"_s;
                else if constexpr (std::is_same_v<T, qint64>)
                    return QString::number(value);
                else if constexpr (std::is_same_v<T, ExportTime>)
                    return QDateTime::fromMSecsSinceEpoch(value.ms, Qt::UTC)
                        .toString(Qt::ISODateWithMs);
                else if constexpr (std::is_same_v<T, ExportWord>)
                    return CsvText::field(value.wire);
                else
                    return QString();
            },
            cell));
    return fields.join(u',') + u"\r\n"_s;
}

} // namespace md::models
