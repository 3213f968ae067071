// The wire paths of a JSON text's numbers that are not whole (1.5,
// 1.0000000000000001, 2.5e-1). Qt's parser keeps a fraction too small for a
// double as an integer (1.0000000000000001 becomes 1), so an integer field
// is checked against its literal through this list; 1.0 and 1e3 are whole.
// Paths are spelled as JsonReader::path() spells them.
#pragma once

#include <QByteArray>
#include <QSet>
#include <QString>

namespace md::api {

class FractionalNumbers final
{
public:
    // Scans `json`, which has already parsed as valid JSON.
    static QSet<QString> in(const QByteArray &json);
    // True if the number literal's exact value is a whole number.
    static bool isWhole(QByteArrayView literal);
};

} // namespace md::api
