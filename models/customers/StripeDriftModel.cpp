#include "models/customers/StripeDriftModel.h"

#include "models/common/FieldWords.h"
#include "models/common/WhenDone.h"

namespace md::models {

StripeDriftModel::StripeDriftModel(backend::BillingBackend *backend, QObject *parent)
    : QAbstractTableModel(parent)
    , m_backend(backend)
{}

void StripeDriftModel::check(const std::optional<QStringList> &customerIds)
{
    const quint64 generation = ++m_generation;
    m_busy = true;
    m_summary = tr("Reading Stripe…");
    Q_EMIT stateChanged();
    whenFinished(m_backend->verifyProcessors({customerIds}), this,
                 [this, generation](const api::Result<api::ProcessorsVerifyResponse> &answer) {
                     if (generation != m_generation)
                         return;
                     m_busy = false;
                     beginResetModel();
                     m_rows = answer ? answer.value().differences : QList<api::ProcessorDrift>();
                     endResetModel();
                     if (!answer)
                         m_summary =
                             tr("Could not check: %1").arg(FieldWords::sentence(answer.error()));
                     else if (answer.value().checked == 0)
                         m_summary = tr("No customer has a plan imported from a Stripe "
                                        "subscription.");
                     else if (m_rows.isEmpty())
                         m_summary = tr("%n plan(s) checked: Meterdesk and Stripe agree.", "",
                                        int(answer.value().checked));
                     else
                         m_summary = tr("%n plan(s) checked; %1 difference(s). Nothing was "
                                        "changed.",
                                        "", int(answer.value().checked))
                                         .arg(m_rows.size());
                     Q_EMIT stateChanged();
                 });
}

QString StripeDriftModel::fieldInWords(const QString &field)
{
    if (field == QLatin1StringView("status"))
        return tr("Status");
    if (field == QLatin1StringView("current_period_start"))
        return tr("Period start");
    if (field == QLatin1StringView("current_period_end"))
        return tr("Period end");
    if (field == QLatin1StringView("quantity"))
        return tr("Quantity");
    if (field == QLatin1StringView("plan_id"))
        return tr("Plan");
    if (field == QLatin1StringView("subscription"))
        return tr("Subscription gone from Stripe");
    return field;
}

int StripeDriftModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_rows.size());
}

int StripeDriftModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant StripeDriftModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid) ||
        role != Qt::DisplayRole)
        return {};
    const api::ProcessorDrift &row = m_rows.at(index.row());
    switch (index.column()) {
    case CustomerColumn:
        return row.customerId;
    case SubscriptionColumn:
        return row.subscriptionId;
    case PlanColumn:
        return row.planId;
    case FieldColumn:
        return fieldInWords(row.field);
    case MeterdeskColumn:
        return row.meterdesk;
    case StripeColumn:
        return row.processor;
    default:
        return {};
    }
}

QVariant StripeDriftModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (section) {
    case CustomerColumn:
        return tr("Customer");
    case SubscriptionColumn:
        return tr("Subscription");
    case PlanColumn:
        return tr("Plan");
    case FieldColumn:
        return tr("What differs");
    case MeterdeskColumn:
        return tr("Meterdesk");
    case StripeColumn:
        return tr("Stripe");
    default:
        return {};
    }
}

} // namespace md::models
