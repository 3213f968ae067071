// The drift check of Customers (docs/processors.md, "Checking against
// Stripe"): processors.verify's differences, one row each, in words. A
// check runs off the GUI thread (the backend's reply); a newer check drops
// an older one's answer.
#pragma once

#include "services/api/ProcessorsVerify.h"
#include "services/backend/BillingBackend.h"

#include <QAbstractTableModel>

namespace md::models {

class StripeDriftModel final : public QAbstractTableModel
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(StripeDriftModel)

public:
    enum Column {
        CustomerColumn,
        SubscriptionColumn,
        PlanColumn,
        FieldColumn,
        MeterdeskColumn,
        StripeColumn,
        ColumnCount
    };

    explicit StripeDriftModel(backend::BillingBackend *backend, QObject *parent = nullptr);

    // These customers (none: every imported one).
    void check(const std::optional<QStringList> &customerIds);
    bool busy() const { return m_busy; }
    // What the last check found, in a sentence, or why it failed.
    QString summary() const { return m_summary; }
    const api::ProcessorDrift &drift(int row) const { return m_rows.at(row); }
    // "Status", "Quantity"…: a field's name as the user reads it.
    static QString fieldInWords(const QString &field);

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

Q_SIGNALS:
    void stateChanged();

private:
    backend::BillingBackend *m_backend;
    QList<api::ProcessorDrift> m_rows;
    quint64 m_generation = 0;
    bool m_busy = false;
    QString m_summary;
};

} // namespace md::models
