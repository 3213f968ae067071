// One customer's balance ledger of one feature (ledger.list) as a table,
// newest first, paged on demand: what each change was, by how much, what
// the balance held after it and where it came from; the selected balance's
// rows are in bold. CSV for export (docs/ledger.md).
#pragma once

#include "models/common/ExportRow.h"
#include "models/common/PagedTableModel.h"
#include "services/api/Ledger.h"
#include "services/backend/BillingBackend.h"

namespace md::models {

class LedgerModel final : public PagedTableModel
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(LedgerModel)

public:
    enum Column {
        TimeColumn,
        KindColumn,
        BalanceColumn,
        AmountColumn,
        AfterColumn,
        UsageColumn,
        SourceColumn,
        ColumnCount
    };

    explicit LedgerModel(backend::BillingBackend *backend, QObject *parent = nullptr);

    // The ledger of `customerId`'s `featureId` balances, `balanceId` marked;
    // an empty customer clears the table.
    void show(const QString &customerId, const QString &featureId, const QString &balanceId);
    // The same ledger again from its newest entry (after a change was written).
    void reload();
    const QString &customerId() const { return m_request.customerId; }
    const QString &markedBalance() const { return m_marked; }
    const api::LedgerEntry &entry(int row) const { return m_rows.at(row); }

    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

    static QString kindText(const QString &kind);
    static QString sourceText(const api::LedgerSource &source);
    static ExportColumns columns();
    static ExportRow cells(const api::LedgerEntry &entry);
    static QString csvHeader() { return csvHeaderOf(columns()); }
    static QString csvLine(const api::LedgerEntry &entry) { return csvLineOf(cells(entry)); }

protected:
    qsizetype storedRows() const override { return m_rows.size(); }
    void clearRows() override { m_rows.clear(); }
    void sendRequest(const QString &cursor, quint64 generation) override;

private:
    backend::BillingBackend *m_backend;
    api::LedgerRequest m_request;
    QString m_marked;
    QList<api::LedgerEntry> m_rows;
};

} // namespace md::models
