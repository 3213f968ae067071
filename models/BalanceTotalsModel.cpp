#include "models/BalanceTotalsModel.h"

#include "models/AmountFormat.h"

namespace md::models {

using namespace Qt::StringLiterals;

BalanceTotalsModel::BalanceTotalsModel(backend::BillingBackend *backend, QObject *parent)
    : ListTableModel(ColumnCount, parent)
    , m_backend(backend)
{}

int BalanceTotalsModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() || !m_totals ? 0 : int(m_totals->groups.size());
}

QString BalanceTotalsModel::groupName(api::TotalsGroupBy groupBy)
{
    switch (groupBy) {
    case api::TotalsGroupBy::Plan:
        return tr("Plan");
    case api::TotalsGroupBy::Customer:
        return tr("Customer");
    case api::TotalsGroupBy::Feature:
        break;
    }
    return tr("Feature");
}

QString BalanceTotalsModel::text(const api::TotalsGroup &group, int column)
{
    const QLocale locale;
    const api::TotalsFigures &f = group.figures;
    switch (column) {
    case Key:
        return group.key ? *group.key : tr("(no plan)");
    case Balances:
        return locale.toString(f.balances);
    case Customers:
        return locale.toString(f.customers);
    case Granted:
        return formatAmount(f.granted, locale);
    case Remaining:
        return formatAmount(f.remaining, locale);
    case Usage:
        return formatAmount(f.usage, locale);
    default:
        return {};
    }
}

QVariant BalanceTotalsModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    const api::TotalsGroup &group = m_totals->groups.at(index.row());
    if (role == Qt::TextAlignmentRole)
        return index.column() == Key ? QVariant() : QVariant(Qt::AlignRight | Qt::AlignVCenter);
    if (role != Qt::DisplayRole && role != Qt::ToolTipRole)
        return {};
    return text(group, index.column());
}

QVariant BalanceTotalsModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    return columnTitle(section, m_request.groupBy);
}

QString BalanceTotalsModel::columnTitle(int column, api::TotalsGroupBy groupBy)
{
    switch (column) {
    case Key:
        return groupName(groupBy);
    case Balances:
        return tr("Balances");
    case Customers:
        return tr("Customers");
    case Granted:
        return tr("Granted");
    case Remaining:
        return tr("Remaining");
    case Usage:
        return tr("Usage");
    default:
        return {};
    }
}

void BalanceTotalsModel::setFilter(const api::ListBalancesRequest &filter, bool force)
{
    api::ListBalancesRequest bare = filter;
    bare.limit = api::ListBalancesRequest::DefaultLimit;
    bare.startCursor.clear();
    if (!force && bare == m_request.filter && (m_totals || m_loading))
        return;
    m_request.filter = bare;
    reload();
}

void BalanceTotalsModel::setGroupBy(api::TotalsGroupBy groupBy)
{
    if (groupBy == m_request.groupBy)
        return;
    m_request.groupBy = groupBy;
    Q_EMIT headerDataChanged(Qt::Horizontal, Key, Key);
    reload();
}

void BalanceTotalsModel::reload()
{
    m_loading = true;
    m_error.reset();
    // The old figures are for another filter: gone at once, not shown as current.
    replaceRows([this] { m_totals.reset(); });
    Q_EMIT loadingChanged(true);
    // A scan already running is told to stop (the embedded engine's does
    // within a few thousand rows; a server's runs on) and the newest filter
    // is asked for once it has ended: filters changed in between are never
    // added up, and scans never pile up behind each other.
    if (m_inFlight) {
        m_askAgain = true;
        m_reply.cancel();
    } else {
        ask();
    }
}

void BalanceTotalsModel::ask()
{
    m_inFlight = true;
    m_reply = m_backend->balanceTotals(m_request);
    m_reply
        .then(this,
              [this](const api::Result<api::BalanceTotals> &totals) {
                  m_inFlight = false;
                  if (std::exchange(m_askAgain, false))
                      return ask();
                  m_loading = false;
                  if (totals)
                      replaceRows([&] { m_totals = totals.value(); });
                  else
                      m_error = totals.error();
                  Q_EMIT loadingChanged(false);
                  if (!totals)
                      Q_EMIT failed(totals.error());
              })
        .onCanceled(this, [this] { // stopped for a newer filter
            m_inFlight = false;
            if (std::exchange(m_askAgain, false))
                ask();
        });
}

QString BalanceTotalsModel::summary() const
{
    if (!m_totals)
        return {};
    const QLocale locale;
    const api::TotalsFigures &t = m_totals->total;
    const auto count = [](qint64 n) { return int(qMin<qint64>(n, INT_MAX)); };
    return tr("%Ln balance(s)", nullptr, count(t.balances)) + u" · "_s +
           tr("%Ln customer(s)", nullptr, count(t.customers)) + u" · "_s +
           tr("granted %1").arg(formatAmount(t.granted, locale)) + u" · "_s +
           tr("remaining %1").arg(formatAmount(t.remaining, locale)) + u" · "_s +
           tr("used %1").arg(formatAmount(t.usage, locale));
}

QStringList BalanceTotalsModel::columns()
{
    return {u"group_by"_s, u"key"_s,       u"balances"_s, u"customers"_s,
            u"granted"_s,  u"remaining"_s, u"usage"_s};
}

QList<ExportRow> BalanceTotalsModel::rows(const api::BalanceTotals &totals,
                                          api::TotalsGroupBy groupBy)
{
    const auto row = [](const QString &by, const QString &key, const api::TotalsFigures &f) {
        return ExportRow{by, key, f.balances, f.customers, f.granted, f.remaining, f.usage};
    };
    QList<ExportRow> rows;
    const QString by = api::toWire(groupBy);
    for (const api::TotalsGroup &group : totals.groups)
        rows.append(row(by, group.key.value_or(QString()), group.figures));
    rows.append(row(u"total"_s, QString(), totals.total));
    return rows;
}

QString BalanceTotalsModel::csv(const api::BalanceTotals &totals, api::TotalsGroupBy groupBy)
{
    QString text = csvHeaderOf(columns());
    for (const ExportRow &row : rows(totals, groupBy))
        text += csvLineOf(row);
    return text;
}

} // namespace md::models
