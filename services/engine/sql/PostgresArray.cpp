#include "services/engine/sql/PostgresArray.h"

namespace md::engine {

namespace {

void appendQuoted(QString &out, const QString &value)
{
    out += u'"';
    for (const QChar c : value) {
        if (c == u'"' || c == u'\\')
            out += u'\\';
        out += c;
    }
    out += u'"';
}

template <typename List, typename Append> QString literal(const List &values, Append &&append)
{
    QString out;
    out.reserve(values.size() * 12 + 2);
    out += u'{';
    for (qsizetype i = 0; i < values.size(); ++i) {
        if (i > 0)
            out += u',';
        append(out, values.at(i));
    }
    out += u'}';
    return out;
}

} // namespace

QString PostgresArray::of(const QStringList &values)
{
    return literal(values, appendQuoted);
}

QString PostgresArray::of(const QList<qint64> &values)
{
    return literal(values, [](QString &out, qint64 value) { out += QString::number(value); });
}

QString PostgresArray::of(const QVariantList &values)
{
    return literal(values, [](QString &out, const QVariant &value) {
        if (!value.isValid())
            out += QStringLiteral("NULL");
        else
            appendQuoted(out, value.toString());
    });
}

} // namespace md::engine
