#include "models/balances/LedgerModel.h"

#include "models/common/AmountFormat.h"

#include <QDateTime>
#include <QFont>

namespace md::models {

using namespace Qt::StringLiterals;

namespace {

// A change shows its direction: +10.00, −4.00.
QString signedAmount(const api::Decimal &amount)
{
    const QLocale locale;
    const QString text = formatAmount(amount, locale);
    return api::Decimal() < amount ? locale.positiveSign() + text : text;
}

} // namespace

LedgerModel::LedgerModel(backend::BillingBackend *backend, QObject *parent)
    : PagedTableModel(parent)
    , m_backend(backend)
{}

void LedgerModel::reload()
{
    if (!m_request.customerId.isEmpty())
        restart();
}

void LedgerModel::show(const QString &customerId, const QString &featureId,
                       const QString &balanceId)
{
    if (customerId == m_request.customerId &&
        featureId == m_request.featureId.value_or(QString())) {
        if (balanceId != m_marked) { // the same ledger: only the bold rows move
            m_marked = balanceId;
            if (!m_rows.isEmpty())
                Q_EMIT dataChanged(index(0, 0), index(rowCount() - 1, ColumnCount - 1),
                                   {Qt::FontRole});
        }
        return;
    }
    m_request = api::LedgerRequest();
    m_request.customerId = customerId;
    if (!featureId.isEmpty())
        m_request.featureId = featureId;
    m_marked = balanceId;
    restart();
}

int LedgerModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

void LedgerModel::sendRequest(const QString &cursor, quint64 generation)
{
    if (m_request.customerId.isEmpty()) { // nothing selected: an empty, finished table
        pageArrived(generation, 0, false, std::nullopt, [] {});
        return;
    }
    api::LedgerRequest request = m_request;
    request.limit = 200;
    request.startCursor = cursor;
    m_backend->listLedger(request).then(
        this, [this, generation](const api::Result<api::Page<api::LedgerEntry>> &page) {
            if (!page) {
                pageFailed(generation, page.error());
                return;
            }
            pageArrived(generation, page.value().list.size(), page.value().hasMore,
                        page.value().nextCursor, [&] { m_rows.append(page.value().list); });
        });
}

QVariant LedgerModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return PagedTableModel::headerData(section, orientation, role);
    switch (section) {
    case TimeColumn:
        return tr("Time");
    case KindColumn:
        return tr("Change");
    case BalanceColumn:
        return tr("Balance");
    case AmountColumn:
        return tr("Amount");
    case AfterColumn:
        return tr("Holds after");
    case UsageColumn:
        return tr("Used");
    case SourceColumn:
        return tr("Source");
    default:
        return {};
    }
}

QVariant LedgerModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const api::LedgerEntry &entry = m_rows.at(index.row());
    switch (role) {
    case Qt::DisplayRole:
        switch (index.column()) {
        case TimeColumn:
            return formatShortTimestamp(entry.at);
        case KindColumn:
            return kindText(entry.kind);
        case BalanceColumn:
            return entry.balanceId;
        case AmountColumn:
            return signedAmount(entry.amount);
        case AfterColumn:
            return formatAmount(entry.balanceAfter);
        case UsageColumn:
            return entry.usage.isZero() ? QString() : signedAmount(entry.usage);
        case SourceColumn:
            return sourceText(entry.source);
        default:
            return {};
        }
    case Qt::ToolTipRole:
        return index.column() == TimeColumn ? formatTimestamp(entry.at) : QVariant();
    case Qt::TextAlignmentRole:
        if (index.column() == AmountColumn || index.column() == AfterColumn ||
            index.column() == UsageColumn)
            return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
        return {};
    case Qt::FontRole:
        if (!m_marked.isEmpty() && entry.balanceId == m_marked) {
            QFont bold;
            bold.setBold(true);
            return bold;
        }
        return {};
    default:
        return {};
    }
}

QString LedgerModel::kindText(const QString &kind)
{
    if (kind == "usage"_L1)
        return tr("Usage");
    if (kind == "grant"_L1)
        return tr("Grant");
    if (kind == "reset"_L1)
        return tr("Reset");
    if (kind == "rollover"_L1)
        return tr("Rollover");
    if (kind == "expiry"_L1)
        return tr("Expiry");
    if (kind == "import"_L1)
        return tr("Imported");
    if (kind == "adjustment"_L1)
        return tr("Adjustment");
    return kind;
}

QString LedgerModel::sourceText(const api::LedgerSource &source)
{
    QString text = source.route;
    if (source.eventId)
        text = tr("%1, %2").arg(text, *source.eventId);
    return source.keyId ? tr("%1 (key %2)").arg(text, *source.keyId) : tr("%1 (console)").arg(text);
}

ExportColumns LedgerModel::columns()
{
    return {{u"id"_s, tr("Entry")},           {u"at"_s, tr("Time")},
            {u"kind"_s, tr("Change")},        {u"customer_id"_s, tr("Customer")},
            {u"feature_id"_s, tr("Feature")}, {u"balance_id"_s, tr("Balance")},
            {u"amount"_s, tr("Amount")},      {u"balance_after"_s, tr("Holds after")},
            {u"usage"_s, tr("Used")},         {u"route"_s, tr("Route")},
            {u"key_id"_s, tr("Key")},         {u"event_id"_s, tr("Event")}};
}

ExportRow LedgerModel::cells(const api::LedgerEntry &entry)
{
    const auto text = [](const std::optional<QString> &value) -> ExportCell {
        return value ? ExportCell(*value) : ExportCell();
    };
    return {
        entry.id,           ExportTime{entry.at},     ExportWord{entry.kind, kindText(entry.kind)},
        entry.customerId,   entry.featureId,          entry.balanceId,
        entry.amount,       entry.balanceAfter,       entry.usage,
        entry.source.route, text(entry.source.keyId), text(entry.source.eventId)};
}

} // namespace md::models
