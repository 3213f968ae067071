// The Revenue page's table (docs/billing.md, "Revenue"): one month's
// revenue.summary by product, feature or customer, each group's fixed,
// usage and total, largest first; written to a workbook for accounting.
#pragma once

#include "models/common/ExportRow.h"
#include "services/api/Statements.h"
#include "services/backend/BillingBackend.h"

#include <QAbstractTableModel>

namespace md::models {

class RevenueTableModel final : public QAbstractTableModel
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(RevenueTableModel)

public:
    enum Column {
        KeyColumn,
        FixedColumn,
        UsageColumn,
        PrepaidColumn,
        CreditsColumn,
        TotalColumn,
        ColumnCount
    };

    explicit RevenueTableModel(backend::BillingBackend *backend, QObject *parent = nullptr);

    // One month [from, to), with the open periods that began in it when `open`.
    void load(qint64 from, qint64 to, api::RevenueGroupBy groupBy, bool open);
    const api::RevenueSummary &summary() const { return m_summary; }
    api::RevenueGroupBy groupBy() const { return m_groupBy; }

    // "(none)" and "(others)" in the console's words; ids as they are.
    static QString keyInWords(const QString &key);
    ExportColumns exportColumns() const;
    ExportRow exportRow(int row) const;
    // The table and a total row, as a workbook.
    api::Result<api::Done> writeWorkbook(const QString &path) const;

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

Q_SIGNALS:
    void loaded();
    void failed(const md::api::ApiError &error);

private:
    backend::BillingBackend *m_backend;
    quint64 m_generation = 0;
    api::RevenueGroupBy m_groupBy = api::RevenueGroupBy::Product;
    api::RevenueSummary m_summary;
};

} // namespace md::models
