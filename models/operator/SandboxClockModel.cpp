#include "models/operator/SandboxClockModel.h"

#include "models/common/AmountFormat.h"
#include "services/backend/BillingBackend.h"

namespace md::models {

SandboxClockModel::SandboxClockModel(backend::BillingBackend *backend, QObject *parent)
    : ListTableModel(ColumnCount, parent)
    , m_backend(backend)
{}

void SandboxClockModel::readClock()
{
    m_backend->clock().then(this, [this](const api::Result<api::ClockReading> &reading) {
        if (!reading) {
            Q_EMIT failed(reading.error());
            return;
        }
        m_reading = reading.value();
        Q_EMIT clockRead();
    });
}

void SandboxClockModel::preview(qint64 to)
{
    api::ClockAdvance request;
    request.to = to;
    request.dryRun = true;
    load(m_backend->advanceClock(request), [this, to](const api::ClockAdvanced &answer) {
        replaceRows([&] {
            m_previewed = answer;
            m_previewedTo = to;
        });
    });
}

QFuture<api::Result<api::ClockAdvanced>> SandboxClockModel::advance(qint64 to)
{
    api::ClockAdvance request;
    request.to = to;
    return m_backend->advanceClock(request);
}

QString SandboxClockModel::summary(const api::ClockApplied &applied)
{
    if (applied.resets + applied.rollovers + applied.expiries + applied.periods == 0)
        return tr("Nothing falls due.");
    return tr("%n reset(s), ", nullptr, int(applied.resets)) +
           tr("%n rollover(s), ", nullptr, int(applied.rollovers)) +
           tr("%n expiry(ies) and ", nullptr, int(applied.expiries)) +
           tr("%n subscription period(s) moved on.", nullptr, int(applied.periods));
}

int SandboxClockModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() || !m_previewed ? 0 : int(m_previewed->byFeature.size());
}

QVariant SandboxClockModel::data(const QModelIndex &index, int role) const
{
    if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid))
        return {};
    if (role == Qt::TextAlignmentRole)
        return index.column() == FeatureColumn ? QVariant(Qt::AlignLeft | Qt::AlignVCenter)
                                               : QVariant(Qt::AlignRight | Qt::AlignVCenter);
    if (role != Qt::DisplayRole)
        return {};
    const api::ClockFeatureEffect &effect = m_previewed->byFeature.at(index.row());
    const QLocale locale;
    switch (Column(index.column())) {
    case FeatureColumn:
        return effect.featureId;
    case ResetsColumn:
        return locale.toString(effect.resets);
    case RestoredColumn:
        return formatAmount(effect.restored, locale);
    case RolloversColumn:
        return locale.toString(effect.rollovers);
    case RolledOverColumn:
        return formatAmount(effect.rolledOver, locale);
    case ExpiriesColumn:
        return locale.toString(effect.expiries);
    case ExpiredColumn:
        return formatAmount(effect.expired, locale);
    case ColumnCount:
        break;
    }
    return {};
}

QVariant SandboxClockModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return {};
    switch (Column(section)) {
    case FeatureColumn:
        return tr("Feature");
    case ResetsColumn:
        return tr("Resets");
    case RestoredColumn:
        return tr("Given back");
    case RolloversColumn:
        return tr("Rollovers");
    case RolledOverColumn:
        return tr("Rolled over");
    case ExpiriesColumn:
        return tr("Expiries");
    case ExpiredColumn:
        return tr("Expired");
    case ColumnCount:
        break;
    }
    return {};
}

} // namespace md::models
