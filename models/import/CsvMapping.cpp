#include "models/import/CsvMapping.h"

#include <QJsonValue>

namespace md::models {

using namespace Qt::StringLiterals;

namespace {

struct Field
{
    int CsvMapping::*column;
    QLatin1StringView name;
};

constexpr Field Fields[] = {
    {&CsvMapping::customerId, "customer_id"_L1},
    {&CsvMapping::name, "name"_L1},
    {&CsvMapping::email, "email"_L1},
    {&CsvMapping::stripeId, "stripe_id"_L1},
    {&CsvMapping::revenueCatId, "revenuecat_id"_L1},
    {&CsvMapping::plan, "plan_id"_L1},
    {&CsvMapping::status, "status"_L1},
};

} // namespace

CsvMapping CsvMapping::guess(const QStringList &header)
{
    CsvMapping mapping;
    for (int c = 0; c < header.size(); ++c) {
        const QString name = header.at(c).trimmed().toLower();
        for (const Field &field : Fields)
            if (name == field.name)
                mapping.*field.column = c;
        if (name.startsWith("usage:"_L1) && name.size() > 6)
            mapping.usage.insert(header.at(c).trimmed().mid(6), c);
    }
    return mapping;
}

QJsonObject CsvMapping::toJson(const QStringList &header) const
{
    const auto columnName = [&](int column) {
        return column >= 0 && column < header.size() ? QJsonValue(header.at(column)) : QJsonValue();
    };
    QJsonObject object;
    for (const Field &field : Fields)
        object.insert(field.name, columnName(this->*field.column));
    QJsonObject usageColumns;
    for (auto it = usage.cbegin(); it != usage.cend(); ++it)
        usageColumns.insert(it.key(), columnName(it.value()));
    object.insert(u"usage"_s, usageColumns);
    QJsonObject plans;
    for (auto it = planValues.cbegin(); it != planValues.cend(); ++it)
        plans.insert(it.key(), it.value());
    object.insert(u"plan_values"_s, plans);
    return object;
}

CsvMapping CsvMapping::fromJson(const QJsonObject &object, const QStringList &header)
{
    const auto column = [&](const QJsonValue &name) {
        return name.isString() ? int(header.indexOf(name.toString())) : -1;
    };
    CsvMapping mapping;
    for (const Field &field : Fields)
        mapping.*field.column = column(object.value(field.name));
    const QJsonObject usageColumns = object.value(u"usage"_s).toObject();
    for (auto it = usageColumns.begin(); it != usageColumns.end(); ++it)
        if (const int c = column(it.value()); c >= 0)
            mapping.usage.insert(it.key(), c);
    const QJsonObject plans = object.value(u"plan_values"_s).toObject();
    for (auto it = plans.begin(); it != plans.end(); ++it)
        if (it.value().isString() && !it.value().toString().isEmpty())
            mapping.planValues.insert(it.key(), it.value().toString());
    return mapping;
}

} // namespace md::models
