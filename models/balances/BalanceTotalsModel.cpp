#include "models/balances/BalanceTotalsModel.h"

#include "models/common/AmountFormat.h"

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
    case api::TotalsGroupBy::ResetMonth:
        return tr("Next reset");
    case api::TotalsGroupBy::Feature:
        break;
    }
    return tr("Feature");
}

QString BalanceTotalsModel::keyText(const std::optional<QString> &key, api::TotalsGroupBy groupBy)
{
    if (groupBy != api::TotalsGroupBy::ResetMonth)
        return key ? *key : tr("(no plan)");
    if (!key)
        return tr("(never resets)");
    // "2026-12" on the wire; the month in the reader's language here.
    const QDate month = QDate::fromString(*key + u"-01"_s, Qt::ISODate);
    return month.isValid() ? QLocale().toString(month, u"MMMM yyyy"_s) : *key;
}

QString BalanceTotalsModel::text(const api::TotalsGroup &group, int column, bool amounts,
                                 api::TotalsGroupBy groupBy)
{
    const QLocale locale;
    const api::TotalsFigures &f = group.figures;
    if (column >= Granted && column <= Usage && !amounts)
        return tr("—");
    switch (column) {
    case Key:
        return keyText(group.key, groupBy);
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
    const bool amounts = groupsInOneUnit(m_request);
    if (role == Qt::ToolTipRole && !amounts && index.column() >= Granted)
        return unitNote(m_request, *m_totals); // why there is no amount
    return text(group, index.column(), amounts, m_request.groupBy);
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
    const QString counted = tr("%Ln balance(s)", nullptr, count(t.balances)) + u" · "_s +
                            tr("%Ln customer(s)", nullptr, count(t.customers)) + u" · "_s;
    if (totalInOneUnit(m_request, *m_totals))
        return counted + tr("granted %1").arg(formatAmount(t.granted, locale)) + u" · "_s +
               tr("remaining %1").arg(formatAmount(t.remaining, locale)) + u" · "_s +
               tr("used %1").arg(formatAmount(t.usage, locale));
    if (groupsInOneUnit(m_request)) // each group a feature, with its own amounts
        return counted + tr("%Ln feature(s): choose one to add up its amounts", nullptr,
                            count(m_totals->groups.size()));
    return counted + tr("choose a feature to add up amounts");
}

bool BalanceTotalsModel::groupsInOneUnit(const api::BalanceTotalsRequest &request)
{
    return request.filter.featureId || request.groupBy == api::TotalsGroupBy::Feature;
}

bool BalanceTotalsModel::totalInOneUnit(const api::BalanceTotalsRequest &request,
                                        const api::BalanceTotals &totals)
{
    return request.filter.featureId ||
           (request.groupBy == api::TotalsGroupBy::Feature && totals.groups.size() <= 1);
}

QString BalanceTotalsModel::unitNote(const api::BalanceTotalsRequest &request,
                                     const api::BalanceTotals &totals)
{
    if (totalInOneUnit(request, totals))
        return {};
    if (groupsInOneUnit(request))
        return tr("Features count different things (API calls, credits, gigabytes), so their "
                  "amounts are not added together: the total counts balances and customers.");
    return tr("Features count different things (API calls, credits, gigabytes), so their "
              "amounts are not added together: choose a feature, or group by feature, to see "
              "them.");
}

ExportColumns BalanceTotalsModel::columns(api::TotalsGroupBy groupBy)
{
    const QStringList names{u"key"_s,     u"balances"_s,  u"customers"_s,
                            u"granted"_s, u"remaining"_s, u"usage"_s};
    ExportColumns columns;
    for (int column = 0; column < ColumnCount; ++column)
        columns.append(ExportColumn{names.at(column), columnTitle(column, groupBy)});
    return columns;
}

QList<ExportRow> BalanceTotalsModel::rows(const api::BalanceTotalsRequest &request,
                                          const api::BalanceTotals &totals)
{
    const auto row = [](const ExportCell &key, const api::TotalsFigures &f, bool amounts) {
        const auto amount = [amounts](const api::Decimal &value) {
            return amounts ? ExportCell(value) : ExportCell(ExportWord{QString(), tr("—")});
        };
        return ExportRow{
            key, f.balances, f.customers, amount(f.granted), amount(f.remaining), amount(f.usage)};
    };
    QList<ExportRow> rows;
    const bool amounts = groupsInOneUnit(request);
    for (const api::TotalsGroup &group : totals.groups)
        rows.append(row(group.key ? ExportCell(*group.key)
                                  : ExportCell(ExportWord{
                                        QString(), text(group, Key, amounts, request.groupBy)}),
                        group.figures, amounts));
    rows.append(
        row(ExportWord{QString(), tr("Total")}, totals.total, totalInOneUnit(request, totals)));
    return rows;
}

QString BalanceTotalsModel::csv(const api::BalanceTotalsRequest &request,
                                const api::BalanceTotals &totals)
{
    QString text = u"group_by,"_s + csvHeaderOf(columns(request.groupBy));
    const QList<ExportRow> all = rows(request, totals);
    for (qsizetype i = 0; i < all.size(); ++i) {
        ExportRow row = all.at(i); // the last is the total
        row.prepend(
            ExportCell(i + 1 < all.size() ? QString(api::toWire(request.groupBy)) : u"total"_s));
        text += csvLineOf(row);
    }
    return text;
}

} // namespace md::models
