// The usage alerts a customer's calls set off (docs/billing-controls.md),
// newest first, paged on demand: the customer detail's Alerts tab.
#pragma once

#include "services/backend/BillingBackend.h"

#include "models/common/PagedTableModel.h"

namespace md::models {

class UsageAlertModel final : public PagedTableModel
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(UsageAlertModel)

public:
    enum Column { TimeColumn, FeatureColumn, AlertColumn, ValueColumn, ColumnCount };
    static constexpr int RawValueRole = Qt::UserRole;

    explicit UsageAlertModel(backend::BillingBackend *backend, QObject *parent = nullptr);

    // Empty: every customer's alerts.
    void setCustomer(const QString &customerId);
    const QList<api::UsageAlertEvent> &alerts() const { return m_rows; }
    // "usage at 50 %", "10 remaining": what an alert watches, in words.
    static QString describe(api::ThresholdType type, api::Decimal threshold);

    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

protected:
    qsizetype storedRows() const override { return m_rows.size(); }
    void clearRows() override { m_rows.clear(); }
    void sendRequest(const QString &cursor, quint64 generation) override;

private:
    backend::BillingBackend *m_backend;
    QString m_customer;
    QList<api::UsageAlertEvent> m_rows;
};

} // namespace md::models
