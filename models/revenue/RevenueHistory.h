// The Revenue page's months (docs/billing.md, "Revenue"; docs/user-guide.md,
// "Revenue"): what the statements came to in each of the last twelve UTC
// months, by product, with the open periods that began in a month so far.
// One revenue.summary per month, asked together; an older load's answers
// are dropped.
#pragma once

#include "services/api/Statements.h"
#include "services/backend/BillingBackend.h"

#include <QMap>
#include <QObject>

namespace md::models {

class RevenueHistory final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(RevenueHistory)

public:
    static constexpr int Months = 12;
    // How old the open periods' figures may be: the server's kept ones
    // answer at once (docs/billing.md, "Revenue so far").
    static constexpr qint64 OpenMaxAgeMs = 60'000;

    struct Month
    {
        qint64 start = 0;
        qint64 end = 0;
        bool open = false; // the current month, so far
        QMap<QString, api::Decimal> byProduct;
        api::Decimal total;
    };

    explicit RevenueHistory(backend::BillingBackend *backend, QObject *parent = nullptr);

    // The twelve months up to the one holding `nowMs` (UTC).
    void load(qint64 nowMs);
    const QList<Month> &months() const { return m_months; }
    // Every product named in any month, largest over the year first.
    QStringList products() const;

    // [start, end) of the `count` UTC months ending with the one holding `nowMs`.
    static QList<std::pair<qint64, qint64>> monthsUpTo(qint64 nowMs, int count);

Q_SIGNALS:
    void loaded();
    void failed(const md::api::ApiError &error);

private:
    backend::BillingBackend *m_backend;
    quint64 m_generation = 0;
    QList<Month> m_months;
};

} // namespace md::models
