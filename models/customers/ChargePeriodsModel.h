// A customer's billing periods for the Charges tab (docs/billing.md): the
// open period so far (charges.preview) on the first row, then its closed
// statements, newest first, each with its lines and total. One customer at
// a time; an answer for a customer no longer shown is dropped.
#pragma once

#include "services/api/Statements.h"
#include "services/backend/BillingBackend.h"

#include <QAbstractTableModel>

namespace md::models {

class ChargePeriodsModel final : public QAbstractTableModel
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ChargePeriodsModel)

public:
    enum Column { PeriodColumn, StateColumn, TotalColumn, ColumnCount };
    // At most this many statements are listed (about 20 years of months).
    static constexpr qsizetype MaxStatements = 240;

    struct Period
    {
        qint64 start = 0;
        qint64 end = 0;
        std::optional<qint64> closedAt; // none: the open period, so far
        QString statementId;
        QString currency;
        QList<api::ChargeLine> lines;
        api::Decimal total;
    };

    explicit ChargePeriodsModel(backend::BillingBackend *backend, QObject *parent = nullptr);

    void setCustomer(const QString &customerId);
    const QString &customer() const { return m_customer; }
    const Period &period(int row) const { return m_periods.at(row); }

    // "1 Nov 2026 – 30 Nov 2026": a period's days, its end excluded.
    static QString periodInWords(qint64 start, qint64 end);

    int rowCount(const QModelIndex &parent = {}) const override;
    int columnCount(const QModelIndex &parent = {}) const override;
    QVariant data(const QModelIndex &index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation,
                        int role = Qt::DisplayRole) const override;

Q_SIGNALS:
    void loaded();
    void failed(const md::api::ApiError &error);

private:
    void readStatements(const QString &cursor, quint64 generation);

    backend::BillingBackend *m_backend;
    QString m_customer;
    quint64 m_generation = 0;
    std::optional<Period> m_open;
    QList<Period> m_closed;
    QList<Period> m_periods; // as shown: the open one, then the closed ones
};

} // namespace md::models
