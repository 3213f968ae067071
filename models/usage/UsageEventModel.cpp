#include "models/usage/UsageEventModel.h"

#include "models/common/AmountFormat.h"

#include <QDateTime>

namespace md::models {

using namespace Qt::StringLiterals;

UsageEventModel::UsageEventModel(backend::BillingBackend *backend, QObject *parent)
    : PagedTableModel(parent)
    , m_backend(backend)
{}

void UsageEventModel::setFilter(const api::PageRequest &filter)
{
    m_filter = api::PageRequest();
    m_filter.customerId = filter.customerId;
    m_filter.featureId = filter.featureId;
    m_filter.modelId = filter.modelId;
    m_filter.from = filter.from;
    m_filter.to = filter.to;
    restart();
}

qint64 UsageEventModel::totalTokens(const api::UsageEvent &event)
{
    qint64 total = 0;
    for (auto it = event.tokens.begin(); it != event.tokens.end(); ++it)
        total += it.value();
    return total;
}

int UsageEventModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

void UsageEventModel::sendRequest(const QString &cursor, quint64 generation)
{
    if (!m_unitsAsked) { // once: a failure leaves the ids, which still name the unit
        m_unitsAsked = true;
        m_backend->listFeatures().then(
            this, [this](const api::Result<api::Page<api::FeatureInfo>> &features) {
                if (!features)
                    return;
                for (const api::FeatureInfo &feature : features.value().list)
                    if (!feature.name.isEmpty())
                        m_units.insert(feature.id, feature.name);
                if (!m_rows.isEmpty())
                    Q_EMIT dataChanged(index(0, ValueColumn),
                                       index(int(m_rows.size()) - 1, ValueColumn));
            });
    }
    api::PageRequest request = m_filter;
    request.limit = 200;
    request.startCursor = cursor;
    m_backend->listUsageEvents(request).then(
        this, [this, generation](const api::Result<api::Page<api::UsageEvent>> &page) {
            if (!page) {
                pageFailed(generation, page.error());
                return;
            }
            pageArrived(generation, page.value().list.size(), page.value().hasMore,
                        page.value().nextCursor, [&] { m_rows.append(page.value().list); });
        });
}

QVariant UsageEventModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return PagedTableModel::headerData(section, orientation, role);
    switch (section) {
    case TimeColumn:
        return tr("Time");
    case CustomerColumn:
        return tr("Customer");
    case FeatureColumn:
        return tr("Feature");
    case ModelColumn:
        return tr("Model");
    case TokensColumn:
        return tr("Tokens");
    case ValueColumn:
        return tr("Used");
    default:
        return {};
    }
}

QVariant UsageEventModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const api::UsageEvent &event = m_rows.at(index.row());
    if (role == Qt::TextAlignmentRole)
        return index.column() == TokensColumn || index.column() == ValueColumn
                   ? QVariant(Qt::AlignRight | Qt::AlignVCenter)
                   : QVariant();
    if (role != Qt::DisplayRole && role != RawValueRole && role != Qt::ToolTipRole)
        return {};
    switch (index.column()) {
    case TimeColumn:
        if (role == RawValueRole)
            return event.timestamp;
        if (role == Qt::ToolTipRole)
            return formatTimestamp(event.timestamp);
        return QLocale().toString(QDateTime::fromMSecsSinceEpoch(event.timestamp, Qt::UTC),
                                  QLocale::ShortFormat);
    case CustomerColumn:
        return event.customerId;
    case FeatureColumn:
        return event.featureId;
    case ModelColumn:
        return event.modelId.value_or(QString());
    case TokensColumn:
        if (!event.modelId) // balances.track: a feature's value, no tokens
            return role == RawValueRole ? QVariant(qint64(0)) : QVariant();
        if (role == RawValueRole)
            return totalTokens(event);
        if (role == Qt::ToolTipRole) {
            QStringList pools;
            for (auto it = event.tokens.begin(); it != event.tokens.end(); ++it)
                pools.append(u"%1: %2"_s.arg(it.key(), QLocale().toString(it.value())));
            return pools.join(u'\n');
        }
        return QLocale().toString(totalTokens(event));
    case ValueColumn:
        if (role == RawValueRole)
            return event.value.toString();
        if (role == Qt::ToolTipRole)
            return event.modelId
                       ? tr("Credits of %1 the call cost").arg(event.featureId)
                       : tr("Units of %1 used (negative: given back)").arg(event.featureId);
        return tr("%1 %2", "an amount and its unit: 2.08 AI credits")
            .arg(formatAmount(event.value, QLocale(), 2), unitOf(event.featureId));
    default:
        return {};
    }
}

ExportColumns UsageEventModel::columns()
{
    return {{QStringLiteral("timestamp"), tr("Time")},
            {QStringLiteral("customer_id"), tr("Customer")},
            {QStringLiteral("feature_id"), tr("Feature")},
            {QStringLiteral("entity_id"), tr("Entity")},
            {QStringLiteral("model_id"), tr("Model")},
            {QStringLiteral("tokens"), tr("Tokens")},
            {QStringLiteral("value"), tr("Used")},
            {QStringLiteral("tokens_by_pool"), tr("Tokens by pool")}};
}

ExportRow UsageEventModel::cells(const api::UsageEvent &event)
{
    const auto text = [](const std::optional<QString> &value) -> ExportCell {
        return value ? ExportCell(*value) : ExportCell();
    };
    api::JsonValue pools = api::JsonValue::object();
    for (auto pool = event.tokens.cbegin(); pool != event.tokens.cend(); ++pool)
        pools.insert(pool.key(), pool.value());
    return {ExportTime{event.timestamp},
            event.customerId,
            event.featureId,
            text(event.entityId),
            text(event.modelId),
            totalTokens(event),
            event.value,
            QString::fromUtf8(pools.toJson())};
}

} // namespace md::models
