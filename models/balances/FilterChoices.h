// What the Balances filter bar offers: the workspace's features and plans
// for its boxes, and customer ids matching what is typed. A failure to load
// them is reported (failed), never dropped: the bar still filters by what
// the person types. Customers are found by part of their id, name or email
// (customers.list's search); an answer for an older text is dropped.
#pragma once

#include "services/backend/BillingBackend.h"

#include <QObject>
#include <QStringList>

namespace md::models {

class FilterChoices final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(FilterChoices)

public:
    struct Choice
    {
        QString id;
        QString name;
        friend bool operator==(const Choice &, const Choice &) = default;
    };
    struct Customer
    {
        QString id;
        QString name;
        QString email;
        friend bool operator==(const Customer &, const Customer &) = default;
    };

    explicit FilterChoices(backend::BillingBackend *backend, QObject *parent = nullptr);

    // Asks for the features and plans again (after a connection or a change).
    void reload();
    // Asks for the customers whose id, name or email contains `text`;
    // customersFound answers the latest text only.
    void searchCustomers(const QString &text);

    const QList<Choice> &features() const { return m_features; }
    const QList<Choice> &plans() const { return m_plans; }

Q_SIGNALS:
    void featuresChanged();
    void plansChanged();
    // `more`: further customers match past the ones found.
    void customersFound(const QString &text,
                        const QList<md::models::FilterChoices::Customer> &found, bool more);
    void failed(const QString &message);

private:
    backend::BillingBackend *m_backend;
    QList<Choice> m_features;
    QList<Choice> m_plans;
    QString m_searched; // the latest text asked for
};

} // namespace md::models
