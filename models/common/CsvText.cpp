#include "models/common/CsvText.h"

namespace md::models {

using namespace Qt::StringLiterals;

QString CsvText::field(const QString &value)
{
    if (!value.contains(u',') && !value.contains(u'"') && !value.contains(u'\n') &&
        !value.contains(u'\r'))
        return value;
    return u'"' + QString(value).replace(u"\""_s, u"\"\""_s) + u'"';
}

} // namespace md::models
